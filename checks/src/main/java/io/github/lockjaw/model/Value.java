package io.github.lockjaw.model;

/**
 * What an operand of an operation is, as far as both front-ends can tell the same way: locals are
 * not values of their own, a local stands for the value last assigned to it on every path (or
 * {@link Unknown} where paths disagree), so {@code Object v = cache.get(k); if (v == null)} tests
 * the {@link Result} of the {@code get}. Boxing and unboxing are transparent.
 */
public sealed interface Value {

  /** The receiver of an instance method or constructor. */
  record This() implements Value {
    @Override
    public String toString() {
      return "this";
    }
  }

  /**
   * A declared parameter of the method, 0-based, {@code this} not counted; for a lambda body, its
   * own parameters (values it captures are {@link Unknown}).
   */
  record Param(int index) implements Value {
    @Override
    public String toString() {
      return "param" + index;
    }
  }

  /** The value read from a field; {@code base} is {@code null} for a static field. */
  record FieldValue(FieldRef field, Value base) implements Value {
    @Override
    public String toString() {
      return (base == null ? field.owner().substring(field.owner().lastIndexOf('.') + 1) : base)
          + "."
          + field.name();
    }
  }

  /** What the operation at {@code op} (an invoke or a {@code new}) returned. */
  record Result(int op) implements Value {
    @Override
    public String toString() {
      return "#" + op;
    }
  }

  /** A literal: a string's text, a number, {@code true}/{@code false} or {@code null}. */
  record Constant(String text) implements Value {
    @Override
    public String toString() {
      return "'" + text + "'";
    }

    public boolean isNull() {
      return text.equals("null");
    }
  }

  /** {@code Foo.class}: the {@code Class} object of a type (binary name). */
  record ClassLiteral(String type) implements Value {
    @Override
    public String toString() {
      return type + ".class";
    }
  }

  /**
   * A lambda or method reference: the code it runs ({@code body}: a lambda body's {@link
   * MethodRef#lambda} name, or the referenced method).
   */
  record Lambda(MethodRef body) implements Value {
    @Override
    public String toString() {
      return "λ" + body;
    }
  }

  /**
   * A value computed in the method (arithmetic, a string concatenation, an array element, a
   * primitive conversion): unknown, but the same value wherever the same computation flows, so that
   * {@code String path = "/t/" + name; cache.get(path) ... cache.put(path, v)} uses one key. {@code
   * id} tells computations of one method apart; it means nothing across methods or front-ends.
   */
  record Computed(int id) implements Value {
    @Override
    public String toString() {
      return "?";
    }
  }

  /** Whether the value is unknown or computed: nothing to name it by across methods. */
  default boolean isOpaque() {
    return this instanceof Unknown || this instanceof Computed;
  }

  /**
   * A value no operation names: a computed one (arithmetic, a cast of something unknown), a local
   * that different paths assign differently, a captured local.
   */
  record Unknown() implements Value {
    @Override
    public String toString() {
      return "?";
    }
  }

  Value UNKNOWN = new Unknown();
  Value THIS = new This();
  Value NULL = new Constant("null");
}
