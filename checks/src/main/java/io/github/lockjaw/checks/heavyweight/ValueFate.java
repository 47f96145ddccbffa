package io.github.lockjaw.checks.heavyweight;

import io.github.lockjaw.model.FieldFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Where an object a method creates goes, within that method: used and dropped (built per call),
 * returned to the caller, kept by the object a constructor builds, or kept for later calls (a
 * field, a field's map, a long-lived object it is handed to). The object is followed through the
 * calls that configure it and return it ({@code fluent-configuration}) and into objects created
 * around it ({@code new Wrapper(mapper)}).
 */
enum ValueFate {
  /** Used during the call and dropped: built again on the next call. */
  PER_CALL,
  /** Returned: the callers decide. */
  RETURNED,
  /** Stored in an instance field by a constructor: as long-lived as the object. */
  OBJECT_FIELD,
  /** Kept for later calls: stored in a field, a map held in a field, or a long-lived object. */
  CACHED;

  /** The fate of {@code value} in {@code method}. */
  static ValueFate of(Program program, MethodFacts method, Value value) {
    Set<Value> carriers = carriers(program, method, value);
    ValueFate fate = PER_CALL;
    for (Op op : method.ops()) {
      switch (op.kind()) {
        case PUT_FIELD -> {
          if (carriers.contains(op.arg(0))) {
            fate = worst(fate, storeFate(program, method, op));
          }
        }
        case RETURN -> {
          if (!op.args().isEmpty() && carriers.contains(op.arg(0))) {
            fate = worst(fate, RETURNED);
          }
        }
        case INVOKE_VIRTUAL, INVOKE_STATIC, INVOKE_SPECIAL -> {
          if (handsToLongLivedObject(op, carriers)) {
            fate = worst(fate, CACHED);
          }
        }
        default -> {}
      }
    }
    return fate;
  }

  /**
   * The value and what carries it on: the results of configuration calls that return it, and
   * objects created with it as an argument.
   */
  static Set<Value> carriers(Program program, MethodFacts method, Value value) {
    Set<Value> carriers = new LinkedHashSet<>();
    carriers.add(value);
    for (Op op : method.ops()) {
      if (!op.isCall()) {
        continue;
      }
      boolean configures =
          op.receiver() != null
              && carriers.contains(op.receiver())
              && HeavyweightKnowledge.isFluentConfiguration(program, op.method());
      boolean wraps = op.kind() == Op.Kind.NEW && op.args().stream().anyMatch(carriers::contains);
      if (configures || wraps) {
        carriers.add(new Value.Result(op.index()));
      }
    }
    return carriers;
  }

  private static ValueFate storeFate(Program program, MethodFacts method, Op put) {
    boolean instanceFieldOfThis =
        put.receiver() instanceof Value.This && !isStatic(program, put.field());
    return method.ref().isConstructor() && instanceFieldOfThis ? OBJECT_FIELD : CACHED;
  }

  private static boolean isStatic(Program program, FieldRef field) {
    var owner = program.classFacts(field.owner());
    FieldFacts facts = owner == null ? null : owner.field(field.name());
    return facts != null && facts.isStatic();
  }

  /** A call on an object held in a field, given the value: the field's object keeps it. */
  private static boolean handsToLongLivedObject(Op op, Set<Value> carriers) {
    if (!(op.receiver() instanceof Value.FieldValue)) {
      return false;
    }
    for (Value arg : op.args()) {
      if (carriers.contains(arg)) {
        return true;
      }
    }
    return false;
  }

  private static ValueFate worst(ValueFate a, ValueFate b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }
}
