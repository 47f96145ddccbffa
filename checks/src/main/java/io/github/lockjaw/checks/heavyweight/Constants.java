package io.github.lockjaw.checks.heavyweight;

import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Value;
import java.util.List;

/**
 * Which values are the same on every call: literals, class literals, static fields, and what
 * calls and creations make of those alone ({@code Foo.class.getName()}, {@code new
 * JavaTimeModule()}, {@code new GsonBuilder().setPrettyPrinting()}); for a look-up, also {@code
 * getClass()} of the object (one answer per class).
 */
final class Constants {
  private static final int MAX_DEPTH = 8;

  private Constants() {}

  /**
   * Whether every value is constant; {@code forSharedField}: constant in a static field's
   * initialiser too ({@code getClass()} is not).
   */
  static boolean allConstant(MethodFacts method, List<Value> values, boolean forSharedField) {
    for (Value value : values) {
      if (!isConstant(method, value, forSharedField, 0)) {
        return false;
      }
    }
    return true;
  }

  static boolean isConstant(MethodFacts method, Value value, boolean forSharedField, int depth) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    return switch (value) {
      case Value.Constant c -> true;
      case Value.ClassLiteral c -> true;
      case Value.FieldValue field -> field.base() == null;
      case Value.Result result -> {
        Op producer = method.producer(result);
        if (producer == null || !producer.isCall()) {
          yield false;
        }
        if (!forSharedField
            && producer.method().name().equals("getClass")
            && producer.receiver() instanceof Value.This) {
          yield true;
        }
        if (producer.receiver() != null
            && !isConstant(method, producer.receiver(), forSharedField, depth + 1)) {
          yield false;
        }
        if (producer.kind() == Op.Kind.INVOKE_SPECIAL) {
          yield false; // a private method or a super call of this object
        }
        if (producer.kind() == Op.Kind.INVOKE_STATIC
            && producer.args().isEmpty()
            && !producer.method().returnType().endsWith("Builder")) {
          yield false; // System.nanoTime(), UUID.randomUUID(): a new answer per call
        }
        for (Value arg : producer.args()) {
          if (!isConstant(method, arg, forSharedField, depth + 1)) {
            yield false;
          }
        }
        yield true;
      }
      default -> false;
    };
  }
}
