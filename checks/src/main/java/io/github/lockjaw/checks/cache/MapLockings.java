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
  private static final List<String> WEAK_KEYED =
      Kind.Maps.PLAIN_TYPE.entries().stream()
          .filter(e -> e.hasAttribute("weak-keys"))
          .map(e -> e.value())
          .toList();

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

  /**
   * Whether the map holds its keys weakly ({@code weak-keys} in {@code maps.txt}: a {@code
   * WeakHashMap}, bare or inside {@code Collections.synchronizedMap}): a ConcurrentHashMap would
   * keep every key alive, classes and class loaders among them.
   */
  static boolean holdsKeysWeakly(Program program, FieldRef field) {
    if (WEAK_KEYED.contains(field.type())) {
      return true;
    }
    ClassFacts owner = program.classFacts(field.owner());
    if (owner == null) {
      return false;
    }
    for (MethodFacts method : owner.methods()) {
      for (Op op : method.ops()) {
        if (op.kind() == Op.Kind.PUT_FIELD
            && op.field().equals(field)
            && isWeakKeyed(program, method, op.arg(0))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isWeakKeyed(Program program, MethodFacts method, Value value) {
    Op producer = method.producer(value);
    if (producer == null) {
      return false;
    }
    if (producer.kind() == Op.Kind.NEW) {
      return WEAK_KEYED.contains(producer.method().owner());
    }
    return producer.kind() == Op.Kind.INVOKE_STATIC
        && program.match(LOCKING_FACTORIES, producer.method()).isPresent()
        && !producer.args().isEmpty()
        && isWeakKeyed(program, method, producer.arg(0));
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
