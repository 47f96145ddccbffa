package io.github.lockjaw.common;

/**
 * The message of a monitor held on a shared reflective object (a {@code Method}, {@code Field} or
 * {@code Constructor}) around a reflective call: one text for the source check ({@code
 * ClassMonitorCache}) and the bytecode detector alike.
 */
public final class SharedReflectiveLockMessage {
  private SharedReflectiveLockMessage() {}

  /**
   * @param lockType the simple name of the lock's type ({@code Method})
   * @param lockName the field or parameter that holds the lock
   * @param what {@code invokes} or {@code introspects} (the {@code what=} of {@code
   *     reflection.txt})
   * @param call the reflective call, as {@code Method.invoke()}
   */
  public static String of(String lockType, String lockName, String what, String call) {
    boolean introspects = "introspects".equals(what);
    return "Holds the monitor of the "
        + lockType
        + " '"
        + lockName
        + "' while it "
        + (introspects ? "introspects a type" : "calls through it")
        + " ("
        + call
        + "): a reflective object handed out by a cache is one object for every caller, so every"
        + " thread that uses the same member queues here for the whole call. "
        + (introspects
            ? "Introspect once per class (a ConcurrentHashMap or a ClassValue) and drop the lock."
            : "Make the member accessible once, before it is cached and shared"
                + " (setAccessible(true) where it is looked up), and call it without the lock.")
        + " (No automatic fix: where the member is looked up and cached lies outside this"
        + " block.)";
  }
}
