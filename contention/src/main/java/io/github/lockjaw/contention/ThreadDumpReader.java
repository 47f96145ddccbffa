package io.github.lockjaw.contention;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HotSpot thread dumps, as {@code jstack PID}, {@code jcmd PID Thread.print} and {@code kill
 * -3} print them (JDK 8 to 25): one dump per file, or several inside a server log between other
 * lines. Line by line; it keeps one entry per lock site. Threads BLOCKED on a monitor, waiting in
 * {@code Object.wait()}, or parked on a {@code java.util.concurrent} lock are counted at the first
 * frame outside the Java runtime.
 */
final class ThreadDumpReader {
  private static final Pattern DUMP_START = Pattern.compile("Full thread dump ");
  private static final Pattern THREAD = Pattern.compile("^\"(.*)\"(?:\\s.*)?$");
  private static final Pattern STATE =
      Pattern.compile("^\\s+java\\.lang\\.Thread\\.State: ([A-Z_]+)(?: \\((.*)\\))?\\s*$");
  private static final Pattern FRAME =
      Pattern.compile("^\\s+at (\\S+)\\.([^.(\\s]+)\\((.*)\\)\\s*$");
  private static final Pattern LOCK =
      Pattern.compile(
          "^\\s+- (waiting to lock|parking to wait for|waiting on|waiting to re-lock in wait\\(\\))"
              + "\\s+<[^>]*>\\s*(?:\\(a (.+)\\))?\\s*$");
  private static final Pattern LOCATION = Pattern.compile("^(.+?)(?::(\\d+))?$");

  /** Lines that end the thread section of a dump. */
  private static final Pattern DUMP_END =
      Pattern.compile("^(JNI global ref|Heap$|Found \\d+ deadlock|\"[^\"]*\" os_prio)");

  /**
   * Whether the file holds a thread dump: a "Full thread dump" line or a thread state line anywhere
   * (a server log).
   */
  static boolean looksLikeDump(Path file) throws IOException {
    try (BufferedReader reader = reader(file)) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.indexOf('\0') >= 0) {
          return false;
        }
        if (line.contains("Full thread dump ") || STATE.matcher(line).matches()) {
          return true;
        }
      }
      return false;
    }
  }

  void read(Path file, Observations into) throws EvidenceException {
    int dumpsBefore = into.dumps();
    Parser parser = new Parser(into);
    try (BufferedReader reader = reader(file)) {
      String line;
      while ((line = reader.readLine()) != null) {
        parser.line(line);
      }
      parser.endThread();
    } catch (IOException e) {
      throw new EvidenceException(
          "lockjaw cannot read the thread dump " + file + ": " + e.getMessage() + ".", e);
    }
    if (into.dumps() == dumpsBefore) {
      throw new EvidenceException(
          file
              + " has no thread dump lockjaw can read: no \"Full thread dump\" header and"
              + " no thread with a java.lang.Thread.State line. Take dumps with jcmd PID Thread.print (or jstack PID,"
              + " or kill -3 PID, which prints into the server's console log); lockjaw reads HotSpot's format, JDK 8"
              + " to 25.");
    }
    into.readDumpFile(file);
  }

  private static BufferedReader reader(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    // thread names may be in any charset; an undecodable byte becomes U+FFFD instead of an error
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
  }

  /** The state machine over one file's lines. */
  private static final class Parser {
    private final Observations into;
    private int dump = -1;
    private String thread;
    private String state;
    private String stateDetail;
    private String monitor;
    private String lockVerb;
    private final List<Frame> frames = new ArrayList<>();

    Parser(Observations into) {
      this.into = into;
    }

    void line(String line) {
      if (DUMP_START.matcher(line).find()) {
        endThread();
        dump = into.startDump();
        return;
      }
      Matcher header = THREAD.matcher(line);
      if (header.matches()) {
        endThread();
        if (DUMP_END.matcher(line).find()) {
          return; // a VM thread ("GC Thread#0" os_prio=0 ...): no Java stack
        }
        thread = header.group(1);
        return;
      }
      if (thread == null) {
        return;
      }
      if (line.isBlank() || DUMP_END.matcher(line).find()) {
        endThread();
        return;
      }
      Matcher stateLine = STATE.matcher(line);
      if (stateLine.matches()) {
        state = stateLine.group(1);
        stateDetail = stateLine.group(2) == null ? "" : stateLine.group(2);
        return;
      }
      Matcher frame = FRAME.matcher(line);
      if (frame.matches()) {
        frames.add(frame(frame.group(1), frame.group(2), frame.group(3)));
        return;
      }
      Matcher lock = LOCK.matcher(line);
      if (lock.matches() && lockVerb == null) {
        lockVerb = lock.group(1);
        monitor = lock.group(2) == null ? "" : lock.group(2).trim();
      }
      // anything else (a log line from another thread, "Locked ownable synchronizers") is skipped
    }

    void endThread() {
      if (thread != null && state != null && !frames.isEmpty()) {
        WaitKind kind = kind();
        if (kind != null) {
          if (dump < 0) {
            dump = into.startDump(); // a dump without its "Full thread dump" header
          }
          into.addDumpThread(
              kind, List.copyOf(frames), monitor == null ? "" : monitor, thread, dump);
        }
      }
      thread = null;
      state = null;
      stateDetail = null;
      monitor = null;
      lockVerb = null;
      frames.clear();
    }

    private WaitKind kind() {
      if (state.equals("BLOCKED")) {
        return WaitKind.MONITOR_ENTER;
      }
      if (!state.equals("WAITING") && !state.equals("TIMED_WAITING")) {
        return null;
      }
      if (stateDetail.startsWith("on object monitor") && "waiting on".equals(lockVerb)) {
        return WaitKind.MONITOR_WAIT;
      }
      if (stateDetail.startsWith("parking")
          && "parking to wait for".equals(lockVerb)
          && RuntimeFrames.isLockBlocker(monitor)) {
        return WaitKind.LOCK_PARK;
      }
      return null;
    }

    /**
     * {@code at com.acme.Cache.get(app//Cache.java:42)}, {@code (java.base@17/Thread.java:840)},
     * {@code (Native Method)}.
     */
    private static Frame frame(String className, String method, String location) {
      String where = location.substring(location.lastIndexOf('/') + 1);
      String file = "";
      int line = -1;
      Matcher parts = LOCATION.matcher(where);
      if (where.contains(".java") && parts.matches()) {
        file = parts.group(1);
        if (parts.group(2) != null) {
          try {
            line = Integer.parseInt(parts.group(2));
          } catch (NumberFormatException e) {
            line = -1;
          }
        }
      }
      return new Frame(className, method, "", line, file);
    }
  }
}
