package io.github.lockjaw.checks.cache;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.SynchronizedTreeMatcher;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol;
import io.github.lockjaw.checks.support.GuardingMonitor;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.common.MonitorKind;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.common.SharedReflectiveLockMessage;
import java.util.Optional;

/**
 * A lookup cache guarded by a {@code Class} monitor: {@code synchronized (clazz)}, {@code
 * synchronized (Foo.class)}, {@code synchronized (getClass())} or a {@code static synchronized}
 * method, around a get-then-put on a map. Every caller, for every key, queues on one JVM-wide lock.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "Lookup cache guarded by a Class monitor: every caller queues on one JVM-wide lock",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "ClassMonitorCache.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class ClassMonitorCache extends BugChecker
    implements SynchronizedTreeMatcher, MethodTreeMatcher {

  @Override
  public Description matchSynchronized(SynchronizedTree tree, VisitorState state) {
    return Resilience.orElse(
        () -> {
          Description cache = match(tree, state);
          return cache != Description.NO_MATCH ? cache : matchSharedReflectiveLock(tree, state);
        },
        Description.NO_MATCH);
  }

  /** A monitor on a shared Method, Field or Constructor around a reflective call. */
  private Description matchSharedReflectiveLock(SynchronizedTree tree, VisitorState state) {
    Optional<SharedReflectiveLock> found = SharedReflectiveLock.of(tree, state);
    if (found.isEmpty()) {
      return Description.NO_MATCH;
    }
    SharedReflectiveLock lock = found.get();
    return buildDescription(tree)
        .setMessage(
            SharedReflectiveLockMessage.of(
                lock.lockType(),
                lock.lock().getSimpleName().toString(),
                lock.what(),
                lock.callDisplay()))
        .build();
  }

  @Override
  public Description matchMethod(MethodTree tree, VisitorState state) {
    return Resilience.orElse(() -> match(tree, state), Description.NO_MATCH);
  }

  private Description match(Tree region, VisitorState state) {
    // a shared Method, Field or Constructor is locked by every caller of that member, as a Class
    boolean reflective =
        region instanceof SynchronizedTree sync
            && SharedReflectiveLock.isSharedReflectiveMonitor(sync, state);
    if (GuardingMonitor.of(region, state) != MonitorKind.CLASS && !reflective) {
      return Description.NO_MATCH;
    }
    TreePath path = state.getPath();
    for (CacheLookup lookup : CacheLookup.findIn(path, state)) {
      CacheField field = CacheField.of(lookup.map(), state);
      if (!CacheLookup.isReported(MonitorKind.CLASS, field.locking())
          || (reflective && lookup.isReadBeforeTheRegion(path))) {
        continue; // a double-checked lookup takes the member's monitor only on a miss
      }
      Optional<SuggestedFix> fix = ComputeIfAbsentFix.build(path, lookup, state);
      Description.Builder description =
          buildDescription(region)
              .setMessage(
                  message(
                      region,
                      lookup,
                      reflective,
                      field.locking() == MapLocking.CONCURRENT,
                      fix.isPresent(),
                      state));
      fix.ifPresent(description::addFix);
      return description.build();
    }
    return Description.NO_MATCH;
  }

  /** The finding's message: which monitor the lookup holds, the fix, or why there is none. */
  private static String message(
      Tree region,
      CacheLookup lookup,
      boolean reflective,
      boolean alreadyConcurrent,
      boolean hasFix,
      VisitorState state) {
    String monitor = GuardingMonitor.describe(MonitorKind.CLASS, region, state);
    String who =
        reflective
            // synchronized (method) in OGNL's invokeMethod: 980 threads BLOCKED on one Method
            ? ", a reflective object a cache hands to every caller: every thread that uses the"
                + " same member queues here, on every call. "
            : lockIsTheKey(region, lookup)
                // synchronized (clazz) around a lookup of clazz: the Class object is shared by the
                // JVM
                ? ", the Class object itself, a lock shared with everything else that synchronizes on"
                    + " that class (its static synchronized methods too): every lookup of it queues here. "
                : ", a JVM-wide lock: every caller queues here, whatever key it asks for. ";
    return "Cache lookup on '"
        + lookup.map().getSimpleName()
        + "' holds "
        + monitor
        + who
        + (alreadyConcurrent
            ? "The map is already concurrent: the lock is the bottleneck. Fill it with"
                + " computeIfAbsent and drop the lock."
            : "Make the map a ConcurrentHashMap and fill it with computeIfAbsent"
                + " (or use ClassValue when the keys are classes), and drop the lock.")
        + (hasFix ? "" : " " + LockjawDocs.noFixReason());
  }

  private static boolean lockIsTheKey(Tree region, CacheLookup lookup) {
    if (!(region instanceof SynchronizedTree sync)) {
      return false;
    }
    Symbol lock = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(sync.getExpression()));
    Symbol key = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(lookup.key()));
    return lock != null && lock.equals(key);
  }
}
