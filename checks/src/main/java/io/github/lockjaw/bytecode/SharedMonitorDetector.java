package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.ba.AnalysisContext;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XField;
import io.github.lockjaw.common.InheritedTemplates;
import io.github.lockjaw.common.LockedLazyCreationMessage;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.Field;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.generic.ConstantPoolGen;
import org.apache.bcel.generic.INVOKEVIRTUAL;
import org.apache.bcel.generic.Instruction;
import org.apache.bcel.generic.InstructionList;
import org.apache.bcel.generic.Type;

/**
 * Bytecode counterpart of the {@code SharedMonitorDao} check: a {@code synchronized} method or
 * block on a monitor every caller shares (the instance, the class, a lock field) that, while it
 * holds it, opens or uses JDBC connections, calls a pool's object factory, looks names up or does
 * other network I/O ({@code jdbc.txt}, {@code io.txt}, {@code pools.txt}), directly or through
 * methods of the same class.
 */
public class SharedMonitorDetector extends LockjawDetector {
  private static final KnowledgeIndex BLOCKING_IO = blockingIo();
  private static final List<String> CONNECTING_CONSTRUCTORS =
      KnowledgeIndex.of(Kind.Io.CONNECTING_CONSTRUCTOR).internalTypeNames();
  private static final List<String> RESOURCE_TYPES = resourceTypes();
  private static final int NAMED_MEMBERS = 5;
  private static final KnowledgeIndex START_UP =
      KnowledgeIndex.of(Kind.EntryPoints.START_UP_METHOD);

  private static List<String> resourceTypes() {
    return KnowledgeIndex.of(Kind.Jdbc.RESOURCE_TYPE, Kind.Io.RESOURCE_TYPE).internalTypeNames();
  }

  /** The blocking I/O calls the source check knows too, pools' factory calls included. */
  private static KnowledgeIndex blockingIo() {
    return KnowledgeIndex.of(KnowledgeIndex.BLOCKING_IO_CALLS);
  }

  /** A monitor: {@code this}, the class object of a class, or a lock field. */
  /** A call: to blocking I/O (io != null), or to a method of this class (self != null). */
  private record Call(int pc, String io, String self, String selfDisplay) {}

  private static final class MethodFacts {
    final Method method;
    final List<Call> calls = new ArrayList<>();
    final List<Object[]> nullChecks = new ArrayList<>(); // {pc, field, target, early return}
    final List<Object[]> puts = new ArrayList<>(); // {pc, field}
    final List<Object[]> mapPuts = new ArrayList<>(); // {pc, map field}
    final List<Object[]> missTests = new ArrayList<>(); // {pc, map field, target}
    final Map<Integer, String> mapValueRegisters = new HashMap<>(); // register -> map field
    final List<int[]> branches = new ArrayList<>(); // {pc, target}; a switch: target MAX_VALUE
    final List<Integer> returns = new ArrayList<>(); // pcs of return instructions

    MethodFacts(Method method) {
      this.method = method;
    }
  }

  /**
   * A {@code synchronized} instance method of a superclass (its template) that calls a method this
   * class overrides (the hook): the override runs under the inherited monitor.
   */
  private record InheritedTemplate(String superclass, String template, String hook) {}

  private final List<InheritedTemplate> inherited = new ArrayList<>();
  private final Map<String, MethodFacts> methods = new LinkedHashMap<>();
  private final List<LockedRegion> regions = new ArrayList<>();

  /** The methods of the class reached only from lifecycle code, once a region needs them. */
  private LifecycleReach lifecycleReach;

  private MethodFacts current;
  private String lastFieldRead;
  private int lastFieldReadPc = -10;
  private String lastMapGet;
  private int lastMapGetPc = -10;

  public SharedMonitorDetector(BugReporter bugReporter) {
    super(bugReporter);
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    JavaClass javaClass = classContext.getJavaClass();
    if (javaClass.isInterface()) {
      return;
    }
    inherited.clear();
    findInheritedTemplates(javaClass);
    if (!mayLock(javaClass) && inherited.isEmpty()) {
      return;
    }
    methods.clear();
    regions.clear();
    lifecycleReach = null;
    super.visitClassContext(classContext);
    try {
      reportRegions();
      reportInherited();
    } finally {
      methods.clear();
      regions.clear();
      inherited.clear();
    }
  }

  /**
   * The superclasses' synchronized instance methods (up to three levels, not the JDK's) that call a
   * non-private method this class overrides: {@code synchronized void handle(E e) { ...
   * doHandle(e); }} with {@code doHandle} overridden here. Superclasses come from the class path
   * too (a jar).
   */
  private void findInheritedTemplates(JavaClass javaClass) {
    // name+descriptor as the superclass calls it -> the method that runs (a generic override is
    // reached through its bridge method)
    Map<String, String> overrides = new HashMap<>();
    ConstantPoolGen ownPool = new ConstantPoolGen(javaClass.getConstantPool());
    for (Method method : javaClass.getMethods()) {
      if (method.isStatic() || method.isPrivate() || method.getName().startsWith("<")) {
        continue;
      }
      String target = method.getName() + method.getSignature();
      if ((method.getAccessFlags() & Const.ACC_BRIDGE) != 0 && method.getCode() != null) {
        try {
          for (Instruction instruction :
              new InstructionList(method.getCode().getCode()).getInstructions()) {
            if (instruction instanceof INVOKEVIRTUAL call
                && call.getMethodName(ownPool).equals(method.getName())) {
              target = method.getName() + call.getSignature(ownPool);
            }
          }
        } catch (RuntimeException e) {
          continue; // not code BCEL can read
        }
      }
      overrides.put(method.getName() + method.getSignature(), target);
    }
    if (overrides.isEmpty()) {
      return;
    }
    // methods declared below a superclass override its templates: those templates never run
    Set<String> declaredBelow = new HashSet<>(overrides.keySet());
    String superName = javaClass.getSuperclassName();
    for (int depth = 0;
        depth < InheritedTemplates.MAX_DEPTH && InheritedTemplates.isReadSuperclass(superName);
        depth++) {
      JavaClass superclass;
      try {
        superclass = AnalysisContext.currentAnalysisContext().lookupClass(superName);
      } catch (ClassNotFoundException e) {
        return; // a missing class is no evidence
      }
      if (hasSynchronizedInstanceMethod(superclass)) {
        // which templates call a hook: one reader and one rule for both engines
        List<InheritedTemplates.Template> templates =
            InheritedTemplates.callingHooks(superclass.getBytes(), overrides.keySet())
                .orElse(List.of());
        for (InheritedTemplates.Template template : templates) {
          if (!declaredBelow.contains(template.name() + template.descriptor())) {
            inherited.add(
                new InheritedTemplate(
                    superclass.getClassName(), template.name(), overrides.get(template.hook())));
          }
        }
      }
      for (Method method : superclass.getMethods()) {
        if (!method.isStatic() && !method.isPrivate()) {
          declaredBelow.add(method.getName() + method.getSignature());
        }
      }
      superName = superclass.getSuperclassName();
    }
  }

  private static boolean hasSynchronizedInstanceMethod(JavaClass javaClass) {
    for (Method method : javaClass.getMethods()) {
      if (method.isSynchronized() && !method.isStatic()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Overrides that do blocking I/O while the superclass's synchronized template holds the monitor.
   */
  private void reportInherited() {
    if (inherited.isEmpty() || isPerResourceClass()) {
      return;
    }
    Map<String, List<String>> memo = new HashMap<>();
    Set<String> reported = new HashSet<>();
    for (InheritedTemplate template : inherited) {
      MethodFacts hook = methods.get(template.hook());
      if (hook == null
          || !reported.add(template.hook())
          || Lifecycle.isLifecycleOrConfiguration(
              hook.method.getName(),
              hook.method.getArgumentTypes().length,
              hook.method.getReturnType() == Type.VOID)
          || isStartUp(hook.method)) {
        continue;
      }
      List<String> chain = chainFrom(template.hook(), new HashSet<>(), memo);
      if (chain.isEmpty()) {
        continue;
      }
      int pc = 0;
      for (Call call : hook.calls) {
        if (!chainOf(call, new HashSet<>(), memo).isEmpty()) {
          pc = call.pc();
          break;
        }
      }
      String superclass = JavaNames.simpleName(template.superclass().replace('.', '/'));
      report(
          LockjawBugType.SHARED_MONITOR_DAO,
          Priorities.NORMAL_PRIORITY,
          hook.method,
          pc,
          InheritedTemplates.message(
              display(hook.method),
              JavaNames.simpleName(getClassName()),
              superclass,
              template.template(),
              chain));
    }
  }

  @Override
  public void visit(Code code) {
    Method method = getMethod();
    current = new MethodFacts(method);
    methods.put(method.getName() + method.getSignature(), current);
    if (method.isSynchronized()) {
      regions.add(LockedRegion.ofSynchronizedMethod(method, code, getClassName()));
    }
    super.visit(code);
  }

  @Override
  public void sawOpcode(int seen) {
    if (isSwitch(seen)) {
      current.branches.add(new int[] {getPC(), Integer.MAX_VALUE});
    } else if (isBranch(seen)) {
      current.branches.add(new int[] {getPC(), getBranchTarget()});
    } else if (seen >= Const.IRETURN && seen <= Const.RETURN) {
      current.returns.add(getPC());
    }
    switch (seen) {
      case Const.GETFIELD, Const.GETSTATIC -> {
        lastFieldRead = getXFieldOperand() == null ? null : getXFieldOperand().getName();
        lastFieldReadPc = getPC();
      }
      case Const.ASTORE, Const.ASTORE_0, Const.ASTORE_1, Const.ASTORE_2, Const.ASTORE_3 -> {
        if (lastMapGet != null && getPC() - lastMapGetPc <= 8) { // the invoke, a checkcast
          current.mapValueRegisters.put(getRegisterOperand(), lastMapGet);
        } else {
          current.mapValueRegisters.remove(getRegisterOperand());
        }
      }
      case Const.IFNULL, Const.IFNONNULL -> {
        if (seen == Const.IFNONNULL && stack.getStackDepth() > 0) {
          String map = current.mapValueRegisters.get(stack.getStackItem(0).getRegisterNumber());
          if (map != null) {
            // V v = map.get(k); if (v == null) { ...; map.put(k, v); }: once per key
            current.missTests.add(new Object[] {getPC(), map, getBranchTarget()});
          }
        }
        if (lastFieldRead != null
            && getPrevOpcode(1) != Const.NOP
            && (getPrevOpcode(1) == Const.GETFIELD || getPrevOpcode(1) == Const.GETSTATIC)) {
          int target = getBranchTarget();
          if (seen == Const.IFNONNULL) {
            // if (field == null) { ...; field = ...; }: the block up to the target runs once
            current.nullChecks.add(new Object[] {getPC(), lastFieldRead, target, false});
          } else if (endsWithReturn(getCode().getCode(), target)) {
            // if (field != null) return field; ...; field = ...: what follows runs once
            current.nullChecks.add(new Object[] {getPC(), lastFieldRead, target, true});
          }
        }
      }
      case Const.PUTFIELD, Const.PUTSTATIC -> {
        if (getXFieldOperand() != null) {
          current.puts.add(new Object[] {getPC(), getXFieldOperand().getName()});
        }
      }
      case Const.MONITORENTER -> sawMonitorEnter();
      case Const.INVOKEVIRTUAL, Const.INVOKEINTERFACE, Const.INVOKESTATIC, Const.INVOKESPECIAL ->
          sawCall(seen);
      default -> {
        // nothing to note
      }
    }
  }

  private void sawMonitorEnter() {
    LockedRegion.Monitor monitor =
        LockedRegion.Monitor.atMonitorEnter(stack.getStackItem(0), getMethod(), getClassName());
    if (monitor != null
        && monitor.fieldSignature() != null
        && isResourceSignature(monitor.fieldSignature())) {
      return; // a connection's own monitor is per connection
    }
    if (monitor != null && !inCatchClause(getCode(), getPC())) {
      regions.add(LockedRegion.atMonitorEnter(getMethod(), monitor, getCode(), getPC()));
    }
  }

  private boolean isResourceSignature(String signature) {
    return signature.startsWith("L")
        && signature.endsWith(";")
        && matchType(RESOURCE_TYPES, signature.substring(1, signature.length() - 1)).isPresent();
  }

  private void sawCall(int seen) {
    String owner = getClassConstantOperand();
    String name = getNameConstantOperand();
    String signature = getSigConstantOperand();
    if (name.equals("<init>")) {
      if (!signature.startsWith("()")) {
        Optional<String> connecting = matchType(CONNECTING_CONSTRUCTORS, owner);
        if (connecting.isPresent()) {
          current.calls.add(
              new Call(
                  getPC(), "new " + JavaNames.simpleName(connecting.get()) + "(...)", null, null));
        }
      }
      return;
    }
    if ((name.equals("get") || name.equals("put")) && stack.getStackDepth() > 0) {
      int arguments = Type.getArgumentTypes(signature).length;
      XField map =
          stack.getStackDepth() > arguments ? stack.getStackItem(arguments).getXField() : null;
      if (map != null && name.equals("get") && arguments == 1) {
        lastMapGet = map.getName();
        lastMapGetPc = getPC();
      } else if (map != null && name.equals("put") && arguments == 2) {
        current.mapPuts.add(new Object[] {getPC(), map.getName()});
      }
    }
    Optional<KnowledgeIndex.MethodEntry> io = match(BLOCKING_IO, owner, name);
    if (io.isPresent()) {
      String what = io.get().display();
      Optional<String> does = io.get().attribute("does");
      if (does.isPresent()) {
        what += " (for a connection pool: " + JavaNames.words(does.get()) + ")";
      }
      current.calls.add(new Call(getPC(), what, null, null));
      return;
    }
    if (owner.equals(getClassName())) {
      current.calls.add(new Call(getPC(), null, name + signature, name + "()"));
      return;
    }
  }

  /** The chain of calls from {@code method} to blocking I/O, or empty. */
  private List<String> chainFrom(
      String method, Set<String> visiting, Map<String, List<String>> memo) {
    List<String> known = memo.get(method);
    if (known != null) {
      return known;
    }
    MethodFacts facts = methods.get(method);
    if (facts == null || !visiting.add(method)) {
      return List.of();
    }
    List<String> chain = List.of();
    for (Call call : facts.calls) {
      chain = chainOf(call, visiting, memo);
      if (!chain.isEmpty()) {
        if (isLazyInit(facts, List.of(new int[] {0, Integer.MAX_VALUE}), call.pc())) {
          chain = List.of(); // runs its I/O once, when the field is still null
        }
        break;
      }
    }
    visiting.remove(method);
    memo.put(method, chain);
    return chain;
  }

  private List<String> chainOf(Call call, Set<String> visiting, Map<String, List<String>> memo) {
    if (call.io() != null) {
      return List.of(call.io());
    }
    if (call.self() != null) {
      List<String> rest = chainFrom(call.self(), visiting, memo);
      if (!rest.isEmpty()) {
        List<String> chain = new ArrayList<>();
        chain.add(call.selfDisplay());
        chain.addAll(rest);
        return chain;
      }
    }
    return List.of();
  }

  private void reportRegions() {
    Map<String, List<String>> memo = new HashMap<>();
    Map<String, List<LockedRegion>> byMonitor = new LinkedHashMap<>();
    for (LockedRegion region : regions) {
      byMonitor.computeIfAbsent(region.monitor().key(), k -> new ArrayList<>()).add(region);
    }
    boolean perResource = isPerResourceClass();
    Map<LockedRegion, List<String>> chains = new LinkedHashMap<>();
    Map<LockedRegion, Integer> reportPcs = new HashMap<>();
    Set<String> blockingMembers = new HashSet<>();
    for (LockedRegion region : regions) {
      Method method = region.method();
      if (method.getName().startsWith("<")
          || Lifecycle.isLifecycleOrConfiguration(
              method.getName(),
              method.getArgumentTypes().length,
              method.getReturnType() == Type.VOID)
          || isStartUp(method)
          || isLifecycleOnly(method)
          || (perResource
              && (region.monitor().key().equals("this")
                  || region.monitor().key().startsWith("field:" + getDottedClassName() + ".")
                      && !region.monitor().staticField()))) {
        continue;
      }
      MethodFacts facts = methods.get(method.getName() + method.getSignature());
      if (facts == null) {
        continue;
      }
      List<String> chain = List.of();
      int pc = region.pc();
      int ioPc = -1;
      for (Call call : facts.calls) {
        if (inRanges(region.ranges(), call.pc())) {
          chain = chainOf(call, new HashSet<>(), memo);
          if (!chain.isEmpty()) {
            ioPc = call.pc();
            pc = region.whole() ? call.pc() : pc;
            break;
          }
        }
      }
      if (chain.isEmpty()) {
        continue;
      }
      String lazy = lazyField(facts, region.ranges(), ioPc);
      if (lazy != null) {
        // runs its I/O once, unless every getConnection() waits on it (LazyCreationOnRequestPath)
        reportLazyCreationOnRequestPath(region, facts, lazy, chain, pc);
        continue;
      }
      chains.put(region, chain);
      reportPcs.put(region, pc);
      blockingMembers.add(region.monitor().key() + " " + method.getName() + "()");
    }
    for (Map.Entry<LockedRegion, List<String>> entry : chains.entrySet()) {
      LockedRegion region = entry.getKey();
      Method method = region.method();
      String key = region.monitor().key();
      // the members that also do I/O under the monitor first, then the rest, in class-file order
      Set<String> others = new LinkedHashSet<>();
      for (boolean io : new boolean[] {true, false}) {
        for (LockedRegion member : byMonitor.get(key)) {
          String name = member.method().getName() + "()";
          if (member.method() != method
              && !member.method().getName().startsWith("<")
              && blockingMembers.contains(key + " " + name) == io) {
            others.add(name);
          }
        }
      }
      others.remove(method.getName() + "()");
      boolean loneTask =
          others.isEmpty()
              && method.getArgumentTypes().length == 0
              && method.getReturnType() == Type.VOID;
      if (loneTask) {
        continue;
      }
      report(
          LockjawBugType.SHARED_MONITOR_DAO,
          Priorities.NORMAL_PRIORITY,
          method,
          reportPcs.get(region),
          message(method, region, entry.getValue(), new ArrayList<>(others)));
    }
  }

  /**
   * A lazy initialisation: before the I/O the code tests a field for null, and the region assigns
   * that field. Once it is set, callers take the early exit and the I/O never runs again (the
   * double-checked {@code createDataSource()} of a pool).
   */
  private boolean isLazyInit(MethodFacts facts, List<int[]> region, int ioPc) {
    return lazyField(facts, region, ioPc) != null;
  }

  /**
   * The field a lazy initialisation creates ({@link #isLazyInit}), "" for a fill on a map miss,
   * null for none.
   */
  private String lazyField(MethodFacts facts, List<int[]> region, int ioPc) {
    // the fields the region assigns, itself or in a method of this class it calls
    Set<String> assigned = new HashSet<>();
    for (Object[] put : facts.puts) {
      if (inRanges(region, (Integer) put[0])) {
        assigned.add((String) put[1]);
      }
    }
    for (Call call : facts.calls) {
      MethodFacts callee = call.self() == null ? null : methods.get(call.self());
      if (callee != null && inRanges(region, call.pc())) {
        for (Object[] put : callee.puts) {
          assigned.add((String) put[1]);
        }
      }
    }
    for (Object[] miss : facts.missTests) {
      int pc = (Integer) miss[0];
      int target = (Integer) miss[2];
      if (pc < ioPc && ioPc < target) {
        for (Object[] put : facts.mapPuts) {
          int putPc = (Integer) put[0];
          if (put[1].equals(miss[1]) && pc < putPc && putPc < target) {
            return ""; // a fill on a miss: once per key
          }
        }
      }
    }
    for (Object[] check : facts.nullChecks) {
      int pc = (Integer) check[0];
      int target = (Integer) check[2];
      boolean earlyReturn = (Boolean) check[3];
      boolean once = earlyReturn ? ioPc >= target : pc < ioPc && ioPc < target;
      if (once && assigned.contains(check[1])) {
        return (String) check[1];
      }
    }
    return null;
  }

  /**
   * Reports a lazy creation that holds its monitor for its whole body (a synchronized method, or a
   * block with no read of the field and no return before it) when a connection-acquisition method
   * of the class calls it on every call (commons-dbcp 1.x BasicDataSource).
   */
  private void reportLazyCreationOnRequestPath(
      LockedRegion region, MethodFacts facts, String field, List<String> chain, int pc) {
    if (field.isEmpty()) {
      return;
    }
    if (!region.whole()) {
      for (Object[] check : facts.nullChecks) {
        if (field.equals(check[1]) && (Integer) check[0] < region.pc()) {
          return; // double-checked: the field is read before the lock
        }
      }
      if (facts.returns.stream().anyMatch(at -> at < region.pc())) {
        return;
      }
    }
    String key = facts.method.getName() + facts.method.getSignature();
    List<LazyCreationOnRequestPath.Caller> callers = new ArrayList<>();
    for (MethodFacts caller : methods.values()) {
      List<Integer> calls = new ArrayList<>();
      for (Call call : caller.calls) {
        if (key.equals(call.self())) {
          calls.add(call.pc());
        }
      }
      if (!calls.isEmpty() && caller != facts) {
        callers.add(
            new LazyCreationOnRequestPath.Caller(
                caller.method, calls, caller.branches, caller.returns));
      }
    }
    List<String> names =
        LazyCreationOnRequestPath.requestCallers(callers, type -> isSubtype(getClassName(), type));
    if (names.isEmpty()) {
      return;
    }
    boolean isVolatile = false;
    for (Field declared : getThisClass().getFields()) {
      if (declared.getName().equals(field)) {
        isVolatile = declared.isVolatile();
      }
    }
    List<String> named = new ArrayList<>();
    named.add(displayName(facts.method.getName()) + "()");
    named.addAll(chain);
    String name =
        region.whole()
            ? display(facts.method)
            : "The synchronized block in " + display(facts.method);
    report(
        LockjawBugType.SHARED_MONITOR_DAO,
        Priorities.NORMAL_PRIORITY,
        facts.method,
        pc,
        LockedLazyCreationMessage.of(
            name, region.monitor().description(), names, field, isVolatile, named));
  }

  /** Whether the instruction just before {@code target} returns (the taken branch's end). */
  private static boolean endsWithReturn(byte[] code, int target) {
    if (target <= 0 || target > code.length) {
      return false;
    }
    int opcode = code[target - 1] & 0xff;
    return opcode >= Const.IRETURN && opcode <= Const.RETURN;
  }

  /** Whether the class calls {@code method} only from lifecycle code ({@link LifecycleReach}). */
  private boolean isLifecycleOnly(Method method) {
    if (lifecycleReach == null) {
      lifecycleReach = LifecycleReach.of(getThisClass());
    }
    return lifecycleReach.isLifecycleOnly(method);
  }

  /** The method implements a start-up step of a supertype ({@code start-up-method}). */
  private boolean isStartUp(Method method) {
    for (KnowledgeIndex.MethodEntry entry : START_UP.candidates(method.getName())) {
      if (isSubtype(getClassName(), entry.internalOwner())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The class is a connection, statement or result set, or an inner class of one (its {@code
   * this$0} field holds one: a per-connection invocation handler): its monitor is per resource.
   */
  private boolean isPerResourceClass() {
    if (matchType(RESOURCE_TYPES, getClassName()).isPresent()) {
      return true;
    }
    for (Field field : getThisClass().getFields()) {
      if (field.getName().startsWith("this$") && isResourceSignature(field.getSignature())) {
        return true;
      }
    }
    return false;
  }

  private String message(
      Method method, LockedRegion region, List<String> chain, List<String> others) {
    String name = region.whole() ? display(method) : "The synchronized block in " + display(method);
    StringBuilder message =
        new StringBuilder()
            .append(name)
            .append(" holds ")
            .append(region.monitor().description())
            .append(" while it calls ")
            .append(String.join(", which calls ", chain))
            .append(
                ": every request queues on that one monitor while connections open and I/O runs");
    if (!others.isEmpty()) {
      message.append(", together with ");
      if (others.size() <= NAMED_MEMBERS) {
        message.append(String.join(", ", others));
      } else {
        message
            .append(String.join(", ", others.subList(0, NAMED_MEMBERS)))
            .append(" and ")
            .append(others.size() - NAMED_MEMBERS)
            .append(" more");
      }
      message.append(", which hold it too");
    }
    return message
        .append(
            ". The lock should not be held around the I/O: let the connection pool"
                + " handle concurrency and keep a lock only around the in-memory state it guards.")
        .toString();
  }
}
