package io.github.lockjaw.checks.cache;

import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.List;

/**
 * How a map field is synchronised ({@code maps.txt}), read from the model the same way for both
 * engines: its declared type (a {@code ConcurrentMap}, a {@code Hashtable}), else the maps its
 * class assigns to it ({@code new HashMap<>()}, {@code Collections.synchronizedMap(...)}), also
 * when it is created lazily in a method.
 */
final class MapLockings {
  private static final List<String> CONCURRENT = Kind.Maps.CONCURRENT_TYPE.index().typeNames();
  private static final List<String> COARSE = Kind.Maps.COARSELY_LOCKED_TYPE.index().typeNames();
  private static final List<String> PLAIN = Kind.Maps.PLAIN_TYPE.index().typeNames();
  private static final KnowledgeIndex LOCKING_FACTORIES =
      Kind.Maps.COARSELY_LOCKING_FACTORY.index();

  private MapLockings() {}

  /** How a map of this type, or assigned this way, is locked. */
  static MapLocking of(Program program, FieldRef field) {
    String declared = field.type();
    if (program.matchType(CONCURRENT, declared).isPresent()) {
      return MapLocking.CONCURRENT;
    }
    if (program.matchType(COARSE, declared).isPresent()) {
      return MapLocking.COARSE;
    }
    ClassFacts owner = program.classFacts(field.owner());
    if (owner == null) {
      return MapLocking.UNKNOWN;
    }
    MapLocking result = null;
    for (MethodFacts method : owner.methods()) {
      for (Op op : method.ops()) {
        if (op.kind() != Op.Kind.PUT_FIELD || !op.field().equals(field)) {
          continue;
        }
        Value assigned = op.arg(0);
        if (assigned instanceof Value.Constant constant && constant.isNull()) {
          continue; // cleared: whatever is assigned next decides
        }
        MapLocking one = ofValue(program, method, assigned);
        if (one == MapLocking.CONCURRENT || one == MapLocking.UNKNOWN) {
          return one;
        }
        result = result == null || result == one ? one : MapLocking.UNKNOWN;
      }
    }
    if (result == null) {
      return PLAIN.contains(declared) ? MapLocking.PLAIN : MapLocking.UNKNOWN;
    }
    return result;
  }

  private static MapLocking ofValue(Program program, MethodFacts method, Value value) {
    Op producer = method.producer(value);
    if (producer == null) {
      return MapLocking.UNKNOWN;
    }
    if (producer.kind() == Op.Kind.NEW) {
      String type = producer.method().owner();
      if (program.matchType(CONCURRENT, type).isPresent()) {
        return MapLocking.CONCURRENT;
      }
      if (program.matchType(COARSE, type).isPresent()) {
        return MapLocking.COARSE;
      }
      return PLAIN.contains(type) ? MapLocking.PLAIN : MapLocking.UNKNOWN;
    }
    if (producer.kind() == Op.Kind.INVOKE_STATIC
        && program.match(LOCKING_FACTORIES, producer.method()).isPresent()) {
      return MapLocking.COARSE;
    }
    return MapLocking.UNKNOWN;
  }
}
