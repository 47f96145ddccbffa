package io.github.lockjaw.checks.cache;

import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.QueryContext;
import java.util.List;

/** What the two cache queries share: where a lookup runs, how its map is locked, its finding. */
final class CacheQueries {
  private CacheQueries() {}

  /**
   * Whether the method runs only off the request path: a static initialiser, or code that only
   * start-up, configuration, shutdown, background, admin or test code reaches.
   */
  static boolean isOffRequestPath(QueryContext context, MethodFacts method) {
    MethodRef ref = method.ref().isLambdaBody() ? method.enclosing() : method.ref();
    return ref == null
        || ref.isStaticInitializer()
        || context.reachability().isReachedOnlyOffRequestPath(ref);
  }

  /** How the lookup's map is locked: the map field's, or a cache class's own lock. */
  static MapLocking lockingOf(QueryContext context, Lookup lookup) {
    MapAccess put = lookup.put();
    FieldRef container = put.field();
    if (put.internalMap() != null && !put.internalMap().equals(container)) {
      // a cache class: its methods lock it, or its map is what it is
      if (put.viaLocked() || lookup.read().viaLocked()) {
        return MapLocking.COARSE;
      }
      return MapLockings.of(context.program(), put.internalMap());
    }
    return MapLockings.of(context.program(), container);
  }

  /** Whether the lookup's map holds its keys weakly: the cure is then no ConcurrentHashMap. */
  static boolean holdsKeysWeakly(QueryContext context, Lookup lookup) {
    MapAccess put = lookup.put();
    FieldRef map = put.internalMap() != null ? put.internalMap() : put.field();
    return map != null && MapLockings.holdsKeysWeakly(context.program(), map);
  }

  /** Whether the method reads the map (any key) before the region, outside it. */
  static boolean readsBefore(Lookup lookup, int region, List<MapAccess> accesses) {
    for (MapAccess access : accesses) {
      if (!access.isWrite()
          && access.container().equals(lookup.put().container())
          && access.op().index() < lookup.check().op().index()
          && !access.op().isIn(region)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the region is entered only after a read of the same key, made without any lock, missed
   * (OGNL 3.1's {@code getParameterTypes(Constructor)}): a hit never takes the lock.
   */
  static boolean reachedOnlyAfterLockFreeMiss(
      MethodFacts method, Lookup lookup, List<MapAccess> accesses) {
    for (MapAccess access : accesses) {
      if (access.isWrite()
          || !access.container().equals(lookup.put().container())
          || !access.op().context().regions().isEmpty()
          || !LookupFinder.sameKey(method, access, lookup.put())) {
        continue;
      }
      for (var guard : lookup.put().op().context().guards()) {
        if (access.isMiss(method, guard)) {
          return true;
        }
      }
    }
    return false;
  }

  static ModelFinding finding(
      String check,
      QueryContext context,
      CacheFinding found,
      int region,
      int op,
      String monitorText) {
    Lookup lookup = found.lookup();
    MethodFacts method = lookup.method();
    return new ModelFinding(
        check,
        method,
        region,
        op,
        lookup.check().op().line(),
        found.message(monitorText, null),
        context.reachability().requestPath(requestPathOf(method)),
        null,
        found);
  }

  private static MethodRef requestPathOf(MethodFacts method) {
    return method.ref().isLambdaBody() && method.enclosing() != null
        ? method.enclosing()
        : method.ref();
  }

  static Region region(MethodFacts method, int id) {
    return method.regions().get(id);
  }

  static Op opOf(MethodFacts method, int index) {
    return method.ops().get(index);
  }
}
