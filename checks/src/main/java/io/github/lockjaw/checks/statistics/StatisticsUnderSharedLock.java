package io.github.lockjaw.checks.statistics;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.checks.dao.SharedMonitor;
import io.github.lockjaw.checks.dao.SharedMonitorRegionChecker;
import io.github.lockjaw.checks.support.RequestPaths;
import io.github.lockjaw.common.LockjawDocs;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A monitor every request shares, taken on the request path (aspect advice, method interceptors,
 * servlet and JAX-RS filters, handler interceptors, and the methods of the same file they call)
 * only to update counters, sums, maxima or a map of counters: every request queues on one lock to
 * bump a number. Spring PetClinic's JMX {@code CallMonitoringAspect} did {@code synchronized (this)
 * { callCount++; accumulatedCallTime += ...; }} around every repository call; removing it was one
 * of three lock fixes that took the field report from 942 to 959 requests/s.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A monitor every request shares, taken on the request path only to update counters,"
            + " sums or maxima: every request queues on one lock to bump a number",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "StatisticsUnderSharedLock.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class StatisticsUnderSharedLock extends SharedMonitorRegionChecker {

  @Override
  protected Description matchRegion(
      Tree region, BlockTree body, SharedMonitor monitor, VisitorState state) {
    TreePath path = state.getPath();
    MethodTree method = SharedMonitor.enclosingMethod(path);
    if (method == null) {
      return Description.NO_MATCH;
    }
    Optional<List<StatisticsRegion.Update>> updates = StatisticsRegion.scan(body, state);
    if (updates.isEmpty()) {
      return Description.NO_MATCH;
    }
    MethodTree entry = RequestPaths.of(state).entryOf(method);
    if (entry == null) {
      return Description.NO_MATCH;
    }
    Set<VarSymbol> fields = new LinkedHashSet<>();
    Set<StatisticsRegion.Kind> kinds = EnumSet.noneOf(StatisticsRegion.Kind.class);
    for (StatisticsRegion.Update update : updates.get()) {
      fields.add(update.field());
      kinds.add(update.kind());
    }
    String name =
        region instanceof MethodTree
            ? method.getName() + "()"
            : "The synchronized block in " + method.getName() + "()";
    String onEvery =
        entry == method
            ? "on every call of " + entry.getName() + "()"
            : "on every call of " + entry.getName() + "(), which calls " + method.getName() + "(),";
    StringBuilder message =
        new StringBuilder()
            .append(name)
            .append(" takes ")
            .append(monitor.describe())
            .append(' ')
            .append(onEvery)
            .append(" only to update ")
            .append(
                String.join(", ", fields.stream().map(f -> "'" + f.getSimpleName() + "'").toList()))
            .append(": every request queues on that one lock to bump a number. ")
            .append(advice(kinds))
            .append(", and drop the lock.");
    List<String> reasons = new ArrayList<>();
    Optional<SuggestedFix> fix =
        LongAdderFix.build(region, body, monitor, updates.get(), state, reasons);
    if (fix.isEmpty()) {
      message
          .append(" (No automatic fix: ")
          .append(reasons.isEmpty() ? "lockjaw could not rewrite this code" : reasons.get(0))
          .append(".)");
    }
    Description.Builder description = buildDescription(region).setMessage(message.toString());
    fix.ifPresent(description::addFix);
    return description.build();
  }

  private static String advice(Set<StatisticsRegion.Kind> kinds) {
    List<String> parts = new ArrayList<>();
    if (kinds.contains(StatisticsRegion.Kind.COUNT) || kinds.contains(StatisticsRegion.Kind.SUM)) {
      parts.add("keep counts and sums in LongAdder fields (increment(), add(x), sum() to read)");
    }
    if (kinds.contains(StatisticsRegion.Kind.EXTREMUM)) {
      parts.add(
          "a maximum or minimum in a LongAccumulator (new LongAccumulator(Long::max, ...),"
              + " accumulate(x), get() to read)");
    }
    if (kinds.contains(StatisticsRegion.Kind.PER_KEY)) {
      parts.add(
          "counters per key in a ConcurrentHashMap<K, LongAdder>"
              + " (computeIfAbsent(key, k -> new LongAdder()).increment())");
    }
    String joined = String.join("; ", parts);
    return Character.toUpperCase(joined.charAt(0)) + joined.substring(1);
  }
}
