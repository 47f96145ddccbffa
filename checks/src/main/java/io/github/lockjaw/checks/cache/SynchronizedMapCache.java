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
import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.common.MonitorKind;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;

/**
 * Check-then-act used as a cache on a coarsely locked map: {@code get} / null check / {@code put}
 * (or {@code containsKey} / {@code put}) on a {@code Collections.synchronizedMap}, a {@code
 * Hashtable} or a cache class whose methods lock it, also through small helpers; or on a plain map
 * under {@code synchronized (this)}, {@code synchronized (map)}, a lock object or a {@code
 * synchronized} method, also when the read and the put take the lock separately. With the outer
 * lock every reader queues; without it the lookup is a race as well. Class monitors are {@link
 * ClassMonitorCache}'s. The query is {@link SynchronizedMapCacheQuery}, shared with the bytecode
 * engine; the fix is {@link ComputeIfAbsentFix}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "Check-then-act cache on a coarsely locked map: every reader queues on one lock",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "SynchronizedMapCache.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class SynchronizedMapCache extends ModelChecker {
  private static final ModelQuery QUERY = new SynchronizedMapCacheQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    if (!(finding.detail() instanceof CacheFinding found)) {
      return super.describe(finding, anchor, state);
    }
    boolean ownMonitorOfAnOpaqueMap =
        found.monitor() != null
            && found.monitor().locks(found.lookup().put().container())
            && found.locking() != MapLocking.COARSE
            && found.locking() != MapLocking.PLAIN;
    FixOutcome fix =
        ownMonitorOfAnOpaqueMap
            // a map lockjaw cannot see into: no rewrite of its declaration
            ? FixOutcome.blocked(
                "'"
                    + found.mapName()
                    + "' is a map type lockjaw cannot see into, so it cannot rewrite its"
                    + " declaration")
            : CacheFixes.fix(found, anchor, state);
    String monitor =
        found.monitor() == null
            ? ""
            : GuardingMonitor.describe(MonitorKind.OBJECT, anchor.getLeaf(), state);
    Description.Builder description =
        buildDescription(anchor.getLeaf()).setMessage(found.message(monitor, fix.note()));
    fix.fix().ifPresent(description::addFix);
    return description.build();
  }
}
