package io.github.lockjaw.contention;

import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.List;

/** Which frames and park blockers belong to the Java runtime: {@code knowledge/contention.txt}. */
final class RuntimeFrames {
  private static final ApiCatalog CATALOG = ApiCatalog.named("contention");
  private static final List<String> RUNTIME_PACKAGES = CATALOG.values("runtime-package");
  private static final List<String> LOCK_BLOCKERS = CATALOG.values("lock-blocker");
  private static final List<String> NOT_LOCK_WAITS = CATALOG.values("not-a-lock-wait");

  private RuntimeFrames() {}

  /** Whether the frame is the runtime's (JDK code, generated lambda and proxy classes). */
  static boolean isRuntime(Frame frame) {
    String name = frame.className();
    if (name.contains("$$Lambda") || name.contains("$$Proxy")) {
      return true;
    }
    for (String prefix : RUNTIME_PACKAGES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a park on an object of this class waits for a lock (not for work or a result). */
  static boolean isLockBlocker(String blockerClass) {
    if (blockerClass == null) {
      return false;
    }
    for (String prefix : LOCK_BLOCKERS) {
      if (blockerClass.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code Object.wait()} on an object of this class waits for an event (Thread.join), not
   * a lock.
   */
  static boolean isNotALockWait(String monitorClass) {
    return monitorClass != null && NOT_LOCK_WAITS.contains(monitorClass);
  }

  /** The JFR event names read as lock events, in file order. */
  static List<ApiCatalog.Entry> lockEvents() {
    return CATALOG.entries("lock-event");
  }
}
