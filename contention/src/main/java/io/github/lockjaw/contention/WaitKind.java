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
  PINNED("pinned"),
  /**
   * Sleeping or parked without a lock inside a polling loop a lockjaw check flags (JFR
   * jdk.ThreadSleep, jdk.ThreadPark without a lock; "TIMED_WAITING (sleeping)" in a dump): the
   * evidence of a busy-wait under load. Counted only where such a finding covers the frame.
   */
  SLEEP("sleep in a loop");

  private final String label;

  WaitKind(String label) {
    this.label = label;
  }

  /** Whether threads waiting this way wait for a lock (a holder can be named). */
  public boolean waitsForAHolder() {
    return this == MONITOR_ENTER || this == LOCK_PARK;
  }

  /** A short label for tables. */
  public String label() {
    return label;
  }
}
