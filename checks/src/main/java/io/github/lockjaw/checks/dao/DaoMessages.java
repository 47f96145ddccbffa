package io.github.lockjaw.checks.dao;

import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Program;
import java.util.ArrayList;
import java.util.List;

/** The words of SharedMonitorDao's findings, the same in both engines. */
final class DaoMessages {
  private static final int NAMED_MEMBERS = 5;

  private DaoMessages() {}

  /**
   * A region that holds a shared monitor around blocking I/O.
   *
   * @param name how the region is named, e.g. {@code getConnection()}
   * @param monitor the monitor, e.g. {@code the monitor of the OrderDao instance}
   * @param chain the calls from the region to the I/O
   * @param others the other regions that hold the monitor
   * @param creationPath whether the region creates a pool or data source
   * @param background whether a background task runs the region (requests take the monitor
   *     elsewhere)
   */
  static String region(
      String name,
      String monitor,
      List<String> chain,
      List<String> others,
      boolean creationPath,
      boolean background) {
    StringBuilder message = new StringBuilder();
    message
        .append(name)
        .append(" holds ")
        .append(monitor)
        .append(" while it calls ")
        .append(String.join(", which calls ", chain));
    if (background) {
      message.append(
          ": a background task runs it, and every request that needs the same monitor waits while"
              + " connections open and I/O runs");
    } else if (creationPath) {
      // say what is serialised: the creation, not every request
      message.append(
          ": it creates the pool or data source, so its creation is serialised; threads that need it"
              + " while it is being created wait on that one monitor while connections open, later"
              + " requests do not");
    } else {
      message.append(
          ": every request queues on that one monitor while connections open and I/O runs");
    }
    if (!others.isEmpty()) {
      message.append(", together with ").append(list(others)).append(", which hold it too");
    }
    if (creationPath) {
      message.append(
          ". Create it before requests arrive, or open its connections outside the lock and hold"
              + " the lock only to publish the created object.");
    } else {
      message
          .append(". Drop the lock around the I/O and let the connection pool handle concurrency;")
          .append(" keep a lock only around the in-memory state it guards.");
    }
    return message.toString();
  }

  /**
   * A lazy pool creation that holds a shared monitor for its whole body and that a method handing
   * out connections calls on every call (commons-dbcp 1.x {@code BasicDataSource#createDataSource},
   * taken by every {@code getConnection()}).
   *
   * @param name how the region is named, e.g. {@code BasicDataSource.createDataSource()}
   * @param monitor the monitor, e.g. {@code the monitor of the BasicDataSource instance}
   * @param callers the connection-acquisition methods, e.g. {@code [getConnection()]}
   * @param field the lazily created field's name
   * @param isVolatile whether that field is {@code volatile} already
   * @param chain the creation's path to its first blocking call, the creation first
   */
  static String lazyCreation(
      String name,
      String monitor,
      List<String> callers,
      String field,
      boolean isVolatile,
      List<String> chain) {
    String quoted = "'" + field + "'";
    return name
        + " holds "
        + monitor
        + " for its whole body, and "
        + String.join(", ", callers)
        + (callers.size() == 1 ? " calls" : " call")
        + " it on every call: every "
        + callers.get(0)
        + " takes that monitor just to read "
        + quoted
        + "; the first one creates the pool while it holds it ("
        + String.join(", which calls ", chain)
        + ") and every other request waits; and when the creation fails (the database is"
        + " unreachable at start), "
        + quoted
        + " stays null, so every later request retries it, connect timeouts included, under"
        + " the lock, and all requests queue behind it. Read "
        + quoted
        + " before taking the lock ("
        + (isVolatile ? "it is volatile already" : "a volatile field")
        + ", double-checked: return it when it is set, lock only to create it), or create the"
        + " pool eagerly at start-up. (No automatic fix: when the pool is created is a design"
        + " choice.)";
  }

  /**
   * An override that runs under the monitor a superclass's synchronized template takes.
   *
   * @param hook how the override is named, e.g. {@code OrderEventHandler.doHandle()}
   * @param className the simple name of the class whose instance is locked
   * @param superclass the simple name of the superclass that declares the template
   * @param template the template's name
   * @param chain the calls from the override to the blocking I/O
   */
  static String inherited(
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

  /**
   * Each call of an effect's chain as a message names it, read from {@code className}: methods of
   * that class by their name ({@code openConnection()}), others with their class ({@code
   * DataSource.getConnection()}), constructors as {@code new Socket(...)}, and what a pool's call
   * does for a connection pool. The call a bridge method makes (javac's, for a generic override) is
   * the same call again and is left out.
   */
  static List<String> chain(Program program, Effects.Effect effect, String className) {
    List<String> parts = new ArrayList<>();
    List<Effects.Step> steps = effect.chain();
    for (int i = 0; i < steps.size(); i++) {
      Effects.Step step = steps.get(i);
      if (i > 0 && isBridge(program.method(step.in()))) {
        continue;
      }
      boolean last = i == steps.size() - 1;
      String part;
      if (step.callee() != null && step.callee().isConstructor()) {
        part = "new " + simpleName(step.callee().owner()) + "(...)";
      } else if (!last && step.callee() != null) {
        String declaring = declaringClass(step, steps.get(i + 1));
        part =
            declaring.equals(className)
                ? step.callee().name() + "()"
                : simpleName(declaring) + "." + step.callee().name() + "()";
      } else if (last && effect.entry() != null && !isPlatform(step.callee().owner())) {
        // a class of the program or a library in a role the knowledge names: name the role
        part = simpleName(effect.entry().owner()) + "." + step.callee().name() + "()";
      } else {
        part = step.call().replace("(…)", "(...)");
      }
      if (last && effect.entry() != null) {
        part +=
            effect
                .entry()
                .attribute("does")
                .map(does -> " (for a connection pool: " + does.replace('-', ' ') + ")")
                .orElse("");
      }
      parts.add(part);
    }
    return parts;
  }

  /**
   * The class that declares the method a call runs: the one the next step of the chain is in (a
   * helper inherited from a superclass is named after the superclass, as the code declares it).
   */
  private static String declaringClass(Effects.Step step, Effects.Step next) {
    MethodRef ran = next.in();
    return ran.name().equals(step.callee().name()) ? ran.owner() : step.callee().owner();
  }

  private static boolean isPlatform(String className) {
    return className.startsWith("java.") || className.startsWith("javax.");
  }

  private static boolean isBridge(MethodFacts method) {
    return method != null && (method.access() & 0x40) != 0 && (method.access() & 0x1000) != 0;
  }

  /** {@code Outer.Inner} for {@code a.b.Outer$Inner}. */
  static String simpleName(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1).replace('$', '.');
  }

  private static String list(List<String> names) {
    if (names.size() <= NAMED_MEMBERS) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, NAMED_MEMBERS))
        + " and "
        + (names.size() - NAMED_MEMBERS)
        + " more";
  }
}
