package io.github.lockjaw.contention;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A contended lock site: the frame where threads were seen waiting (the first frame outside the
 * Java runtime), why they waited, and the figures the evidence gives for it. JFR events give
 * blocked time, wait count and longest wait; thread dumps give the waiting threads summed over the
 * dumps and in how many dumps the site appeared.
 */
public final class ObservedSite {
  private static final int MAX_THREAD_NAMES = 256;

  private final WaitKind kind;
  private Frame frame;
  private String via = "";
  private String monitor = "";
  private Frame caller;
  private long events;
  private long totalNanos;
  private long maxNanos;
  private long dumpThreads;
  private int dumps;
  private int lastDump = -1;
  private final Set<String> threads = new LinkedHashSet<>();
  private boolean moreThreads;
  private final HolderTally holders = new HolderTally();
  private String pinnedBy = "";

  ObservedSite(WaitKind kind, Frame frame) {
    this.kind = kind;
    this.frame = frame;
  }

  void addEvent(long durationNanos) {
    events++;
    totalNanos += Math.max(0, durationNanos);
    maxNanos = Math.max(maxNanos, durationNanos);
  }

  void addDumpThread(int dumpIndex) {
    dumpThreads++;
    if (dumpIndex != lastDump) {
      dumps++;
      lastDump = dumpIndex;
    }
  }

  void describe(Frame seen, String via, String monitor, Frame caller, String thread) {
    if (frame.descriptor().isEmpty() && !seen.descriptor().isEmpty()) {
      frame = seen; // JFR knows the descriptor, a dump the file name: keep the richer frame
    }
    if (this.via.isEmpty() && via != null) {
      this.via = via;
    }
    if (monitor != null
        && !monitor.isEmpty()
        && (this.monitor.isEmpty() || this.monitor.equals("java.lang.Class"))) {
      this.monitor =
          monitor; // a dump's "java.lang.Class for X" says more than JFR's java.lang.Class
    }
    if (this.caller == null) {
      this.caller = caller;
    }
    if (thread != null && !thread.isEmpty() && !threads.contains(thread)) {
      if (threads.size() < MAX_THREAD_NAMES) {
        threads.add(thread);
      } else {
        moreThreads = true;
      }
    }
  }

  void addHolder(Holder holder, String thread, long weight) {
    holders.add(holder, thread, weight);
  }

  void pinnedBy(String reason) {
    if (pinnedBy.isEmpty() && reason != null) {
      pinnedBy = reason;
    }
  }

  /**
   * Who held the lock and what it was doing while threads waited here, grouped; empty when the
   * evidence does not say (JFR without execution samples, a dump without the holder's lines).
   */
  public HolderTally holders() {
    return holders;
  }

  /**
   * For a pinned virtual thread: what pinned it to its carrier, e.g. {@code synchronized method
   * Orders.place} or the JDK's own reason ({@code VM call to Config.<clinit> on stack}); empty when
   * unknown.
   */
  public String pinnedBy() {
    return pinnedBy;
  }

  /**
   * The identity of the site across runs: its kind, class and method, without the line (a fix
   * elsewhere in the file moves lines) or the lock (a fix may change the lock the same code waits
   * on: a Class monitor becomes a ConcurrentHashMap bin, and the site is better, not new).
   */
  public String identity() {
    return kind + " " + frame.method();
  }

  public WaitKind kind() {
    return kind;
  }

  /**
   * The waiting frame: class, method, line (and file or descriptor where the evidence has them).
   */
  public Frame frame() {
    return frame;
  }

  /**
   * The runtime frame the site called that did the waiting, e.g. {@code java.util.Hashtable.get};
   * empty when the site itself waits.
   */
  public String via() {
    return via;
  }

  /**
   * The class of the monitor or lock waited for, e.g. {@code java.lang.Class for com.acme.Cache};
   * empty when unknown.
   */
  public String monitor() {
    return monitor;
  }

  /** The first caller of the waiting frame, or null. */
  public Frame caller() {
    return caller;
  }

  /** JFR: the number of waits recorded (over the recording's threshold). */
  public long events() {
    return events;
  }

  /** JFR: the summed duration of the waits, in nanoseconds. */
  public long totalNanos() {
    return totalNanos;
  }

  /** JFR: the longest wait, in nanoseconds. */
  public long maxNanos() {
    return maxNanos;
  }

  /** Thread dumps: the waiting threads, summed over the dumps. */
  public long dumpThreads() {
    return dumpThreads;
  }

  /** Thread dumps: in how many dumps at least one thread waited here. */
  public int dumps() {
    return dumps;
  }

  /** The distinct threads seen waiting here (at most 256 are counted exactly). */
  public int threadCount() {
    return threads.size();
  }

  /** Whether more distinct threads waited than {@link #threadCount()} counts. */
  public boolean moreThreads() {
    return moreThreads;
  }

  @Override
  public String toString() {
    return kind
        + " "
        + frame.qualified()
        + " ["
        + monitor
        + "] events="
        + events
        + " dumpThreads="
        + dumpThreads;
  }
}
