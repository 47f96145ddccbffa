package io.github.lockjaw.checks.cache;

import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.KeyedAccess;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A read or write of a keyed container by one call of a method: a map's own {@code get}, {@code
 * containsKey} or {@code put} ({@link KeyedAccess}), or a call of a method whose summary is "reads
 * or writes its internal map by this argument" ({@link MapSummary}): a small helper of the same
 * class ({@code getCached(k)}, {@code cache(k, v)}), or a method of a cache class of its own (a
 * soft or most-recently-used map, a two-key map) that gets and puts on a map it holds.
 *
 * @param op the call in the method
 * @param container the map or cache object: the call's receiver, or the map the helper uses
 * @param key the key
 * @param isWrite whether it puts
 * @param returnsValue for a read, whether it hands back the value ({@code get}), not a boolean
 * @param value for a write, the value put
 * @param via the summarised method the call runs ({@code null} for a map's own method)
 * @param internalMap for a cache class's method, the map field it reads or writes in its object
 * @param viaLocked whether the summarised method holds a monitor of its own object around it
 */
record MapAccess(
    Op op,
    Value container,
    Value key,
    boolean isWrite,
    boolean returnsValue,
    Value value,
    MethodFacts via,
    FieldRef internalMap,
    boolean viaLocked) {

  /** The accesses of a method's operations, in program order. */
  static List<MapAccess> in(QueryContext context, MethodFacts method) {
    List<MapAccess> accesses = new ArrayList<>();
    for (Op op : method.ops()) {
      of(context, method, op).ifPresent(accesses::add);
    }
    return accesses;
  }

  private static Optional<MapAccess> of(QueryContext context, MethodFacts method, Op op) {
    Optional<KeyedAccess> keyed = KeyedAccess.of(context.program(), op);
    if (keyed.isPresent()) {
      KeyedAccess access = keyed.get();
      return Optional.of(
          new MapAccess(
              op,
              access.container(),
              access.key(),
              access.isWrite(),
              access.returnsValue(),
              access.isWrite() ? op.arg(1) : null,
              null,
              null,
              false));
    }
    if (!op.isCall() || op.kind() == Op.Kind.NEW || op.args().isEmpty()) {
      return Optional.empty();
    }
    return MapSummary.ofCall(context, method, op)
        .map(
            summary ->
                new MapAccess(
                    op,
                    summary.containerIn(op),
                    op.arg(summary.keyParam()),
                    summary.isWrite(),
                    !summary.isWrite(),
                    summary.isWrite() ? summary.storedIn(op) : null,
                    summary.method(),
                    summary.internalMap(),
                    summary.locked()));
  }

  /** The map field the container is, for a map held in a field; {@code null} otherwise. */
  FieldRef field() {
    return container instanceof Value.FieldValue field ? field.field() : null;
  }

  /** Whether the guard holds exactly when this read missed, following the value it found. */
  boolean isMiss(MethodFacts method, Guard guard) {
    return !isWrite && Objects.equals(missOrHit(method, guard), Boolean.TRUE);
  }

  /** Whether the guard holds exactly when this read found the key. */
  boolean isHit(MethodFacts method, Guard guard) {
    return !isWrite && Objects.equals(missOrHit(method, guard), Boolean.FALSE);
  }

  private Boolean missOrHit(MethodFacts method, Guard guard) {
    if (returnsValue) {
      if (guard.test() == Guard.Test.NULL && isFound(method, guard.subject())) {
        return guard.outcome();
      }
      return null;
    }
    if (guard.test() == Guard.Test.TRUE
        && guard.subject() instanceof Value.Result result
        && result.op() == op.index()) {
      return !guard.outcome();
    }
    return null;
  }

  /**
   * Whether a value is what this read found: its result, the object a reference it found holds
   * ({@code ((Reference) cache.get(k)).get()}), or a field of this object or class the found value
   * was stored in ({@code this.current = cache.get(k)}).
   */
  boolean isFound(MethodFacts method, Value value) {
    return isFound(method, value, 0);
  }

  private boolean isFound(MethodFacts method, Value value, int depth) {
    if (depth > 4 || value == null) {
      return false;
    }
    if (value instanceof Value.Result result && result.op() == op.index()) {
      return true;
    }
    Op producer = method.producer(value);
    if (producer != null
        && producer.isCall()
        && producer.kind() != Op.Kind.NEW
        && producer.args().isEmpty()
        && producer.receiver() != null
        && producer.method().name().equals("get")
        && isFound(method, producer.receiver(), depth + 1)) {
      return true; // a Reference's get(): the value behind a soft or weak reference
    }
    if (value instanceof Value.FieldValue field
        && (field.base() == null || field.base() instanceof Value.This)) {
      for (Op write : method.ops()) {
        if (write.kind() == Op.Kind.PUT_FIELD
            && write.field().equals(field.field())
            && write.index() > op.index()
            && isFound(method, write.arg(0), depth + 1)) {
          return true;
        }
      }
    }
    return false;
  }
}
