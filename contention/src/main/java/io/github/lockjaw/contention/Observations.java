package io.github.lockjaw.contention;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the evidence showed: the contended lock sites, what was read, and notes for the user (a
 * truncated file, a recording without lock events). Filled by the readers, one event or one thread
 * at a time; it keeps one entry per site, never the events themselves.
 */
public final class Observations {
  /** How many caller frames past the site a reader needs to pass in. */
  static final int FRAMES_NEEDED_PAST_SITE = 1;

  private record Key(WaitKind kind, String className, String methodName, int line) {}

  private final Map<Key, ObservedSite> sites = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final List<Path> recordings = new ArrayList<>();
  private final List<Path> dumpFiles = new ArrayList<>();
  private long lockEvents;
  private long runtimeOnlyWaits;
  private int dumps;
  private long firstEventMillis = Long.MAX_VALUE;
  private long lastEventMillis = Long.MIN_VALUE;
  private long recordingNanos;
  private int recordingJdk;
  private long idleWaits;
  private final Map<String, Long> idleSites = new LinkedHashMap<>();
  private boolean holderSamples;

  /**
   * One JFR lock event. {@code stack} is top frame first; waits whose every frame is the runtime's
   * (idle pool threads, the JDK's own locks) are counted but not reported.
   */
  ObservedSite addEvent(
      WaitKind kind,
      List<Frame> stack,
      String monitor,
      long durationNanos,
      String thread,
      long startMillis) {
    if (kind != WaitKind.SLEEP) {
      lockEvents++;
    }
    firstEventMillis = Math.min(firstEventMillis, startMillis);
    lastEventMillis = Math.max(lastEventMillis, startMillis + durationNanos / 1_000_000);
    ObservedSite site = site(kind, stack, monitor, thread);
    if (site != null) {
      site.addEvent(durationNanos);
    }
    return site;
  }

  /**
   * One waiting thread in thread dump number {@code dumpIndex} (counted across all files), and the
   * thread that held the lock it waited for (null when unknown).
   */
  void addDumpThread(
      WaitKind kind,
      List<Frame> stack,
      String monitor,
      String thread,
      int dumpIndex,
      Holder holder,
      String holderThread) {
    ObservedSite site = site(kind, stack, monitor, thread);
    if (site != null) {
      site.addDumpThread(dumpIndex);
      if (holder != null && !holder.frames().isEmpty()) {
        site.addHolder(holder, holderThread, 1);
      }
    }
  }

  private ObservedSite site(WaitKind kind, List<Frame> stack, String monitor, String thread) {
    if (kind == WaitKind.MONITOR_WAIT && RuntimeFrames.isNotALockWait(monitor)) {
      runtimeOnlyWaits++;
      return null; // Thread.join()
    }
    int index = RuntimeFrames.firstApplicationFrame(stack);
    if (index < 0) {
      runtimeOnlyWaits++;
      return null;
    }
    if (kind == WaitKind.MONITOR_WAIT && RuntimeFrames.isIdleWait(stack, index)) {
      idleWaits++;
      String where = stack.get(index).display();
      if (idleSites.containsKey(where) || idleSites.size() < 16) {
        idleSites.merge(where, 1L, Long::sum);
      }
      return null;
    }
    Frame frame = stack.get(index);
    String via =
        index == 0
            ? ""
            : stack.get(index - 1).className() + "." + stack.get(index - 1).methodName();
    Frame caller = index + 1 < stack.size() ? stack.get(index + 1) : null;
    ObservedSite site =
        sites.computeIfAbsent(
            new Key(kind, frame.className(), frame.methodName(), frame.line()),
            k -> new ObservedSite(kind, frame));
    site.describe(frame, via, monitor, caller, thread);
    return site;
  }

  /** Starts the next thread dump; returns its index. */
  int startDump() {
    return dumps++;
  }

  /** Adds the length of one recording (its chunks' durations), for figures per second. */
  void addRecordingTime(long nanos) {
    recordingNanos += Math.max(0, nanos);
  }

  /** The feature version of a JVM that recorded the evidence (the newest when several did). */
  void recordedOn(int feature) {
    recordingJdk = Math.max(recordingJdk, feature);
  }

  /** Marks that the recording had samples of what threads ran (for the holder's frames). */
  void sawHolderSamples() {
    holderSamples = true;
  }

  void readRecording(Path file) {
    recordings.add(file);
  }

  void readDumpFile(Path file) {
    dumpFiles.add(file);
  }

  void note(String note) {
    notes.add(note);
  }

  /** The contended sites, in the order first seen. */
  public Collection<ObservedSite> sites() {
    return sites.values();
  }

  /** Notes for the user, one paragraph each. */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  public List<Path> recordings() {
    return List.copyOf(recordings);
  }

  public List<Path> dumpFiles() {
    return List.copyOf(dumpFiles);
  }

  /** JFR lock events read (also those whose stack is only the runtime's). */
  public long lockEvents() {
    return lockEvents;
  }

  /** Waits whose stack has no frame outside the Java runtime, and joins: not reported. */
  public long runtimeOnlyWaits() {
    return runtimeOnlyWaits;
  }

  /** Thread dumps read. */
  public int dumps() {
    return dumps;
  }

  /**
   * The length of the recordings in seconds, summed over them (their chunks' durations; the span of
   * the lock events when the chunks do not say); 0 without a recording.
   */
  public double recordingSeconds() {
    if (recordingNanos > 0) {
      return recordingNanos / 1e9;
    }
    return eventSpanMillis() / 1000.0;
  }

  /** The feature version of the JVM that made the recording or dump (0 when unknown). */
  public int recordingJdk() {
    return recordingJdk;
  }

  /** Whether the recordings held execution samples (the holders' frames come from them). */
  public boolean hasHolderSamples() {
    return holderSamples;
  }

  /** Waits of threads waiting for work (idle pool, queue, selector threads): not ranked. */
  public long idleWaits() {
    return idleWaits;
  }

  /** Where idle threads waited, with how many waits each (at most 16 places). */
  public Map<String, Long> idleSites() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(idleSites));
  }

  /** The time the lock events span, in milliseconds; 0 without events. */
  public long eventSpanMillis() {
    return lockEvents == 0 ? 0 : Math.max(0, lastEventMillis - firstEventMillis);
  }

  public boolean isEmpty() {
    return sites.isEmpty();
  }
}
