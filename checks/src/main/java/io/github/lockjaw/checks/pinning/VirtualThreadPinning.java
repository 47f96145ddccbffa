package io.github.lockjaw.checks.pinning;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.source.CompilationModel;

/**
 * A {@code synchronized} method or block that blocks (I/O on another host, a wait for another
 * thread or a lock, a sleep) on a virtual thread, in code compiled for JDK 21 to 23: the virtual
 * thread pins its carrier while it waits, and once every carrier is pinned nothing else runs.
 * Netflix (July 2024): four virtual threads pinned the four carriers of a service and Tomcat
 * stopped serving. The query is {@link VirtualThreadPinningQuery}, shared with the bytecode engine;
 * the fix replaces the monitor with a {@code ReentrantLock} when that provably keeps the locking
 * the same.
 *
 * <p>Request handlers run on virtual threads when the program hands them to a virtual-thread
 * executor itself, or when the build says so: {@code -XepOpt:Lockjaw:VirtualThreads=true}, which
 * {@code lockjaw:check} passes when the module's {@code application.properties} or {@code .yml}
 * sets {@code spring.threads.virtual.enabled=true}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Blocking inside synchronized on a virtual thread (JDK 21 to 23): the virtual thread pins"
            + " its carrier while it waits",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "VirtualThreadPinning.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class VirtualThreadPinning extends ModelChecker {
  private final ModelQuery query;

  /** With no flags: only what the program itself starts on virtual threads. */
  public VirtualThreadPinning() {
    this(ErrorProneFlags.empty());
  }

  /** {@code -XepOpt:Lockjaw:VirtualThreads=true}: request handlers run on virtual threads. */
  public VirtualThreadPinning(ErrorProneFlags flags) {
    boolean requests = flags.getBoolean(VirtualThreadPinningQuery.ERROR_PRONE_FLAG).orElse(false);
    this.query = new VirtualThreadPinningQuery(() -> requests);
  }

  @Override
  protected ModelQuery query() {
    return query;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    Description.Builder description =
        buildDescription(anchor.getLeaf()).setMessage(finding.message());
    if (finding.detail() instanceof VirtualThreadPinningQuery.Pinning pinning
        && !pinning.waitsOrNotifies()) {
      ReentrantLockFix.build(anchor, finding.method(), CompilationModel.of(state), state)
          .ifPresent(description::addFix);
    }
    return description.build();
  }
}
