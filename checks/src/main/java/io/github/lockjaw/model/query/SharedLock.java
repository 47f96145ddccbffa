package io.github.lockjaw.model.query;

import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.List;
import java.util.Optional;

/**
 * A monitor that several callers can hold, as both engines name it: the instance monitor ({@code
 * synchronized} methods, {@code synchronized (this)}), a class monitor ({@code static
 * synchronized}, {@code synchronized (Foo.class)}, {@code synchronized (getClass())}) or the object
 * held in a field. Locks on parameters, locals and computed values are not shared as far as lockjaw
 * can tell.
 *
 * @param kind what the monitor is
 * @param owner the class whose instance or {@code Class} object it is (binary name)
 * @param field the lock field, for {@link Kind#FIELD}
 */
public record SharedLock(Kind kind, String owner, FieldRef field) {

  /** What a monitor is. */
  public enum Kind {
    INSTANCE,
    CLASS,
    FIELD
  }

  /** The shared monitor a region holds, or empty. */
  public static Optional<SharedLock> of(Region region, MethodFacts method) {
    Value monitor = region.monitor();
    String owner = method.ref().owner();
    if (monitor instanceof Value.This) {
      return Optional.of(new SharedLock(Kind.INSTANCE, owner, null));
    }
    if (monitor instanceof Value.ClassLiteral literal) {
      return Optional.of(new SharedLock(Kind.CLASS, literal.type(), null));
    }
    if (monitor instanceof Value.FieldValue field
        && (field.base() == null || field.base() instanceof Value.This)) {
      return Optional.of(new SharedLock(Kind.FIELD, field.field().owner(), field.field()));
    }
    Op producer = method.producer(monitor);
    if (producer != null
        && producer.isCall()
        && producer.method().name().equals("getClass")
        && producer.method().descriptor().equals("()Ljava/lang/Class;")
        && producer.receiver() instanceof Value.This) {
      return Optional.of(new SharedLock(Kind.CLASS, owner, null));
    }
    return Optional.empty();
  }

  /** How a message names the monitor. */
  public String describe() {
    String simple = simple(owner);
    return switch (kind) {
      case INSTANCE ->
          isAnonymous(owner)
              ? "the monitor of this anonymous class's instance"
              : "the monitor of the " + simple + " instance";
      case CLASS -> "the " + simple + ".class monitor";
      case FIELD -> "the monitor of lock field '" + field.name() + "'";
    };
  }

  static String simple(String binaryName) {
    String name = binaryName.substring(binaryName.lastIndexOf('.') + 1);
    return name.substring(name.lastIndexOf('$') + 1);
  }

  private static boolean isAnonymous(String binaryName) {
    String last = binaryName.substring(binaryName.lastIndexOf('$') + 1);
    return !last.isEmpty() && Character.isDigit(last.charAt(0));
  }

  /**
   * Whether an earlier region of the method is the same {@code synchronized} block: a class file
   * holds a {@code finally} block once per way out of its {@code try}, so a block there is read as
   * several regions on the same monitor at the same line (the source front-end reads it once).
   */
  public static boolean repeatsEarlierRegion(Region region, MethodFacts method) {
    Optional<SharedLock> lock = of(region, method);
    for (Region earlier : method.regions()) {
      if (earlier.id() >= region.id()) {
        return false;
      }
      if (earlier.line() == region.line()
          && earlier.wholeMethod() == region.wholeMethod()
          && earlier.parent() == region.parent()
          && of(earlier, method).equals(lock)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every caller of the method already holds the region's monitor when it calls: the
   * monitor is the instance's own, or that of the instance of an enclosing class ({@code
   * synchronized (Pool.this)} in an inner class), and each call is made inside a region of the
   * caller that holds an instance monitor of that class, most likely the same object (lockjaw
   * cannot prove which instance an inner object belongs to). The region re-enters a monitor its
   * callers hold, and adds no queue of its own. False when the method has no caller in the analysed
   * code, or code outside it can call the method (it is public or protected).
   */
  public static boolean isHeldByEveryCaller(Program program, Region region, MethodFacts method) {
    String lockedClass;
    if (region.monitor() instanceof Value.This) {
      lockedClass = method.ref().owner();
    } else if (region.monitor() instanceof Value.FieldValue field
        && field.base() instanceof Value.This
        && field.field().name().startsWith("this$")
        && region.monitorType() != null
        && !region.monitorType().isEmpty()) {
      lockedClass = region.monitorType();
    } else {
      return false;
    }
    List<Program.CallSite> callers = program.callersOf(method.ref());
    if (callers.isEmpty() || method.isVisibleOutsideItsPackage()) {
      return false;
    }
    for (Program.CallSite site : callers) {
      boolean held = false;
      for (Region outer : site.caller().regions()) {
        Optional<SharedLock> lock = of(outer, site.caller());
        if (site.op().isIn(outer.id())
            && lock.isPresent()
            && lock.get().kind() == Kind.INSTANCE
            && lock.get().owner().equals(lockedClass)) {
          held = true;
          break;
        }
      }
      if (!held) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a region's monitor is already held by an enclosing region of the same method (a
   * re-entered monitor adds no queue of its own).
   */
  public static boolean isHeldAround(Region region, MethodFacts method) {
    Optional<SharedLock> lock = of(region, method);
    for (int parent = region.parent();
        parent >= 0;
        parent = method.regions().get(parent).parent()) {
      Region outer = method.regions().get(parent);
      if (lock.isPresent() && lock.equals(of(outer, method))) {
        return true;
      }
    }
    return false;
  }
}
