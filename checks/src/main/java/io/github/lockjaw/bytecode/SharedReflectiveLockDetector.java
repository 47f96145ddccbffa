package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XField;
import io.github.lockjaw.common.SharedReflectiveLockMessage;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.LocalVariable;
import org.apache.bcel.classfile.LocalVariableTable;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.generic.ConstantPoolGen;
import org.apache.bcel.generic.INVOKEDYNAMIC;
import org.apache.bcel.generic.Instruction;
import org.apache.bcel.generic.InstructionList;
import org.apache.bcel.generic.InvokeInstruction;
import org.apache.bcel.generic.ObjectType;
import org.apache.bcel.generic.Type;

/**
 * Bytecode counterpart of {@code ClassMonitorCache}'s shared-reflective-lock shape: a {@code
 * monitorenter} on a {@code Method}, {@code Field} or {@code Constructor} held in a field or passed
 * in as a parameter ({@code shared-reflective-type} in {@code reflection.txt}), with a reflective
 * call ({@code reflective-call}) inside the region (OGNL 2.7's {@code OgnlRuntime.invokeMethod}). A
 * local is a copy the method looked up itself, so it is left alone, as are constructors,
 * initialisers and lifecycle or configuration methods.
 */
public class SharedReflectiveLockDetector extends LockjawDetector {
  private static final List<String> SHARED_TYPES =
      Kind.Reflection.SHARED_REFLECTIVE_TYPE.index().internalTypeNames();
  private static final KnowledgeIndex REFLECTIVE_CALLS = Kind.Reflection.REFLECTIVE_CALL.index();

  /** A region held on a shared reflective object, and whether it has been reported. */
  private static final class Region {
    final List<int[]> ranges;
    final String lockType;
    final String lockName;
    boolean reported;

    Region(List<int[]> ranges, String lockType, String lockName) {
      this.ranges = ranges;
      this.lockType = lockType;
      this.lockName = lockName;
    }
  }

  private final List<Region> regions = new ArrayList<>();
  private final Map<String, KnowledgeIndex.MethodEntry> helpers = new HashMap<>();
  private boolean skipMethod;

  public SharedReflectiveLockDetector(BugReporter bugReporter) {
    super(bugReporter);
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    JavaClass javaClass = classContext.getJavaClass();
    if (javaClass.isInterface() || !mayLock(javaClass)) {
      return;
    }
    helpers.clear();
    try {
      findHelpers(javaClass);
    } catch (RuntimeException e) {
      skipped(javaClass, e);
      return;
    }
    super.visitClassContext(classContext);
  }

  /**
   * The private or static methods of the class that make a reflective call themselves (OGNL 3.1's
   * invokeMethodInsideSandbox): a call of one under the lock counts as the reflective call.
   */
  private void findHelpers(JavaClass javaClass) {
    ConstantPoolGen pool = new ConstantPoolGen(javaClass.getConstantPool());
    for (Method method : javaClass.getMethods()) {
      if (method.getCode() == null || !(method.isPrivate() || method.isStatic())) {
        continue;
      }
      for (Instruction instruction :
          new InstructionList(method.getCode().getCode()).getInstructions()) {
        if (instruction instanceof InvokeInstruction invoke
            && !(instruction instanceof INVOKEDYNAMIC)) {
          Optional<KnowledgeIndex.MethodEntry> call =
              match(
                  REFLECTIVE_CALLS,
                  invoke.getReferenceType(pool) instanceof ObjectType owner
                      ? owner.getClassName().replace('.', '/')
                      : "java/lang/Object",
                  invoke.getMethodName(pool));
          if (call.isPresent()) {
            helpers.put(method.getName() + method.getSignature(), call.get());
            break;
          }
        }
      }
    }
  }

  @Override
  public void visit(Code body) {
    regions.clear();
    Method method = getMethod();
    skipMethod = !containsMonitorEnter(body) || runsOnce(method);
    if (!skipMethod) {
      super.visit(body);
    }
  }

  @Override
  public void sawOpcode(int seen) {
    if (seen == Const.MONITORENTER) {
      sawMonitorEnter();
    } else if (seen == Const.INVOKEVIRTUAL
        || seen == Const.INVOKESTATIC
        || seen == Const.INVOKEINTERFACE) {
      sawCall();
    }
  }

  private void sawMonitorEnter() {
    if (stack.getStackDepth() == 0) {
      return;
    }
    OpcodeStack.Item lock = stack.getStackItem(0);
    String signature = lock.getSignature();
    if (signature == null || !signature.startsWith("L") || !signature.endsWith(";")) {
      return;
    }
    String type = signature.substring(1, signature.length() - 1);
    if (SHARED_TYPES.stream().noneMatch(shared -> isSubtype(type, shared))) {
      return;
    }
    String name = sharedHolder(lock);
    if (name != null) {
      regions.add(new Region(monitorRegion(getCode(), getPC()), JavaNames.simpleName(type), name));
    }
  }

  /** The field or parameter the lock was read from, or null for a local or anything else. */
  private String sharedHolder(OpcodeStack.Item lock) {
    return sharedHolder(lock, getMethod());
  }

  /**
   * The field or parameter of {@code method} that {@code lock} was read from, or null for a local
   * or anything else (shared with {@link MapCacheDetector}).
   */
  static String sharedHolder(OpcodeStack.Item lock, Method method) {
    XField field = lock.getXField();
    if (field != null) {
      return field.getName();
    }
    int register = lock.getRegisterNumber();
    int parameterSlots = method.isStatic() ? 0 : 1;
    for (Type argument : method.getArgumentTypes()) {
      parameterSlots += argument.getSize();
    }
    if (register < (method.isStatic() ? 0 : 1) || register >= parameterSlots) {
      return null;
    }
    LocalVariableTable table = method.getLocalVariableTable();
    LocalVariable variable = table == null ? null : table.getLocalVariable(register, 0);
    return variable == null ? "parameter " + register : variable.getName();
  }

  /**
   * Whether a method runs once (a constructor, an initialiser, a lifecycle or configuration
   * method), so a monitor it takes queues nobody.
   */
  static boolean runsOnce(Method method) {
    return method.getName().startsWith("<")
        || Lifecycle.isLifecycleOrConfiguration(
            method.getName(),
            method.getArgumentTypes().length,
            method.getReturnType() == Type.VOID);
  }

  /** The simple name of the lock's type when it is a shared reflective type, else null. */
  static String sharedReflectiveType(LockjawDetector detector, OpcodeStack.Item lock) {
    String signature = lock.getSignature();
    if (signature == null || !signature.startsWith("L") || !signature.endsWith(";")) {
      return null;
    }
    String type = signature.substring(1, signature.length() - 1);
    return SHARED_TYPES.stream().anyMatch(shared -> detector.isSubtype(type, shared))
        ? JavaNames.simpleName(type)
        : null;
  }

  private void sawCall() {
    if (regions.isEmpty()) {
      return;
    }
    Optional<KnowledgeIndex.MethodEntry> call =
        match(REFLECTIVE_CALLS, getClassConstantOperand(), getNameConstantOperand());
    String via = null;
    if (call.isEmpty() && getClassConstantOperand().equals(getClassName())) {
      call = Optional.ofNullable(helpers.get(getNameConstantOperand() + getSigConstantOperand()));
      via = getNameConstantOperand();
    }
    if (call.isEmpty()) {
      return;
    }
    for (Region region : regions) {
      if (!region.reported && inRanges(region.ranges, getPC())) {
        region.reported = true;
        report(
            LockjawBugType.CLASS_MONITOR_CACHE,
            Priorities.NORMAL_PRIORITY,
            getMethod(),
            getPC(),
            SharedReflectiveLockMessage.of(
                region.lockType,
                region.lockName,
                call.get().attribute("what").orElse("invokes"),
                call.get().display() + (via == null ? "" : " in " + via + "()")));
      }
    }
  }
}
