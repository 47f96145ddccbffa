package io.github.lockjaw.contention;

import io.github.lockjaw.knowledge.ApiCatalog;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the lock events of a JFR recording ({@code jdk.JavaMonitorEnter}, {@code
 * jdk.JavaMonitorWait}, {@code jdk.ThreadPark} on a lock, {@code jdk.VirtualThreadPinned}) one at a
 * time with {@link RecordingFile}: the recording is streamed chunk by chunk, never held in memory,
 * and only one entry per lock site is kept.
 */
final class JfrReader {
  /** The magic bytes every JFR chunk starts with. */
  static final byte[] MAGIC = {'F', 'L', 'R', 0};

  static final String HOW_TO_RECORD =
      "Record lock events with JFR's profile settings and a low threshold, for example java"
          + " -XX:StartFlightRecording=settings=profile,jdk.JavaMonitorEnter#threshold=1ms,"
          + "jdk.ThreadPark#threshold=1ms,filename=load.jfr ... during the load test, or on a running server"
          + " jcmd PID JFR.start settings=profile duration=60s filename=load.jfr (see docs/contention.md).";

  private final Map<String, WaitKind> kinds = new HashMap<>();

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
    String complete = checkChunks(file);
    long before = into.lockEvents();
    long read = 0;
    try (RecordingFile recording = new RecordingFile(file)) {
      while (recording.hasMoreEvents()) {
        RecordedEvent event = recording.readEvent();
        read++;
        WaitKind kind = kinds.get(event.getEventType().getName());
        if (kind != null) {
          add(kind, event, into);
        }
      }
    } catch (EOFException e) {
      // checkChunks told the user already when the file ends inside a chunk
      if (complete == null) {
        into.note(
            file
                + " ends before its last event: the recording was cut off; lockjaw used the "
                + read
                + " events before the cut.");
      }
    } catch (IOException | RuntimeException e) {
      if (read == 0 && complete != null) {
        throw new EvidenceException(complete + " No complete chunk is left to read.", e);
      }
      if (read == 0) {
        throw new EvidenceException(
            file
                + " is not a readable JFR recording ("
                + describe(e)
                + "). It may be"
                + " corrupt, or written by a newer JDK than the one running lockjaw ("
                + Runtime.version().feature()
                + "); run lockjaw on the JDK that recorded it, or check the file with jfr summary "
                + file
                + ".",
            e);
      }
      into.note(
          file
              + " could not be read to its end ("
              + describe(e)
              + "); lockjaw used the "
              + read
              + " events before the damage.");
    }
    into.readRecording(file);
    if (complete != null) {
      into.note(complete);
    }
    if (read == 0 && complete != null) {
      throw new EvidenceException(complete + " No complete chunk is left to read.");
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

  private void add(WaitKind kind, RecordedEvent event, Observations into) {
    String monitor = "";
    if (kind == WaitKind.MONITOR_ENTER || kind == WaitKind.MONITOR_WAIT) {
      RecordedClass monitorClass = safeClass(event, "monitorClass");
      monitor = monitorClass == null ? "" : monitorClass.getName();
    } else if (kind == WaitKind.LOCK_PARK) {
      RecordedClass parked = safeClass(event, "parkedClass");
      if (parked == null || !RuntimeFrames.isLockBlocker(parked.getName())) {
        return; // a thread waiting for work or a result, not for a lock
      }
      monitor = parked.getName();
    }
    RecordedThread thread = event.getThread();
    List<Frame> stack = frames(event.getStackTrace());
    if (monitor.equals("java.lang.Class")) {
      monitor = classMonitor(event.getStackTrace(), monitor);
    }
    into.addEvent(
        kind,
        stack,
        monitor,
        event.getDuration().toNanos(),
        thread == null ? "" : thread.getJavaName(),
        event.getStartTime().toEpochMilli());
  }

  /** The frames down to the first one outside the runtime, and its callers the report shows. */
  private static List<Frame> frames(RecordedStackTrace trace) {
    if (trace == null) {
      return List.of();
    }
    List<Frame> frames = new ArrayList<>();
    int pastSite = -1;
    for (RecordedFrame recorded : trace.getFrames()) {
      RecordedMethod method = recorded.getMethod();
      if (method == null || method.getType() == null) {
        continue;
      }
      Frame frame =
          new Frame(
              method.getType().getName(),
              method.getName(),
              method.getDescriptor(),
              recorded.getLineNumber(),
              "");
      frames.add(frame);
      if (pastSite < 0 && !RuntimeFrames.isRuntime(frame)) {
        pastSite = 0;
      } else if (pastSite >= 0 && ++pastSite >= Observations.FRAMES_NEEDED_PAST_SITE) {
        break;
      }
    }
    return frames;
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
    return event.hasField(field) ? event.getClass(field) : null;
  }

  /**
   * Walks the chunk headers: returns null when every chunk is whole, else a note that says where
   * the file was cut. Throws when the file does not start like a recording at all.
   */
  static String checkChunks(Path file) throws EvidenceException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      long position = 0;
      int chunks = 0;
      ByteBuffer header = ByteBuffer.allocate(16);
      while (position < size) {
        header.clear();
        int n = channel.read(header, position);
        if (n < 16
            || header.get(0) != 'F'
            || header.get(1) != 'L'
            || header.get(2) != 'R'
            || header.get(3) != 0) {
          if (chunks == 0) {
            throw new EvidenceException(
                file
                    + " is not a JFR recording: it does not start with a JFR chunk header."
                    + " Pass a .jfr file written by -XX:StartFlightRecording or jcmd PID JFR.dump, or a thread dump.");
          }
          return file
              + " is damaged after its first "
              + chunks
              + " chunk(s) (at byte "
              + position
              + " of "
              + size
              + "); lockjaw used what precedes it.";
        }
        long chunkSize = header.getLong(8);
        if (chunkSize <= 0 || position + chunkSize > size) {
          if (chunkSize == 0 || chunks == 0 && chunkSize <= 0) {
            return file
                + " is a recording that was still being written (its chunk is not finished): copy it with"
                + " jcmd PID JFR.dump filename=... or stop the recording first.";
          }
          return file
              + " is truncated: its chunk "
              + (chunks + 1)
              + " needs "
              + chunkSize
              + " bytes from byte "
              + position
              + " but the file has "
              + size
              + "; the file was cut off while being copied or written."
              + (chunks > 0 ? " lockjaw used the " + chunks + " complete chunk(s) before it." : "");
        }
        position += chunkSize;
        chunks++;
      }
      return null;
    } catch (IOException e) {
      throw new EvidenceException("lockjaw cannot read " + file + ": " + describe(e) + ".", e);
    }
  }

  private static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
