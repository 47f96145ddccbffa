package io.github.lockjaw.checks.cache;

import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.MapLocking;

/**
 * What the cache checks found, for both engines to word and the source check to fix: the lookup,
 * the monitor it holds (none when the map's own calls are the lock) and how the map is locked.
 *
 * @param shape which finding it is
 * @param lookup the check-then-act
 * @param monitor the monitor held around it, or {@code null}
 * @param locking how the map is synchronised
 */
public record CacheFinding(Shape shape, Lookup lookup, CacheMonitor monitor, MapLocking locking) {

  /** The kinds of finding. */
  public enum Shape {
    /** Under a {@code Class} monitor or a shared reflective object's (ClassMonitorCache). */
    CLASS_LOCK,
    /** Under one object monitor (SynchronizedMapCache). */
    OBJECT_LOCK,
    /** On a coarsely locked map without a lock of its own. */
    UNLOCKED,
    /** The read and the put on the same monitor, in two regions. */
    SPLIT_LOCK,
    /** On a coarsely locked map, through helpers or a cache class's methods. */
    THROUGH_CALLS
  }

  /** The map's name as messages give it. */
  public String mapName() {
    return lookup.mapName();
  }

  /** Whether the source check may offer its rewrite: a lookup made by the map's own calls. */
  public boolean mayBeRewritten() {
    return shape != Shape.SPLIT_LOCK && !lookup.throughCalls();
  }

  /**
   * The message, with the monitor named as the engine can name it; {@code hasFix} says whether a
   * rewrite comes with it ({@code null}: the engine never offers one).
   */
  public String message(String monitorText, Boolean hasFix) {
    String name = mapName();
    String fix = hasFix == null ? "" : hasFix ? "" : " " + LockjawDocs.noFixReason();
    return switch (shape) {
      case CLASS_LOCK ->
          classLockMessage(
                  hasFix == null
                      // the audit's wording: where, then what
                      ? lookup.method().ref().display()
                          + "() fills the cache '"
                          + name
                          + "' while it holds "
                      : "Cache lookup on '" + name + "' holds ",
                  monitorText)
              + fix;
      case OBJECT_LOCK ->
          "Check-then-act cache on '"
              + name
              + "' under "
              + monitorText
              + via()
              + ": every reader queues on that one lock while a value is looked up or computed."
              + " Make the map a ConcurrentHashMap and fill it with computeIfAbsent, without the"
              + " outer lock."
              + fix;
      case UNLOCKED ->
          "Check-then-act cache on '"
              + name
              + "', a "
              + (locking == MapLocking.COARSE ? "coarsely locked map" : "map")
              + ": each call locks the whole map, and another thread can put between the check"
              + " and the put, so the value may be computed twice."
              + " Make the map a ConcurrentHashMap and fill it with computeIfAbsent."
              + fix;
      case SPLIT_LOCK ->
          "Check-then-act cache on '"
              + name
              + "' split across two synchronized blocks on "
              + monitorText
              + ": every reader takes that lock twice, and two threads that miss at once both"
              + " build the value and put it. Make the map a ConcurrentHashMap and fill it with"
              + " computeIfAbsent in one call, without the lock."
              + (hasFix == null ? "" : " " + LockjawDocs.noFixReason());
      case THROUGH_CALLS ->
          "Check-then-act cache on '"
              + name
              + "', a coarsely locked map, split across "
              + callName(lookup.read())
              + " and "
              + callName(lookup.put())
              + ": each call locks the whole map, so every reader queues on it, and two threads"
              + " that miss at once both build the value. Make the map a ConcurrentHashMap and"
              + " fill it with computeIfAbsent in one call."
              + (hasFix == null ? "" : " " + LockjawDocs.noFixReason());
    };
  }

  private String classLockMessage(String opening, String monitorText) {
    boolean reflective = monitor.kind() == CacheMonitor.Kind.REFLECTIVE;
    String who =
        reflective
            // synchronized (method) in OGNL's invokeMethod: 980 threads BLOCKED on one Method
            ? ", a reflective object a cache hands to every caller: every thread that uses the"
                + " same member queues here, on every call. "
            : monitor.locksTheKey(lookup.read().key())
                // synchronized (clazz) around a lookup of clazz: the JVM shares the Class object
                ? ", the Class object itself, a lock shared with everything else that synchronizes"
                    + " on that class (its static synchronized methods too): every lookup of it"
                    + " queues here. "
                : ", a JVM-wide lock: every caller queues here, whatever key it asks for. ";
    return opening
        + monitorText
        + via()
        + who
        + (locking == MapLocking.CONCURRENT
            ? "The map is already concurrent: the lock is the bottleneck. Fill it with"
                + " computeIfAbsent and drop the lock."
            : "Make the map a ConcurrentHashMap and fill it with computeIfAbsent"
                + " (or use ClassValue when the keys are classes), and drop the lock.");
  }

  /** Where the calls a helper or cache class makes come in: {@code (through cacheIt())}. */
  private String via() {
    if (!lookup.throughCalls()) {
      return "";
    }
    return " (through "
        + (lookup.read().via() != null ? callName(lookup.read()) : "")
        + (lookup.read().via() != null && lookup.put().via() != null ? " and " : "")
        + (lookup.put().via() != null ? callName(lookup.put()) : "")
        + ")";
  }

  private static String callName(MapAccess access) {
    return (access.via() != null ? access.via().ref().name() : access.op().method().name()) + "()";
  }
}
