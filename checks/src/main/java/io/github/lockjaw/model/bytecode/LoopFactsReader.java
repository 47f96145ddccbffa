package io.github.lockjaw.model.bytecode;

import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.LocalStore;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.LoopExit;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * The loop facts of {@link Loop} as the class file shows them: the edges that leave a loop's range
 * of instructions (not exception edges) with the tests on the way, the stores of a local its
 * deciding test reads, and the calls whose operands come from a local stored in the loop (ASM's
 * {@link SourceInterpreter} tells which instruction produced each operand). The source front-end
 * derives the same facts from the trees ({@code LoopRecorder}).
 */
final class LoopFactsReader {
  private static final Guard UNKNOWN = new Guard(Value.UNKNOWN, Guard.Test.TRUE, true);

  private final InsnList insns;
  private final Frame<SymbolicValue>[] frames;
  private final Frame<SourceValue>[] sources;
  private final ControlFlow flow;
  private final List<Guard>[] guardAt;
  private final Set<Long> exceptional;
  private final Map<AbstractInsnNode, Integer> opIndex;

  private LoopFactsReader(
      InsnList insns,
      Frame<SymbolicValue>[] frames,
      Frame<SourceValue>[] sources,
      ControlFlow flow,
      List<Guard>[] guardAt,
      Set<Long> exceptional,
      Map<AbstractInsnNode, Integer> opIndex) {
    this.insns = insns;
    this.frames = frames;
    this.sources = sources;
    this.flow = flow;
    this.guardAt = guardAt;
    this.exceptional = exceptional;
    this.opIndex = opIndex;
  }

  /** {@code loops} with their exits and varying calls (unchanged when the method is unreadable). */
  static List<Loop> complete(
      String owner,
      MethodNode method,
      List<Loop> loops,
      List<int[]> ranges,
      Frame<SymbolicValue>[] frames,
      ControlFlow flow,
      List<Guard>[] guardAt,
      List<int[]> exceptionEdges,
      Map<AbstractInsnNode, Integer> opIndex) {
    if (loops.isEmpty()) {
      return loops;
    }
    Frame<SourceValue>[] sources;
    try {
      sources = new Analyzer<>(new SourceInterpreter()).analyze(owner.replace('.', '/'), method);
    } catch (AnalyzerException | RuntimeException e) {
      return loops;
    }
    Set<Long> exceptional = new HashSet<>();
    for (int[] edge : exceptionEdges) {
      exceptional.add(((long) edge[0] << 32) | edge[1]);
    }
    LoopFactsReader reader =
        new LoopFactsReader(
            method.instructions, frames, sources, flow, guardAt, exceptional, opIndex);
    List<Loop> complete = new ArrayList<>(loops.size());
    for (Loop loop : loops) {
      int[] range = ranges.get(loop.id());
      complete.add(reader.complete(loop, range[0], range[1]));
    }
    return complete;
  }

  private Loop complete(Loop loop, int head, int last) {
    Set<Integer> stored = storedSlots(head, last);
    boolean[] inLoop = range(head, last);
    List<LoopExit> exits = new ArrayList<>();
    for (int i = 0; i < inLoop.length; i++) {
      if (!inLoop[i] || !flow.isReachable(i) || frames[i] == null) {
        continue;
      }
      for (int successor : flow.successors(i)) {
        if (inLoop[successor] || exceptional.contains(((long) i << 32) | successor)) {
          continue;
        }
        if (!handledInLoop(i, inLoop)) {
          exits.add(exit(i, successor, head, last, inLoop, stored));
        }
      }
    }
    TreeSet<Integer> varying = new TreeSet<>();
    for (int i = head; i <= last; i++) {
      AbstractInsnNode insn = insns.get(i);
      Integer op = opIndex.get(insn);
      if (op != null
          && insn instanceof MethodInsnNode call
          && sources[i] != null
          && operandsRead(call, sources[i], stored)) {
        varying.add(op);
      }
    }
    return new Loop(loop.id(), loop.parent(), loop.line(), exits, List.copyOf(varying));
  }

  private Set<Integer> storedSlots(int head, int last) {
    Set<Integer> stored = new HashSet<>();
    for (int i = head; i <= last; i++) {
      AbstractInsnNode insn = insns.get(i);
      if (insn instanceof VarInsnNode var && isStore(insn.getOpcode())) {
        stored.add(var.var);
      } else if (insn instanceof IincInsnNode iinc) {
        stored.add(iinc.var);
      }
    }
    return stored;
  }

  private static boolean isStore(int opcode) {
    return opcode >= Opcodes.ISTORE && opcode <= Opcodes.ASTORE;
  }

  /**
   * The instructions of a loop: its range, and the code of {@code catch} clauses of a {@code try}
   * in it that javac placed after the range (a {@code try} that ends the body).
   */
  private LoopExit exit(
      int from, int to, int head, int last, boolean[] inLoop, Set<Integer> stored) {
    List<Guard> guards = new ArrayList<>(relativeGuards(from, head, inLoop));
    List<LocalStore> stores = List.of();
    if (insns.get(from) instanceof JumpInsnNode jump
        && jump.getOpcode() != Opcodes.GOTO
        && jump.getOpcode() != Opcodes.JSR) {
      boolean taken = insns.indexOf(jump.label) == to;
      Decoded test = decode(from, taken);
      boolean carried = test.slot() >= 0 && stored.contains(test.slot());
      Guard deciding = test.guard();
      if (deciding.subject().isOpaque()) {
        deciding =
            carried ? new Guard(Value.UNKNOWN, deciding.test(), deciding.outcome()) : UNKNOWN;
      }
      guards.add(deciding);
      if (carried) {
        stores = stores(test.slot(), head, last);
      }
    } else if (!guards.isEmpty()) {
      // a break that is an if's only statement: its branch's test decides the exit
      int node = from;
      while (flow.predecessors(node).size() == 1) {
        int before = flow.predecessors(node).get(0);
        AbstractInsnNode insn = insns.get(before);
        if (insn instanceof JumpInsnNode branch
            && insn.getOpcode() != Opcodes.GOTO
            && insn.getOpcode() != Opcodes.JSR
            && frames[before] != null) {
          Decoded test = decode(before, insns.indexOf(branch.label) == node);
          boolean carried = test.slot() >= 0 && stored.contains(test.slot());
          Guard deciding = test.guard();
          if (deciding.subject().isOpaque()) {
            deciding =
                carried ? new Guard(Value.UNKNOWN, deciding.test(), deciding.outcome()) : UNKNOWN;
          }
          guards.set(guards.size() - 1, deciding);
          if (carried) {
            stores = stores(test.slot(), head, last);
          }
          break;
        }
        if (insn.getOpcode() >= 0) {
          break;
        }
        node = before;
      }
    }
    return new LoopExit(guards, stores);
  }

  /** The guards established within the loop on the way to {@code insn}, outermost first. */
  private List<Guard> relativeGuards(int insn, int head, boolean[] inLoop) {
    List<Guard> guards = new ArrayList<>();
    int node = insn;
    while (flow.isReachable(node) && inLoop[node]) {
      if (guardAt[node] != null) {
        List<Guard> here = guardAt[node];
        for (int g = here.size() - 1; g >= 0; g--) {
          guards.add(here.get(g));
        }
      }
      if (node == head) {
        break;
      }
      int up = flow.immediateDominator(node);
      if (up == node || up < 0) {
        break;
      }
      node = up;
    }
    Collections.reverse(guards);
    return guards;
  }

  private boolean[] range(int head, int last) {
    boolean[] inLoop = new boolean[insns.size()];
    for (int i = head; i <= last; i++) {
      inLoop[i] = true;
    }
    return inLoop;
  }

  /** Whether a {@code catch} clause of a {@code try} in the loop leads to {@code insn}. */
  private boolean handledInLoop(int insn, boolean[] inLoop) {
    int node = insn;
    while (flow.isReachable(node) && inLoop[node]) {
      if (flow.isHandlerEntry(node)) {
        return true;
      }
      int up = flow.immediateDominator(node);
      if (up == node || up < 0) {
        return false;
      }
      node = up;
    }
    return false;
  }

  private List<LocalStore> stores(int slot, int head, int last) {
    List<LocalStore> stores = new ArrayList<>();
    for (int i = head; i <= last; i++) {
      AbstractInsnNode insn = insns.get(i);
      if (frames[i] == null || !flow.isReachable(i)) {
        continue;
      }
      Value value = null;
      if (insn instanceof VarInsnNode var && isStore(insn.getOpcode()) && var.var == slot) {
        SymbolicValue top = frames[i].getStack(frames[i].getStackSize() - 1);
        value = top == null ? Value.UNKNOWN : top.value;
      } else if (insn instanceof IincInsnNode iinc && iinc.var == slot) {
        value = Value.UNKNOWN;
      }
      if (value != null) {
        stores.add(new LocalStore(value, relativeGuards(i, head, range(head, last))));
      }
    }
    return stores;
  }

  // ---------------------------------------------------------------- the deciding test

  /** A branch's test on one of its sides, and the local slot its subject was loaded from. */
  private record Decoded(Guard guard, int slot) {}

  private Decoded decode(int branch, boolean taken) {
    int opcode = insns.get(branch).getOpcode();
    Frame<SymbolicValue> frame = frames[branch];
    int top = frame.getStackSize();
    switch (opcode) {
      case Opcodes.IFNULL, Opcodes.IFNONNULL -> {
        boolean isNull = (opcode == Opcodes.IFNULL) == taken;
        return new Decoded(
            new Guard(frame.getStack(top - 1).value, Guard.Test.NULL, isNull),
            loadedSlot(sources[branch].getStack(top - 1)));
      }
      case Opcodes.IFEQ, Opcodes.IFNE, Opcodes.IFLT, Opcodes.IFGE, Opcodes.IFGT, Opcodes.IFLE -> {
        int relation = taken ? opcode - Opcodes.IFEQ : negate(opcode - Opcodes.IFEQ);
        SourceValue tested = sources[branch].getStack(top - 1);
        AbstractInsnNode producer = single(tested);
        if (producer != null && producer.getOpcode() == Opcodes.LCMP) {
          int p = insns.indexOf(producer);
          if (frames[p] == null || sources[p] == null) {
            return unknown();
          }
          int size = frames[p].getStackSize();
          return compare(
              frames[p].getStack(size - 2).value,
              sources[p].getStack(size - 2),
              frames[p].getStack(size - 1).value,
              sources[p].getStack(size - 1),
              relation);
        }
        return compared(frame.getStack(top - 1).value, loadedSlot(tested), relation, 0);
      }
      case Opcodes.IF_ICMPEQ,
          Opcodes.IF_ICMPNE,
          Opcodes.IF_ICMPLT,
          Opcodes.IF_ICMPGE,
          Opcodes.IF_ICMPGT,
          Opcodes.IF_ICMPLE -> {
        int relation = taken ? opcode - Opcodes.IF_ICMPEQ : negate(opcode - Opcodes.IF_ICMPEQ);
        return compare(
            frame.getStack(top - 2).value,
            sources[branch].getStack(top - 2),
            frame.getStack(top - 1).value,
            sources[branch].getStack(top - 1),
            relation);
      }
      case Opcodes.IF_ACMPEQ, Opcodes.IF_ACMPNE -> {
        // null == x and null != x: javac writes the null first when the source does
        boolean leftNull = MethodReader.isNullConstant(frame.getStack(top - 2).value);
        boolean rightNull = MethodReader.isNullConstant(frame.getStack(top - 1).value);
        if (leftNull == rightNull) {
          return unknown();
        }
        int operand = leftNull ? top - 1 : top - 2;
        boolean isNull = (opcode == Opcodes.IF_ACMPEQ) == taken;
        return new Decoded(
            new Guard(frame.getStack(operand).value, Guard.Test.NULL, isNull),
            loadedSlot(sources[branch].getStack(operand)));
      }
      default -> {
        return unknown();
      }
    }
  }

  private static Decoded unknown() {
    return new Decoded(UNKNOWN, -1);
  }

  // relations, in the order of IFEQ..IFLE: ==, !=, <, >=, >, <=
  private static final int EQ = 0;
  private static final int NE = 1;
  private static final int LT = 2;
  private static final int GE = 3;
  private static final int GT = 4;
  private static final int LE = 5;

  private static int negate(int relation) {
    return switch (relation) {
      case EQ -> NE;
      case NE -> EQ;
      case LT -> GE;
      case GE -> LT;
      case GT -> LE;
      default -> GT;
    };
  }

  private static int mirror(int relation) {
    return switch (relation) {
      case LT -> GT;
      case GT -> LT;
      case GE -> LE;
      case LE -> GE;
      default -> relation;
    };
  }

  /** {@code left <relation> right} where one side is the constant 0 or 1. */
  private Decoded compare(
      Value left, SourceValue leftSource, Value right, SourceValue rightSource, int relation) {
    Long leftConstant = zeroOrOne(left);
    Long rightConstant = zeroOrOne(right);
    if ((leftConstant == null) == (rightConstant == null)) {
      return unknown();
    }
    if (leftConstant != null) {
      return compared(right, loadedSlot(rightSource), mirror(relation), leftConstant);
    }
    return compared(left, loadedSlot(leftSource), relation, rightConstant);
  }

  /** {@code value <relation> constant} as a test, the way the source front-end writes it. */
  private static Decoded compared(Value value, int slot, int relation, long constant) {
    if (constant == 0 && (relation == EQ || relation == NE)) {
      return new Decoded(new Guard(value, Guard.Test.TRUE, relation == NE), slot);
    }
    if ((constant == 0 && relation == GT) || (constant == 1 && relation == GE)) {
      return new Decoded(new Guard(value, Guard.Test.POSITIVE, true), slot);
    }
    if ((constant == 0 && relation == LE) || (constant == 1 && relation == LT)) {
      return new Decoded(new Guard(value, Guard.Test.POSITIVE, false), slot);
    }
    return unknown();
  }

  private static Long zeroOrOne(Value value) {
    if (value instanceof Value.Constant constant
        && (constant.text().equals("0") || constant.text().equals("1"))) {
      return Long.parseLong(constant.text());
    }
    return null;
  }

  private static AbstractInsnNode single(SourceValue value) {
    return value != null && value.insns.size() == 1 ? value.insns.iterator().next() : null;
  }

  /** The local slot a value was loaded from directly, or -1. */
  private static int loadedSlot(SourceValue value) {
    AbstractInsnNode producer = single(value);
    if (producer instanceof VarInsnNode var
        && producer.getOpcode() >= Opcodes.ILOAD
        && producer.getOpcode() <= Opcodes.ALOAD) {
      return var.var;
    }
    return -1;
  }

  // ---------------------------------------------------------------- varying operands

  private boolean operandsRead(MethodInsnNode call, Frame<SourceValue> frame, Set<Integer> stored) {
    int arguments = Type.getArgumentTypes(call.desc).length;
    boolean constructor = call.name.equals("<init>");
    int count = arguments + (call.getOpcode() == Opcodes.INVOKESTATIC || constructor ? 0 : 1);
    int top = frame.getStackSize();
    for (int k = 0; k < count && top - 1 - k >= 0; k++) {
      if (reads(frame.getStack(top - 1 - k), stored, 0)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a value comes from a stored slot, through computations but not through calls. */
  private boolean reads(SourceValue value, Set<Integer> stored, int depth) {
    if (value == null || depth > 8 || stored.isEmpty()) {
      return false;
    }
    for (AbstractInsnNode producer : value.insns) {
      int opcode = producer.getOpcode();
      if (producer instanceof VarInsnNode var) {
        if (opcode >= Opcodes.ILOAD && opcode <= Opcodes.ALOAD && stored.contains(var.var)) {
          return true;
        }
        continue;
      }
      if (producer instanceof MethodInsnNode call && !SymbolicInterpreter.isBoxing(call)) {
        continue; // a call's result: the call is a varying operation of its own if it is one
      }
      if (producer instanceof InvokeDynamicInsnNode indy
          && SymbolicInterpreter.isLambdaFactory(indy)) {
        continue;
      }
      if (producer.getType() == AbstractInsnNode.TYPE_INSN
          || producer.getType() == AbstractInsnNode.LDC_INSN
          || opcode == Opcodes.GETSTATIC
          || (opcode >= Opcodes.ACONST_NULL && opcode <= Opcodes.SIPUSH)) {
        continue; // NEW, constants, static fields
      }
      int at = insns.indexOf(producer);
      Frame<SourceValue> before = at >= 0 ? sources[at] : null;
      if (before == null) {
        continue;
      }
      int consumed = consumed(producer, before, at);
      int size = before.getStackSize();
      for (int k = 0; k < consumed && size - 1 - k >= 0; k++) {
        if (reads(before.getStack(size - 1 - k), stored, depth + 1)) {
          return true;
        }
      }
    }
    return false;
  }

  /** How many stack values an instruction that pushes one value takes. */
  private int consumed(AbstractInsnNode producer, Frame<SourceValue> before, int at) {
    int opcode = producer.getOpcode();
    if (opcode >= Opcodes.DUP && opcode <= Opcodes.SWAP) {
      return 1;
    }
    if (producer instanceof MethodInsnNode call) {
      return Type.getArgumentTypes(call.desc).length
          + (call.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
    }
    if (producer instanceof InvokeDynamicInsnNode indy) {
      return Type.getArgumentTypes(indy.desc).length;
    }
    Frame<SourceValue> after = at + 1 < sources.length ? sources[at + 1] : null;
    if (after == null) {
      return 0;
    }
    return Math.max(0, before.getStackSize() - after.getStackSize() + 1);
  }
}
