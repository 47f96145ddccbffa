package io.github.lockjaw.common;

import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The lock of an inherited template method, one idea for both engines: a {@code synchronized}
 * instance method of a superclass (the template) that calls a method the class overrides (the
 * hook), {@code synchronized void handle(E e) { ...; doHandle(e); }}, holds the instance monitor
 * while the override runs. The Error Prone check (for a superclass in a class file, and by the same
 * rules for one in source) and the SpotBugs detector ask here which superclasses to read, which
 * methods count as templates, which templates in a class file call a hook, and how to say it.
 */
public final class InheritedTemplates {
  /** How many superclasses above the class are read. */
  public static final int MAX_DEPTH = 3;

  /**
   * A template found in a class file.
   *
   * @param name the template's name
   * @param descriptor the template's descriptor
   * @param hook the hook it calls, as name + descriptor ({@code doHandle(Ljava/lang/Object;)V})
   */
  public record Template(String name, String descriptor, String hook) {}

  private InheritedTemplates() {}

  /**
   * Whether a superclass is read for templates: the JDK's are not (their synchronized methods call
   * no application hook that does I/O, and reading them costs time).
   *
   * @param binaryName e.g. {@code org.framework.EventHandler} or {@code org/framework/EventHandler}
   */
  public static boolean isReadSuperclass(String binaryName) {
    return binaryName != null
        && !binaryName.startsWith("java.")
        && !binaryName.startsWith("java/")
        && !binaryName.equals("java");
  }

  /**
   * Whether a method may be a template whose lock a request waits on: {@code synchronized}, an
   * instance method with code, and no lifecycle or configuration step (they run once, not per
   * request).
   */
  public static boolean mayBeTemplate(
      boolean isSynchronized,
      boolean isStatic,
      boolean hasCode,
      String name,
      int parameterCount,
      boolean returnsVoid) {
    return isSynchronized
        && !isStatic
        && hasCode
        && !name.startsWith("<")
        && !Lifecycle.isLifecycleOrConfiguration(name, parameterCount, returnsVoid);
  }

  /**
   * The templates of a class file (its synchronized instance methods that may be templates) that
   * call one of the hooks, in class-file order: one entry for each hook a template calls.
   *
   * @param methods the superclass's methods, as {@link ClassFileMethods} read them
   * @param hooks whether a method the superclass calls, as name + descriptor ({@code
   *     doHandle(Ljava/lang/Object;)V}), is one the class overrides
   */
  public static List<Template> callingHooks(
      List<ClassFileMethods.MethodInfo> methods, Predicate<String> hooks) {
    List<Template> templates = new ArrayList<>();
    for (ClassFileMethods.MethodInfo method : methods) {
      if (method.is(ClassFileMethods.BRIDGE)
          || method.is(ClassFileMethods.SYNTHETIC)
          || !mayBeTemplate(
              method.is(ClassFileMethods.SYNCHRONIZED),
              method.is(ClassFileMethods.STATIC),
              !method.is(ClassFileMethods.ABSTRACT) && !method.virtualCalls().isEmpty(),
              method.name(),
              method.parameterCount(),
              method.returnsVoid())) {
        continue;
      }
      Set<String> called = new LinkedHashSet<>();
      for (ClassFileMethods.Call call : method.virtualCalls()) {
        String hook = call.name() + call.descriptor();
        if (hooks.test(hook) && called.add(hook)) {
          templates.add(new Template(method.name(), method.descriptor(), hook));
        }
      }
    }
    return templates;
  }

  /** {@link #callingHooks} on a class file's bytes; empty when they cannot be read. */
  public static Optional<List<Template>> callingHooks(byte[] classFile, Set<String> hooks) {
    return ClassFileMethods.read(classFile).map(methods -> callingHooks(methods, hooks::contains));
  }

  /**
   * The finding's message, the same in both engines.
   *
   * @param hook how the override is named, e.g. {@code OrderEventHandler.doHandle()}
   * @param className the simple name of the class whose instance is locked
   * @param superclass the simple name of the superclass that declares the template
   * @param template the template's name
   * @param chain the calls from the override to the blocking I/O
   */
  public static String message(
      String hook, String className, String superclass, String template, List<String> chain) {
    return hook
        + " runs under the monitor of the "
        + className
        + " instance, taken by "
        + superclass
        + "."
        + template
        + "() (a synchronized template method it inherits), while it calls "
        + String.join(", which calls ", chain)
        + ": every request queues on that one monitor while connections open and I/O runs. The lock"
        + " should not be held around the I/O: override the template without synchronized, or move"
        + " the I/O out of the hook, and keep a lock only around the in-memory state it guards.";
  }
}
