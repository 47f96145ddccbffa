package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XField;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.generic.ALOAD;
import org.apache.bcel.generic.ConstantPoolGen;
import org.apache.bcel.generic.INVOKEINTERFACE;
import org.apache.bcel.generic.INVOKEVIRTUAL;
import org.apache.bcel.generic.IRETURN;
import org.apache.bcel.generic.Instruction;
import org.apache.bcel.generic.InstructionList;
import org.apache.bcel.generic.InvokeInstruction;

/**
 * Bytecode counterpart of the {@code ThreadAliveBusyWait} check: a loop (a backward branch) whose
 * exit depends on a polled state ({@code Thread.isAlive()}, {@code Future.isDone()}, ... from
 * {@code blocking.txt}) of an object that does not change in the loop, and that blocks on nothing
 * between polls: every other call in it is a short pause or known not to block.
 */
public class BusyWaitDetector extends LockjawDetector {
  private static final KnowledgeIndex POLLS = KnowledgeIndex.of(Kind.Blocking.POLLED_STATE);
  private static final KnowledgeIndex SPINS = KnowledgeIndex.of(Kind.Blocking.SPIN_CALL);
  private static final KnowledgeIndex BLOCKING = KnowledgeIndex.of(Kind.Blocking.BLOCKING_CALL);
  private static final KnowledgeIndex NON_BLOCKING_METHODS =
      KnowledgeIndex.of(Kind.Blocking.NON_BLOCKING_METHOD);
  private static final List<String> NON_BLOCKING_TYPES =
      KnowledgeIndex.of(Kind.Blocking.NON_BLOCKING_TYPE).internalTypeNames();
  private static final List<String> NON_BLOCKING_PACKAGES =
      Kind.Blocking.NON_BLOCKING_CONSTRUCTOR_PACKAGE.values().stream()
          .map(p -> p.replace('.', '/') + "/")
          .toList();
  private static final long WATCHDOG_MILLIS =
      Kind.Blocking.WATCHDOG_INTERVAL_MILLIS.values().stream()
          .mapToLong(Long::parseLong)
          .findFirst()
          .orElse(1000);
  private static final Set<String> POLL_NAMES = POLLS.methodNames();

  /** What one call in the method is, for the loop test. */
  private enum CallKind {
    POLL,
    SPIN,
    LONG_PAUSE,
    NON_BLOCKING,
    BLOCKING
  }

  /**
   * One call; for a poll, the conditional branch that tests its result ({@code exitBranch}, -1 if
   * none) and the constant it is compared with first ({@code compareWith}: {@code getCount() > 0},
   * {@code isAlive() == true}; 0 when it is tested as it is).
   */
  private record Call(
      int pc,
      CallKind kind,
      KnowledgeIndex.MethodEntry poll,
      String receiver,
      int exitBranch,
      int compareWith) {}

  private record Branch(int pc, int target, int opcode) {}

  private final List<Call> calls = new ArrayList<>();
  private final List<Branch> backEdges = new ArrayList<>();
  private final List<Branch> conditionals = new ArrayList<>();
  private final List<Branch> gotos = new ArrayList<>();
  private final List<int[]> stores = new ArrayList<>(); // {pc, register}
  private final List<Object[]> fieldStores = new ArrayList<>(); // {pc, field}
  private final List<Integer> counterSteps = new ArrayList<>(); // pcs of iinc
  private final List<Integer> intCompares = new ArrayList<>(); // pcs of if_icmp<cond>
  private int pendingPoll = -1;
  private int pendingConstant = 0;

  /** The lifecycle-only methods of the class being visited, once a finding needs them. */
  private LifecycleReach lifecycleReach;

  /** A poll stored in a boolean local ({@code alive = t.isAlive();}): call index to register. */
  private final Map<Integer, Integer> flagOfPoll = new HashMap<>();

  /** Conditional branches on a boolean local ({@code iload r; ifeq}): {pc, register}. */
  private final List<int[]> flagTests = new ArrayList<>();

  /** Stores to int/boolean locals: {pc, register}. */
  private final List<int[]> intStores = new ArrayList<>();

  private int lastIntLoad = -1;

  /**
   * Private helpers whose whole body polls their one parameter ({@code return t.isAlive();}), by
   * name and descriptor: a call of one is that poll on its argument.
   */
  private final Map<String, KnowledgeIndex.MethodEntry> pollHelpers = new HashMap<>();

  public BusyWaitDetector(BugReporter bugReporter) {
    super(bugReporter);
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    if (constantPoolMentions(classContext.getJavaClass(), POLL_NAMES)) {
      pollHelpers.clear();
      lifecycleReach = null;
      ConstantPoolGen pool = new ConstantPoolGen(classContext.getJavaClass().getConstantPool());
      for (Method method : classContext.getJavaClass().getMethods()) {
        pollHelper(pool, method)
            .ifPresent(poll -> pollHelpers.put(method.getName() + method.getSignature(), poll));
      }
      super.visitClassContext(classContext);
    }
  }

  @Override
  public void visit(Code code) {
    calls.clear();
    backEdges.clear();
    conditionals.clear();
    gotos.clear();
    stores.clear();
    fieldStores.clear();
    counterSteps.clear();
    intCompares.clear();
    flagOfPoll.clear();
    flagTests.clear();
    intStores.clear();
    lastIntLoad = -1;
    pendingPoll = -1;
    super.visit(code);
    findBusyWaits(getMethod());
  }

  @Override
  public void sawOpcode(int seen) {
    int intLoad = lastIntLoad;
    lastIntLoad = -1;
    if ((seen == Const.IFEQ || seen == Const.IFNE) && intLoad >= 0) {
      flagTests.add(new int[] {getPC(), intLoad});
    }
    if (isIntStore(seen)) {
      if (pendingPoll >= 0) {
        flagOfPoll.put(pendingPoll, getRegisterOperand());
      }
      intStores.add(new int[] {getPC(), getRegisterOperand()});
    }
    if (isIntLoad(seen)) {
      lastIntLoad = getRegisterOperand();
    }
    if (pendingPoll >= 0 && !isComparisonGlue(seen) && !isJump(seen)) {
      pendingPoll = -1;
    }
    if (pendingPoll >= 0 && isComparisonGlue(seen) && seen != Const.LCMP) {
      pendingConstant = seen == Const.ICONST_1 || seen == Const.LCONST_1 ? 1 : 0;
    }
    if (isJump(seen)) {
      int target = getBranchTarget();
      Branch branch = new Branch(getPC(), target, seen);
      if (seen >= Const.IF_ICMPEQ && seen <= Const.IF_ICMPLE) {
        intCompares.add(getPC());
      }
      if (seen != Const.GOTO && seen != Const.GOTO_W) {
        conditionals.add(branch);
        if (pendingPoll >= 0) {
          Call poll = calls.get(pendingPoll);
          calls.set(
              pendingPoll,
              new Call(
                  poll.pc(), poll.kind(), poll.poll(), poll.receiver(), getPC(), pendingConstant));
          pendingPoll = -1;
        }
      }
      if (target <= getPC()) {
        backEdges.add(branch);
      }
      if (seen == Const.GOTO || seen == Const.GOTO_W) {
        gotos.add(branch);
      }
      return;
    }
    switch (seen) {
      case Const.INVOKEVIRTUAL, Const.INVOKEINTERFACE, Const.INVOKESTATIC, Const.INVOKESPECIAL ->
          sawCall(seen);
      // string concatenation or a lambda being created: nothing runs, nothing waits
      case Const.INVOKEDYNAMIC ->
          calls.add(new Call(getPC(), CallKind.NON_BLOCKING, null, null, -1, 0));
      case Const.IINC -> counterSteps.add(getPC());
      case Const.ASTORE, Const.ASTORE_0, Const.ASTORE_1, Const.ASTORE_2, Const.ASTORE_3 ->
          stores.add(new int[] {getPC(), getRegisterOperand()});
      case Const.PUTFIELD, Const.PUTSTATIC -> {
        XField field = getXFieldOperand();
        if (field != null) {
          fieldStores.add(new Object[] {getPC(), field.getName()});
        }
      }
      default -> {
        // nothing to note
      }
    }
  }

  private static boolean isIntStore(int seen) {
    return seen == Const.ISTORE || (seen >= Const.ISTORE_0 && seen <= Const.ISTORE_3);
  }

  private static boolean isIntLoad(int seen) {
    return seen == Const.ILOAD || (seen >= Const.ILOAD_0 && seen <= Const.ILOAD_3);
  }

  private static boolean isComparisonGlue(int seen) {
    return seen == Const.LCONST_0
        || seen == Const.LCONST_1
        || seen == Const.LCMP
        || seen == Const.ICONST_0
        || seen == Const.ICONST_1;
  }

  private static boolean isJump(int seen) {
    return (seen >= Const.IFEQ && seen <= Const.GOTO)
        || seen == Const.IFNULL
        || seen == Const.IFNONNULL
        || seen == Const.GOTO_W;
  }

  /**
   * {@code aload p; invokevirtual|invokeinterface T.isAlive()Z; ireturn} in a private method with
   * one reference parameter {@code p}: the poll it makes, else empty.
   */
  private Optional<KnowledgeIndex.MethodEntry> pollHelper(ConstantPoolGen pool, Method method) {
    if (!method.isPrivate()
        || method.getCode() == null
        || method.getArgumentTypes().length != 1
        || !method.getSignature().endsWith(")Z")) {
      return Optional.empty();
    }
    Instruction[] code;
    try {
      code = new InstructionList(method.getCode().getCode()).getInstructions();
    } catch (RuntimeException e) {
      return Optional.empty(); // not code BCEL can read: no helper
    }
    int parameter = method.isStatic() ? 0 : 1;
    if (code.length != 3
        || !(code[0] instanceof ALOAD load)
        || load.getIndex() != parameter
        || !(code[1] instanceof InvokeInstruction call)
        || !(call instanceof INVOKEVIRTUAL || call instanceof INVOKEINTERFACE)
        || !call.getSignature(pool).equals("()Z")
        || !(code[2] instanceof IRETURN)) {
      return Optional.empty();
    }
    return match(
        POLLS, call.getReferenceType(pool).toString().replace('.', '/'), call.getMethodName(pool));
  }

  private void sawCall(int seen) {
    String owner = getClassConstantOperand();
    String name = getNameConstantOperand();
    String signature = getSigConstantOperand();
    int args = getNumberArguments(signature);
    KnowledgeIndex.MethodEntry helperPoll =
        owner.equals(getClassName()) && args == 1 ? pollHelpers.get(name + signature) : null;
    if (helperPoll != null && stack.getStackDepth() > 0) {
      calls.add(
          new Call(getPC(), CallKind.POLL, helperPoll, receiver(stack.getStackItem(0)), -1, 0));
      pendingPoll = calls.size() - 1;
      pendingConstant = 0;
      return;
    }
    if (seen != Const.INVOKESTATIC && POLL_NAMES.contains(name) && args == 0) {
      Optional<KnowledgeIndex.MethodEntry> poll = match(POLLS, owner, name);
      if (poll.isPresent() && stack.getStackDepth() > 0) {
        calls.add(
            new Call(getPC(), CallKind.POLL, poll.get(), receiver(stack.getStackItem(0)), -1, 0));
        pendingPoll = calls.size() - 1;
        pendingConstant = 0;
        return;
      }
    }
    calls.add(new Call(getPC(), classify(seen, owner, name, signature, args), null, null, -1, 0));
  }

  /** Where the polled object comes from, when it stays put: this, a local or a field. */
  private String receiver(OpcodeStack.Item item) {
    if (item.getRegisterNumber() == 0 && !getMethod().isStatic()) {
      return "this";
    }
    if (item.getXField() != null && item.getFieldLoadedFromRegister() <= 0) {
      return "field:" + item.getXField().getName();
    }
    if (item.getRegisterNumber() >= 0) {
      return "local:" + item.getRegisterNumber();
    }
    return null;
  }

  private CallKind classify(int seen, String owner, String name, String signature, int args) {
    if (match(BLOCKING, owner, name)
        .filter(e -> args >= e.attribute("min-args").map(Integer::parseInt).orElse(0))
        .isPresent()) {
      return CallKind.BLOCKING;
    }
    Optional<KnowledgeIndex.MethodEntry> spin = match(SPINS, owner, name);
    if (spin.isPresent()) {
      return pause(spin.get(), signature, args);
    }
    if (seen == Const.INVOKESPECIAL && name.equals("<init>")) {
      for (String pkg : NON_BLOCKING_PACKAGES) {
        if (owner.startsWith(pkg) && owner.indexOf('/', pkg.length()) < 0) {
          return CallKind.NON_BLOCKING;
        }
      }
      return CallKind.BLOCKING;
    }
    if (match(NON_BLOCKING_METHODS, owner, name).isPresent()) {
      return CallKind.NON_BLOCKING;
    }
    for (String type : NON_BLOCKING_TYPES) {
      if (owner.equals(type) || (owner.startsWith("java/") && isSubtype(owner, type))) {
        return CallKind.NON_BLOCKING;
      }
    }
    return CallKind.BLOCKING; // unknown calls may block: stay silent
  }

  /** A pause call: short (a spin) when its length is a constant under the watchdog interval. */
  private CallKind pause(KnowledgeIndex.MethodEntry spin, String signature, int args) {
    String duration = spin.attribute("duration").orElse("none");
    if (duration.equals("none")) {
      return CallKind.SPIN;
    }
    if (args == 0 || signature.contains("Ljava/time/Duration;")) {
      return CallKind.LONG_PAUSE; // not a constant lookup lockjaw makes in bytecode
    }
    OpcodeStack.Item length =
        switch (duration) {
          case "millis", "unit" -> stack.getStackItem(args - 1);
          case "nanos" -> stack.getStackItem(0);
          default -> null;
        };
    if (length == null || !(length.getConstant() instanceof Number number)) {
      return CallKind.LONG_PAUSE;
    }
    double millis = number.doubleValue();
    if (duration.equals("nanos")) {
      millis = millis / 1_000_000d;
    } else if (duration.equals("unit")) {
      XField unit = stack.getStackItem(args).getXField();
      if (unit == null) {
        return CallKind.LONG_PAUSE;
      }
      millis =
          switch (unit.getName()) {
            case "NANOSECONDS" -> millis / 1_000_000d;
            case "MICROSECONDS" -> millis / 1_000d;
            case "MILLISECONDS" -> millis;
            default -> millis * 1_000d;
          };
    }
    return millis < WATCHDOG_MILLIS ? CallKind.SPIN : CallKind.LONG_PAUSE;
  }

  private void findBusyWaits(Method method) {
    Set<Integer> reported = new HashSet<>();
    for (Branch back : backEdges) {
      int start = back.target();
      int end = back.pc();
      for (int index = 0; index < calls.size(); index++) {
        Call poll = calls.get(index);
        if (poll.kind() != CallKind.POLL
            || poll.pc() < start
            || poll.pc() > end
            || poll.receiver() == null
            || reported.contains(poll.pc())) {
          continue;
        }
        boolean exits =
            poll.exitBranch() >= 0
                && exitsLoop(poll.exitBranch(), start, end)
                && waitsForTheEvent(poll, poll.exitBranch(), poll.compareWith(), start, end);
        if (poll.exitBranch() < 0 && flagOfPoll.containsKey(index)) {
          int test = flagExitTest(flagOfPoll.get(index), start, end);
          exits = test >= 0 && waitsForTheEvent(poll, test, 0, start, end);
        }
        if (!exits || changesInLoop(poll.receiver(), start, end)) {
          continue;
        }
        boolean otherWork = false;
        boolean blocks = false;
        for (Call call : calls) {
          if (call.pc() < start || call.pc() > end) {
            continue;
          }
          switch (call.kind()) {
            case BLOCKING, LONG_PAUSE -> blocks = true;
            case NON_BLOCKING -> otherWork = true;
            case POLL -> otherWork |= call.pc() != poll.pc();
            default -> {
              // a spin: the busy part of a busy-wait
            }
          }
        }
        if (blocks) {
          continue;
        }
        // a pass counter compared with a bound caps the wait (count < 100): advise the timed
        // block, which keeps a cap, never the untimed one
        otherWork |= inLoop(counterSteps, start, end) && inLoop(intCompares, start, end);
        reported.add(poll.pc());
        reportPoll(method, poll, otherWork);
      }
    }
  }

  /**
   * Whether the poll's branch leaves the loop: it is the back edge itself, it jumps out, or it
   * jumps over a {@code break} (a goto out of the loop right after it: {@code if (!t.isAlive())
   * break;}).
   */
  private boolean exitsLoop(int branchPc, int start, int end) {
    for (Branch branch : conditionals) {
      if (branch.pc() == branchPc) {
        if (branch.pc() == end || branch.target() > end || branch.target() < start) {
          return true;
        }
        for (Branch jump : gotos) {
          if (jump.pc() == branch.pc() + 3 && (jump.target() > end || jump.target() < start)) {
            return true;
          }
        }
        return false;
      }
    }
    return false;
  }

  /**
   * Whether the loop goes on while the polled event is pending and leaves once it happened, as
   * {@code while (t.isAlive())} does: a loop that goes on only until the thread is alive ({@code
   * while (!t.isAlive())}, waiting for it to start), until a task is submitted or a latch armed,
   * waits for something no blocking call of the polled object replaces. {@code branchPc} is the
   * conditional branch that tests the poll (or the flag it was stored in), after a comparison with
   * {@code compareWith}.
   */
  private boolean waitsForTheEvent(Call poll, int branchPc, int compareWith, int start, int end) {
    Branch branch = null;
    for (Branch conditional : conditionals) {
      if (conditional.pc() == branchPc) {
        branch = conditional;
      }
    }
    if (branch == null) {
      return false;
    }
    // the polled value while the event is pending and once it happened (blocking.txt 'busy':
    // true: isAlive() stays true while the thread runs; false: isDone() stays false; nonzero:
    // getCount() stays above zero)
    String busy = poll.poll().attribute("busy").orElse("true");
    long pending =
        switch (busy) {
          case "false" -> 0;
          case "nonzero" -> 2;
          default -> 1;
        };
    long happened = busy.equals("false") ? 1 : 0;
    return exitsWhen(branch, compareWith, happened, start, end)
        && !exitsWhen(branch, compareWith, pending, start, end);
  }

  /** Whether the loop is left when the tested value is {@code value}. */
  private boolean exitsWhen(Branch branch, int compareWith, long value, int start, int end) {
    int sign = Long.compare(value, compareWith);
    int opcode = branch.opcode();
    if (opcode >= Const.IF_ICMPEQ && opcode <= Const.IF_ICMPLE) {
      opcode = opcode - Const.IF_ICMPEQ + Const.IFEQ;
    }
    boolean taken =
        switch (opcode) {
          case Const.IFEQ -> sign == 0;
          case Const.IFNE -> sign != 0;
          case Const.IFLT -> sign < 0;
          case Const.IFGE -> sign >= 0;
          case Const.IFGT -> sign > 0;
          case Const.IFLE -> sign <= 0;
          default -> false;
        };
    // taken, the branch leaves the loop unless it is the back edge or jumps over a break
    boolean takenLeaves = branch.pc() != end && (branch.target() > end || branch.target() < start);
    return takenLeaves == taken;
  }

  /**
   * {@code while (alive) { ...; alive = t.isAlive(); }}: the flag is stored once in the loop (the
   * poll) and a test of it leaves the loop; the pc of that test, else -1.
   */
  private int flagExitTest(int register, int start, int end) {
    // the whole loop: a continue-like branch back to the start can end before the last pass's code
    int last = end;
    for (Branch back : backEdges) {
      if (back.target() == start) {
        last = Math.max(last, back.pc());
      }
    }
    int storesInLoop = 0;
    for (int[] store : intStores) {
      if (store[1] == register && store[0] >= start && store[0] <= last) {
        storesInLoop++;
      }
    }
    if (storesInLoop != 1) {
      return -1;
    }
    for (int[] test : flagTests) {
      if (test[1] == register
          && test[0] >= start
          && test[0] <= end
          && exitsLoop(test[0], start, end)) {
        return test[0];
      }
    }
    return -1;
  }

  private boolean changesInLoop(String receiver, int start, int end) {
    if (receiver.startsWith("local:")) {
      int register = Integer.parseInt(receiver.substring("local:".length()));
      for (int[] store : stores) {
        if (store[0] >= start && store[0] <= end && store[1] == register) {
          return true;
        }
      }
    } else if (receiver.startsWith("field:")) {
      String field = receiver.substring("field:".length());
      for (Object[] store : fieldStores) {
        int pc = (Integer) store[0];
        if (pc >= start && pc <= end && field.equals(store[1])) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean inLoop(List<Integer> pcs, int start, int end) {
    return pcs.stream().anyMatch(pc -> pc >= start && pc <= end);
  }

  private void reportPoll(Method method, Call poll, boolean otherWork) {
    if (lifecycleReach == null) {
      lifecycleReach = LifecycleReach.of(getThisClass());
    }
    if (lifecycleReach.isLifecycleOnly(method)) {
      return; // a helper reached only from start-up or shutdown code in this class
    }
    KnowledgeIndex.MethodEntry polled = poll.poll();
    String await =
        JavaNames.words(polled.attribute("await").orElse("a blocking call").replace("+", ", "));
    String timed = polled.attribute("timed").orElse("").replace("+", ", ");
    String event = JavaNames.words(polled.attribute("event").orElse("the-event"));
    String message =
        display(method)
            + " busy-waits: its loop polls "
            + polled.display()
            + " until "
            + event
            + " instead of blocking, burning a CPU and adding latency while it"
            + " waits.";
    if (otherWork) {
      message +=
          " The loop also does other work on each pass: block with a timeout in it ("
              + timed
              + ") instead of the pause.";
    } else {
      message += " Blocking in " + await + " instead costs nothing while it waits.";
    }
    report(
        LockjawBugType.THREAD_ALIVE_BUSY_WAIT,
        Priorities.NORMAL_PRIORITY,
        method,
        poll.pc(),
        message);
  }
}
