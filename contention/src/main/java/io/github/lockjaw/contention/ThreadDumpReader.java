package io.github.lockjaw.contention;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads thread dumps as text, line by line: HotSpot's format as {@code jstack PID}, {@code jcmd PID
 * Thread.print} and {@code kill -3} print it (JDK 8 to 25; one dump per file, or several inside a
 * server log between other lines), and the text of {@code jcmd PID Thread.dump_to_file}, which
 * holds the virtual threads too (JDK 21: names and frames only; JDK 25: states and lock lines).
 * Each thread's lock lines name what it waits for and what it holds, so the waiting threads of a
 * dump are tied to the thread that held their lock.
 */
final class ThreadDumpReader {
  private static final Pattern THREAD = Pattern.compile("^\"(.*)\"(?:\\s.*)?$");
  private static final Pattern TID = Pattern.compile("\\s#(\\d+)\\s");

  /** {@code #22 "" virtual BLOCKED 2026-...Z} (JDK 25), {@code #22 "name" virtual} (JDK 21). */
  private static final Pattern DUMP_TO_FILE_THREAD =
      Pattern.compile("^#(\\d+) \"(.*)\"( virtual)?(?: ([A-Z_]+))?(?: \\S+)?\\s*$");

  private static final Pattern INSTANT = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$");
  private static final Pattern PROCESS_ID = Pattern.compile("\\d+");
  private static final Pattern STATE =
      Pattern.compile("^\\s+java\\.lang\\.Thread\\.State: ([A-Z_]+)(?: \\((.*)\\))?\\s*$");
  private static final Pattern LOCK =
      Pattern.compile(
          "^\\s+- (waiting to lock|parking to wait for|waiting on|waiting to re-lock in wait\\(\\)|"
              + "locked)\\s+<([^>]*)>\\s*(?:\\(a (.+)\\))?.*$");

  /**
   * JDK 26+: {@code // blocked on X}, {@code // parked on X, owned by #12}, {@code // locked X}.
   */
  private static final Pattern COMMENT_LOCK =
      Pattern.compile(
          "^\\s+// (blocked on|waiting on|parked on|locked) (\\S+?)(?:, owned by #(\\d+))?\\s*$");

  private static final Pattern OWNABLE = Pattern.compile("^\\s+- <([^>]*)>\\s*\\(a (.+)\\)\\s*$");

  /** Lines that end the thread section of a dump. */
  private static final Pattern DUMP_END =
      Pattern.compile("^(JNI global ref|Heap$|Found \\d+ deadlock|\"[^\"]*\" os_prio)");

  /**
   * Whether the file holds a thread dump: a "Full thread dump" line, a thread state line anywhere
   * (a server log), or a {@code Thread.dump_to_file} thread header.
   */
  static boolean looksLikeDump(Path file) throws IOException {
    try (BufferedReader reader = reader(file)) {
      String line;
      int lines = 0;
      while ((line = reader.readLine()) != null) {
        if (line.indexOf('\0') >= 0) {
          return false;
        }
        if (line.contains("Full thread dump ") || STATE.matcher(line).matches()) {
          return true;
        }
        if (lines++ < 200 && DUMP_TO_FILE_THREAD.matcher(line).matches()) {
          return true;
        }
      }
      return false;
    }
  }

  void read(Path file, Observations into) throws EvidenceException {
    int dumpsBefore = into.dumps();
    Parser parser = new Parser(new DumpAssembler(into));
    try (BufferedReader reader = reader(file)) {
      String line;
      while ((line = reader.readLine()) != null) {
        parser.line(line);
      }
      parser.end();
    } catch (IOException e) {
      throw new EvidenceException(
          "lockjaw cannot read the thread dump " + file + ": " + e.getMessage() + ".", e);
    }
    if (into.dumps() == dumpsBefore) {
      throw new EvidenceException(
          file
              + " has no thread dump lockjaw can read: no \"Full thread dump\" header and"
              + " no thread with a java.lang.Thread.State line. Take dumps with jcmd PID Thread.print (or jstack PID,"
              + " or kill -3 PID, which prints into the server's console log), or with jcmd PID"
              + " Thread.dump_to_file -format=json FILE for virtual threads; lockjaw reads HotSpot's format, JDK 8"
              + " to 25.");
    }
    if (parser.withoutStates) {
      into.note(
          file
              + " is a jcmd Thread.dump_to_file dump without thread states or locks (JDK 21 to 24"
              + " print none): lockjaw counted the threads parked acquiring a lock, waiting in Object.wait()"
              + " or sleeping by their frames, but cannot see threads blocked entering a synchronized block"
              + " or who held a lock. Take the dumps on JDK 25 or newer, or record with JFR.");
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
    private final DumpAssembler dumps;
    private DumpThread thread;
    private boolean dumpToFile;
    private boolean ownable;
    private boolean afterBlank;
    private String previous = "";
    boolean withoutStates;

    Parser(DumpAssembler dumps) {
      this.dumps = dumps;
    }

    void line(String line) {
      try {
        parse(line);
      } finally {
        previous = line;
      }
    }

    private void parse(String line) {
      // dispatched on how the line starts, so most lines meet one pattern at most
      if (line.indexOf("Full thread dump ") >= 0) {
        endThread();
        dumps.startDump();
        dumpToFile = false;
        return;
      }
      char first = line.isEmpty() ? ' ' : line.charAt(0);
      if (Character.isDigit(first)
          && INSTANT.matcher(line).matches()
          && PROCESS_ID.matcher(previous.strip()).matches()) {
        endThread(); // Thread.dump_to_file: the process id, then the time, then the version
        dumps.startDump();
        dumpToFile = true;
        return;
      }
      if (first == '"') {
        Matcher header = THREAD.matcher(line);
        if (header.matches()) {
          endThread();
          if (DUMP_END.matcher(line).find()) {
            return; // a VM thread ("GC Thread#0" os_prio=0 ...): no Java stack
          }
          thread = new DumpThread();
          thread.name = header.group(1);
          Matcher tid = TID.matcher(line);
          if (tid.find()) {
            thread.tid = tid.group(1);
          }
          return;
        }
      }
      if (first == '#') {
        Matcher toFile = DUMP_TO_FILE_THREAD.matcher(line);
        if (toFile.matches()) {
          endThread();
          dumpToFile = true;
          thread = new DumpThread();
          thread.tid = toFile.group(1);
          thread.name = toFile.group(2);
          thread.state = toFile.group(4) == null ? "" : toFile.group(4);
          if (thread.state.isEmpty()) {
            withoutStates = true;
          }
          return;
        }
      }
      if (thread == null) {
        return;
      }
      String text = line.strip();
      if (text.isEmpty()) {
        if (ownable || afterBlank) {
          endThread();
        } else {
          afterBlank = true; // HotSpot -l: "Locked ownable synchronizers:" may follow
        }
        return;
      }
      if (text.startsWith("Locked ownable synchronizers:")) {
        afterBlank = false;
        ownable = true;
        return;
      }
      if (afterBlank) {
        endThread();
        return;
      }
      if (!Character.isWhitespace(first)) {
        if (DUMP_END.matcher(line).find()) {
          endThread();
        }
        return; // a log line between the lines of a dump, or its end
      }
      if (text.startsWith("at ") || dumpToFile && !text.startsWith("-") && !text.startsWith("//")) {
        Frame parsed = Frame.parse(text);
        if (parsed != null) {
          thread.frames.add(parsed);
        }
        return;
      }
      if (text.startsWith("java.lang.Thread.State:")) {
        Matcher state = STATE.matcher(line);
        if (state.matches()) {
          thread.state = state.group(1);
          thread.stateDetail = state.group(2) == null ? "" : state.group(2);
        }
        return;
      }
      if (text.startsWith("- ")) {
        Matcher lock = LOCK.matcher(line);
        if (lock.matches()) {
          lock(lock.group(1), lock.group(2), lock.group(3));
          return;
        }
        Matcher synchronizer = OWNABLE.matcher(line);
        if (ownable && synchronizer.matches()) {
          thread.holdsSomewhere(synchronizer.group(1));
        }
        return; // "- None", "- eliminated <owner is scalar replaced>"
      }
      if (text.startsWith("//")) {
        Matcher comment = COMMENT_LOCK.matcher(line);
        if (comment.matches()) {
          String verb = comment.group(1);
          switch (verb) {
            case "blocked on" -> thread.waitsFor(DumpThread.Wait.ENTER, comment.group(2), "");
            case "waiting on" -> thread.waitsFor(DumpThread.Wait.WAIT, comment.group(2), "");
            case "parked on" -> {
              thread.waitsFor(DumpThread.Wait.PARK, comment.group(2), "");
              if (comment.group(3) != null) {
                thread.ownerTid = comment.group(3);
              }
            }
            default -> thread.holds(comment.group(2));
          }
        }
      }
      // anything else is skipped
    }

    private void lock(String verb, String identity, String className) {
      String type = className == null ? "" : className.trim();
      switch (verb) {
        case "waiting to lock", "waiting to re-lock in wait()" ->
            thread.waitsFor(DumpThread.Wait.ENTER, identity, type);
        case "waiting on" -> thread.waitsFor(DumpThread.Wait.WAIT, identity, type);
        case "parking to wait for" -> thread.waitsFor(DumpThread.Wait.PARK, identity, type);
        default -> thread.holds(identity);
      }
    }

    void endThread() {
      if (thread != null) {
        if (!thread.state.isEmpty() || dumpToFile) {
          dumps.thread(thread);
        }
      }
      thread = null;
      ownable = false;
      afterBlank = false;
    }

    void end() {
      endThread();
      dumps.endDump();
    }
  }
}
