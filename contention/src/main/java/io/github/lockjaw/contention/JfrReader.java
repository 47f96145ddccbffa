package io.github.lockjaw.contention;

import io.github.lockjaw.knowledge.ApiCatalog;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the lock events of a JFR recording ({@code jdk.JavaMonitorEnter}, {@code
 * jdk.JavaMonitorWait}, {@code jdk.ThreadPark} on a lock, {@code jdk.VirtualThreadPinned}, and
 * {@code jdk.ThreadSleep} for busy-wait evidence) one at a time with {@link RecordingFile}: the
 * recording is streamed chunk by chunk, never held in memory, and only one entry per lock site is
 * kept. The samples of a contended monitor's previous owner taken during the waits name what the
 * holder was doing ({@link HolderSampler}). Recordings joined into one file are read one by one.
 */
final class JfrReader {
  /** The magic bytes every JFR chunk starts with. */
  static final byte[] MAGIC = {'F', 'L', 'R', 0};

  static final String HOW_TO_RECORD =
      "Record lock events with JFR's profile settings and a low threshold, for example java"
          + " -XX:StartFlightRecording=settings=profile,jdk.JavaMonitorEnter#threshold=1ms,"
          + "jdk.ThreadPark#threshold=1ms,filename=load.jfr ... during the load test, or on a running server"
          + " jcmd PID JFR.start settings=profile duration=60s filename=load.jfr (see docs/contention.md).";

  private static final Pattern JVM_VERSION = Pattern.compile("\\((\\d+)[.+\\-)]");

  /** At most this many stacks are remembered per recording, then forgotten and seen afresh. */
  private static final int MAX_REMEMBERED_STACKS = 20_000;

  private final Map<String, WaitKind> kinds = new HashMap<>();

  /**
   * The site frames of the stacks seen in this recording: the JDK's reader hands out one object per
   * stack of a chunk, so a stack's frames are converted once, not once per event.
   */
  private final Map<RecordedStackTrace, List<Frame>> siteStacks = new IdentityHashMap<>();

  private final Set<String> sampleEvents = new HashSet<>(RuntimeFrames.holderSampleEvents());
  private final Set<String> jvmEvents = new HashSet<>(RuntimeFrames.jvmInformationEvents());

  JfrReader() {
    for (ApiCatalog.Entry entry : RuntimeFrames.lockEvents()) {
      entry.attribute("kind").ifPresent(kind -> kinds.put(entry.value(), WaitKind.valueOf(kind)));
    }
  }

  static boolean looksLikeRecording(Path file) throws IOException {
    byte[] head = new byte[MAGIC.length];
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, MAGIC);
    }
  }

  void read(Path file, Observations into) throws EvidenceException {
    ChunkLayout layout = ChunkLayout.of(file);
    if (layout.recordings().isEmpty()) {
      throw new EvidenceException(layout.damage() + " No complete chunk is left to read.");
    }
    long before = into.lockEvents();
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw new EvidenceException("lockjaw cannot read " + file + ": " + describe(e) + ".", e);
    }
    if (layout.isOneWholeRecording(size)) {
      readRecording(file, file, into);
      into.addRecordingTime(layout.recordings().get(0).durationNanos());
    } else {
      for (ChunkLayout.Recording recording : layout.recordings()) {
        Path part = copy(file, recording);
        try {
          readRecording(part, file, into);
          into.addRecordingTime(recording.durationNanos());
        } finally {
          try {
            Files.deleteIfExists(part);
          } catch (IOException e) {
            part.toFile().deleteOnExit();
          }
        }
      }
      if (layout.recordings().size() > 1) {
        into.note(
            file
                + " holds "
                + layout.recordings().size()
                + " recordings joined one after the other (as cat joins"
                + " them): lockjaw read each on its own, since the chunks of different recordings cannot be read"
                + " as one (the JDK's reader would mix their stacks). jfr assemble joins the chunks of one"
                + " recording; pass separate recordings as separate files.");
      }
    }
    into.readRecording(file);
    if (layout.damage() != null) {
      into.note(layout.damage());
    }
    if (into.lockEvents() == before) {
      into.note(
          file
              + " has no lock events (jdk.JavaMonitorEnter, jdk.JavaMonitorWait, jdk.ThreadPark,"
              + " jdk.VirtualThreadPinned): they were off, or no thread waited longer than their threshold (20 ms"
              + " with the default settings). "
              + HOW_TO_RECORD);
    }
  }

  /** Copies one recording's chunks into a temporary file of their own. */
  private static Path copy(Path file, ChunkLayout.Recording recording) throws EvidenceException {
    try {
      Path part = Files.createTempFile("lockjaw-recording-", ".jfr");
      try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
          FileChannel out = FileChannel.open(part, StandardOpenOption.WRITE)) {
        long done = 0;
        while (done < recording.size()) {
          long n = in.transferTo(recording.position() + done, recording.size() - done, out);
          if (n <= 0) {
            throw new IOException("the copy of its chunks stopped at byte " + done);
          }
          done += n;
        }
      }
      return part;
    } catch (IOException e) {
      throw new EvidenceException(
          "lockjaw cannot copy a recording out of "
              + file
              + " to read it on its own ("
              + describe(e)
              + "); check the space in the temporary directory ("
              + System.getProperty("java.io.tmpdir")
              + ").",
          e);
    }
  }

  /** Reads one whole recording ({@code path}; {@code shown} names it to the user). */
  private void readRecording(Path path, Path shown, Observations into) throws EvidenceException {
    HolderSampler<RecordedStackTrace> sampler = new HolderSampler<>();
    siteStacks.clear();
    long read = 0;
    try (RecordingFile recording = new RecordingFile(path)) {
      while (recording.hasMoreEvents()) {
        RecordedEvent event = recording.readEvent();
        read++;
        String type = event.getEventType().getName();
        WaitKind kind = kinds.get(type);
        if (kind != null) {
          add(kind, event, into, sampler);
        } else if (sampleEvents.contains(type)) {
          RecordedThread thread = thread(event, "sampledThread");
          if (thread != null) {
            sampler.sample(id(thread), nanos(event.getStartTime()), event.getStackTrace());
          }
        } else if (jvmEvents.contains(type) && event.hasField("jvmVersion")) {
          Matcher version = JVM_VERSION.matcher(String.valueOf(event.getString("jvmVersion")));
          if (version.find()) {
            into.recordedOn(Integer.parseInt(version.group(1)));
          }
        }
      }
    } catch (EOFException e) {
      into.note(
          shown
              + " ends before its last event: the recording was cut off; lockjaw used the "
              + read
              + " events before the cut.");
    } catch (IOException | RuntimeException e) {
      if (read == 0) {
        throw new EvidenceException(
            shown
                + " is not a readable JFR recording ("
                + describe(e)
                + "). It may be"
                + " corrupt, or written by a newer JDK than the one running lockjaw ("
                + Runtime.version().feature()
                + "); run lockjaw on the JDK that recorded it, or check the file with jfr summary "
                + shown
                + ".",
            e);
      }
      into.note(
          shown
              + " could not be read to its end ("
              + describe(e)
              + "); lockjaw used the "
              + read
              + " events before the damage.");
    }
    if (sampler.hasSamples()) {
      into.sawHolderSamples();
    }
    sampler.resolve(trace -> frames(trace, Holder.MAX_FRAMES));
    siteStacks.clear();
  }

  private void add(
      WaitKind kind,
      RecordedEvent event,
      Observations into,
      HolderSampler<RecordedStackTrace> sampler) {
    String monitor = "";
    if (kind == WaitKind.MONITOR_ENTER || kind == WaitKind.MONITOR_WAIT) {
      RecordedClass monitorClass = safeClass(event, "monitorClass");
      monitor = monitorClass == null ? "" : monitorClass.getName();
    } else if (kind == WaitKind.LOCK_PARK) {
      RecordedClass parked = safeClass(event, "parkedClass");
      if (parked == null) {
        kind = WaitKind.SLEEP; // a timed park without a blocker: a sleep, evidence for a poll loop
      } else if (!RuntimeFrames.isLockBlocker(parked.getName())) {
        return; // a thread waiting for work or a result, not for a lock
      } else {
        monitor = parked.getName();
      }
    }
    RecordedStackTrace trace = event.getStackTrace();
    // Object.wait() needs the whole stack to tell an idle worker from a waiting request
    List<Frame> stack =
        kind == WaitKind.MONITOR_WAIT
            ? frames(trace, Integer.MAX_VALUE)
            : rememberedSiteFrames(trace);
    if (kind == WaitKind.PINNED) {
      stack = fromPinningFrame(trace);
    }
    if (monitor.equals("java.lang.Class")) {
      monitor = classMonitor(trace, monitor);
    }
    RecordedThread thread = event.getThread();
    long start = nanos(event.getStartTime());
    long duration = event.getDuration().toNanos();
    ObservedSite site =
        into.addEvent(
            kind,
            stack,
            monitor,
            duration,
            thread == null ? "" : thread.getJavaName(),
            start / 1_000_000);
    if (site == null) {
      return;
    }
    if (kind == WaitKind.MONITOR_ENTER) {
      RecordedThread owner = thread(event, "previousOwner");
      if (owner != null) {
        sampler.wait(site, id(owner), owner.getJavaName(), start, start + duration);
      }
    } else if (kind == WaitKind.PINNED) {
      site.pinnedBy(pinnedBy(event, trace));
    }
  }

  /**
   * A pinned thread's frames from the one that pins it: the innermost class initializer or {@code
   * synchronized} method on the stack, so the site is the region that pins, not the blocking call
   * inside it; the whole stack when neither is there (a synchronized block, a native frame).
   */
  private static List<Frame> fromPinningFrame(RecordedStackTrace trace) {
    if (trace == null) {
      return List.of();
    }
    List<RecordedFrame> recorded = trace.getFrames();
    int pin = -1;
    for (int i = 0; i < recorded.size() && pin < 0; i++) {
      RecordedMethod method = recorded.get(i).getMethod();
      if (method != null
          && method.getType() != null
          && (method.getName().equals("<clinit>") || Modifier.isSynchronized(method.getModifiers()))
          && !RuntimeFrames.isRuntime(frame(recorded.get(i)))) {
        pin = i;
      }
    }
    List<Frame> frames = new ArrayList<>();
    for (int i = Math.max(0, pin); i < recorded.size(); i++) {
      Frame frame = frame(recorded.get(i));
      if (frame != null) {
        frames.add(frame);
      }
      if (frames.size() > Holder.MAX_FRAMES) {
        break;
      }
    }
    return frames;
  }

  /**
   * What pinned a virtual thread: the JDK's reason (JDK 24+ record it), else the synchronized
   * method on its stack, else a synchronized block or native frame the recording cannot name.
   */
  private static String pinnedBy(RecordedEvent event, RecordedStackTrace trace) {
    if (event.hasField("pinnedReason")) {
      String reason = event.getString("pinnedReason");
      if (reason != null && !reason.isBlank()) {
        return reason;
      }
    }
    if (trace != null) {
      for (RecordedFrame frame : trace.getFrames()) {
        RecordedMethod method = frame.getMethod();
        if (method != null
            && method.getType() != null
            && Modifier.isSynchronized(method.getModifiers())) {
          String type = method.getType().getName();
          return "synchronized method "
              + type.substring(type.lastIndexOf('.') + 1)
              + "."
              + method.getName();
        }
      }
    }
    return "a synchronized block or a native frame on the stack";
  }

  /** A thread field of the event, null when the event has none (an older JDK's event). */
  private static RecordedThread thread(RecordedEvent event, String field) {
    try {
      return event.getThread(field);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static long id(RecordedThread thread) {
    long javaId = thread.getJavaThreadId();
    return javaId > 0 ? javaId : -thread.getId() - 1;
  }

  private static long nanos(Instant time) {
    return time.getEpochSecond() * 1_000_000_000L + time.getNano();
  }

  private List<Frame> rememberedSiteFrames(RecordedStackTrace trace) {
    if (trace == null) {
      return List.of();
    }
    List<Frame> frames = siteStacks.get(trace);
    if (frames == null) {
      if (siteStacks.size() >= MAX_REMEMBERED_STACKS) {
        siteStacks.clear();
      }
      frames = siteFrames(trace);
      siteStacks.put(trace, frames);
    }
    return frames;
  }

  /** The frames down to the first one outside the runtime, and its callers the report shows. */
  private static List<Frame> siteFrames(RecordedStackTrace trace) {
    if (trace == null) {
      return List.of();
    }
    List<Frame> frames = new ArrayList<>();
    int pastSite = -1;
    for (RecordedFrame recorded : trace.getFrames()) {
      Frame frame = frame(recorded);
      if (frame == null) {
        continue;
      }
      frames.add(frame);
      if (pastSite < 0 && !RuntimeFrames.isRuntime(frame)) {
        pastSite = 0;
      } else if (pastSite >= 0 && ++pastSite >= Observations.FRAMES_NEEDED_PAST_SITE) {
        break;
      }
    }
    return frames;
  }

  /** At most {@code max} frames from the top. */
  private static List<Frame> frames(RecordedStackTrace trace, int max) {
    if (trace == null) {
      return List.of();
    }
    List<Frame> frames = new ArrayList<>();
    for (RecordedFrame recorded : trace.getFrames()) {
      Frame frame = frame(recorded);
      if (frame != null) {
        frames.add(frame);
        if (frames.size() >= max) {
          break;
        }
      }
    }
    return frames;
  }

  private static Frame frame(RecordedFrame recorded) {
    RecordedMethod method = recorded.getMethod();
    if (method == null || method.getType() == null) {
      return null;
    }
    return new Frame(
        method.getType().getName(),
        method.getName(),
        method.getDescriptor(),
        recorded.getLineNumber(),
        "");
  }

  /**
   * JFR names a Class monitor only {@code java.lang.Class}. When the thread waits at the entry of a
   * {@code static synchronized} method (the top frame at bytecode index 0), the monitor is that
   * method's class; a {@code synchronized (X.class)} block waits later in its method and stays
   * unnamed.
   */
  private static String classMonitor(RecordedStackTrace trace, String monitor) {
    if (trace == null || trace.getFrames().isEmpty()) {
      return monitor;
    }
    RecordedFrame top = trace.getFrames().get(0);
    RecordedMethod method = top.getMethod();
    if (method == null || method.getType() == null || top.getBytecodeIndex() != 0) {
      return monitor;
    }
    int modifiers = method.getModifiers();
    if (Modifier.isStatic(modifiers) && Modifier.isSynchronized(modifiers)) {
      return "java.lang.Class for " + method.getType().getName();
    }
    return monitor;
  }

  private static RecordedClass safeClass(RecordedEvent event, String field) {
    try {
      return event.getClass(field);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
