package io.github.lockjaw.common;

import java.util.List;

/**
 * The words of a SharedMonitorDao finding on a lazy pool creation that holds a shared monitor for
 * its whole body and that a method handing out connections calls on every call (commons-dbcp 1.x
 * {@code BasicDataSource#createDataSource}, taken by every {@code getConnection()}): one text for
 * the source check and the bytecode detector.
 */
public final class LockedLazyCreationMessage {
  private LockedLazyCreationMessage() {}

  /**
   * The message.
   *
   * @param name how the region is named, e.g. {@code createDataSource()}
   * @param monitor the monitor, e.g. {@code the monitor of the BasicDataSource instance}
   * @param callers the connection-acquisition methods, e.g. {@code [getConnection()]}
   * @param field the lazily created field's name
   * @param isVolatile whether that field is {@code volatile} already
   * @param chain the creation's path to its first blocking call, the creation first
   */
  public static String of(
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
}
