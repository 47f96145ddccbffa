package io.github.lockjaw.checks.cache;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.LambdaExpressionTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.SynchronizedTreeMatcher;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.support.EntryPoints;
import io.github.lockjaw.checks.support.GuardingMonitor;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.common.MonitorKind;
import io.github.lockjaw.common.Resilience;
import java.util.Optional;

/**
 * Check-then-act used as a cache on a coarsely locked map: {@code get} / null check / {@code put}
 * (or {@code containsKey} / {@code put}) on a {@code Collections.synchronizedMap} or {@code
 * Hashtable}, or on a plain map under {@code synchronized (this)}, {@code synchronized (map)}, a
 * lock object or a {@code synchronized} method. With the outer lock every reader queues; without it
 * the lookup is a race as well. Class monitors are {@link ClassMonitorCache}'s.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "Check-then-act cache on a coarsely locked map: every reader queues on one lock",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "SynchronizedMapCache.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class SynchronizedMapCache extends BugChecker
    implements SynchronizedTreeMatcher, MethodTreeMatcher, LambdaExpressionTreeMatcher {

  @Override
  public Description matchSynchronized(SynchronizedTree tree, VisitorState state) {
    return Resilience.orElse(() -> match(tree, state), Description.NO_MATCH);
  }

  @Override
  public Description matchMethod(MethodTree tree, VisitorState state) {
    return Resilience.orElse(
        () -> {
          Description inline = match(tree, state);
          return inline != Description.NO_MATCH ? inline : matchHelpers(tree, state);
        },
        Description.NO_MATCH);
  }

  /** The check in one private helper and the put in another: {@link HelperCacheLookup}. */
  private Description matchHelpers(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    if (symbol == null
        || symbol.isConstructor()
        || EntryPoints.isSetUp(method, state)
        || EntryPoints.isOneShot(method, state)) {
      return Description.NO_MATCH;
    }
    Optional<HelperCacheLookup> found = HelperCacheLookup.findIn(method, state.getPath(), state);
    if (found.isEmpty()) {
      return Description.NO_MATCH;
    }
    HelperCacheLookup lookup = found.get();
    if (PerCallOwner.owns(lookup.map(), state)) {
      return Description.NO_MATCH;
    }
    String name = lookup.map().getSimpleName().toString();
    return buildDescription(lookup.get())
        .setMessage(
            "Check-then-act cache on '"
                + name
                + "', a coarsely locked map, split across "
                + ASTHelpers.getSymbol(lookup.get()).getSimpleName()
                + "() and "
                + ASTHelpers.getSymbol(lookup.put()).getSimpleName()
                + "(): each helper call locks the"
                + " whole map, so every reader queues on it, and two threads that miss at once both"
                + " build the value. Make the map a ConcurrentHashMap and fill it with computeIfAbsent"
                + " in one call. "
                + LockjawDocs.noFixReason())
        .build();
  }

  @Override
  public Description matchLambdaExpression(LambdaExpressionTree tree, VisitorState state) {
    return Resilience.orElse(() -> match(tree, state), Description.NO_MATCH);
  }

  private Description match(Tree region, VisitorState state) {
    MonitorKind monitor = GuardingMonitor.of(region, state);
    if (monitor == MonitorKind.CLASS
        || (region instanceof SynchronizedTree sync
            && SharedReflectiveLock.isSharedReflectiveMonitor(sync, state))) {
      return Description.NO_MATCH; // ClassMonitorCache reports these
    }
    TreePath path = state.getPath();
    for (CacheLookup lookup : CacheLookup.findIn(path, state)) {
      CacheField field = CacheField.of(lookup.map(), state);
      MapLocking locking = field.locking();
      boolean ownMonitor = lookup.isLockedByItsOwnMonitorOnEveryCall(path);
      if (!CacheLookup.isReported(monitor, locking) && !ownMonitor) {
        continue;
      }
      if (monitor == MonitorKind.OBJECT
          && locking != MapLocking.COARSE
          && lookup.isReachedOnlyAfterLockFreeMiss(path, state)) {
        continue; // the lock is taken only on a miss: a hit reads without it (a race, not a queue)
      }
      if (PerCallOwner.owns(lookup.map(), state)) {
        continue; // the map, and every monitor around it, belongs to one call
      }
      Optional<SuggestedFix> fix =
          ownMonitor && locking != MapLocking.COARSE && locking != MapLocking.PLAIN
              ? Optional.empty() // a map lockjaw cannot see into: no rewrite of its declaration
              : ComputeIfAbsentFix.build(path, lookup, state);
      Description.Builder description =
          buildDescription(region)
              .setMessage(message(region, monitor, lookup, field, fix.isPresent(), state));
      fix.ifPresent(description::addFix);
      return description.build();
    }
    return Description.NO_MATCH;
  }

  /**
   * The finding's message: the lock or map the lookup runs under, the fix, or why there is none.
   */
  private static String message(
      Tree region,
      MonitorKind monitor,
      CacheLookup lookup,
      CacheField field,
      boolean hasFix,
      VisitorState state) {
    String name = lookup.map().getSimpleName().toString();
    String problem =
        monitor == MonitorKind.OBJECT
            ? "Check-then-act cache on '"
                + name
                + "' under "
                + GuardingMonitor.describe(monitor, region, state)
                + ": every reader queues on that one lock while a value is looked up or computed."
            : "Check-then-act cache on '"
                + name
                + "', a "
                + (field.locking() == MapLocking.COARSE ? "coarsely locked map" : "map")
                + ": each call locks the whole map, and another thread can put between the check"
                + " and the put, so the value may be computed twice.";
    return problem
        + " Make the map a ConcurrentHashMap and fill it with computeIfAbsent"
        + (monitor == MonitorKind.OBJECT ? ", without the outer lock." : ".")
        + (hasFix ? "" : " " + LockjawDocs.noFixReason());
  }
}
