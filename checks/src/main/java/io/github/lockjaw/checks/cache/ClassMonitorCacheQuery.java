package io.github.lockjaw.checks.cache;

import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.common.SharedReflectiveLockMessage;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * ClassMonitorCache as a query over the model: a check-then-act lookup ({@link LookupFinder}) that
 * holds a {@code Class} monitor, or the monitor of a shared reflective object (a {@code Method},
 * {@code Field} or {@code Constructor} a cache hands to every caller), on any map, a concurrent one
 * too: the JVM-wide lock is the bottleneck. Also such a reflective monitor held around the
 * reflective call itself (OGNL 2.7's {@code invokeMethod}). A double-checked lookup that takes the
 * reflective monitor only on a miss is left alone.
 */
public final class ClassMonitorCacheQuery implements ModelQuery {
  private static final KnowledgeIndex REFLECTIVE_CALLS = Kind.Reflection.REFLECTIVE_CALL.index();

  @Override
  public String check() {
    return "ClassMonitorCache";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    List<ModelFinding> findings = new ArrayList<>();
    if (method.regions().isEmpty() || CacheQueries.isOffRequestPath(context, method)) {
      return findings;
    }
    Set<Integer> reported = new HashSet<>();
    List<MapAccess> accesses = null;
    for (Lookup lookup : LookupFinder.find(context, method)) {
      if (lookup.isSplit()) {
        continue;
      }
      CacheMonitor monitor = classMonitor(context, method, lookup.commonRegions());
      if (monitor == null || reported.contains(monitor.region().id())) {
        continue;
      }
      if (accesses == null) {
        accesses = MapAccess.in(context, method);
      }
      if (monitor.kind() == CacheMonitor.Kind.REFLECTIVE
          && CacheQueries.readsBefore(lookup, monitor.region().id(), accesses)) {
        continue; // double-checked: the member's monitor is taken only on a miss
      }
      MapLocking locking = CacheQueries.lockingOf(context, lookup);
      CacheFinding found =
          new CacheFinding(
              CacheFinding.Shape.CLASS_LOCK,
              lookup,
              monitor,
              locking,
              CacheQueries.holdsKeysWeakly(context, lookup));
      reported.add(monitor.region().id());
      findings.add(
          CacheQueries.finding(check(), context, found, monitor.region().id(), -1, monitor.text()));
    }
    for (Region region : method.regions()) {
      if (reported.contains(region.id())) {
        continue;
      }
      CacheMonitor monitor = CacheMonitor.of(context, method, region);
      if (monitor.kind() != CacheMonitor.Kind.REFLECTIVE) {
        continue;
      }
      reflectiveCall(context, method, region)
          .ifPresent(
              call ->
                  findings.add(
                      new ModelFinding(
                          check(),
                          method,
                          region.id(),
                          -1,
                          call.op().line(),
                          SharedReflectiveLockMessage.of(
                              monitor.type(), monitor.holder(), call.what(), call.display()),
                          context.reachability().requestPath(method.ref()),
                          null,
                          new ReflectiveLock(monitor, call.what(), call.display()))));
    }
    return findings;
  }

  /** The outermost region of the lookup that holds a Class or shared reflective monitor. */
  private static CacheMonitor classMonitor(
      QueryContext context, MethodFacts method, List<Integer> regions) {
    for (int id : regions) {
      CacheMonitor monitor = CacheMonitor.of(context, method, method.regions().get(id));
      if (monitor.kind() != CacheMonitor.Kind.OBJECT) {
        return monitor;
      }
    }
    return null;
  }

  /** A shared reflective monitor held around a reflective call, as the source check words it. */
  public record ReflectiveLock(CacheMonitor monitor, String what, String call) {}

  private record Call(Op op, String what, String display) {}

  /**
   * The first reflective call the region makes ({@code reflective-call} in {@code reflection.txt}),
   * itself or through a private or static helper of the same class that makes one (OGNL 3.1's
   * {@code invokeMethodInsideSandbox}).
   */
  private static Optional<Call> reflectiveCall(
      QueryContext context, MethodFacts method, Region region) {
    for (Op op : method.opsIn(region.id())) {
      if (!op.isCall() || op.context().inHandler()) {
        continue;
      }
      Optional<Call> direct = direct(context, op);
      if (direct.isPresent()) {
        return direct;
      }
    }
    for (Op op : method.opsIn(region.id())) {
      if (!op.isCall() || op.kind() == Op.Kind.NEW) {
        continue;
      }
      for (MethodFacts helper : context.program().targets(op)) {
        if (!helper.ref().owner().equals(method.ref().owner())
            || !(helper.isPrivate() || helper.isStatic())) {
          continue;
        }
        for (Op inner : helper.ops()) {
          Optional<Call> call = inner.isCall() ? direct(context, inner) : Optional.empty();
          if (call.isPresent()) {
            return Optional.of(
                new Call(
                    op,
                    call.get().what(),
                    call.get().display() + " in " + helper.ref().name() + "()"));
          }
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Call> direct(QueryContext context, Op op) {
    return context
        .program()
        .match(REFLECTIVE_CALLS, op.method())
        .map(
            entry ->
                new Call(
                    op, entry.attribute("what").orElse("invokes"), Effects.display(op.method())));
  }
}
