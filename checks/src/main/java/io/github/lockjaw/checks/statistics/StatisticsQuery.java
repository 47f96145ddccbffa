package io.github.lockjaw.checks.statistics;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Overrides;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.SharedLock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * StatisticsUnderSharedLock as a query over the model: a region that holds a shared monitor only to
 * update counters, sums, maxima or counters per key ({@link CounterUpdates}), in a method requests
 * run. Requests reach it through a framework entry point (an aspect, an interceptor, a filter, a
 * handler), through calls from other code of the analysed program, or as a callback of a library's
 * API (a listener or handler method a supertype declares: connection opened, session closed, entity
 * loaded). A public method nothing calls and no supertype declares is API by assumption only, and
 * is not reported. Set-up, test-only, scheduled and JMX-only code is not a request path.
 */
public final class StatisticsQuery implements ModelQuery {

  /**
   * What the source fix needs: the updates, and whether other code of the class takes the same
   * monitor (then the lock may keep the statistics consistent with each other).
   */
  record Detail(List<CounterUpdates.Update> updates, boolean lockTakenElsewhere) {}

  @Override
  public String check() {
    return "StatisticsUnderSharedLock";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    List<ModelFinding> findings = new ArrayList<>();
    for (Region region : method.regions()) {
      Optional<SharedLock> lock = SharedLock.of(region, method);
      if (lock.isEmpty()
          || SharedLock.isHeldAround(region, method)
          || SharedLock.isHeldByEveryCaller(context.program(), region, method)
          || SharedLock.repeatsEarlierRegion(region, method)) {
        continue;
      }
      Optional<List<CounterUpdates.Update>> updates =
          CounterUpdates.of(context.program(), method, region);
      if (updates.isEmpty() || !isRunPerRequest(context, method)) {
        continue;
      }
      Reachability reachability = context.reachability();
      MethodRef entry = reachability.requestEntry(method.ref());
      findings.add(
          new ModelFinding(
              check(),
              method,
              region.id(),
              -1,
              region.line(),
              message(method, region, lock.get(), entry, updates.get()),
              reachability.requestPath(method.ref()),
              null,
              new Detail(updates.get(), isTakenElsewhere(context, method, region, lock.get()))));
    }
    return findings;
  }

  /**
   * Requests run the method: it is on a request path, and requests reach it by more than the
   * assumption that every API method may be called per request.
   */
  private static boolean isRunPerRequest(QueryContext context, MethodFacts method) {
    Reachability reachability = context.reachability();
    if (!reachability.isOnRequestPath(method.ref())) {
      return false;
    }
    return !reachability.isApiEntry(method.ref())
        || Overrides.declaringSupertype(context.program(), method.ref(), type -> true).isPresent();
  }

  /** Whether another region of this class (or a class nested in it) takes the same monitor. */
  private static boolean isTakenElsewhere(
      QueryContext context, MethodFacts method, Region region, SharedLock lock) {
    String owner = method.ref().owner();
    String topLevel = owner.contains("$") ? owner.substring(0, owner.indexOf('$')) : owner;
    for (ClassFacts c : context.program().classes()) {
      if (!c.name().equals(topLevel) && !c.name().startsWith(topLevel + "$")) {
        continue;
      }
      for (MethodFacts other : c.methods()) {
        for (Region r : other.regions()) {
          boolean same = other.ref().equals(method.ref()) && r.line() == region.line();
          if (!same && SharedLock.of(r, other).equals(Optional.of(lock))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static String message(
      MethodFacts method,
      Region region,
      SharedLock lock,
      MethodRef entry,
      List<CounterUpdates.Update> updates) {
    String name = callName(method.ref(), method.ref().owner());
    String where = region.wholeMethod() ? name : "The synchronized block in " + name;
    String onEvery =
        entry == null || entry.equals(method.ref())
            ? "on every call of " + name
            : "on every call of "
                + callName(entry, method.ref().owner())
                + ", which calls "
                + name
                + ",";
    Set<String> fields = new LinkedHashSet<>();
    Set<CounterUpdates.Kind> kinds = EnumSet.noneOf(CounterUpdates.Kind.class);
    for (CounterUpdates.Update update : updates) {
      fields.add("'" + update.field().name() + "'");
      kinds.add(update.kind());
    }
    return where
        + " takes "
        + lock.describe()
        + " "
        + onEvery
        + " only to update "
        + String.join(", ", fields)
        + ": every request queues on that one lock to bump a number. "
        + advice(kinds)
        + ", and drop the lock.";
  }

  /** {@code record()} in its own class, {@code Timing.record()} in another, or a lambda. */
  private static String callName(MethodRef method, String fromClass) {
    if (method.isLambdaBody()) {
      String enclosing = method.name().substring(method.name().indexOf('@') + 1);
      return "a lambda in " + enclosing.substring(0, enclosing.indexOf('(')) + "()";
    }
    return method.owner().equals(fromClass) ? method.name() + "()" : method.display() + "()";
  }

  private static String advice(Set<CounterUpdates.Kind> kinds) {
    List<String> parts = new ArrayList<>();
    if (kinds.contains(CounterUpdates.Kind.COUNT_OR_SUM)) {
      parts.add("keep counts and sums in LongAdder fields (increment(), add(x), sum() to read)");
    }
    if (kinds.contains(CounterUpdates.Kind.EXTREMUM)) {
      parts.add(
          "a maximum or minimum in a LongAccumulator (new LongAccumulator(Long::max, ...),"
              + " accumulate(x), get() to read)");
    }
    if (kinds.contains(CounterUpdates.Kind.PER_KEY)) {
      parts.add(
          "counters per key in a ConcurrentHashMap<K, LongAdder>"
              + " (computeIfAbsent(key, k -> new LongAdder()).increment())");
    }
    String joined = String.join("; ", parts);
    return Character.toUpperCase(joined.charAt(0)) + joined.substring(1);
  }

  /** The fields a finding's updates write, in order. */
  static List<FieldRef> fields(Detail detail) {
    List<FieldRef> fields = new ArrayList<>();
    for (CounterUpdates.Update update : detail.updates()) {
      if (!fields.contains(update.field())) {
        fields.add(update.field());
      }
    }
    return fields;
  }
}
