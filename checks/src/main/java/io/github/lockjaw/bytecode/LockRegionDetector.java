package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XField;
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
import org.apache.bcel.classfile.AnnotationEntry;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;

/**
 * Bytecode counterpart of three source checks that look at what a shared monitor is held for:
 * {@code ResourceLookupUnderLock} (class-path, jar or file-tree lookups, {@code resources.txt}),
 * {@code ReadMostlyStateUnderLock} (an accessor that only reads or copies state that configuration
 * methods write, {@code read-mostly.txt}) and {@code StatisticsUnderSharedLock} (counters and sums
 * updated on the request path, {@code statistics.txt}, {@code entry-points.txt}). One pass records
 * each method's instructions and its monitor regions; the three analyses read them.
 */
public class LockRegionDetector extends LockjawDetector {
  private static final KnowledgeIndex LOOKUPS = Kind.Resources.RESOURCE_LOOKUP.index();
  private static final List<String> ARCHIVE_TYPES =
      Kind.Resources.ARCHIVE_TYPE.index().internalTypeNames();
  private static final KnowledgeIndex READ_CALLS = Kind.ReadMostly.READ_CALL.index();
  private static final KnowledgeIndex COPY_CALLS = Kind.ReadMostly.COPY_CALL.index();
  private static final List<String> CONTAINER_TYPES =
      Kind.ReadMostly.CONTAINER_TYPE.index().internalTypeNames();
  private static final List<String> COPY_PACKAGES =
      Kind.ReadMostly.COPY_CONSTRUCTOR_PACKAGE.values().stream()
          .map(p -> p.replace('.', '/') + "/")
          .toList();
  private static final List<String> ACCESSOR_PREFIXES = Kind.ReadMostly.ACCESSOR_PREFIX.values();
  private static final List<String> PUBLISHING_WRITER_PREFIXES =
      Kind.ReadMostly.PUBLISHING_WRITER_PREFIX.values();
  private static final List<String> ACCESS_ORDERED_TYPES =
      Kind.ReadMostly.ACCESS_ORDERED_TYPE.index().internalTypeNames();
  private static final KnowledgeIndex MAP_CHECKS = Kind.Maps.CHECK_METHOD.index();
  private static final KnowledgeIndex MAP_ACTS = Kind.Maps.ACT_METHOD.index();
  private static final KnowledgeIndex PURE_CALLS = Kind.Statistics.PURE_CALL.index();
  private static final KnowledgeIndex MAP_CALLS =
      KnowledgeIndex.of(Kind.Statistics.COUNTER_MAP_READ, Kind.Statistics.COUNTER_MAP_WRITE);
  private static final KnowledgeIndex MAP_WRITES = Kind.Statistics.COUNTER_MAP_WRITE.index();
  private static final List<String> LOCAL_ACCESSOR_PREFIXES =
      Kind.Statistics.LOCAL_ACCESSOR_PREFIX.values();
  private static final List<String> ENTRY_ANNOTATIONS =
      Kind.EntryPoints.REQUEST_ENTRY_ANNOTATION.values().stream()
          .map(a -> "L" + JavaNames.internalName(a) + ";")
          .toList();
  private static final KnowledgeIndex ENTRY_METHODS = Kind.EntryPoints.REQUEST_ENTRY_METHOD.index();

  /**
   * One instruction: the opcode, and for field and invoke instructions what they name; {@code
   * register} is the local a store writes or the local an invoke's first argument was loaded from
   * (-1 otherwise), {@code target} a branch's target pc (-1 otherwise).
   */
  private record Insn(
      int pc,
      int opcode,
      String owner,
      String name,
      String signature,
      String receiverField,
      boolean receiverLocal,
      String valueType,
      int register,
      int target) {
    Insn(
        int pc,
        int opcode,
        String owner,
        String name,
        String signature,
        String receiverField,
        boolean receiverLocal,
        String valueType) {
      this(pc, opcode, owner, name, signature, receiverField, receiverLocal, valueType, -1, -1);
    }
  }

  private final Map<String, List<Insn>> code = new LinkedHashMap<>();
  private final Map<String, Method> byKey = new HashMap<>();
  private final List<LockedRegion> regions = new ArrayList<>();

  /** The methods of the class reached only from configuration code, once a region needs them. */
  private LifecycleReach configurationReach;

  private List<Insn> current;

  public LockRegionDetector(BugReporter bugReporter) {
    super(bugReporter);
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    JavaClass javaClass = classContext.getJavaClass();
    if (javaClass.isInterface() || !mayLock(javaClass)) {
      return;
    }
    code.clear();
    byKey.clear();
    regions.clear();
    configurationReach = null;
    super.visitClassContext(classContext);
    try {
      analyse();
    } catch (RuntimeException e) {
      skipped(javaClass, e);
    } finally {
      code.clear();
      byKey.clear();
      regions.clear();
    }
  }

  @Override
  public void visit(Code body) {
    Method method = getMethod();
    String key = method.getName() + method.getSignature();
    current = new ArrayList<>();
    code.put(key, current);
    byKey.put(key, method);
    if (method.isSynchronized()) {
      regions.add(LockedRegion.ofSynchronizedMethod(method, body, getClassName()));
    }
    super.visit(body);
  }

  @Override
  public void sawOpcode(int seen) {
    switch (seen) {
      case Const.GETFIELD, Const.GETSTATIC, Const.PUTFIELD, Const.PUTSTATIC -> {
        String valueType = null;
        if ((seen == Const.PUTFIELD || seen == Const.PUTSTATIC) && stack.getStackDepth() > 0) {
          String signature = stack.getStackItem(0).getSignature();
          valueType =
              signature != null && signature.startsWith("L") && signature.endsWith(";")
                  ? signature.substring(1, signature.length() - 1)
                  : null;
        }
        current.add(
            new Insn(
                getPC(),
                seen,
                getClassConstantOperand(),
                getNameConstantOperand(),
                getSigConstantOperand(),
                null,
                false,
                valueType));
      }
      case Const.INVOKEVIRTUAL, Const.INVOKEINTERFACE, Const.INVOKESTATIC, Const.INVOKESPECIAL -> {
        String signature = getSigConstantOperand();
        String receiverField = null;
        boolean receiverLocal = false;
        int args = org.apache.bcel.generic.Type.getArgumentTypes(signature).length;
        int firstArgument =
            args > 0 && stack.getStackDepth() >= args
                ? stack.getStackItem(args - 1).getRegisterNumber()
                : -1;
        if (seen != Const.INVOKESTATIC) {
          if (stack.getStackDepth() > args) {
            OpcodeStack.Item receiver = stack.getStackItem(args);
            XField field = receiver.getXField();
            receiverField = field == null ? null : field.getName();
            int register = receiver.getRegisterNumber();
            receiverLocal =
                field == null && register >= 0 && (register > 0 || getMethod().isStatic());
          }
        }
        current.add(
            new Insn(
                getPC(),
                seen,
                getClassConstantOperand(),
                getNameConstantOperand(),
                signature,
                receiverField,
                receiverLocal,
                null,
                firstArgument,
                -1));
      }
      case Const.MONITORENTER -> {
        sawMonitorEnter();
        current.add(new Insn(getPC(), seen, null, null, null, null, false, null));
      }
      default -> {
        int register = isRegisterStore() ? getRegisterOperand() : -1;
        int target = isBranch(seen) ? getBranchTarget() : -1;
        current.add(new Insn(getPC(), seen, null, null, null, null, false, null, register, target));
      }
    }
  }

  private void sawMonitorEnter() {
    LockedRegion.Monitor monitor =
        LockedRegion.Monitor.atMonitorEnter(stack.getStackItem(0), getMethod(), getClassName());
    if (monitor != null) {
      regions.add(LockedRegion.atMonitorEnter(getMethod(), monitor, getCode(), getPC()));
    }
  }

  // ---------------------------------------------------------------------------------------------

  private void analyse() {
    Map<String, String> entryOf = requestPaths();
    Set<String> reported = new HashSet<>();
    for (LockedRegion region : regions) {
      Method method = region.method();
      if (method.getName().startsWith("<")) {
        continue;
      }
      List<Insn> insns = inRegion(region);
      String where =
          (region.whole() ? display(method) : "The synchronized block in " + display(method));
      String key =
          region.monitor().key()
              + "@"
              + method.getName()
              + method.getSignature()
              + "@"
              + region.pc();
      if (!reported.add(key)) {
        continue;
      }
      int pc = region.whole() ? (insns.isEmpty() ? -1 : insns.get(0).pc()) : region.pc();
      if (resourceLookup(region, insns).isPresent()) {
        continue; // ResourceLookupUnderLock's region: the model's query reports it (ModelDetector)
      }
      Optional<String> readMostly = readMostly(region, insns);
      if (readMostly.isPresent()) {
        report(
            LockjawBugType.READ_MOSTLY_STATE_UNDER_LOCK,
            Priorities.NORMAL_PRIORITY,
            method,
            pc,
            where
                + " takes "
                + region.monitor().description()
                + " on every call only to "
                + readMostly.get()
                + ": callers queue on that lock to read state that rarely"
                + " changes. Publish it through a volatile field (an immutable snapshot for a"
                + " collection) and read it without the lock.");
        continue;
      }
      String entry = entryOf.get(method.getName() + method.getSignature());
      if (entry != null) {
        Optional<String> statistics = statistics(insns);
        if (statistics.isPresent()) {
          String onEvery =
              entry.equals(method.getName())
                  ? "on every call of " + entry + "()"
                  : "on every call of " + entry + "(), which calls " + method.getName() + "(),";
          report(
              LockjawBugType.STATISTICS_UNDER_SHARED_LOCK,
              Priorities.NORMAL_PRIORITY,
              method,
              pc,
              where
                  + " takes "
                  + region.monitor().description()
                  + " "
                  + onEvery
                  + " only to update "
                  + statistics.get()
                  + ": every request queues on that one"
                  + " lock to bump a number. Keep counts and sums in LongAdder fields, maxima in a"
                  + " LongAccumulator, counters per key in a ConcurrentHashMap<K, LongAdder>, and"
                  + " drop the lock.");
        }
      }
    }
  }

  private List<Insn> inRegion(LockedRegion region) {
    List<Insn> all =
        code.getOrDefault(region.method().getName() + region.method().getSignature(), List.of());
    List<Insn> inside = new ArrayList<>();
    for (Insn insn : all) {
      if (inRanges(region.ranges(), insn.pc())) {
        inside.add(insn);
      }
    }
    return inside;
  }

  // --- resource lookups ------------------------------------------------------------------------

  private Optional<String> resourceLookup(LockedRegion region, List<Insn> insns) {
    String name = region.method().getName();
    if (Lifecycle.isConfigurationName(name) || isConfigurationOnly(region.method())) {
      return Optional.empty();
    }
    String lockSignature = region.monitor().fieldSignature();
    if (lockSignature != null
        && lockSignature.startsWith("L")
        && matchType(ARCHIVE_TYPES, lockSignature.substring(1, lockSignature.length() - 1))
            .isPresent()) {
      return Optional.empty(); // the lock of one archive
    }
    if (isOneTimeInitialisation(
        getClassName(),
        insns,
        code.getOrDefault(region.method().getName() + region.method().getSignature(), List.of()))) {
      return Optional.empty();
    }
    if (isMemoisedPerKey(
        insns,
        code.getOrDefault(region.method().getName() + region.method().getSignature(), List.of()))) {
      return Optional.empty();
    }
    List<String> chain = lookupChain(insns, new HashSet<>());
    return chain.isEmpty() ? Optional.empty() : Optional.of(String.join(", which calls ", chain));
  }

  private List<String> lookupChain(List<Insn> insns, Set<String> visiting) {
    for (Insn insn : insns) {
      if (!isInvoke(insn.opcode())) {
        continue;
      }
      Optional<KnowledgeIndex.MethodEntry> lookup = match(LOOKUPS, insn.owner(), insn.name());
      if (lookup.isPresent()) {
        String what =
            lookup.get().attribute("what").map(w -> " (" + JavaNames.words(w) + ")").orElse("");
        return List.of(lookup.get().display() + what);
      }
      String key = insn.name() + insn.signature();
      if (insn.owner().equals(getClassName())
          && code.containsKey(key)
          && visiting.add(key)
          && !insn.name().startsWith("<")
          && !Lifecycle.isConfigurationName(insn.name())) {
        List<String> rest = lookupChain(code.get(key), visiting);
        if (!rest.isEmpty()) {
          List<String> chain = new ArrayList<>();
          chain.add(insn.name() + "()");
          chain.addAll(rest);
          return chain;
        }
      }
    }
    return List.of();
  }

  /**
   * The region assigns a field that the method tests (for null, or as a flag) in a branch: once it
   * is set, the lookup does not run again (a lazily built index, a loaded-once configuration).
   */
  private static boolean isOneTimeInitialisation(
      String className, List<Insn> region, List<Insn> method) {
    Set<String> assigned = new HashSet<>();
    for (Insn insn : region) {
      if ((insn.opcode() == Const.PUTFIELD || insn.opcode() == Const.PUTSTATIC)
          && insn.owner().equals(className)) {
        assigned.add(insn.name());
      }
    }
    for (int i = 0; i + 1 < method.size(); i++) {
      Insn insn = method.get(i);
      int next = method.get(i + 1).opcode();
      if ((insn.opcode() == Const.GETFIELD || insn.opcode() == Const.GETSTATIC)
          && insn.owner().equals(className)
          && assigned.contains(insn.name())
          && (next == Const.IFNULL
              || next == Const.IFNONNULL
              || next == Const.IFEQ
              || next == Const.IFNE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A lookup memoised per key (source: {@code ResourceLookupUnderLock.isMemoisedPerKey}): in the
   * region, a map field's {@code get(key)}/{@code containsKey(key)} branches over straight-line
   * code that returns or throws, and from the branch's target, with no branch that skips it, the
   * same field's {@code put(key, ...)} runs before any lookup; the key is a parameter or a local
   * stored to once before the test, and nothing before the put (the leaving branch included) looks
   * anything up. The lookup runs once per key.
   */
  private boolean isMemoisedPerKey(List<Insn> region, List<Insn> method) {
    for (int i = 0; i + 1 < region.size(); i++) {
      Insn test = region.get(i);
      if (!isInvoke(test.opcode())) {
        continue;
      }
      if (!lookupChain(List.of(test), new HashSet<>()).isEmpty()) {
        return false; // a lookup before any test: it runs on every call
      }
      Insn branch = region.get(i + 1);
      if (test.receiverField() == null
          || test.register() < 0
          || match(MAP_CHECKS, test.owner(), test.name()).isEmpty()
          || (branch.opcode() != Const.IFNULL && branch.opcode() != Const.IFEQ)
          || branch.target() <= branch.pc()) {
        continue;
      }
      int at = method.indexOf(branch);
      int put = at < 0 ? -1 : memoisingPut(method, at + 1, branch.target(), test);
      if (put >= 0 && isAssignedOnceBefore(method, test.register(), test.pc())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The pc of the put that records {@code test}'s key, when the method's code from index {@code
   * from} to the branch target {@code target} is straight and leaves (a {@code return} in a
   * synchronized block releases the monitor first), and the put follows the target unconditionally
   * before any lookup and while the monitor is held; -1 otherwise.
   */
  private int memoisingPut(List<Insn> insns, int from, int target, Insn test) {
    int j = from;
    while (j < insns.size() && insns.get(j).pc() < target) {
      if (insns.get(j).target() >= 0
          || !lookupChain(List.of(insns.get(j)), new HashSet<>()).isEmpty()) {
        return -1; // the branch that leaves is not straight, or looks up on every hit
      }
      j++;
    }
    if (j == from || j == insns.size() || !leaves(insns.get(j - 1).opcode())) {
      return -1;
    }
    for (; j < insns.size(); j++) {
      Insn insn = insns.get(j);
      if (isInvoke(insn.opcode())
          && test.receiverField().equals(insn.receiverField())
          && insn.register() == test.register()
          && match(MAP_ACTS, insn.owner(), insn.name()).isPresent()) {
        return insn.pc();
      }
      if (leaves(insn.opcode())
          || insn.opcode() == Const.MONITOREXIT
          || insn.opcode() == Const.TABLESWITCH
          || insn.opcode() == Const.LOOKUPSWITCH
          || (insn.target() >= 0 && insn.target() < target)
          || !lookupChain(List.of(insn), new HashSet<>()).isEmpty()) {
        return -1;
      }
      if (insn.target() >= 0 && skipsPut(insns, j, insn.target(), test)) {
        return -1;
      }
    }
    return -1;
  }

  /** Whether a forward branch from index {@code j} to {@code target} jumps over the put. */
  private boolean skipsPut(List<Insn> region, int j, int target, Insn test) {
    for (int k = j + 1; k < region.size() && region.get(k).pc() < target; k++) {
      Insn insn = region.get(k);
      if (isInvoke(insn.opcode())
          && test.receiverField().equals(insn.receiverField())
          && insn.register() == test.register()
          && match(MAP_ACTS, insn.owner(), insn.name()).isPresent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the key's local is a parameter never stored to, or a local stored to once, before the
   * test (the bytecode of an effectively final local; a reused slot counts as reassigned).
   */
  private static boolean isAssignedOnceBefore(List<Insn> method, int register, int testPc) {
    List<Insn> stores =
        method.stream()
            .filter(insn -> insn.register() == register && !isInvoke(insn.opcode()))
            .toList();
    return stores.isEmpty() || (stores.size() == 1 && stores.get(0).pc() < testPc);
  }

  private static boolean leaves(int opcode) {
    return (opcode >= Const.IRETURN && opcode <= Const.RETURN) || opcode == Const.ATHROW;
  }

  /**
   * Whether the class calls {@code method} only from constructors, initialisers and configuration
   * methods ({@link LifecycleReach}, with the configuration names as its anchors).
   */
  private boolean isConfigurationOnly(Method method) {
    if (configurationReach == null) {
      configurationReach =
          LifecycleReach.of(getThisClass(), m -> Lifecycle.isConfigurationName(m.getName()));
    }
    return configurationReach.isLifecycleOnly(method);
  }

  // --- read-mostly state -----------------------------------------------------------------------

  private Optional<String> readMostly(LockedRegion region, List<Insn> insns) {
    Method method = region.method();
    String name = method.getName();
    if (method.isPrivate()
        || !Lifecycle.hasPrefix(name, ACCESSOR_PREFIXES)
        || Lifecycle.isConfigurationName(name)
        || isConfigurationOnly(method)) {
      return Optional.empty();
    }
    Set<String> fields = new LinkedHashSet<>();
    Map<String, String> signatures = new HashMap<>();
    List<String> copies = new ArrayList<>();
    boolean first = true;
    for (int i = 0; i < insns.size(); i++) {
      Insn insn = insns.get(i);
      switch (insn.opcode()) {
        case Const.PUTFIELD,
            Const.PUTSTATIC,
            Const.AASTORE,
            Const.IASTORE,
            Const.LASTORE,
            Const.BASTORE,
            Const.CASTORE,
            Const.SASTORE,
            Const.FASTORE,
            Const.DASTORE,
            Const.MONITORENTER,
            Const.INVOKEDYNAMIC -> {
          return Optional.empty();
        }
        case Const.GETFIELD, Const.GETSTATIC -> {
          if (!insn.owner().equals(getClassName())) {
            continue;
          }
          if (first && i + 1 < insns.size() && insns.get(i + 1).opcode() == Const.IFNULL) {
            return Optional.empty(); // hands out a published snapshot first
          }
          first = false;
          fields.add(insn.name());
          signatures.put(insn.name(), insn.signature());
        }
        case Const.INVOKEVIRTUAL,
            Const.INVOKEINTERFACE,
            Const.INVOKESTATIC,
            Const.INVOKESPECIAL -> {
          if (insn.name().equals("<init>")) {
            if (isThrowable(insn.owner()) || insn.owner().equals("java/lang/StringBuilder")) {
              continue;
            }
            if (isCopyConstructor(insn)) {
              copies.add("new " + JavaNames.simpleName(insn.owner()) + "(...)");
              continue;
            }
            return Optional.empty();
          }
          if (matchType(ACCESS_ORDERED_TYPES, insn.owner()).isPresent()) {
            return Optional.empty(); // an LRU map's get() reorders it
          }
          if (match(COPY_CALLS, insn.owner(), insn.name()).isPresent()) {
            copies.add(JavaNames.simpleName(insn.owner()) + "." + insn.name() + "()");
          } else if (match(READ_CALLS, insn.owner(), insn.name()).isEmpty()
              && !insn.owner().equals("java/lang/StringBuilder")) {
            return Optional.empty();
          }
        }
        default -> {
          // loads, stores to locals, branches, returns, throws: reading
        }
      }
    }
    if (fields.isEmpty()) {
      return Optional.empty();
    }
    // who writes the fields read here: only configuration methods (or construction) may
    Set<String> writers = new LinkedHashSet<>();
    Set<String> state = new LinkedHashSet<>();
    for (Map.Entry<String, List<Insn>> entry : code.entrySet()) {
      Method writer = byKey.get(entry.getKey());
      for (Insn insn : entry.getValue()) {
        String written = writtenField(insn, signatures);
        if (written == null || !fields.contains(written)) {
          continue;
        }
        if ((insn.opcode() == Const.PUTFIELD || insn.opcode() == Const.PUTSTATIC)
            && insn.valueType() != null
            && matchType(ACCESS_ORDERED_TYPES, insn.valueType()).isPresent()) {
          return Optional.empty(); // an LRU map: its get() reorders it, the lock guards that
        }
        if (writer.getName().startsWith("<")) {
          continue;
        }
        if (!Lifecycle.isConfigurationName(writer.getName())) {
          return Optional.empty();
        }
        state.add("'" + written + "'");
        writers.add(writer.getName() + "()");
      }
    }
    if (state.isEmpty()
        || writers.stream()
            .noneMatch(
                w ->
                    Lifecycle.hasPrefix(
                        w.substring(0, w.length() - 2), PUBLISHING_WRITER_PREFIXES))) {
      return Optional.empty(); // no writer registers, refreshes or reloads it
    }
    return Optional.of(
        (copies.isEmpty() ? "read " : "copy ")
            + String.join(", ", state)
            + (copies.isEmpty() ? "" : " (" + String.join(", ", new LinkedHashSet<>(copies)) + ")")
            + ", which only "
            + String.join(", ", writers)
            + (writers.size() == 1 ? " writes" : " write"));
  }

  /**
   * The field of this class an instruction writes: a put, or a changing call on a collection field.
   */
  private String writtenField(Insn insn, Map<String, String> signatures) {
    if ((insn.opcode() == Const.PUTFIELD || insn.opcode() == Const.PUTSTATIC)
        && insn.owner().equals(getClassName())) {
      return insn.name();
    }
    if (isInvoke(insn.opcode()) && insn.receiverField() != null) {
      String signature = signatures.get(insn.receiverField());
      if (signature != null
          && signature.startsWith("L")
          && matchType(CONTAINER_TYPES, signature.substring(1, signature.length() - 1)).isPresent()
          && match(READ_CALLS, insn.owner(), insn.name()).isEmpty()
          && match(COPY_CALLS, insn.owner(), insn.name()).isEmpty()) {
        return insn.receiverField();
      }
    }
    return null;
  }

  private boolean isThrowable(String type) {
    return isSubtype(type, "java/lang/Throwable");
  }

  private static boolean isCopyConstructor(Insn insn) {
    return COPY_PACKAGES.stream()
            .anyMatch(p -> insn.owner().startsWith(p) && insn.owner().indexOf('/', p.length()) < 0)
        && org.apache.bcel.generic.Type.getArgumentTypes(insn.signature()).length == 1
        && insn.signature().startsWith("(L");
  }

  // --- statistics ------------------------------------------------------------------------------

  /** Method key → name of the request entry it runs under, for entries and what they call. */
  private Map<String, String> requestPaths() {
    Map<String, String> entryOf = new LinkedHashMap<>();
    List<String> work = new ArrayList<>();
    for (Method method : getThisClass().getMethods()) {
      if (method.isStatic() || method.getName().startsWith("<")) {
        continue;
      }
      if (isRequestEntry(method)) {
        String key = method.getName() + method.getSignature();
        entryOf.put(key, method.getName());
        work.add(key);
      }
    }
    for (int i = 0; i < work.size(); i++) {
      String key = work.get(i);
      for (Insn insn : code.getOrDefault(key, List.of())) {
        String callee = insn.name() + insn.signature();
        if (isInvoke(insn.opcode())
            && insn.owner().equals(getClassName())
            && code.containsKey(callee)
            && !entryOf.containsKey(callee)) {
          entryOf.put(callee, entryOf.get(key));
          work.add(callee);
        }
      }
    }
    return entryOf;
  }

  private boolean isRequestEntry(Method method) {
    for (AnnotationEntry annotation : method.getAnnotationEntries()) {
      if (ENTRY_ANNOTATIONS.contains(annotation.getAnnotationType())) {
        return true;
      }
    }
    for (KnowledgeIndex.MethodEntry entry : ENTRY_METHODS.candidates(method.getName())) {
      if (isSubtype(getClassName(), entry.internalOwner())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The numeric fields a region updates, when it does nothing else: reads and writes of numeric
   * fields, arithmetic and comparisons, pure calls, accessor calls on locals and counter-map calls.
   */
  private Optional<String> statistics(List<Insn> insns) {
    Set<String> updated = new LinkedHashSet<>();
    for (Insn insn : insns) {
      switch (insn.opcode()) {
        case Const.PUTFIELD, Const.PUTSTATIC -> {
          if (!isNumeric(insn.signature())) {
            return Optional.empty();
          }
          updated.add("'" + insn.name() + "'");
        }
        case Const.INVOKEVIRTUAL,
            Const.INVOKEINTERFACE,
            Const.INVOKESTATIC,
            Const.INVOKESPECIAL -> {
          boolean allowed =
              match(PURE_CALLS, insn.owner(), insn.name()).isPresent()
                  || (insn.receiverField() != null
                      && match(MAP_CALLS, insn.owner(), insn.name()).isPresent())
                  || (insn.receiverLocal()
                      && Lifecycle.hasPrefix(insn.name(), LOCAL_ACCESSOR_PREFIXES));
          if (!allowed) {
            return Optional.empty();
          }
          if (insn.receiverField() != null
              && match(MAP_WRITES, insn.owner(), insn.name()).isPresent()) {
            updated.add("'" + insn.receiverField() + "'");
          }
        }
        case Const.NEW,
            Const.ATHROW,
            Const.MONITORENTER,
            Const.INVOKEDYNAMIC,
            Const.AASTORE,
            Const.IASTORE,
            Const.LASTORE -> {
          return Optional.empty();
        }
        default -> {
          // loads, stores to locals, arithmetic, comparisons, branches
        }
      }
    }
    return updated.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", updated));
  }

  private static boolean isNumeric(String signature) {
    return signature.equals("J")
        || signature.equals("I")
        || signature.equals("D")
        || signature.equals("F")
        || signature.equals("S");
  }

  private static boolean isInvoke(int opcode) {
    return opcode == Const.INVOKEVIRTUAL
        || opcode == Const.INVOKEINTERFACE
        || opcode == Const.INVOKESTATIC
        || opcode == Const.INVOKESPECIAL;
  }
}
