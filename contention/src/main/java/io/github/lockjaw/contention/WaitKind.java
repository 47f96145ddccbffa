package io.github.lockjaw.contention;

/** Why a thread was seen waiting at a site. */
public enum WaitKind {
  /**
   * Waiting to enter a {@code synchronized} method or block (JFR jdk.JavaMonitorEnter; BLOCKED in a
   * dump).
   */
  MONITOR_ENTER("monitor enter"),
  /** In {@code Object.wait()} on a monitor (JFR jdk.JavaMonitorWait; "waiting on" in a dump). */
  MONITOR_WAIT("Object.wait"),
  /**
   * Parked waiting for a {@code java.util.concurrent} lock (JFR jdk.ThreadPark; "parking to wait
   * for" in a dump).
   */
  LOCK_PARK("lock park"),
  /** A virtual thread pinned to its carrier while it blocked (JFR jdk.VirtualThreadPinned). */
  PINNED("pinned");

  private final String label;

  WaitKind(String label) {
    this.label = label;
  }

  /** A short label for tables. */
  public String label() {
    return label;
  }
}
