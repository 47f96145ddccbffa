package io.github.lockjaw.checks.dao;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import java.util.Optional;

/**
 * {@code synchronized} methods or blocks that open, use or close JDBC connections and statements,
 * look names up in JNDI, or talk to another host, all on one monitor that every request shares:
 * each request waits for the I/O of the one before it. OpenCms 7.5.3's {@code CmsSqlManager} served
 * 54.6 requests/s at 400 users this way and 156 requests/s without the method locks. The query is
 * {@link SharedMonitorQuery}, shared with the bytecode engine; the fix ({@link DropMonitorLockFix})
 * drops the lock when nothing shows that it guards anything else.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Blocking I/O (JDBC, JNDI, sockets, HTTP) under a monitor that every request shares:"
            + " requests queue on one lock while connections open and statements run",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "SharedMonitorDao.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class SharedMonitorDao extends ModelChecker {
  private static final ModelQuery QUERY = new SharedMonitorQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    Tree region = anchor.getLeaf();
    MethodTree method =
        region instanceof MethodTree declared ? declared : MoreTrees.enclosingMethod(anchor);
    if (finding.detail() instanceof SharedMonitorQuery.TemplateLock inherited) {
      return buildDescription(region)
          .setMessage(
              finding.message()
                  + " (No automatic fix: the monitor is taken by "
                  + inherited.superclass()
                  + "."
                  + inherited.template()
                  + "(), a synchronized method that other subclasses inherit too, so the change"
                  + " belongs to that class.)")
          .build();
    }
    Optional<SharedMonitor> monitor = SharedMonitor.of(region);
    if (!(finding.detail() instanceof FixFacts facts)
        || method == null
        || monitor.isEmpty()
        || !(region instanceof MethodTree || region instanceof SynchronizedTree)) {
      return super.describe(finding, anchor, state);
    }
    DropMonitorLockFix.FixResult fix =
        DropMonitorLockFix.build(
            monitor.get(), region, method, facts, FixEvidence.forUnit(anchor, state), state);
    String message = finding.message();
    if (fix.noFixReason() != null) {
      message += " (No automatic fix: " + fix.noFixReason() + ".)";
    }
    Description.Builder description = buildDescription(region).setMessage(message);
    fix.fix().ifPresent(description::addFix);
    return description.build();
  }
}
