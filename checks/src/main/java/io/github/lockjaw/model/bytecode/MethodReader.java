package io.github.lockjaw.model.bytecode;

import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Reads one method's bytecode into {@link MethodFacts}: ASM's analyzer with a {@link
 * SymbolicInterpreter} gives the values on the stack at each instruction, the control-flow graph
 * gives monitor regions (monitorenter/monitorexit), loops (back edges), guards (a branch whose
 * successor is reached only through it guards what that successor dominates) and catch handlers.
 */
final class MethodReader {
  private final String owner;
  private final MethodNode method;
  private final MethodRef ref;
  private final MethodRef enclosing;
  private final int capturedCount;
  private final Map<InvokeDynamicInsnNode, MethodRef> lambdaBodies;
  private final InsnList insns;
  private final boolean loopExits;

  /**
   * @param loopExits whether to read how each loop can be left (its exits, varying calls and tested
   *     values, a second data-flow pass): the analysed code's busy-wait queries ask for them; a
   *     class-path method a call leads to is asked only for its operations
   */
  MethodReader(
      String owner,
      MethodNode method,
      MethodRef ref,
      MethodRef enclosing,
      int capturedCount,
      Map<InvokeDynamicInsnNode, MethodRef> lambdaBodies,
      boolean loopExits) {
    this.owner = owner;
    this.method = method;
    this.ref = ref;
    this.enclosing = enclosing;
    this.capturedCount = capturedCount;
    this.lambdaBodies = lambdaBodies;
    this.insns = method.instructions;
    this.loopExits = loopExits;
  }

  MethodFacts read() throws AnalyzerException {
    int size = insns.size();
    int[] lines = lineOfEachInstruction();
    Map<AbstractInsnNode, Integer> opIndex = numberOperations();
    boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
    ControlFlow flow = new ControlFlow(size);
    Frame<SymbolicValue>[] frames;
    if (size == 0) {
      return facts(List.of(), List.of(), List.of(), 0);
    }
    Set<TryCatchBlockNode> cleanups = cleanupHandlers();
    SymbolicInterpreter interpreter =
        new SymbolicInterpreter(
            opIndex, lambdaBodies, parameterSlots(isStatic), capturedCount, cleanups, insns);
    List<int[]> exceptionEdges = new ArrayList<>();
    Analyzer<SymbolicValue> analyzer =
        new Analyzer<>(interpreter) {
          @Override
          protected void newControlFlowEdge(int insn, int successor) {
            flow.addEdge(insn, successor);
          }

          @Override
          protected boolean newControlFlowExceptionEdge(int insn, int successor) {
            flow.addEdge(insn, successor);
            exceptionEdges.add(new int[] {insn, successor});
            return true;
          }
        };
    frames = analyzer.analyze(owner.replace('.', '/'), method);
    ControlFlow.markHandlers(flow, method, cleanups);
    flow.computeDominators();

    List<Region> regions = new ArrayList<>();
    int[][] held = regions(flow, frames, lines, exceptionEdges, regions);
    List<Loop> loops = new ArrayList<>();
    int[][] loopsOf = loops(flow, lines, loops);
    List<Guard>[] guardAt = guardHeads(flow, frames);
    if (loopExits) {
      loops =
          LoopFactsReader.complete(
              owner, method, loops, flow.loops(), frames, flow, guardAt, exceptionEdges, opIndex);
    }

    List<Op> ops = new ArrayList<>();
    Map<AbstractInsnNode, Value> newOps = new HashMap<>();
    Map<AbstractInsnNode, AbstractInsnNode> initOfNew = new HashMap<>();
    for (int i = 0; i < size; i++) {
      AbstractInsnNode insn = insns.get(i);
      if (insn instanceof MethodInsnNode call
          && SymbolicInterpreter.isBoxingConstructor(call)
          && frames[i] != null) {
        // new Long(n) is n boxed: the new object's value is its argument's
        int top = frames[i].getStackSize();
        SymbolicValue created = frames[i].getStack(top - 2);
        if (created.uninitialized != null) {
          newOps.put(created.uninitialized, value(frames[i].getStack(top - 1), newOps));
        }
      }
      Integer index = opIndex.get(insn);
      if (index == null || frames[i] == null || isSuppressionBookkeeping(insn, flow, i)) {
        if (index != null) {
          ops.add(placeholder(index, lines[i]));
        }
        continue;
      }
      Context context = context(flow, i, held, loopsOf, guardAt, frames);
      ops.add(operation(index, insn, frames[i], context, lines[i], newOps, initOfNew));
    }
    return facts(ops, regions, loops, firstLine(lines));
  }

  /**
   * Handlers that only clean up and rethrow: catch-all ones ({@code finally}, {@code synchronized})
   * and the {@code catch (Throwable t)} that javac writes for try-with-resources (it calls {@code
   * addSuppressed}). Their code repeats the normal path's cleanup; it is not a failure path of its
   * own.
   */
  private Set<TryCatchBlockNode> cleanupHandlers() {
    Set<TryCatchBlockNode> cleanups = new HashSet<>();
    for (TryCatchBlockNode block : method.tryCatchBlocks) {
      if (block.type == null) {
        cleanups.add(block);
      } else if (block.type.equals("java/lang/Throwable")) {
        int seen = 0;
        for (AbstractInsnNode insn = block.handler;
            insn != null && seen < 40;
            insn = insn.getNext()) {
          if (insn instanceof MethodInsnNode call && call.name.equals("addSuppressed")) {
            cleanups.add(block);
            break;
          }
          if (insn.getOpcode() >= 0) {
            seen++;
          }
        }
      }
    }
    return cleanups;
  }

  /** The {@code addSuppressed} of a try-with-resources cleanup: javac's, not the program's. */
  private boolean isSuppressionBookkeeping(AbstractInsnNode insn, ControlFlow flow, int index) {
    return insn instanceof MethodInsnNode call
        && call.name.equals("addSuppressed")
        && call.owner.equals("java/lang/Throwable")
        && flow.isReachable(index)
        && flow.inCleanupHandler(index);
  }

  private MethodFacts facts(List<Op> ops, List<Region> regions, List<Loop> loops, int line) {
    return new MethodFacts(
        ref,
        method.access & ClassFileFacts.METHOD_ACCESS,
        ClassFileFacts.annotations(method.visibleAnnotations, method.invisibleAnnotations),
        ops,
        regions,
        loops,
        line,
        enclosing,
        parameterNames());
  }

  /**
   * The declared parameters' names, from the {@code MethodParameters} attribute or the local
   * variable table; none for lambda bodies or without either.
   */
  private List<String> parameterNames() {
    if (enclosing != null) {
      return List.of();
    }
    Type[] parameters = Type.getArgumentTypes(method.desc);
    List<String> names = new ArrayList<>();
    if (method.parameters != null && method.parameters.size() == parameters.length) {
      method.parameters.forEach(p -> names.add(p.name == null ? "" : p.name));
      return names;
    }
    int slot = (method.access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
    for (Type parameter : parameters) {
      String name = "";
      if (method.localVariables != null) {
        for (var local : method.localVariables) {
          if (local.index == slot) {
            name = local.name;
            break;
          }
        }
      }
      names.add(name);
      slot += parameter.getSize();
    }
    return names;
  }

  /** An operation in unreachable code: kept so that indexes stay dense, with no context. */
  private static Op placeholder(int index, int line) {
    return new Op(index, Op.Kind.RETURN, null, null, null, List.of(), Context.NONE, line);
  }

  private static int firstLine(int[] lines) {
    for (int line : lines) {
      if (line > 0) {
        return line;
      }
    }
    return 0;
  }

  private int[] lineOfEachInstruction() {
    int[] lines = new int[insns.size()];
    int line = 0;
    for (int i = 0; i < lines.length; i++) {
      AbstractInsnNode insn = insns.get(i);
      if (insn instanceof LineNumberNode number) {
        line = number.line;
      }
      lines[i] = line;
    }
    // a line number node follows its label: instructions before the first one take its line
    return lines;
  }

  /** Which declared parameter each local slot holds on entry (-1: none, or {@code this}). */
  private int[] parameterSlots(boolean isStatic) {
    Type[] parameters = Type.getArgumentTypes(method.desc);
    int[] slots = new int[Math.max(method.maxLocals, 1) + 2];
    Arrays.fill(slots, -1);
    int slot = isStatic ? 0 : 1;
    for (int p = 0; p < parameters.length && slot < slots.length; p++) {
      slots[slot] = p;
      slot += parameters[p].getSize();
    }
    return slots;
  }

  /** The index of every instruction that becomes an operation, in instruction order. */
  private Map<AbstractInsnNode, Integer> numberOperations() {
    Map<AbstractInsnNode, Integer> index = new HashMap<>();
    int next = 0;
    for (int i = 0; i < insns.size(); i++) {
      AbstractInsnNode insn = insns.get(i);
      if (isOperation(insn)) {
        index.put(insn, next++);
      }
    }
    return index;
  }

  private boolean isOperation(AbstractInsnNode insn) {
    int opcode = insn.getOpcode();
    if (insn instanceof MethodInsnNode call) {
      if (SymbolicInterpreter.isBoxing(call)
          || SymbolicInterpreter.isBoxingConstructor(call)
          || SymbolicInterpreter.isStringBuilding(call.owner)
          || SymbolicInterpreter.isClassLiteralHelper(call)
          || call.name.startsWith("$")) {
        return false;
      }
      return !isDiscardedNullCheck(call);
    }
    if (insn instanceof FieldInsnNode field) {
      return !field.name.contains("$");
    }
    return (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) || opcode == Opcodes.ATHROW;
  }

  /**
   * {@code x.getClass()} or {@code Objects.requireNonNull(x)} whose result is popped at once: the
   * null check javac adds for {@code outer.new Inner()} and {@code x::m}, not written in source.
   */
  private static boolean isDiscardedNullCheck(MethodInsnNode call) {
    boolean check =
        (call.name.equals("getClass") && call.owner.equals("java/lang/Object"))
            || (call.name.equals("requireNonNull")
                && call.owner.equals("java/util/Objects")
                && call.desc.equals("(Ljava/lang/Object;)Ljava/lang/Object;"));
    if (!check) {
      return false;
    }
    AbstractInsnNode next = call.getNext();
    while (next != null && next.getOpcode() < 0) {
      next = next.getNext();
    }
    return next != null && next.getOpcode() == Opcodes.POP;
  }

  private Op operation(
      int index,
      AbstractInsnNode insn,
      Frame<SymbolicValue> frame,
      Context context,
      int line,
      Map<AbstractInsnNode, Value> newOps,
      Map<AbstractInsnNode, AbstractInsnNode> initOfNew) {
    int top = frame.getStackSize();
    if (insn instanceof MethodInsnNode call) {
      int arguments = Type.getArgumentTypes(call.desc).length;
      List<Value> args = new ArrayList<>(arguments);
      for (int a = 0; a < arguments; a++) {
        args.add(value(frame.getStack(top - arguments + a), newOps));
      }
      MethodRef target = new MethodRef(call.owner.replace('/', '.'), call.name, call.desc);
      if (call.getOpcode() == Opcodes.INVOKESTATIC) {
        return new Op(index, Op.Kind.INVOKE_STATIC, target, null, null, args, context, line);
      }
      SymbolicValue receiver = frame.getStack(top - arguments - 1);
      if (call.name.equals("<init>") && receiver.uninitialized != null) {
        newOps.put(receiver.uninitialized, new Value.Result(index));
        return new Op(index, Op.Kind.NEW, target, null, null, args, context, line);
      }
      Op.Kind kind =
          call.getOpcode() == Opcodes.INVOKESPECIAL
              ? Op.Kind.INVOKE_SPECIAL
              : Op.Kind.INVOKE_VIRTUAL;
      return new Op(index, kind, target, null, value(receiver, newOps), args, context, line);
    }
    if (insn instanceof FieldInsnNode field) {
      var ref = SymbolicInterpreter.fieldRef(field);
      return switch (insn.getOpcode()) {
        case Opcodes.GETSTATIC ->
            new Op(index, Op.Kind.GET_FIELD, null, ref, null, List.of(), context, line);
        case Opcodes.PUTSTATIC ->
            new Op(
                index,
                Op.Kind.PUT_FIELD,
                null,
                ref,
                null,
                List.of(value(frame.getStack(top - 1), newOps)),
                context,
                line);
        case Opcodes.GETFIELD ->
            new Op(
                index,
                Op.Kind.GET_FIELD,
                null,
                ref,
                value(frame.getStack(top - 1), newOps),
                List.of(),
                context,
                line);
        default ->
            new Op(
                index,
                Op.Kind.PUT_FIELD,
                null,
                ref,
                value(frame.getStack(top - 2), newOps),
                List.of(value(frame.getStack(top - 1), newOps)),
                context,
                line);
      };
    }
    if (insn.getOpcode() == Opcodes.ATHROW) {
      if (frame.getStack(top - 1).caughtByCatchAll) {
        // the rethrow at the end of a finally block or a synchronized block's cleanup
        return new Op(index, Op.Kind.THROW, null, null, null, List.of(), Context.NONE, line);
      }
      return new Op(
          index,
          Op.Kind.THROW,
          null,
          null,
          null,
          List.of(value(frame.getStack(top - 1), newOps)),
          context,
          line);
    }
    List<Value> returned =
        insn.getOpcode() == Opcodes.RETURN || top == 0
            ? List.of()
            : List.of(value(frame.getStack(top - 1), newOps));
    return new Op(index, Op.Kind.RETURN, null, null, null, returned, context, line);
  }

  private static Value value(SymbolicValue symbolic, Map<AbstractInsnNode, Value> newOps) {
    if (symbolic == null) {
      return Value.UNKNOWN;
    }
    if (symbolic.uninitialized != null) {
      Value created = newOps.get(symbolic.uninitialized);
      return created == null ? Value.UNKNOWN : created;
    }
    return symbolic.value;
  }

  /**
   * The monitor regions held before each instruction (ids, outermost first), by a forward dataflow
   * over the control-flow graph: a monitorenter opens a region, a monitorexit closes the innermost;
   * where paths meet with different regions, only their common outer regions count as held.
   */
  private int[][] regions(
      ControlFlow flow,
      Frame<SymbolicValue>[] frames,
      int[] lines,
      List<int[]> exceptionEdges,
      List<Region> regions) {
    int size = insns.size();
    int[][] held = new int[size][];
    Map<Integer, Integer> regionOfEnter = new HashMap<>();
    int[] entry = new int[0];
    if ((method.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
      boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
      regions.add(
          new Region(
              0,
              isStatic ? new Value.ClassLiteral(owner) : Value.THIS,
              isStatic ? "java.lang.Class" : owner,
              true,
              -1,
              firstLine(lines)));
      entry = new int[] {0};
    }
    for (int i = 0; i < size; i++) {
      if (insns.get(i).getOpcode() == Opcodes.MONITORENTER && frames[i] != null) {
        SymbolicValue monitor = frames[i].getStack(frames[i].getStackSize() - 1);
        int id = regions.size();
        regionOfEnter.put(i, id);
        String type = monitor.type == null ? "" : Type.getObjectType(monitor.type).getClassName();
        regions.add(new Region(id, value(monitor, Map.of()), type, false, -1, lines[i]));
      }
    }
    Set<Long> exceptional = new HashSet<>();
    for (int[] edge : exceptionEdges) {
      exceptional.add(((long) edge[0] << 32) | edge[1]);
    }
    Deque<Integer> work = new ArrayDeque<>();
    held[0] = entry;
    work.add(0);
    while (!work.isEmpty()) {
      int i = work.poll();
      int[] in = held[i];
      int[] out = in;
      int opcode = insns.get(i).getOpcode();
      if (opcode == Opcodes.MONITORENTER && regionOfEnter.containsKey(i)) {
        out = Arrays.copyOf(in, in.length + 1);
        out[in.length] = regionOfEnter.get(i);
      } else if (opcode == Opcodes.MONITOREXIT && in.length > 0) {
        out = Arrays.copyOf(in, in.length - 1);
      }
      for (int successor : flow.successors(i)) {
        int[] state = exceptional.contains(((long) i << 32) | successor) ? in : out;
        int[] old = held[successor];
        int[] merged = old == null ? state : commonPrefix(old, state);
        if (old == null || !Arrays.equals(old, merged)) {
          held[successor] = merged;
          work.add(successor);
        }
      }
    }
    // a region's parent: the innermost region held where it is entered
    for (Map.Entry<Integer, Integer> enter : regionOfEnter.entrySet()) {
      int[] before = held[enter.getKey()];
      if (before != null && before.length > 0) {
        Region region = regions.get(enter.getValue());
        regions.set(
            region.id(),
            new Region(
                region.id(),
                region.monitor(),
                region.monitorType(),
                false,
                before[before.length - 1],
                region.line()));
      }
    }
    return held;
  }

  private static int[] commonPrefix(int[] a, int[] b) {
    int n = 0;
    while (n < a.length && n < b.length && a[n] == b[n]) {
      n++;
    }
    return n == a.length ? a : Arrays.copyOf(a, n);
  }

  /** The loops each instruction is in (ids, outermost first). */
  private int[][] loops(ControlFlow flow, int[] lines, List<Loop> loops) {
    List<int[]> ranges = flow.loops();
    int[][] loopsOf = new int[insns.size()][];
    for (int id = 0; id < ranges.size(); id++) {
      int[] range = ranges.get(id);
      int parent = -1;
      for (int outer = id - 1; outer >= 0; outer--) {
        int[] candidate = ranges.get(outer);
        if (candidate[0] <= range[0] && range[1] <= candidate[1]) {
          parent = outer;
          break;
        }
      }
      loops.add(
          new Loop(id, parent, lines[range[0]] > 0 ? lines[range[0]] : lineAfter(lines, range[0])));
    }
    for (int i = 0; i < loopsOf.length; i++) {
      List<Integer> in = new ArrayList<>();
      for (int id = 0; id < ranges.size(); id++) {
        int[] range = ranges.get(id);
        if (range[0] <= i && i <= range[1]) {
          in.add(id);
        }
      }
      loopsOf[i] = in.stream().mapToInt(Integer::intValue).toArray();
    }
    return loopsOf;
  }

  private static int lineAfter(int[] lines, int from) {
    for (int i = from; i < lines.length; i++) {
      if (lines[i] > 0) {
        return lines[i];
      }
    }
    return 0;
  }

  /**
   * The guard each instruction introduces for what it dominates: the successor of a conditional
   * branch that only the branch reaches carries the branch's condition with that successor's
   * outcome.
   */
  @SuppressWarnings("unchecked")
  private List<Guard>[] guardHeads(ControlFlow flow, Frame<SymbolicValue>[] frames) {
    List<Guard>[] heads = new List[insns.size()];
    for (int i = 0; i < insns.size(); i++) {
      AbstractInsnNode insn = insns.get(i);
      if (!(insn instanceof JumpInsnNode jump) || frames[i] == null) {
        continue;
      }
      int opcode = insn.getOpcode();
      if (opcode == Opcodes.GOTO || opcode == Opcodes.JSR) {
        continue;
      }
      Frame<SymbolicValue> frame = frames[i];
      Value subject = Value.UNKNOWN;
      Guard.Test test = Guard.Test.TRUE;
      boolean takenOutcome = true;
      boolean known = true;
      switch (opcode) {
        case Opcodes.IFNULL -> {
          subject = value(frame.getStack(frame.getStackSize() - 1), Map.of());
          test = Guard.Test.NULL;
          takenOutcome = true;
        }
        case Opcodes.IFNONNULL -> {
          subject = value(frame.getStack(frame.getStackSize() - 1), Map.of());
          test = Guard.Test.NULL;
          takenOutcome = false;
        }
        case Opcodes.IFEQ -> {
          subject = value(frame.getStack(frame.getStackSize() - 1), Map.of());
          takenOutcome = false;
        }
        case Opcodes.IFNE -> {
          subject = value(frame.getStack(frame.getStackSize() - 1), Map.of());
          takenOutcome = true;
        }
        case Opcodes.IF_ACMPEQ, Opcodes.IF_ACMPNE -> {
          // null == x and null != x: javac writes the null first when the source does
          Value left = value(frame.getStack(frame.getStackSize() - 2), Map.of());
          Value right = value(frame.getStack(frame.getStackSize() - 1), Map.of());
          if (isNullConstant(left) != isNullConstant(right)) {
            subject = isNullConstant(left) ? right : left;
            test = Guard.Test.NULL;
            takenOutcome = opcode == Opcodes.IF_ACMPEQ;
          } else {
            known = false;
          }
        }
        default -> known = false;
      }
      int target = insns.indexOf(jump.label);
      int fallthrough = i + 1;
      if (target == fallthrough || fallthrough >= insns.size()) {
        continue;
      }
      if (known && subject.isOpaque() && test == Guard.Test.NULL) {
        subject = Value.UNKNOWN; // a null test of a value no operation names: still a null test
      } else {
        known = known && !subject.isOpaque();
      }
      addHead(heads, flow, i, target, known ? new Guard(subject, test, takenOutcome) : unknown());
      addHead(
          heads, flow, i, fallthrough, known ? new Guard(subject, test, !takenOutcome) : unknown());
    }
    return heads;
  }

  /** The {@code null} constant ({@code aconst_null}); false for an unknown or missing value. */
  static boolean isNullConstant(Value value) {
    return value instanceof Value.Constant constant && constant.isNull();
  }

  private static Guard unknown() {
    return new Guard(Value.UNKNOWN, Guard.Test.TRUE, true);
  }

  private static void addHead(
      List<Guard>[] heads, ControlFlow flow, int branch, int successor, Guard guard) {
    List<Integer> predecessors = flow.predecessors(successor);
    if (predecessors.size() == 1 && predecessors.get(0) == branch) {
      if (heads[successor] == null) {
        heads[successor] = new ArrayList<>(1);
      }
      heads[successor].add(guard);
    }
  }

  private Context context(
      ControlFlow flow,
      int insn,
      int[][] held,
      int[][] loopsOf,
      List<Guard>[] guardAt,
      Frame<SymbolicValue>[] frames) {
    List<Guard> guards = new ArrayList<>();
    boolean inHandler = false;
    int node = insn;
    while (flow.isReachable(node)) {
      if (guardAt[node] != null) {
        List<Guard> here = guardAt[node];
        for (int g = here.size() - 1; g >= 0; g--) {
          guards.add(here.get(g));
        }
      }
      if (flow.isHandlerEntry(node)) {
        inHandler = true;
      }
      int up = flow.immediateDominator(node);
      if (up == node || up < 0) {
        break;
      }
      node = up;
    }
    Collections.reverse(guards);
    int[] regions = held[insn] == null ? new int[0] : held[insn];
    return new Context(
        Arrays.stream(regions).boxed().toList(),
        Arrays.stream(loopsOf[insn]).boxed().toList(),
        guards,
        inHandler);
  }
}
