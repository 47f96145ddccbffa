package io.github.lockjaw.checks.cache;

import io.github.lockjaw.common.MapLocking;

/**
 * What the cache checks found, for both engines to word and the source check to fix: the lookup,
 * the monitor it holds (none when the map's own calls are the lock) and how the map is locked.
 *
 * @param shape which finding it is
 * @param lookup the check-then-act
 * @param monitor the monitor held around it, or {@code null}
 * @param locking how the map is synchronised
 * @param weakKeys whether the map holds its keys weakly (a {@code WeakHashMap}): then the cure is
 *     no ConcurrentHashMap, which would keep every key alive
 */
public record CacheFinding(
    Shape shape, Lookup lookup, CacheMonitor monitor, MapLocking locking, boolean weakKeys) {

  /** The cure for a map that holds its keys weakly, in place of a ConcurrentHashMap. */
  static final String WEAK_KEYS_CURE =
      "The map holds its keys weakly, so a ConcurrentHashMap would keep every key alive (class"
          + " loaders leak when the keys are classes or loaders): for Class keys use ClassValue,"
          + " otherwise a concurrent weak-keyed map such as Caffeine's weakKeys() or Guava's"
          + " MapMaker().weakKeys().";

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

  /**
   * The message, with the monitor named as the engine can name it; {@code fixNote} is appended: ""
   * with a fix, " (No automatic fix: why.)" without one, {@code null} where the engine never offers
   * one.
   */
  public String message(String monitorText, String fixNote) {
    String name = mapName();
    String fix = fixNote == null ? "" : fixNote;
    return switch (shape) {
      case CLASS_LOCK ->
          classLockMessage(
                  fixNote == null
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
              + cure(
                  " Make the map a ConcurrentHashMap and fill it with computeIfAbsent, without the"
                      + " outer lock.")
              + fix;
      case UNLOCKED ->
          "Check-then-act cache on '"
              + name
              + "', a "
              + (locking == MapLocking.COARSE ? "coarsely locked map" : "map")
              + ": each call locks the whole map, and another thread can put between the check"
              + " and the put, so the value may be computed twice."
              + cure(" Make the map a ConcurrentHashMap and fill it with computeIfAbsent.")
              + fix;
      case SPLIT_LOCK ->
          "Check-then-act cache on '"
              + name
              + "' split across two synchronized blocks on "
              + monitorText
              + ": every reader takes that lock twice, and two threads that miss at once both"
              + " build the value and put it."
              + cure(
                  " Make the map a ConcurrentHashMap and fill it with computeIfAbsent in one call,"
                      + " without the lock.")
              + fix;
      case THROUGH_CALLS ->
          "Check-then-act cache on '"
              + name
              + "', a coarsely locked map, split across "
              + callName(lookup.read())
              + " and "
              + callName(lookup.put())
              + ": each call locks the whole map, so every reader queues on it, and two threads"
              + " that miss at once both build the value."
              + cure(
                  " Make the map a ConcurrentHashMap and fill it with computeIfAbsent in one"
                      + " call.")
              + fix;
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
            : weakKeys
                ? WEAK_KEYS_CURE
                : "Make the map a ConcurrentHashMap and fill it with computeIfAbsent"
                    + " (or use ClassValue when the keys are classes), and drop the lock.");
  }

  /** The advice for a map whose keys are held strongly, or the weak-keyed map's own cure. */
  private String cure(String concurrentMapAdvice) {
    return weakKeys ? " " + WEAK_KEYS_CURE : concurrentMapAdvice;
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
