package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the threads of one thread dump into observations: decides what each thread waits for (a
 * monitor, a lock, a notification, work, a sleep), and names the thread that held the lock a
 * waiting thread waits for, with its frames. The waiting threads of a dump are kept until the dump
 * ends, as the holder may come later in it; threads that neither wait nor hold are dropped at once.
 */
final class DumpAssembler {
  private record Waiting(
      WaitKind kind, List<Frame> frames, String monitor, String name, DumpThread thread) {}

  /** A thread that holds a lock, and the depth of the frame that took it (-1: unknown). */
  private record Holding(DumpThread thread, int depth) {
    Holder holder() {
      return Holder.of(thread.frames, depth);
    }
  }

  /** Threads kept by id for a lock's owner named by id; beyond this many a dump's are dropped. */
  private static final int MAX_THREADS_BY_ID = 100_000;

  private final Observations into;
  private int dump = -1;
  private final List<Waiting> waiting = new ArrayList<>();
  private final Map<String, Holding> byLock = new HashMap<>();
  private final Map<String, Holding> byTid = new HashMap<>();
  private final Map<String, Holding> byName = new HashMap<>();
  private final Map<Holding, Holder> holders = new HashMap<>();

  DumpAssembler(Observations into) {
    this.into = into;
  }

  /** Starts the next dump (ending the one before). */
  void startDump() {
    endDump();
    dump = into.startDump();
  }

  /** Whether a dump was started. */
  boolean started() {
    return dump >= 0;
  }

  void thread(DumpThread thread) {
    if (thread.frames.isEmpty()) {
      return;
    }
    if (dump < 0) {
      dump = into.startDump(); // a dump without its header
    }
    for (DumpThread.Held held : thread.held) {
      byLock.putIfAbsent(held.identity(), new Holding(thread, held.depth()));
    }
    Holding whole = new Holding(thread, -1);
    if (!thread.tid.isEmpty() && byTid.size() < MAX_THREADS_BY_ID) {
      byTid.putIfAbsent(thread.tid, whole);
    }
    if (!thread.name.isEmpty() && byName.size() < MAX_THREADS_BY_ID) {
      byName.putIfAbsent(thread.name, whole);
    }
    WaitKind kind = kind(thread);
    if (kind == null) {
      return;
    }
    String monitor = thread.waitClass;
    waiting.add(new Waiting(kind, List.copyOf(thread.frames), monitor, thread.name, thread));
  }

  /** Ends the current dump: resolves the holders of its waiting threads and records them. */
  void endDump() {
    for (Waiting w : waiting) {
      Holding holding = null;
      if (w.kind().waitsForAHolder()) {
        DumpThread t = w.thread();
        if (!t.waitIdentity.isEmpty()) {
          holding = byLock.get(t.waitIdentity);
        }
        if (holding == null && !t.ownerTid.isEmpty()) {
          holding = byTid.get(t.ownerTid);
        }
        if (holding == null && !t.ownerName.isEmpty()) {
          holding = byName.get(t.ownerName);
        }
        if (holding != null && holding.thread() == t) {
          holding = null; // a thread never waits for itself
        }
      }
      into.addDumpThread(
          w.kind(),
          w.frames(),
          w.monitor(),
          w.name(),
          dump,
          holding == null ? null : holders.computeIfAbsent(holding, Holding::holder),
          holding == null ? "" : holding.thread().name);
    }
    waiting.clear();
    byLock.clear();
    byTid.clear();
    byName.clear();
    holders.clear();
  }

  /**
   * What the thread waits for, from its state and lock line when the dump has them, else from its
   * frames; null when it does not wait for a lock (running, idle in a pool, joining).
   */
  static WaitKind kind(DumpThread thread) {
    String state = thread.state;
    if (state.equals("BLOCKED") || thread.wait == DumpThread.Wait.ENTER && state.isEmpty()) {
      return WaitKind.MONITOR_ENTER;
    }
    boolean waitingState =
        state.equals("WAITING") || state.equals("TIMED_WAITING") || state.isEmpty();
    if (!waitingState) {
      return null;
    }
    if (thread.wait == DumpThread.Wait.WAIT) {
      return WaitKind.MONITOR_WAIT;
    }
    if (thread.wait == DumpThread.Wait.PARK) {
      if (RuntimeFrames.isLockBlocker(thread.waitClass)) {
        return WaitKind.LOCK_PARK;
      }
      if (!thread.waitClass.isEmpty()) {
        return null; // parked for work or a result: a queue, a future, a condition
      }
    }
    if (thread.stateDetail.startsWith("sleeping") || RuntimeFrames.sleeps(thread.frames)) {
      return WaitKind.SLEEP;
    }
    if (state.isEmpty() && thread.wait == null) {
      // a dump without states or lock lines (jcmd Thread.dump_to_file on JDK 21): the frames say
      if (RuntimeFrames.acquiresALock(thread.frames)) {
        return WaitKind.LOCK_PARK;
      }
      if (inObjectWait(thread.frames)) {
        return WaitKind.MONITOR_WAIT;
      }
    }
    return null;
  }

  private static boolean inObjectWait(List<Frame> frames) {
    for (Frame frame : frames) {
      if (!RuntimeFrames.isRuntime(frame)) {
        return false;
      }
      if (frame.className().equals("java.lang.Object") && frame.methodName().startsWith("wait")) {
        return true;
      }
    }
    return false;
  }
}
