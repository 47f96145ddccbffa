package io.github.lockjaw.checks.cache;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.lang.reflect.Modifier;

/**
 * Whether a map field belongs to an object made for one call and never handed out: then the map,
 * and every monitor around it, belongs to that call, and nobody else queues on it (a parser or a
 * request-scoped helper that memoises in its own {@code Hashtable}). Read from the model of the
 * whole analysed code: something creates the class, and no operation anywhere hands one of its
 * instances out (passes it as an argument, stores it in a field, returns or throws it), nor does
 * the class hand out {@code this}.
 *
 * <p>Which classes qualify depends on how much lockjaw sees: a private member class or a local
 * class can only be created where lockjaw looks; any class qualifies for a map used without a lock
 * of its own (a {@code Hashtable} used as a plain map in a per-instance object), where the question
 * is only whether the object is shared.
 */
final class PerCallOwners {
  private PerCallOwners() {}

  static boolean owns(Program program, FieldRef field, boolean anyClass) {
    ClassFacts owner = program.classFacts(field.owner());
    if (owner == null || owner.isInterface() || !program.isAnalysed(owner.name())) {
      return false;
    }
    FieldFacts facts = owner.field(field.name());
    if (facts == null || facts.isStatic()) {
      return false;
    }
    if (!anyClass && !Modifier.isPrivate(owner.access()) && !isLocal(owner.name())) {
      return false;
    }
    int creations = 0;
    for (ClassFacts c : program.classes()) {
      boolean inside = c.name().equals(owner.name());
      for (MethodFacts method : c.methods()) {
        for (Op op : method.ops()) {
          if (op.kind() == Op.Kind.NEW && op.method().owner().equals(owner.name())) {
            creations++;
          }
          if (handsOut(method, op, owner.name(), inside)) {
            return false;
          }
        }
      }
    }
    return creations > 0;
  }

  /** Whether the operation hands out an instance of the class (or, inside it, {@code this}). */
  private static boolean handsOut(MethodFacts method, Op op, String owner, boolean inside) {
    if (op.kind() == Op.Kind.GET_FIELD) {
      return false;
    }
    for (Value value : op.args()) {
      if (isInstance(method, value, owner) || (inside && value instanceof Value.This)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isInstance(MethodFacts method, Value value, String owner) {
    Op producer = method.producer(value);
    return producer != null
        && producer.kind() == Op.Kind.NEW
        && producer.method().owner().equals(owner);
  }

  private static boolean isLocal(String name) {
    int dollar = name.lastIndexOf('$');
    return dollar >= 0
        && dollar + 1 < name.length()
        && Character.isDigit(name.charAt(dollar + 1))
        && !name.substring(dollar + 1).chars().allMatch(Character::isDigit);
  }
}
