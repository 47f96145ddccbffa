package io.github.lockjaw.checks.cache;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.checks.support.GuardingMonitor;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.MonitorKind;
import io.github.lockjaw.common.SharedReflectiveLockMessage;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;

/**
 * A lookup cache guarded by a {@code Class} monitor: {@code synchronized (clazz)}, {@code
 * synchronized (Foo.class)}, {@code synchronized (getClass())} or a {@code static synchronized}
 * method, around a get-then-put on a map; or by the monitor of a shared {@code Method}, {@code
 * Field} or {@code Constructor}, also around the reflective call itself. Every caller, for every
 * key, queues on one JVM-wide lock. The query is {@link ClassMonitorCacheQuery}, shared with the
 * bytecode engine; the fix is {@link ComputeIfAbsentFix}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "Lookup cache guarded by a Class monitor: every caller queues on one JVM-wide lock",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "ClassMonitorCache.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class ClassMonitorCache extends ModelChecker {
  private static final ModelQuery QUERY = new ClassMonitorCacheQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    if (finding.detail() instanceof ClassMonitorCacheQuery.ReflectiveLock lock) {
      return buildDescription(anchor.getLeaf())
          .setMessage(
              SharedReflectiveLockMessage.of(
                  lock.monitor().type(), lock.monitor().holder(), lock.what(), lock.call()))
          .build();
    }
    if (!(finding.detail() instanceof CacheFinding found)) {
      return super.describe(finding, anchor, state);
    }
    FixOutcome fix = CacheFixes.fix(found, anchor, state);
    String monitor = GuardingMonitor.describe(MonitorKind.CLASS, anchor.getLeaf(), state);
    Description.Builder description =
        buildDescription(anchor.getLeaf()).setMessage(found.message(monitor, fix.note()));
    fix.fix().ifPresent(description::addFix);
    return description.build();
  }
}
