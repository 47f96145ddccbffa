package io.github.lockjaw.checks.dao;

import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.Optional;

/**
 * The lock of an inherited template method, as a fact of the model: a {@code synchronized} instance
 * method of a superclass (the template; in this code, another file or a jar) that calls, on {@code
 * this}, a method the class overrides (the hook): {@code synchronized void handle(E e) { ...;
 * doHandle(e); }}. The override runs under the instance monitor the template takes. A template the
 * class (or a class between) overrides never runs; a call to {@code super.doHandle(e)}, on another
 * object, or in a lambda or a task handed elsewhere is no call of the hook.
 */
final class InheritedTemplate {
  /** How many superclasses above the class are read. */
  static final int MAX_DEPTH = 3;

  /**
   * A template whose monitor the hook runs under.
   *
   * @param superclass the class that declares the template (binary name)
   * @param template the template
   */
  record Found(String superclass, MethodFacts template) {}

  private InheritedTemplate() {}

  /** The nearest template whose monitor {@code hook} runs under. */
  static Optional<Found> of(Program program, MethodFacts hook) {
    MethodRef ref = hook.ref();
    ClassFacts owner = program.classFacts(ref.owner());
    if (owner == null
        || owner.isInterface()
        || hook.isStatic()
        || hook.isPrivate()
        || hook.isAbstract()
        || hook.isSynchronized()
        || ref.isConstructor()
        || ref.isStaticInitializer()
        || ref.isLambdaBody()
        || (hook.access() & 0x1000) != 0) {
      return Optional.empty(); // a synchronized override is reported for its own lock
    }
    String superName = owner.superName();
    for (int depth = 0; depth < MAX_DEPTH && isRead(superName); depth++) {
      ClassFacts superclass = program.classFacts(superName);
      if (superclass == null) {
        return Optional.empty(); // a missing class is no evidence
      }
      for (MethodFacts template : superclass.methods()) {
        if (isTemplate(template)
            && program.resolve(asCallOn(owner, template.ref())) == template
            && callsHookOnThis(program, owner, template, ref)) {
          return Optional.of(new Found(superclass.name(), template));
        }
      }
      superName = superclass.superName();
    }
    return Optional.empty();
  }

  /** The JDK's superclasses are not read: their synchronized methods call no application hook. */
  private static boolean isRead(String className) {
    return className != null && !className.startsWith("java.");
  }

  /**
   * A synchronized instance method with code, not a lifecycle or configuration step (those run
   * once, not per request).
   */
  private static boolean isTemplate(MethodFacts method) {
    MethodRef ref = method.ref();
    return method.isSynchronized()
        && !method.isStatic()
        && !method.isAbstract()
        && (method.access() & 0x1000) == 0
        && !ref.isConstructor()
        && !ref.isStaticInitializer()
        && !method.ops().isEmpty()
        && !Lifecycle.isLifecycleOrConfiguration(
            ref.name(), ref.parameterCount(), ref.returnType().equals("void"));
  }

  private static MethodRef asCallOn(ClassFacts owner, MethodRef method) {
    return new MethodRef(owner.name(), method.name(), method.descriptor());
  }

  /** Whether the template's region calls, on {@code this}, a method that runs {@code hook}. */
  private static boolean callsHookOnThis(
      Program program, ClassFacts owner, MethodFacts template, MethodRef hook) {
    for (Region region : template.regions()) {
      if (!region.wholeMethod()) {
        continue;
      }
      for (Op op : template.ops()) {
        if (op.kind() == Op.Kind.INVOKE_VIRTUAL
            && op.receiver() instanceof Value.This
            && op.isIn(region.id())
            && !op.context().inHandler()
            && hook.equals(dispatch(program, owner, op.method()))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The method that runs when {@code call} is made on an object of class {@code owner}: the nearest
   * declaration, through a bridge method (a generic override is reached through the bridge javac
   * writes for it).
   */
  private static MethodRef dispatch(Program program, ClassFacts owner, MethodRef call) {
    MethodFacts found = program.resolve(asCallOn(owner, call));
    if (found != null && (found.access() & 0x40) != 0) { // a bridge: the method it calls runs
      for (Op op : found.ops()) {
        if (op.isCall() && op.receiver() instanceof Value.This) {
          MethodFacts bridged = program.resolve(asCallOn(owner, op.method()));
          return bridged == null ? null : bridged.ref();
        }
      }
    }
    return found == null ? null : found.ref();
  }
}
