package io.github.lockjaw.contention;

import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code knowledge/contention.txt} says about frames, park blockers and JFR events: which
 * frames are the runtime's, which parks wait for a lock, which waits are idle threads waiting for
 * work, what a lock holder's frames are doing.
 */
final class RuntimeFrames {
  private static final List<String> RUNTIME_PACKAGES = Kind.Contention.RUNTIME_PACKAGE.values();
  private static final List<String> LOCK_BLOCKERS = Kind.Contention.LOCK_BLOCKER.values();
  private static final List<String> NOT_LOCK_WAITS = Kind.Contention.NOT_A_LOCK_WAIT.values();
  private static final MethodSet IDLE_WAITS = new MethodSet(Kind.Contention.IDLE_WAIT.entries());
  private static final List<String> WORK_QUEUE_METHODS = Kind.Contention.WORK_QUEUE_METHOD.values();
  private static final MethodSet LOCK_ACQUIRE_FRAMES =
      new MethodSet(Kind.Contention.LOCK_ACQUIRE_FRAME.entries());
  private static final MethodSet SLEEP_FRAMES =
      new MethodSet(Kind.Contention.SLEEP_FRAME.entries());
  private static final MethodSet HOLDER_ACTIVITIES =
      new MethodSet(Kind.Contention.HOLDER_ACTIVITY.entries());

  /**
   * Entries of a kind whose values are {@code class#method} or a class alone, indexed by class for
   * matching frames: each entry's {@code does=} attribute kept.
   */
  private static final class MethodSet {
    /** Class name to method name (empty: every method) to the entry's {@code does=}. */
    private final Map<String, Map<String, String>> byClass = new HashMap<>();

    MethodSet(List<ApiCatalog.Entry> entries) {
      for (ApiCatalog.Entry entry : entries) {
        byClass
            .computeIfAbsent(entry.type(), t -> new HashMap<>())
            .putIfAbsent(entry.method(), entry.attribute("does").orElse("").replace('-', ' '));
      }
    }

    /** The {@code does=} of the entry matching the frame, or null when none does. */
    String match(Frame frame) {
      Map<String, String> methods = byClass.get(frame.className());
      if (methods == null) {
        return null;
      }
      String does = methods.get(frame.methodName());
      return does != null ? does : methods.get("");
    }
  }

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

  /** The index of the first frame outside the runtime, or -1 when every frame is the runtime's. */
  static int firstApplicationFrame(List<Frame> stack) {
    for (int i = 0; i < stack.size(); i++) {
      if (!isRuntime(stack.get(i))) {
        return i;
      }
    }
    return -1;
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

  /**
   * Whether a thread waiting at {@code stack.get(site)} waits for work, not for a lock: a known
   * idle pool, queue, selector or timer wait anywhere on its stack; or a wait in the thread's own
   * loop, where the waiting method is {@code run} or a work-queue method ({@code take}, {@code
   * poll}, ...) and every frame below it is a {@code run} method or the runtime's. A request
   * handler that waits (a pool's {@code borrowObject}) is not idle: its callers are the request's.
   */
  static boolean isIdleWait(List<Frame> stack, int site) {
    for (Frame frame : stack) {
      if (matchesAny(frame, IDLE_WAITS)) {
        return true;
      }
    }
    if (site < 0 || site + 1 >= stack.size()) {
      return false; // nothing is known below the site
    }
    String waiting = stack.get(site).methodName();
    if (!waiting.equals("run") && !WORK_QUEUE_METHODS.contains(waiting)) {
      return false;
    }
    for (int i = site + 1; i < stack.size(); i++) {
      Frame caller = stack.get(i);
      if (!caller.methodName().equals("run") && !isRuntime(caller)) {
        return false;
      }
    }
    return true;
  }

  /** Whether one of the frames down to the first application frame acquires a lock. */
  static boolean acquiresALock(List<Frame> stack) {
    for (Frame frame : stack) {
      if (!isRuntime(frame)) {
        return false;
      }
      if (matchesAny(frame, LOCK_ACQUIRE_FRAMES)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the thread's top runtime frames sleep (Thread.sleep, TimeUnit.sleep, parkNanos). */
  static boolean sleeps(List<Frame> stack) {
    for (Frame frame : stack) {
      if (!isRuntime(frame)) {
        return false;
      }
      if (matchesAny(frame, SLEEP_FRAMES)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What a holder whose stack is this was doing, in words ({@code socket read}), from the first
   * frame from the top that {@code holder-activity} names; empty when none does.
   */
  static String activity(List<Frame> stack) {
    for (Frame frame : stack) {
      String does = HOLDER_ACTIVITIES.match(frame);
      if (does != null) {
        return does;
      }
    }
    return "";
  }

  private static boolean matchesAny(Frame frame, MethodSet entries) {
    return entries.match(frame) != null;
  }

  /** The JFR event names read, in file order, with what each means. */
  static List<ApiCatalog.Entry> lockEvents() {
    return Kind.Contention.LOCK_EVENT.entries();
  }

  /** The JFR sample events read for what a monitor's holder was running. */
  static List<String> holderSampleEvents() {
    return Kind.Contention.HOLDER_SAMPLE_EVENT.values();
  }

  /** The JFR event that names the recording JVM's version. */
  static List<String> jvmInformationEvents() {
    return Kind.Contention.JVM_INFORMATION_EVENT.values();
  }

  /** The checks whose findings threads sleeping in the flagged code are evidence for. */
  static List<String> sleepEvidenceChecks() {
    return Kind.Contention.SLEEP_EVIDENCE_CHECK.values();
  }
}
