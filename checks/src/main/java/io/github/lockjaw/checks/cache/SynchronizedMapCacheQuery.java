package io.github.lockjaw.checks.cache;

import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * SynchronizedMapCache as a query over the model: a check-then-act lookup ({@link LookupFinder})
 * used as a cache on a coarsely locked map, or under one object monitor:
 *
 * <ul>
 *   <li>under an object monitor, on a plain or coarsely locked map, or on any map whose own monitor
 *       the region takes on every call (Spring 2.5.1's merged bean definitions); not when the lock
 *       is taken only after a lock-free read of the key missed (a hit never queues);
 *   <li>without a lock, on a coarsely locked map ({@code Collections.synchronizedMap}, {@code
 *       Hashtable}, a cache class whose methods lock it), also through helpers of the class;
 *   <li>split: the read in one region and the put in a later one on the same monitor.
 * </ul>
 *
 * The map of an object made for one call and never handed out belongs to that call: silent. Class
 * and shared reflective monitors are {@link ClassMonitorCacheQuery}'s.
 */
public final class SynchronizedMapCacheQuery implements ModelQuery {

  @Override
  public String check() {
    return "SynchronizedMapCache";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    List<ModelFinding> findings = new ArrayList<>();
    if (CacheQueries.isOffRequestPath(context, method)) {
      return findings;
    }
    List<Lookup> lookups = LookupFinder.find(context, method);
    if (lookups.isEmpty()) {
      return findings;
    }
    List<MapAccess> accesses = MapAccess.in(context, method);
    Set<String> anchors = new HashSet<>();
    for (Lookup lookup : lookups) {
      ModelFinding finding = findingOf(context, method, lookup, accesses);
      if (finding != null && anchors.add(finding.region() + " " + finding.op())) {
        findings.add(finding);
      }
    }
    return findings;
  }

  /**
   * Whether the value a put stores was computed before region {@code id} was entered (built without
   * the lock, then re-checked and put under it, as xstream 1.4.20's {@code FieldDictionary} does):
   * the lock is held for the map's own work only, and no reader waits for a computation.
   */
  private static boolean computedBefore(MethodFacts method, MapAccess put, int id) {
    if (put.via() != null || !(put.value() instanceof Value.Result result)) {
      return false;
    }
    Op producer = method.producer(result);
    return producer != null && producer.isCall() && !producer.isIn(id);
  }

  private ModelFinding findingOf(
      QueryContext context, MethodFacts method, Lookup lookup, List<MapAccess> accesses) {
    MapLocking locking = CacheQueries.lockingOf(context, lookup);
    FieldRef map = lookup.put().field();
    if (lookup.isSplit()) {
      CacheMonitor monitor =
          CacheMonitor.of(context, method, method.regions().get(lookup.splitTo()));
      if (monitor.kind() != CacheMonitor.Kind.OBJECT
          || !(locking == MapLocking.COARSE
              || locking == MapLocking.PLAIN
              || monitor.locks(lookup.put().container()))
          || PerCallOwners.owns(context.program(), map, false)) {
        return null;
      }
      CacheFinding found =
          new CacheFinding(
              CacheFinding.Shape.SPLIT_LOCK,
              lookup,
              monitor,
              locking,
              CacheQueries.holdsKeysWeakly(context, lookup));
      return CacheQueries.finding(check(), context, found, lookup.splitTo(), -1, monitor.text());
    }
    if (!lookup.commonRegions().isEmpty()) {
      for (int id : lookup.commonRegions()) {
        if (CacheMonitor.of(context, method, method.regions().get(id)).kind()
            != CacheMonitor.Kind.OBJECT) {
          return null; // ClassMonitorCache reports it
        }
      }
      int id = lookup.commonRegions().get(lookup.commonRegions().size() - 1);
      CacheMonitor monitor = CacheMonitor.of(context, method, method.regions().get(id));
      boolean ownMonitorOnEveryCall =
          monitor.locks(lookup.put().container())
              && !CacheQueries.readsBefore(lookup, id, accesses);
      if (locking != MapLocking.COARSE && locking != MapLocking.PLAIN && !ownMonitorOnEveryCall) {
        return null;
      }
      if (locking != MapLocking.COARSE
          && lookup.commonRegions().size() == 1
          && CacheQueries.reachedOnlyAfterLockFreeMiss(method, lookup, accesses)) {
        return null; // the lock is taken only on a miss: a hit reads without it
      }
      if (PerCallOwners.owns(context.program(), map, false)) {
        return null; // the map, and every monitor around it, belongs to one call
      }
      if (computedBefore(method, lookup.put(), id)) {
        return null; // the lock covers the map's re-check and put, not the value's computation
      }
      CacheFinding found =
          new CacheFinding(
              CacheFinding.Shape.OBJECT_LOCK,
              lookup,
              monitor,
              locking,
              CacheQueries.holdsKeysWeakly(context, lookup));
      return CacheQueries.finding(check(), context, found, id, -1, monitor.text());
    }
    if (locking != MapLocking.COARSE || PerCallOwners.owns(context.program(), map, true)) {
      return null;
    }
    if (isPerThreadKey(context, method, lookup.put().key())) {
      return null; // map.get(Thread.currentThread()): no other thread puts this key
    }
    if (lookup.throughCalls()) {
      if (method.ref().isConstructor()) {
        return null; // runs once per object
      }
      CacheFinding found =
          new CacheFinding(
              CacheFinding.Shape.THROUGH_CALLS,
              lookup,
              null,
              locking,
              CacheQueries.holdsKeysWeakly(context, lookup));
      return CacheQueries.finding(check(), context, found, -1, lookup.check().op().index(), "");
    }
    CacheFinding found =
        new CacheFinding(
            CacheFinding.Shape.UNLOCKED,
            lookup,
            null,
            locking,
            CacheQueries.holdsKeysWeakly(context, lookup));
    return CacheQueries.finding(check(), context, found, -1, -1, "");
  }

  /** Whether a key is the calling thread's own ({@code per-thread-key} in {@code maps.txt}). */
  private static boolean isPerThreadKey(QueryContext context, MethodFacts method, Value key) {
    return key instanceof Value.Result result
        && result.op() < method.ops().size()
        && method.ops().get(result.op()).isCall()
        && context
            .program()
            .match(Kind.Maps.PER_THREAD_KEY.index(), method.ops().get(result.op()).method())
            .isPresent();
  }
}
