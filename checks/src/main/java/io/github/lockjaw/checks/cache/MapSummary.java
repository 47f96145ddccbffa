package io.github.lockjaw.checks.cache;

import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.KeyedAccess;
import io.github.lockjaw.model.query.QueryContext;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a method does to a map it holds, when that is all a caller needs to know: "reads its map by
 * this argument and hands back what it found" or "writes its map by this argument". Two kinds of
 * method have such a summary:
 *
 * <ul>
 *   <li>a small helper of the caller's own class that no subclass can replace (private, static or
 *       final), whose whole body is the one map call ({@code private static X getCached(K k) {
 *       return CACHE.get(k); }}): the container is the helper's map;
 *   <li>a fill helper of the caller's own class that no subclass can replace, whose one map call is
 *       a put on its class's map by a parameter, whatever else it does to build the value ({@code
 *       private Mapping buildMapping(Class c) { ...; mappings.put(c, mapping); return mapping; }}):
 *       the container is the helper's map, and the value what it returns when it returns what it
 *       put;
 *   <li>an instance method of a cache class of its own (another class, so that no names list is
 *       needed: a soft or most-recently-used map, a two-key map, a tree store) that reads or writes
 *       a map field of its object by the argument, whatever else it does: the container is the
 *       cache object the caller calls it on.
 * </ul>
 *
 * @param method the summarised method
 * @param isWrite whether it puts
 * @param keyParam the parameter that is the key
 * @param valueParam for a write, the parameter that is (or is wrapped into) the value; else -1
 * @param internalMap the map field the method uses
 * @param ownObject whether the container is the object the call is made on (a cache class), not the
 *     helper's map itself
 * @param locked whether the method holds the monitor of its object or of the map around the call
 * @param staticMap whether the map is a static field
 * @param returnsStored for a write whose value the method builds itself (a fill helper), whether it
 *     returns the value it stored: then the call's result is the cached value
 */
record MapSummary(
    MethodFacts method,
    boolean isWrite,
    int keyParam,
    int valueParam,
    FieldRef internalMap,
    boolean ownObject,
    boolean locked,
    boolean staticMap,
    boolean returnsStored) {

  /** The value a call of the summarised write stores, in the caller's terms. */
  Value storedIn(Op call) {
    if (valueParam >= 0) {
      return call.arg(valueParam);
    }
    return returnsStored ? new Value.Result(call.index()) : Value.UNKNOWN;
  }

  /** The container of a call of the summarised method, in the caller's terms. */
  Value containerIn(Op call) {
    if (ownObject) {
      return call.receiver();
    }
    return new Value.FieldValue(internalMap, staticMap ? null : call.receiver());
  }

  /** The summary every method a call may run shares, or empty. */
  static Optional<MapSummary> ofCall(QueryContext context, MethodFacts caller, Op call) {
    List<MethodFacts> targets = context.program().targets(call);
    if (targets.isEmpty()) {
      return Optional.empty();
    }
    MapSummary first = null;
    for (MethodFacts target : targets) {
      Optional<MapSummary> summary = of(context, caller, call, target);
      if (summary.isEmpty()) {
        return Optional.empty();
      }
      if (first == null) {
        first = summary.get();
      } else if (first.isWrite() != summary.get().isWrite()
          || first.keyParam() != summary.get().keyParam()) {
        return Optional.empty();
      }
    }
    return Optional.ofNullable(first);
  }

  private static Optional<MapSummary> of(
      QueryContext context, MethodFacts caller, Op call, MethodFacts target) {
    if (target.ref().isConstructor() || target.ref().equals(caller.ref())) {
      return Optional.empty();
    }
    String callerClass = caller.ref().owner();
    String targetClass = target.ref().owner();
    if (targetClass.equals(callerClass)) {
      return cannotBeReplaced(context, target) ? cached(context, target, true) : Optional.empty();
    }
    if (!target.isStatic() && call.receiver() instanceof Value.FieldValue) {
      return cached(context, target, false);
    }
    return Optional.empty();
  }

  /** Summaries already worked out, per program: a method is summarised once, not per call. */
  private static final Map<Program, Map<String, Optional<MapSummary>>> KNOWN =
      Collections.synchronizedMap(new WeakHashMap<>());

  private static Optional<MapSummary> cached(
      QueryContext context, MethodFacts target, boolean asHelper) {
    Map<String, Optional<MapSummary>> known =
        KNOWN.computeIfAbsent(context.program(), p -> new ConcurrentHashMap<>());
    String key = (asHelper ? "helper " : "cache ") + target.ref();
    Optional<MapSummary> summary = known.get(key);
    if (summary == null) {
      summary = asHelper ? helper(context, target) : cacheMethod(context, target);
      known.put(key, summary);
    }
    return summary;
  }

  private static boolean cannotBeReplaced(QueryContext context, MethodFacts target) {
    if (target.isPrivate() || target.isStatic() || Modifier.isFinal(target.access())) {
      return true;
    }
    var owner = context.owner(target);
    return owner != null && Modifier.isFinal(owner.access());
  }

  /** A helper's summary: the container is its class's map field, static or of the called object. */
  private static MapSummary ofHelperMap(
      MethodFacts target,
      boolean isWrite,
      int keyParam,
      int valueParam,
      Value.FieldValue map,
      boolean returnsStored) {
    return new MapSummary(
        target,
        isWrite,
        keyParam,
        valueParam,
        map.field(),
        false,
        target.isSynchronized(),
        map.base() == null,
        returnsStored);
  }

  /** {@code return MAP.get(k);} or {@code MAP.put(k, v);} and nothing else, or a fill helper. */
  private static Optional<MapSummary> helper(QueryContext context, MethodFacts target) {
    List<KeyedAccess> held = new ArrayList<>();
    boolean more = false;
    for (Op op : target.ops()) {
      Optional<KeyedAccess> access = KeyedAccess.of(context.program(), op);
      if (access.isPresent() && access.get().container() instanceof Value.FieldValue) {
        held.add(access.get());
      } else if (op.kind() != Op.Kind.GET_FIELD && op.kind() != Op.Kind.RETURN) {
        more = true; // the helper does more than the one map call (a map it builds included)
      }
    }
    if (more || held.size() > 1) {
      return fillHelper(target, held);
    }
    KeyedAccess only = held.isEmpty() ? null : held.get(0);
    if (only == null
        || !(only.container() instanceof Value.FieldValue map)
        || !(map.base() == null || map.base() instanceof Value.This)
        || !(only.key() instanceof Value.Param key)) {
      return Optional.empty();
    }
    if (only.isWrite()) {
      if (!(only.op().arg(1) instanceof Value.Param value)) {
        return Optional.empty();
      }
      return Optional.of(ofHelperMap(target, true, key.index(), value.index(), map, false));
    }
    if (!only.returnsValue() || !returns(target, new Value.Result(only.op().index()))) {
      return Optional.empty();
    }
    return Optional.of(ofHelperMap(target, false, key.index(), -1, map, false));
  }

  /**
   * A fill helper: its one put on a map held in a field is a put on a map field of its class by a
   * parameter, on some of its paths (a value it builds empty may not be stored), of a value it
   * builds itself; whatever else it does makes the value (a map of its own it builds and fills) or
   * remembers a miss (a set of keys with nothing to cache). It reads no container held in a field:
   * a helper that looks something up is a lookup of its own. A helper that stores a value it is
   * given and does more besides is not one.
   */
  private static Optional<MapSummary> fillHelper(MethodFacts target, List<KeyedAccess> held) {
    KeyedAccess only = null;
    for (KeyedAccess access : held) {
      if (!access.isWrite()) {
        return Optional.empty();
      }
      if (access.op().args().size() == 2) {
        if (only != null) {
          return Optional.empty(); // two puts: which one the caller's key fills is not known
        }
        only = access;
      }
    }
    if (only == null
        || !(only.container() instanceof Value.FieldValue map)
        || !(map.base() == null || map.base() instanceof Value.This)
        || !(only.key() instanceof Value.Param key)
        || only.op().context().inHandler()) {
      return Optional.empty();
    }
    for (KeyedAccess access : held) {
      if (access != only && access.container().equals(only.container())) {
        return Optional.empty(); // it also removes from or adds to the cached map itself
      }
    }
    Value stored = only.op().arg(1);
    if (valueParam(target, stored) >= 0) {
      // it stores what it is given, and does other things besides (commons-logging's
      // cacheFactory also sets a field for the null class loader): a store, not a fill
      return Optional.empty();
    }
    return Optional.of(
        ofHelperMap(
            target, true, key.index(), -1, map, !stored.isOpaque() && returns(target, stored)));
  }

  /**
   * A cache class's {@code get(k)} (reads a map field of its object by the argument and hands back
   * what it found, or the object a reference it found holds) or {@code put(k, v)} (writes the
   * field's map by the argument, the value or a reference wrapping it).
   */
  private static Optional<MapSummary> cacheMethod(QueryContext context, MethodFacts target) {
    MapSummary found = null;
    for (Op op : target.ops()) {
      Optional<KeyedAccess> keyed = KeyedAccess.of(context.program(), op);
      if (keyed.isEmpty()) {
        continue;
      }
      KeyedAccess access = keyed.get();
      if (!(access.container() instanceof Value.FieldValue map)
          || !(map.base() instanceof Value.This)
          || !(access.key() instanceof Value.Param key)) {
        continue;
      }
      boolean locked = target.isSynchronized() || lockedOnOwnObject(target, op, map);
      MapSummary summary = null;
      if (access.isWrite()) {
        int value = valueParam(target, access.op().arg(1));
        if (value >= 0) {
          summary =
              new MapSummary(
                  target, true, key.index(), value, map.field(), true, locked, false, false);
        }
      } else if (access.returnsValue() && returnsFound(target, access)) {
        summary =
            new MapSummary(target, false, key.index(), -1, map.field(), true, locked, false, false);
      }
      if (summary == null) {
        continue;
      }
      if (found != null && found.isWrite() != summary.isWrite()) {
        return Optional.empty(); // reads and writes: a lookup of its own, not one half of one
      }
      found = found == null ? summary : found;
    }
    return Optional.ofNullable(found);
  }

  private static boolean lockedOnOwnObject(MethodFacts target, Op op, Value.FieldValue map) {
    for (int id : op.context().regions()) {
      Region region = target.regions().get(id);
      if (region.monitor() instanceof Value.This || region.monitor().equals(map)) {
        return true;
      }
    }
    return false;
  }

  /** The parameter a stored value is, or is wrapped into ({@code new SoftReference(value)}). */
  private static int valueParam(MethodFacts target, Value stored) {
    if (stored instanceof Value.Param param) {
      return param.index();
    }
    Op producer = target.producer(stored);
    if (producer != null && producer.kind() == Op.Kind.NEW && producer.args().size() == 1) {
      return producer.arg(0) instanceof Value.Param param ? param.index() : -1;
    }
    return -1;
  }

  private static boolean returnsFound(MethodFacts target, KeyedAccess read) {
    MapAccess access =
        new MapAccess(
            read.op(), read.container(), read.key(), false, true, null, null, null, false);
    for (Op op : target.ops()) {
      if (op.kind() == Op.Kind.RETURN
          && !op.args().isEmpty()
          && (access.isFound(target, op.arg(0)) || op.arg(0) instanceof Value.Unknown)) {
        return true; // what it found, or that or nothing (a reference unwrapped if there is one)
      }
    }
    return false;
  }

  private static boolean returns(MethodFacts target, Value value) {
    for (Op op : target.ops()) {
      if (op.kind() == Op.Kind.RETURN && !op.args().isEmpty() && op.arg(0).equals(value)) {
        return true;
      }
    }
    return false;
  }
}
