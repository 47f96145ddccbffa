package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.ba.AnalysisContext;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Attribute;
import org.apache.bcel.classfile.Constant;
import org.apache.bcel.classfile.ConstantCP;
import org.apache.bcel.classfile.ConstantMethodHandle;
import org.apache.bcel.classfile.ConstantNameAndType;
import org.apache.bcel.classfile.ConstantPool;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.classfile.NestMembers;
import org.apache.bcel.generic.ConstantPoolGen;
import org.apache.bcel.generic.Instruction;
import org.apache.bcel.generic.InstructionList;
import org.apache.bcel.generic.InvokeInstruction;
import org.apache.bcel.generic.Type;

/**
 * The bytecode side of {@code checks.support.LifecyclePaths}: the methods of one class that run
 * only while an object is built, configured, started or stopped. A method that is not public and
 * overrides nothing is <em>lifecycle-only</em> when the class calls it at least once and every
 * caller is a constructor, a static initialiser, a lifecycle or configuration method (the predicate
 * a detector passes, by default {@link #isLifecycleMethod}), or itself lifecycle-only; a cycle
 * counts only when a lifecycle method reaches it.
 *
 * <p>A method handed out as a method handle (a method reference, a lambda body) has a caller
 * lockjaw cannot place, so it is not lifecycle-only, and nor is what only it calls. Calls from the
 * class's nested classes (nest mates, or synthetic accessors) are read too: a constructor or a
 * lifecycle method there is an anchor, any other method a caller that is not; a nested class that
 * cannot be loaded leaves nothing lifecycle-only.
 */
final class LifecycleReach {
  private static final LifecycleReach NONE = new LifecycleReach(Set.of());

  /** Key of a caller that is no method of this class (a handle, a nested class's method). */
  private static final String UNKNOWN = "?";

  /** Key of a caller that is an anchor in a nested class. */
  private static final String ANCHOR = "!";

  private final Set<String> lifecycleOnly;

  private LifecycleReach(Set<String> lifecycleOnly) {
    this.lifecycleOnly = lifecycleOnly;
  }

  /** Whether {@code method} of the analysed class runs only from construction or lifecycle code. */
  boolean isLifecycleOnly(Method method) {
    return lifecycleOnly.contains(method.getName() + method.getSignature());
  }

  /** The lifecycle predicates of {@code entry-points.txt} on a method's name and descriptor. */
  static boolean isLifecycleMethod(Method method) {
    return Lifecycle.isLifecycleOrConfiguration(
        method.getName(), method.getArgumentTypes().length, method.getReturnType() == Type.VOID);
  }

  /** The lifecycle-only methods of {@code javaClass}, by the default predicate. */
  static LifecycleReach of(JavaClass javaClass) {
    return of(javaClass, LifecycleReach::isLifecycleMethod);
  }

  /**
   * The lifecycle-only methods of {@code javaClass}, with {@code isLifecycle} deciding which
   * callers are lifecycle or configuration methods (constructors and initialisers always are).
   */
  static LifecycleReach of(JavaClass javaClass, Predicate<Method> isLifecycle) {
    String self = javaClass.getClassName();
    Map<String, Method> methods = new HashMap<>();
    for (Method method : javaClass.getMethods()) {
      methods.put(method.getName() + method.getSignature(), method);
    }
    Map<String, List<String>> callers = new HashMap<>();
    for (String key : methods.keySet()) {
      callers.put(key, new ArrayList<>());
    }
    for (Method method : javaClass.getMethods()) {
      String caller = method.getName() + method.getSignature();
      if (!addCalls(javaClass, method, self, callers, caller)) {
        return NONE; // code BCEL cannot read: no evidence either way
      }
    }
    for (String handle : handles(javaClass.getConstantPool(), self)) {
      List<String> list = callers.get(handle);
      if (list != null) {
        list.add(UNKNOWN);
      }
    }
    for (String nestedName : nestedClasses(javaClass)) {
      JavaClass nested;
      try {
        nested = AnalysisContext.currentAnalysisContext().lookupClass(nestedName);
      } catch (ClassNotFoundException | RuntimeException e) {
        return NONE; // a caller lockjaw cannot read may be anywhere
      }
      for (Method method : nested.getMethods()) {
        String caller =
            method.getName().startsWith("<") || isLifecycle.test(method) ? ANCHOR : UNKNOWN;
        if (!addCalls(nested, method, self, callers, caller)) {
          return NONE;
        }
      }
      for (String handle : handles(nested.getConstantPool(), self)) {
        List<String> list = callers.get(handle);
        if (list != null) {
          list.add(UNKNOWN);
        }
      }
    }

    Set<String> candidates = new HashSet<>();
    for (Map.Entry<String, List<String>> entry : callers.entrySet()) {
      Method method = methods.get(entry.getKey());
      if (isHidden(method, javaClass)
          && !entry.getValue().isEmpty()
          && !entry.getValue().contains(UNKNOWN)) {
        candidates.add(entry.getKey());
      }
    }
    Predicate<String> anchor =
        caller ->
            caller.equals(ANCHOR)
                || caller.startsWith("<")
                || (methods.get(caller) != null && isLifecycle.test(methods.get(caller)));
    boolean changed = true;
    while (changed) {
      changed = false;
      for (String method : new ArrayList<>(candidates)) {
        for (String caller : callers.get(method)) {
          if (!anchor.test(caller) && !candidates.contains(caller)) {
            candidates.remove(method);
            changed = true;
            break;
          }
        }
      }
    }
    Set<String> reached = new HashSet<>();
    changed = true;
    while (changed) {
      changed = false;
      for (String method : candidates) {
        if (!reached.contains(method)
            && callers.get(method).stream()
                .anyMatch(caller -> anchor.test(caller) || reached.contains(caller))) {
          reached.add(method);
          changed = true;
        }
      }
    }
    return new LifecycleReach(reached);
  }

  /**
   * Records every call in {@code method} (of {@code owner}) to a method of class {@code self} as
   * made by {@code caller}; false when the code cannot be read.
   */
  private static boolean addCalls(
      JavaClass owner,
      Method method,
      String self,
      Map<String, List<String>> callers,
      String caller) {
    if (method.getCode() == null) {
      return true;
    }
    ConstantPoolGen pool = new ConstantPoolGen(owner.getConstantPool());
    Instruction[] code;
    try {
      code = new InstructionList(method.getCode().getCode()).getInstructions();
    } catch (RuntimeException e) {
      return false;
    }
    for (Instruction instruction : code) {
      if (instruction instanceof InvokeInstruction call
          && instruction.getOpcode() != Const.INVOKEDYNAMIC
          && call.getReferenceType(pool).toString().equals(self)) {
        List<String> list = callers.get(call.getMethodName(pool) + call.getSignature(pool));
        if (list != null) {
          list.add(caller);
        }
      }
    }
    return true;
  }

  /**
   * The methods of {@code self} that the pool hands out as method handles (lambdas, references).
   */
  private static Set<String> handles(ConstantPool pool, String self) {
    Set<String> handed = new HashSet<>();
    for (Constant constant : pool.getConstantPool()) {
      if (constant instanceof ConstantMethodHandle handle
          && pool.getConstant(handle.getReferenceIndex()) instanceof ConstantCP ref
          && ref.getClass(pool).equals(self)
          && pool.getConstant(ref.getNameAndTypeIndex())
              instanceof ConstantNameAndType nameAndType) {
        handed.add(nameAndType.getName(pool) + nameAndType.getSignature(pool));
      }
    }
    return handed;
  }

  /** The class's nested classes: its nest members, and the inner classes named after it. */
  private static Set<String> nestedClasses(JavaClass javaClass) {
    String self = javaClass.getClassName();
    Set<String> nested = new HashSet<>();
    for (Attribute attribute : javaClass.getAttributes()) {
      if (attribute instanceof NestMembers members) {
        for (String name : members.getClassNames()) {
          nested.add(name.replace('/', '.'));
        }
      }
    }
    for (NestedClasses entry : NestedClasses.of(javaClass)) {
      if (entry.className().startsWith(self + "$")) {
        nested.add(entry.className());
      }
    }
    nested.remove(self);
    return nested;
  }

  /**
   * Not public, and overriding or implementing no method of a supertype: no caller outside the
   * class is known. A supertype lockjaw cannot load may declare it: then it is not hidden.
   */
  private static boolean isHidden(Method method, JavaClass javaClass) {
    if (method == null || method.isPublic() || method.getName().startsWith("<")) {
      return false;
    }
    if (method.isPrivate() || method.isStatic()) {
      return true;
    }
    String key = method.getName() + method.getSignature();
    List<String> work = new ArrayList<>();
    if (javaClass.getSuperclassName() != null) {
      work.add(javaClass.getSuperclassName());
    }
    work.addAll(List.of(javaClass.getInterfaceNames()));
    Set<String> seen = new HashSet<>();
    while (!work.isEmpty()) {
      String name = work.remove(work.size() - 1);
      if (!seen.add(name) || name.equals("java.lang.Object") && !isObjectMethod(key)) {
        continue;
      }
      JavaClass type;
      try {
        type = AnalysisContext.currentAnalysisContext().lookupClass(name);
      } catch (ClassNotFoundException | RuntimeException e) {
        return false;
      }
      for (Method declared : type.getMethods()) {
        if ((declared.getName() + declared.getSignature()).equals(key) && !declared.isPrivate()) {
          return false;
        }
      }
      if (type.getSuperclassName() != null && !type.getClassName().equals("java.lang.Object")) {
        work.add(type.getSuperclassName());
      }
      work.addAll(List.of(type.getInterfaceNames()));
    }
    return true;
  }

  private static boolean isObjectMethod(String key) {
    return key.startsWith("finalize(")
        || key.startsWith("clone(")
        || key.startsWith("toString(")
        || key.startsWith("hashCode(")
        || key.startsWith("equals(");
  }
}
