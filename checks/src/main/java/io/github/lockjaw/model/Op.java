package io.github.lockjaw.model;

import java.util.List;

/**
 * One operation of a method body, in program order: an invocation, an object creation, a field read
 * or write, or a return. {@code index} is its position in {@link MethodFacts#ops()}; a {@link
 * Value.Result} names an operation by it.
 *
 * @param index position in the method's operations
 * @param kind what the operation does
 * @param method the invoked method ({@code <init>} of the created type for {@link Kind#NEW});
 *     {@code null} for field operations and returns
 * @param field the field read or written; {@code null} otherwise
 * @param receiver the receiver of an instance call or field access; {@code null} for static ones,
 *     constructors and returns
 * @param args the arguments of a call or creation; the value written for {@link Kind#PUT_FIELD};
 *     the returned value for {@link Kind#RETURN} (empty for {@code return;})
 * @param context where the operation runs: under which locks, in which loops, under which
 *     conditions
 * @param line the source line, or 0 when unknown
 */
public record Op(
    int index,
    Kind kind,
    MethodRef method,
    FieldRef field,
    Value receiver,
    List<Value> args,
    Context context,
    int line) {

  public Op {
    args = List.copyOf(args);
  }

  /** The kinds of operation. */
  public enum Kind {
    /** A static call. */
    INVOKE_STATIC,
    /** A virtual or interface call (dispatched on the receiver's class). */
    INVOKE_VIRTUAL,
    /** A call bound at compile time: {@code super.m()}, a private method, a constructor chain. */
    INVOKE_SPECIAL,
    /** {@code new T(...)}: the object's creation and its constructor call in one. */
    NEW,
    GET_FIELD,
    PUT_FIELD,
    RETURN,
    /** {@code throw}: {@code args} holds the thrown value. */
    THROW
  }

  public boolean isCall() {
    return kind == Kind.INVOKE_STATIC
        || kind == Kind.INVOKE_VIRTUAL
        || kind == Kind.INVOKE_SPECIAL
        || kind == Kind.NEW;
  }

  public boolean isFieldAccess() {
    return kind == Kind.GET_FIELD || kind == Kind.PUT_FIELD;
  }

  /** The argument at {@code i}, or {@link Value#UNKNOWN} when there is none. */
  public Value arg(int i) {
    return i < args.size() ? args.get(i) : Value.UNKNOWN;
  }

  /** Whether the operation runs while the region {@code regionId} is held. */
  public boolean isIn(int regionId) {
    return context.regions().contains(regionId);
  }

  @Override
  public String toString() {
    String what =
        switch (kind) {
          case GET_FIELD, PUT_FIELD -> kind + " " + field;
          case RETURN, THROW -> kind.toString();
          default -> kind + " " + method;
        };
    return "#" + index + " " + what + (receiver == null ? "" : " on " + receiver) + " " + args;
  }
}
