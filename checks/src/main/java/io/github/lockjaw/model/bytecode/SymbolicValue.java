package io.github.lockjaw.model.bytecode;

import io.github.lockjaw.model.Value;
import java.util.Objects;
import org.objectweb.asm.tree.AbstractInsnNode;

/**
 * A stack or local slot's content while ASM's analyzer runs over a method: the model's {@link
 * Value}, the static type when known (internal name or descriptor-free binary of ASM's {@code
 * Type}), and for an object created by {@code NEW} whose constructor has not run yet, that
 * instruction.
 */
final class SymbolicValue implements org.objectweb.asm.tree.analysis.Value {
  final int size;
  final Value value;
  final String type;
  final AbstractInsnNode uninitialized;
  final boolean caughtByCatchAll;

  SymbolicValue(
      int size,
      Value value,
      String type,
      AbstractInsnNode uninitialized,
      boolean caughtByCatchAll) {
    this.size = size;
    this.value = value;
    this.type = type;
    this.uninitialized = uninitialized;
    this.caughtByCatchAll = caughtByCatchAll;
  }

  SymbolicValue(int size, Value value, String type, AbstractInsnNode uninitialized) {
    this(size, value, type, uninitialized, false);
  }

  SymbolicValue(int size, Value value, String type) {
    this(size, value, type, null);
  }

  @Override
  public int getSize() {
    return size;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SymbolicValue that
        && size == that.size
        && value.equals(that.value)
        && Objects.equals(type, that.type)
        && uninitialized == that.uninitialized
        && caughtByCatchAll == that.caughtByCatchAll;
  }

  @Override
  public int hashCode() {
    return Objects.hash(size, value, type);
  }

  @Override
  public String toString() {
    return value + (type == null ? "" : ":" + type);
  }
}
