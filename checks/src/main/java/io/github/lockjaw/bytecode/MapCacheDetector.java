package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XField;
import edu.umd.cs.findbugs.ba.XMethod;
import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.common.MonitorKind;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.ConstantPool;
import org.apache.bcel.classfile.Field;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.generic.ALOAD;
import org.apache.bcel.generic.ARETURN;
import org.apache.bcel.generic.CHECKCAST;
import org.apache.bcel.generic.ConstantPoolGen;
import org.apache.bcel.generic.FieldInstruction;
import org.apache.bcel.generic.GETFIELD;
import org.apache.bcel.generic.GETSTATIC;
import org.apache.bcel.generic.Instruction;
import org.apache.bcel.generic.InstructionHandle;
import org.apache.bcel.generic.InstructionList;
import org.apache.bcel.generic.InvokeInstruction;
import org.apache.bcel.generic.POP;
import org.apache.bcel.generic.RETURN;
import org.apache.bcel.generic.Type;

/**
 * Bytecode counterpart of the {@code ClassMonitorCache} and {@code SynchronizedMapCache} checks: a
 * memoising lookup (a {@code get} or {@code containsKey} of a key on a map field, a branch, a
 * {@code put} of the same key into the same field) that runs under a {@code Class} monitor, under
 * an object monitor on a map that is not concurrent, or without a lock on a {@code
 * Collections.synchronizedMap} / {@code Hashtable}.
 */
public class MapCacheDetector extends LockjawDetector {
  private static final KnowledgeIndex CHECKS = KnowledgeIndex.of(Kind.Maps.CHECK_METHOD);
  private static final KnowledgeIndex ACTS = KnowledgeIndex.of(Kind.Maps.ACT_METHOD);
  private static final List<String> KEY_ACCESSORS = Kind.Maps.KEY_ACCESSOR.values();
  private static final List<String> KEY_ACCESSOR_EXCLUSIONS =
      Kind.Maps.KEY_ACCESSOR_EXCLUSION.values();
  private static final KnowledgeIndex LOCKING_FACTORIES =
      KnowledgeIndex.of(Kind.Maps.COARSELY_LOCKING_FACTORY);
  private static final List<String> COARSE_TYPES =
      KnowledgeIndex.of(Kind.Maps.COARSELY_LOCKED_TYPE).internalTypeNames();
  private static final List<String> PLAIN_TYPES =
      KnowledgeIndex.of(Kind.Maps.PLAIN_TYPE).internalTypeNames();
  private static final List<String> CONCURRENT_TYPES =
      KnowledgeIndex.of(Kind.Maps.CONCURRENT_TYPE).internalTypeNames();
  private static final List<String> MAP_LIKE_TYPES =
      KnowledgeIndex.of(Kind.Maps.MAP_LIKE_TYPE).internalTypeNames();
  private static final Set<String> CHECK_NAMES = CHECKS.methodNames();
  private static final Set<String> ACT_NAMES = ACTS.methodNames();
  private static final Set<String> CALL_NAMES = union(CHECK_NAMES, ACT_NAMES);

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }

  /** Constant-pool strings of a map that locks on every call (besides Hashtable subclasses). */
  private static final Set<String> COARSE_MENTIONS = coarseMentions();

  private static Set<String> coarseMentions() {
    Set<String> words = new HashSet<>(COARSE_TYPES);
    for (String type : COARSE_TYPES) {
      words.add("L" + type + ";"); // a field's descriptor
    }
    words.addAll(LOCKING_FACTORIES.methodNames());
    return Set.copyOf(words);
  }

  private boolean coarseMapsInClass;

  /** False while a method is read only for its field assignments. */
  private boolean lookupsInMethod;

  /** A locked region; {@code lockField} is the field whose object is locked, or null. */
  private record Region(
      MonitorKind monitor,
      List<int[]> ranges,
      String description,
      String lockField,
      boolean sharedReflective) {}

  private record MapCall(int pc, String field, String fieldName, boolean act, String key) {}

  private record Lookup(
      Method method,
      int pc,
      String field,
      String fieldName,
      MonitorKind monitor,
      String monitorDescription,
      boolean ownMonitor,
      boolean sharedReflective) {}

  /**
   * Private helpers of the class whose whole body is one map call on a field with their parameters
   * ({@code return MAP.get(k);}, {@code MAP.put(k, v);}), by name and descriptor: a call of one is
   * that map call (a check-then-act split across helpers).
   */
  private record Helper(String field, String fieldName, String fieldSignature, boolean act) {}

  private final Map<String, Helper> helpers = new HashMap<>();
  private final Map<String, MapLocking> assigned = new HashMap<>();
  private final Map<String, MapLocking> declared = new HashMap<>();
  private final Map<String, Lookup> lookups = new LinkedHashMap<>();
  private final List<Region> regions = new ArrayList<>();
  private final List<MapCall> calls = new ArrayList<>();
  private final List<Integer> branches = new ArrayList<>();
  private final Map<Integer, String> boxedAt = new HashMap<>();
  private final Map<Integer, String> calledAt = new HashMap<>();
  private static final Set<String> BOXES =
      Set.of(
          "java/lang/Long",
          "java/lang/Integer",
          "java/lang/Short",
          "java/lang/Byte",
          "java/lang/Character",
          "java/lang/Boolean",
          "java/lang/Double",
          "java/lang/Float");

  public MapCacheDetector(BugReporter bugReporter) {
    super(bugReporter);
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    if (!constantPoolMentions(classContext.getJavaClass(), ACT_NAMES)
        || !constantPoolMentions(classContext.getJavaClass(), CHECK_NAMES)) {
      return;
    }
    assigned.clear();
    declared.clear();
    lookups.clear();
    helpers.clear();
    coarseMapsInClass = constantPoolMentions(classContext.getJavaClass(), COARSE_MENTIONS);
    for (Method method : classContext.getJavaClass().getMethods()) {
      Helper helper = helperOf(classContext.getJavaClass().getConstantPool(), method);
      if (helper != null) {
        helpers.put(method.getName() + method.getSignature(), helper);
      }
    }
    super.visitClassContext(classContext);
    for (Lookup lookup : lookups.values()) {
      reportLookup(lookup);
    }
  }

  /**
   * Only methods that take a monitor can hold a locked lookup; without a lock, only a coarsely
   * locked map is flagged, so a class that names none skips the others for lookups. Every method
   * that stores a field is still read for what it assigns: constructors and static initialisers,
   * but also a private {@code init()} they call (XStream 1.3.1's FieldDictionary), a setter or a
   * {@code readResolve}.
   */
  @Override
  public boolean shouldVisitCode(Code code) {
    lookupsInMethod = mayHoldLookups(code);
    return lookupsInMethod || storesAField(code);
  }

  private boolean mayHoldLookups(Code code) {
    Method method = getMethod();
    return coarseMapsInClass
        || method.isSynchronized()
        || method.getName().startsWith("<")
        || containsMonitorEnter(code);
  }

  /**
   * Whether the code may contain a putfield or putstatic: a byte scan, so an operand byte can say
   * yes where there is none (costing only time), never no where there is one.
   */
  private static boolean storesAField(Code code) {
    for (byte b : code.getCode()) {
      int opcode = b & 0xff;
      if (opcode == Const.PUTFIELD || opcode == Const.PUTSTATIC) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void visit(Code code) {
    regions.clear();
    calls.clear();
    branches.clear();
    boxedAt.clear();
    calledAt.clear();
    Method method = getMethod();
    if (method.isSynchronized()) {
      regions.add(
          new Region(
              method.isStatic() ? MonitorKind.CLASS : MonitorKind.OBJECT,
              List.of(new int[] {0, code.getCode().length}),
              method.isStatic()
                  ? "the class monitor of "
                      + JavaNames.simpleName(getClassName())
                      + " (static synchronized)"
                  : "the monitor of the "
                      + JavaNames.simpleName(getClassName())
                      + " instance (synchronized method)",
              null,
              false));
    }
    super.visit(code);
    if (lookupsInMethod) {
      findLookups(method);
    }
  }

  @Override
  public void sawOpcode(int seen) {
    switch (seen) {
      case Const.MONITORENTER -> {
        OpcodeStack.Item lock = stack.getStackItem(0);
        boolean isClass = "Ljava/lang/Class;".equals(lock.getSignature());
        XField lockField = lock.getXField();
        // a Method, Field or Constructor a cache hands to every caller: locked like a Class
        String reflectiveType = SharedReflectiveLockDetector.sharedReflectiveType(this, lock);
        String reflectiveHolder =
            reflectiveType == null || SharedReflectiveLockDetector.runsOnce(getMethod())
                ? null
                : SharedReflectiveLockDetector.sharedHolder(lock, getMethod());
        boolean reflective = reflectiveHolder != null;
        regions.add(
            new Region(
                isClass || reflective ? MonitorKind.CLASS : MonitorKind.OBJECT,
                monitorRegion(getCode(), getPC()),
                isClass
                    ? "a Class monitor (synchronized on a Class object)"
                    : reflective
                        ? "the monitor of the shared "
                            + reflectiveType
                            + " '"
                            + reflectiveHolder
                            + "', a reflective object a cache hands to every caller"
                        : describeLock(lock),
                lockField == null ? null : lockField.getClassName() + "." + lockField.getName(),
                reflective));
      }
      case Const.INVOKEINTERFACE, Const.INVOKEVIRTUAL -> {
        sawCall();
        sawHelperCall();
        sawAccessor();
      }
      case Const.INVOKESPECIAL -> sawHelperCall();
      case Const.INVOKESTATIC -> {
        sawHelperCall();
        // a primitive key is boxed for get and again for put: remember what was boxed
        if (getNameConstantOperand().equals("valueOf")
            && BOXES.contains(getClassConstantOperand())
            && stack.getStackDepth() > 0) {
          String boxed = identity(stack.getStackItem(0));
          if (boxed != null) {
            boxedAt.put(getPC(), "b" + boxed);
          }
        }
      }
      case Const.PUTFIELD, Const.PUTSTATIC -> sawAssignment();
      case Const.IFNULL,
          Const.IFNONNULL,
          Const.IFEQ,
          Const.IFNE,
          Const.IF_ACMPEQ,
          Const.IF_ACMPNE ->
          branches.add(getPC());
      default -> {
        // nothing to note
      }
    }
  }

  /**
   * A key computed by an accessor without arguments on a local or field ({@code type.getName()} for
   * the get and again for the put, XStream 1.4.20's getSerializablePersistentFields): remember what
   * the result is, the receiver's identity and the method. Only names that read a property (get...,
   * is..., to..., name, ordinal): {@code it.next()} twice is two keys.
   */
  private void sawAccessor() {
    String name = getNameConstantOperand();
    String signature = getSigConstantOperand();
    if (!signature.startsWith("()")
        || signature.endsWith(")V")
        || !readsAProperty(name)
        || stack.getStackDepth() < 1) {
      return;
    }
    OpcodeStack.Item receiver = stack.getStackItem(0);
    if (receiver.getReturnValueOf() != null) {
      return; // a chain of calls: the receiver itself is computed
    }
    String of = identity(receiver);
    if (of != null) {
      calledAt.put(getPC(), "m" + of + "." + name + signature);
    }
  }

  /** A property read by its name ({@code key-accessor} in {@code maps.txt}): {@code getName}. */
  private static boolean readsAProperty(String name) {
    return Lifecycle.hasPrefix(name, KEY_ACCESSORS)
        && !Lifecycle.hasPrefix(name, KEY_ACCESSOR_EXCLUSIONS);
  }

  private String describeLock(OpcodeStack.Item lock) {
    XField field = lock.getXField();
    if (field != null) {
      return "the lock in field '" + field.getName() + "'";
    }
    if (lock.getRegisterNumber() == 0 && !getMethod().isStatic()) {
      return "the monitor of the " + JavaNames.simpleName(getClassName()) + " instance";
    }
    return "an object monitor";
  }

  private void sawCall() {
    String name = getNameConstantOperand();
    if (!CALL_NAMES.contains(name)) {
      return;
    }
    String owner = getClassConstantOperand();
    boolean act = match(ACTS, owner, name).isPresent();
    if (!act && match(CHECKS, owner, name).isEmpty()) {
      return;
    }
    int args = getNumberArguments(getSigConstantOperand());
    if (args < 1 || stack.getStackDepth() <= args) {
      return;
    }
    XField field = stack.getStackItem(args).getXField();
    if (field == null) {
      return;
    }
    String key = identity(stack.getStackItem(args - 1));
    if (key == null) {
      return;
    }
    calls.add(
        new MapCall(
            getPC(), field.getClassName() + "." + field.getName(), field.getName(), act, key));
    declared.computeIfAbsent(
        field.getClassName() + "." + field.getName(), k -> classify(field.getSignature()));
  }

  /** A call of a private get/put helper of this class, recorded as the map call it makes. */
  private void sawHelperCall() {
    if (helpers.isEmpty() || !getClassConstantOperand().equals(getClassName())) {
      return;
    }
    Helper helper = helpers.get(getNameConstantOperand() + getSigConstantOperand());
    if (helper == null) {
      return;
    }
    int args = getNumberArguments(getSigConstantOperand());
    if (stack.getStackDepth() < args || args < 1) {
      return;
    }
    String key = identity(stack.getStackItem(args - 1));
    if (key == null) {
      return;
    }
    calls.add(new MapCall(getPC(), helper.field(), helper.fieldName(), helper.act(), key));
    declared.computeIfAbsent(helper.field(), k -> classify(helper.fieldSignature()));
  }

  /**
   * {@code [aload_0] get(static|field) F; load p0; invoke Map.get; [checkcast]; areturn} or {@code
   * [aload_0] get(static|field) F; load p0; load p1; invoke Map.put; pop; return} in a private
   * method, F a field of this class: the helper; else null.
   */
  private static Helper helperOf(ConstantPool pool, Method method) {
    if (!method.isPrivate() || method.getCode() == null) {
      return null;
    }
    Type[] parameters = method.getArgumentTypes();
    if (parameters.length < 1 || parameters.length > 2) {
      return null;
    }
    List<Instruction> code = new ArrayList<>();
    try {
      for (InstructionHandle handle :
          new InstructionList(method.getCode().getCode()).getInstructionHandles()) {
        code.add(handle.getInstruction());
      }
    } catch (RuntimeException e) {
      return null; // not code BCEL can read: no helper
    }
    int i = 0;
    int first = method.isStatic() ? 0 : 1;
    if (!method.isStatic()) {
      if (code.isEmpty() || !(code.get(0) instanceof ALOAD load) || load.getIndex() != 0) {
        return null;
      }
      i++;
    }
    if (i >= code.size()
        || !(code.get(i) instanceof FieldInstruction get)
        || !(get instanceof GETSTATIC || get instanceof GETFIELD)) {
      return null;
    }
    ConstantPoolGen gen = new ConstantPoolGen(pool);
    String field = get.getReferenceType(gen).toString() + "." + get.getFieldName(gen);
    String fieldName = get.getFieldName(gen);
    String fieldSignature = get.getSignature(gen);
    i++;
    int slot = first;
    for (Type parameter : parameters) {
      if (i >= code.size() || !(code.get(i) instanceof ALOAD load) || load.getIndex() != slot) {
        return null; // reference parameters only: no boxing in the helper
      }
      slot += parameter.getSize();
      i++;
    }
    if (i >= code.size() || !(code.get(i) instanceof InvokeInstruction call)) {
      return null;
    }
    String owner = call.getReferenceType(gen).toString().replace('.', '/');
    String name = call.getMethodName(gen);
    boolean act = parameters.length == 2;
    KnowledgeIndex index = act ? ACTS : CHECKS;
    if (index.candidates(name).stream()
        .noneMatch(
            entry ->
                (act || entry.entry().hasAttribute("returns-value"))
                    && (entry.internalOwner().equals(owner) || isMapType(owner)))) {
      return null;
    }
    i++;
    if (act) {
      if (i + 1 >= code.size()
          || !(code.get(i) instanceof POP)
          || !(code.get(i + 1) instanceof RETURN)) {
        return null;
      }
      i += 2;
    } else {
      if (i < code.size() && code.get(i) instanceof CHECKCAST) {
        i++;
      }
      if (i >= code.size() || !(code.get(i) instanceof ARETURN)) {
        return null;
      }
      i++;
    }
    return i == code.size() ? new Helper(field, fieldName, fieldSignature, act) : null;
  }

  /** java/util/Map, Hashtable, HashMap..., a map-like type: a type whose get/put is the map's. */
  private static boolean isMapType(String internalName) {
    return internalName.equals("java/util/Map")
        || COARSE_TYPES.contains(internalName)
        || PLAIN_TYPES.contains(internalName)
        || CONCURRENT_TYPES.contains(internalName)
        || MAP_LIKE_TYPES.contains(internalName);
  }

  /** Where a key comes from, when it can be told: a local, a field, a constant, a boxed one. */
  private String identity(OpcodeStack.Item item) {
    XMethod boxing = item.getReturnValueOf();
    if (boxing != null && boxing.getName().equals("valueOf") && boxedAt.containsKey(item.getPC())) {
      return boxedAt.get(item.getPC());
    }
    if (boxing != null && calledAt.containsKey(item.getPC())) {
      return calledAt.get(item.getPC());
    }
    if (item.getRegisterNumber() >= 0) {
      return "r" + item.getRegisterNumber();
    }
    if (item.getXField() != null) {
      return "f" + item.getXField().getName();
    }
    if (item.getConstant() != null) {
      return "c" + item.getConstant();
    }
    return null;
  }

  private void sawAssignment() {
    XField field = getXFieldOperand();
    if (field == null || stack.getStackDepth() < 1) {
      return;
    }
    OpcodeStack.Item value = stack.getStackItem(0);
    MapLocking locking = MapLocking.UNKNOWN;
    XMethod from = value.getReturnValueOf();
    if (from != null
        && match(LOCKING_FACTORIES, from.getClassName().replace('.', '/'), from.getName())
            .isPresent()) {
      locking = MapLocking.COARSE;
    } else if (from == null || from.getName().equals("<init>")) {
      locking = classify(value.getSignature());
    }
    String key = field.getClassName() + "." + field.getName();
    MapLocking before = assigned.get(key);
    assigned.put(key, before == null || before == locking ? locking : MapLocking.UNKNOWN);
  }

  private MapLocking classify(String signature) {
    if (signature == null || !signature.startsWith("L") || !signature.endsWith(";")) {
      return MapLocking.UNKNOWN;
    }
    String type = signature.substring(1, signature.length() - 1);
    if (matchType(CONCURRENT_TYPES, type).isPresent()) {
      return MapLocking.CONCURRENT;
    }
    if (matchType(COARSE_TYPES, type).isPresent()) {
      return MapLocking.COARSE;
    }
    if (PLAIN_TYPES.contains(type)) {
      return MapLocking.PLAIN;
    }
    return MapLocking.UNKNOWN;
  }

  private void findLookups(Method method) {
    if (method.getReturnType() == Type.VOID) {
      // a get-then-put that hands nothing back is a registry filled at configuration
      // (registerAlias, registerBeanDefinition, a supplier registry), not a lookup cache
      return;
    }
    for (MapCall check : calls) {
      if (check.act()) {
        continue;
      }
      for (MapCall act : calls) {
        if (!act.act()
            || act.pc() <= check.pc()
            || !act.field().equals(check.field())
            || !act.key().equals(check.key())
            || !branchBetween(check.pc(), act.pc())) {
          continue;
        }
        Region held = null;
        for (Region region : regions) {
          if (inRanges(region.ranges(), check.pc())
              && inRanges(region.ranges(), act.pc())
              && (held == null || region.monitor() == MonitorKind.CLASS)) {
            held = region;
          }
        }
        if (held != null && held.sharedReflective() && readsBefore(check, held)) {
          break; // double-checked: the member's monitor is taken only on a miss
        }
        MonitorKind monitor = held == null ? MonitorKind.NONE : held.monitor();
        String id = method.getName() + method.getSignature() + " " + check.field();
        lookups.putIfAbsent(
            id,
            new Lookup(
                method,
                check.pc(),
                check.field(),
                check.fieldName(),
                monitor,
                held == null ? "" : held.description(),
                held != null && check.field().equals(held.lockField()) && !readsBefore(check, held),
                held != null && held.sharedReflective()));
        break;
      }
    }
  }

  /**
   * Whether the method reads the map without the lock before it takes it (a double-checked lookup
   * on a concurrent map): then the map's own monitor is taken only on a miss.
   */
  private boolean readsBefore(MapCall check, Region held) {
    for (MapCall call : calls) {
      if (!call.act()
          && call.field().equals(check.field())
          && call.pc() < check.pc()
          && !inRanges(held.ranges(), call.pc())) {
        return true;
      }
    }
    return false;
  }

  private boolean branchBetween(int from, int to) {
    for (int branch : branches) {
      if (branch > from && branch < to) {
        return true;
      }
    }
    return false;
  }

  private MapLocking lockingOf(String field) {
    MapLocking declaredLocking = declared.getOrDefault(field, MapLocking.UNKNOWN);
    if (declaredLocking != MapLocking.UNKNOWN) {
      return declaredLocking;
    }
    return assigned.getOrDefault(field, MapLocking.UNKNOWN);
  }

  /**
   * Whether the map is an instance field of the visited class, and that class is created per call
   * and never handed out ({@link PerCallObjects}): then its monitors are per call too.
   */
  private boolean ofAPerCallObject(Lookup lookup) {
    JavaClass javaClass = getThisClass();
    if (!lookup.field().equals(javaClass.getClassName() + "." + lookup.fieldName())) {
      return false; // a field of another class
    }
    for (Field field : javaClass.getFields()) {
      if (field.getName().equals(lookup.fieldName())) {
        return !field.isStatic()
            && PerCallObjectsDetector.isPrivateNestedOrLocal(javaClass)
            && PerCallObjects.current().isPerCall(javaClass.getClassName());
      }
    }
    return false;
  }

  private void reportLookup(Lookup lookup) {
    MapLocking locking = lockingOf(lookup.field());
    String where = display(lookup.method());
    switch (lookup.monitor()) {
      case CLASS -> {
        // a concurrent map too: the JVM-wide Class lock is the bottleneck, not the map
        report(
            LockjawBugType.CLASS_MONITOR_CACHE,
            Priorities.NORMAL_PRIORITY,
            lookup.method(),
            lookup.pc(),
            where
                + " fills the cache '"
                + lookup.fieldName()
                + "' while it holds "
                + lookup.monitorDescription()
                + (lookup.sharedReflective()
                    ? ": every thread that uses the same member queues there, on every call."
                        + " The fix is a ConcurrentHashMap read before the lock (or filled with"
                        + " computeIfAbsent), without the lock."
                    : ", a JVM-wide lock: every caller queues there, whatever key it asks for."
                        + " The fix is a ConcurrentHashMap filled with computeIfAbsent (or a"
                        + " ClassValue when the keys are classes), without the lock."));
      }
      case OBJECT -> {
        // the map's own monitor, held while a value is built, queues every reader of the map
        // however concurrent the map is (Spring 2.5.1 getMergedBeanDefinition)
        if ((locking != MapLocking.COARSE && locking != MapLocking.PLAIN && !lookup.ownMonitor())
            || ofAPerCallObject(lookup)) {
          return;
        }
        report(
            LockjawBugType.SYNCHRONIZED_MAP_CACHE,
            Priorities.NORMAL_PRIORITY,
            lookup.method(),
            lookup.pc(),
            where
                + " runs a check-then-act cache on '"
                + lookup.fieldName()
                + "' under "
                + lookup.monitorDescription()
                + ": every reader queues on that one lock while a value is looked up or computed."
                + " The fix is a ConcurrentHashMap filled with computeIfAbsent, without the"
                + " outer lock.");
      }
      case NONE -> {
        if (locking != MapLocking.COARSE || ofAPerCallObject(lookup)) {
          return;
        }
        report(
            LockjawBugType.SYNCHRONIZED_MAP_CACHE,
            Priorities.NORMAL_PRIORITY,
            lookup.method(),
            lookup.pc(),
            where
                + " runs a check-then-act cache on '"
                + lookup.fieldName()
                + "', a coarsely locked map (Collections.synchronizedMap or Hashtable): each call"
                + " locks the whole map, and another thread can put between the check and the"
                + " put, so the value may be computed twice. The fix is a ConcurrentHashMap"
                + " filled with computeIfAbsent.");
      }
      default -> {
        // unreachable
      }
    }
  }
}
