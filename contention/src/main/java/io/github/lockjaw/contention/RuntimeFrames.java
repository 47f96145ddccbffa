package io.github.lockjaw.contention;

import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import java.util.List;

/** Which frames and park blockers belong to the Java runtime: {@code knowledge/contention.txt}. */
final class RuntimeFrames {
  private static final List<String> RUNTIME_PACKAGES = Kind.Contention.RUNTIME_PACKAGE.values();
  private static final List<String> LOCK_BLOCKERS = Kind.Contention.LOCK_BLOCKER.values();
  private static final List<String> NOT_LOCK_WAITS = Kind.Contention.NOT_A_LOCK_WAIT.values();

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
    return Kind.Contention.LOCK_EVENT.entries();
  }
}
