package io.github.lockjaw.model.bytecode;

import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Value;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * Computes the model's {@link Value}s of a method's stack and locals: parameters, {@code this},
 * field reads, call results (named by the operation index the front-end gives the call), literals
 * and lambdas; everything else is {@link Value#UNKNOWN}. Where two paths meet with different
 * values, the slot becomes unknown.
 */
final class SymbolicInterpreter extends Interpreter<SymbolicValue> {
  /** Boxing and unboxing calls, transparent in the model: owner → method names. */
  private static final Map<String, Set<String>> BOXING =
      Map.of(
          "java/lang/Integer", Set.of("valueOf", "intValue"),
          "java/lang/Long", Set.of("valueOf", "longValue"),
          "java/lang/Boolean", Set.of("valueOf", "booleanValue"),
          "java/lang/Short", Set.of("valueOf", "shortValue"),
          "java/lang/Byte", Set.of("valueOf", "byteValue"),
          "java/lang/Character", Set.of("valueOf", "charValue"),
          "java/lang/Double", Set.of("valueOf", "doubleValue"),
          "java/lang/Float", Set.of("valueOf", "floatValue"));

  private final Map<AbstractInsnNode, Integer> opIndex;
  private final Map<InvokeDynamicInsnNode, MethodRef> lambdaBodies;
  private final int[] parameterOfSlot;
  private final int capturedCount;
  private final Set<TryCatchBlockNode> cleanups;
  private final InsnList instructions;

  /**
   * @param opIndex the operation index of every call instruction that becomes an operation
   * @param lambdaBodies the lambda body each lambda-creating {@code invokedynamic} stands for
   * @param parameterOfSlot the declared parameter each local slot holds on entry (-1: none)
   * @param capturedCount for a lambda body, how many leading parameters are captured values
   * @param cleanups the handlers that only clean up and rethrow
   * @param instructions the method's instructions (a computed value is named after its own)
   */
  SymbolicInterpreter(
      Map<AbstractInsnNode, Integer> opIndex,
      Map<InvokeDynamicInsnNode, MethodRef> lambdaBodies,
      int[] parameterOfSlot,
      int capturedCount,
      Set<TryCatchBlockNode> cleanups,
      InsnList instructions) {
    super(Opcodes.ASM9);
    this.cleanups = cleanups;
    this.instructions = instructions;
    this.opIndex = opIndex;
    this.lambdaBodies = lambdaBodies;
    this.parameterOfSlot = parameterOfSlot;
    this.capturedCount = capturedCount;
  }

  /**
   * Whether a call is a boxing constructor ({@code new Long(n)}, deprecated but common in old
   * code): one primitive argument, whose value the new object carries, as {@code Long.valueOf(n)}.
   * {@code new Long("12")} parses, and is no boxing.
   */
  static boolean isBoxingConstructor(MethodInsnNode call) {
    if (!call.name.equals("<init>") || !BOXING.containsKey(call.owner)) {
      return false;
    }
    Type[] arguments = Type.getArgumentTypes(call.desc);
    return arguments.length == 1 && arguments[0].getSort() < Type.ARRAY;
  }

  /** Whether a call is boxing or unboxing (no operation, its value passes through). */
  static boolean isBoxing(MethodInsnNode call) {
    Set<String> names = BOXING.get(call.owner);
    if (names == null || !names.contains(call.name)) {
      return false;
    }
    return call.name.equals("valueOf")
        ? call.getOpcode() == Opcodes.INVOKESTATIC
            && Type.getArgumentTypes(call.desc).length == 1
            && Type.getArgumentTypes(call.desc)[0].getSort() != Type.OBJECT
        : call.getOpcode() == Opcodes.INVOKEVIRTUAL;
  }

  /**
   * Whether a call is the helper that class files before Java 5 use for a class literal: {@code
   * Foo.class} compiles to {@code class$Foo == null ? (class$Foo = class$("Foo")) : class$Foo}, a
   * synthetic static field and method of the class that names it.
   */
  static boolean isClassLiteralHelper(MethodInsnNode call) {
    return call.getOpcode() == Opcodes.INVOKESTATIC
        && call.name.equals("class$")
        && call.desc.equals("(Ljava/lang/String;)Ljava/lang/Class;");
  }

  private Map<String, String> classLiteralFields;

  /**
   * The fields that hold a class literal in this method's pre-Java 5 idiom ({@code owner.name} →
   * the class's binary name): each one a {@code class$} call on a constant name stores.
   */
  private Map<String, String> classLiteralFields() {
    if (classLiteralFields == null) {
      classLiteralFields = new HashMap<>();
      for (AbstractInsnNode insn : instructions) {
        if (insn instanceof MethodInsnNode call
            && isClassLiteralHelper(call)
            && previous(call) instanceof LdcInsnNode ldc
            && ldc.cst instanceof String name
            && next(call) != null
            && next(call).getOpcode() == Opcodes.DUP
            && next(next(call)) instanceof FieldInsnNode store
            && store.getOpcode() == Opcodes.PUTSTATIC) {
          classLiteralFields.put(store.owner + '.' + store.name, name);
        }
      }
    }
    return classLiteralFields;
  }

  private static AbstractInsnNode previous(AbstractInsnNode insn) {
    AbstractInsnNode at = insn.getPrevious();
    while (at != null && at.getOpcode() < 0) {
      at = at.getPrevious(); // labels, line numbers, frames
    }
    return at;
  }

  private static AbstractInsnNode next(AbstractInsnNode insn) {
    AbstractInsnNode at = insn.getNext();
    while (at != null && at.getOpcode() < 0) {
      at = at.getNext();
    }
    return at;
  }

  /** Whether an owner is a string builder, whose calls the model leaves out in both front-ends. */
  static boolean isStringBuilding(String owner) {
    return owner.equals("java/lang/StringBuilder")
        || owner.equals("java/lang/StringBuffer")
        || owner.equals("java/lang/AbstractStringBuilder");
  }

  private static String typeName(Type type) {
    if (type == null) {
      return null;
    }
    return switch (type.getSort()) {
      case Type.OBJECT -> type.getInternalName();
      case Type.ARRAY -> type.getDescriptor();
      default -> type.getClassName();
    };
  }

  /** A value the instruction computes: unknown, but one identity wherever it flows. */
  private SymbolicValue computed(AbstractInsnNode insn, Type type) {
    return new SymbolicValue(
        type == null ? 1 : type.getSize(),
        new Value.Computed(instructions.indexOf(insn)),
        typeName(type));
  }

  private static SymbolicValue unknown(Type type) {
    return new SymbolicValue(type == null ? 1 : type.getSize(), Value.UNKNOWN, typeName(type));
  }

  @Override
  public SymbolicValue newValue(Type type) {
    if (type == Type.VOID_TYPE) {
      return null;
    }
    return unknown(type);
  }

  @Override
  public SymbolicValue newParameterValue(boolean isInstanceMethod, int local, Type type) {
    if (isInstanceMethod && local == 0) {
      return new SymbolicValue(1, Value.THIS, typeName(type));
    }
    int parameter = local < parameterOfSlot.length ? parameterOfSlot[local] : -1;
    if (parameter < 0 || parameter < capturedCount) {
      return unknown(type);
    }
    return new SymbolicValue(
        type.getSize(), new Value.Param(parameter - capturedCount), typeName(type));
  }

  @Override
  public SymbolicValue newOperation(AbstractInsnNode insn) {
    switch (insn.getOpcode()) {
      case Opcodes.ACONST_NULL:
        return new SymbolicValue(1, Value.NULL, null);
      case Opcodes.ICONST_M1:
      case Opcodes.ICONST_0:
      case Opcodes.ICONST_1:
      case Opcodes.ICONST_2:
      case Opcodes.ICONST_3:
      case Opcodes.ICONST_4:
      case Opcodes.ICONST_5:
        return new SymbolicValue(
            1, new Value.Constant(Integer.toString(insn.getOpcode() - Opcodes.ICONST_0)), "int");
      case Opcodes.LCONST_0:
      case Opcodes.LCONST_1:
        return new SymbolicValue(
            2, new Value.Constant(Integer.toString(insn.getOpcode() - Opcodes.LCONST_0)), "long");
      case Opcodes.FCONST_0:
      case Opcodes.FCONST_1:
      case Opcodes.FCONST_2:
        return unknown(Type.FLOAT_TYPE);
      case Opcodes.DCONST_0:
      case Opcodes.DCONST_1:
        return unknown(Type.DOUBLE_TYPE);
      case Opcodes.BIPUSH:
      case Opcodes.SIPUSH:
        return new SymbolicValue(
            1, new Value.Constant(Integer.toString(((IntInsnNode) insn).operand)), "int");
      case Opcodes.LDC:
        return constant(((LdcInsnNode) insn).cst);
      case Opcodes.GETSTATIC:
        {
          FieldInsnNode field = (FieldInsnNode) insn;
          Type type = Type.getType(field.desc);
          String literal =
              field.name.startsWith("class$")
                  ? classLiteralFields().get(field.owner + '.' + field.name)
                  : null;
          if (literal != null) {
            return new SymbolicValue(1, new Value.ClassLiteral(literal), "java/lang/Class");
          }
          if (field.name.contains("$")) {
            return unknown(type); // $assertionsDisabled, $SwitchMap$…: not written in source
          }
          return new SymbolicValue(
              type.getSize(), new Value.FieldValue(fieldRef(field), null), typeName(type));
        }
      case Opcodes.NEW:
        return new SymbolicValue(1, Value.UNKNOWN, ((TypeInsnNode) insn).desc, insn);
      default:
        return unknown(null);
    }
  }

  private static SymbolicValue constant(Object cst) {
    if (cst instanceof String text) {
      return new SymbolicValue(1, new Value.Constant(text), "java/lang/String");
    }
    if (cst instanceof Integer || cst instanceof Long) {
      boolean wide = cst instanceof Long;
      return new SymbolicValue(
          wide ? 2 : 1, new Value.Constant(cst.toString()), wide ? "long" : "int");
    }
    if (cst instanceof Type type
        && (type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY)) {
      return new SymbolicValue(1, new Value.ClassLiteral(type.getClassName()), "java/lang/Class");
    }
    if (cst instanceof Double || cst instanceof Long) {
      return new SymbolicValue(2, Value.UNKNOWN, null);
    }
    return new SymbolicValue(1, Value.UNKNOWN, null);
  }

  static FieldRef fieldRef(FieldInsnNode field) {
    return new FieldRef(field.owner.replace('/', '.'), field.name, field.desc);
  }

  @Override
  public SymbolicValue newExceptionValue(
      TryCatchBlockNode block, Frame<SymbolicValue> handlerFrame, Type exceptionType) {
    // a cleanup handler (finally, synchronized, try-with-resources): marked, so that its rethrow
    // is no operation
    return new SymbolicValue(
        1, Value.UNKNOWN, exceptionType.getInternalName(), null, cleanups.contains(block));
  }

  @Override
  public SymbolicValue copyOperation(AbstractInsnNode insn, SymbolicValue value) {
    return value;
  }

  @Override
  public SymbolicValue unaryOperation(AbstractInsnNode insn, SymbolicValue value) {
    switch (insn.getOpcode()) {
      case Opcodes.GETFIELD:
        {
          FieldInsnNode field = (FieldInsnNode) insn;
          Type type = Type.getType(field.desc);
          if (field.name.contains("$") && !field.name.startsWith("this$")) {
            return unknown(type); // a captured local (val$x): unknown, as in source
          }
          return new SymbolicValue(
              type.getSize(), new Value.FieldValue(fieldRef(field), value.value), typeName(type));
        }
      case Opcodes.CHECKCAST:
        return new SymbolicValue(1, value.value, ((TypeInsnNode) insn).desc);
      case Opcodes.NEWARRAY:
      case Opcodes.ANEWARRAY:
      case Opcodes.ARRAYLENGTH:
      case Opcodes.INSTANCEOF:
      case Opcodes.INEG:
      case Opcodes.IINC:
      case Opcodes.L2I:
      case Opcodes.F2I:
      case Opcodes.D2I:
      case Opcodes.I2B:
      case Opcodes.I2C:
      case Opcodes.I2S:
        return computed(insn, Type.INT_TYPE);
      case Opcodes.FNEG:
      case Opcodes.I2F:
      case Opcodes.L2F:
      case Opcodes.D2F:
        return computed(insn, Type.FLOAT_TYPE);
      case Opcodes.LNEG:
      case Opcodes.I2L:
      case Opcodes.F2L:
      case Opcodes.D2L:
        return computed(insn, Type.LONG_TYPE);
      case Opcodes.DNEG:
      case Opcodes.I2D:
      case Opcodes.L2D:
      case Opcodes.F2D:
        return computed(insn, Type.DOUBLE_TYPE);
      default:
        return null; // branches, returns, throws, monitors, PUTSTATIC: no value
    }
  }

  @Override
  public SymbolicValue binaryOperation(
      AbstractInsnNode insn, SymbolicValue value1, SymbolicValue value2) {
    switch (insn.getOpcode()) {
      case Opcodes.LALOAD:
      case Opcodes.LADD:
      case Opcodes.LSUB:
      case Opcodes.LMUL:
      case Opcodes.LDIV:
      case Opcodes.LREM:
      case Opcodes.LSHL:
      case Opcodes.LSHR:
      case Opcodes.LUSHR:
      case Opcodes.LAND:
      case Opcodes.LOR:
      case Opcodes.LXOR:
        return computed(insn, Type.LONG_TYPE);
      case Opcodes.DALOAD:
      case Opcodes.DADD:
      case Opcodes.DSUB:
      case Opcodes.DMUL:
      case Opcodes.DDIV:
      case Opcodes.DREM:
        return computed(insn, Type.DOUBLE_TYPE);
      case Opcodes.AALOAD:
        return computed(insn, null);
      case Opcodes.IF_ICMPEQ:
      case Opcodes.IF_ICMPNE:
      case Opcodes.IF_ICMPLT:
      case Opcodes.IF_ICMPGE:
      case Opcodes.IF_ICMPGT:
      case Opcodes.IF_ICMPLE:
      case Opcodes.IF_ACMPEQ:
      case Opcodes.IF_ACMPNE:
      case Opcodes.PUTFIELD:
        return null;
      case Opcodes.FALOAD:
      case Opcodes.FADD:
      case Opcodes.FSUB:
      case Opcodes.FMUL:
      case Opcodes.FDIV:
      case Opcodes.FREM:
        return computed(insn, Type.FLOAT_TYPE);
      default:
        return computed(insn, Type.INT_TYPE);
    }
  }

  @Override
  public SymbolicValue ternaryOperation(
      AbstractInsnNode insn, SymbolicValue value1, SymbolicValue value2, SymbolicValue value3) {
    return null; // array stores
  }

  @Override
  public SymbolicValue naryOperation(AbstractInsnNode insn, List<? extends SymbolicValue> values)
      throws AnalyzerException {
    if (insn instanceof MethodInsnNode call) {
      Type returnType = Type.getReturnType(call.desc);
      if (isBoxing(call)) {
        SymbolicValue operand = values.get(0);
        return new SymbolicValue(returnType.getSize(), operand.value, typeName(returnType));
      }
      if (returnType == Type.VOID_TYPE) {
        return null;
      }
      if (isClassLiteralHelper(call) && values.get(0).value instanceof Value.Constant name) {
        return new SymbolicValue(1, new Value.ClassLiteral(name.text()), "java/lang/Class");
      }
      if (isStringBuilding(call.owner) && call.name.equals("toString")) {
        // a concatenation compiled to a builder chain: one computed value, as the source reads '+'
        return computed(insn, returnType);
      }
      Integer index = opIndex.get(insn);
      return new SymbolicValue(
          returnType.getSize(),
          index == null ? Value.UNKNOWN : new Value.Result(index),
          typeName(returnType));
    }
    if (insn instanceof InvokeDynamicInsnNode indy) {
      Type returnType = Type.getReturnType(indy.desc);
      MethodRef body = lambdaBodies.get(indy);
      if (body == null) {
        body = referencedMethod(indy);
      }
      if (body == null) {
        return computed(insn, returnType); // a string concatenation, a record method
      }
      return new SymbolicValue(returnType.getSize(), new Value.Lambda(body), typeName(returnType));
    }
    // MULTIANEWARRAY
    return computed(insn, null);
  }

  /** The method a method reference ({@code Foo::bar}) names, or {@code null}. */
  static MethodRef referencedMethod(InvokeDynamicInsnNode indy) {
    if (!isLambdaFactory(indy)
        || indy.bsmArgs.length < 2
        || !(indy.bsmArgs[1] instanceof Handle impl)) {
      return null;
    }
    return new MethodRef(impl.getOwner().replace('/', '.'), impl.getName(), impl.getDesc());
  }

  static boolean isLambdaFactory(InvokeDynamicInsnNode indy) {
    return indy.bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory");
  }

  @Override
  public void returnOperation(AbstractInsnNode insn, SymbolicValue value, SymbolicValue expected) {}

  @Override
  public SymbolicValue merge(SymbolicValue value1, SymbolicValue value2) {
    if (value1.equals(value2)) {
      return value1;
    }
    String type = value1.type != null && value1.type.equals(value2.type) ? value1.type : null;
    if (value1.value instanceof Value.Unknown
        && Objects.equals(type, value1.type)
        && value1.uninitialized == null) {
      return value1;
    }
    return new SymbolicValue(Math.min(value1.size, value2.size), Value.UNKNOWN, type);
  }
}
