package io.github.lockjaw.contention;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an OpenJ9 or IBM Java dump ("javacore", {@code kill -3} on OpenJ9, Semeru, IBM Java): the
 * THREADS section's threads with their state ({@code B} blocked, {@code CW} waiting, {@code P}
 * parked), the object each is blocked on, waits on or is parked on and its owner ({@code
 * 3XMTHREADBLOCK}), their frames ({@code 4XESTACKTRACE}) and the locks each frame entered ({@code
 * 5XESTACKTRACE}). The owner's frames down to the one that entered the lock are the holder's work.
 */
final class JavacoreReader {
  private static final Pattern THREAD =
      Pattern.compile("^3XMTHREADINFO\\s+\"(.*)\" J9VMThread:(0x[0-9A-Fa-f]+).*?state:(\\w+)");
  private static final Pattern JAVA_ID =
      Pattern.compile("^3XMJAVALTHREAD\\s+\\(java/lang/Thread getId:(0x[0-9A-Fa-f]+)");
  private static final Pattern BLOCK =
      Pattern.compile(
          "^3XMTHREADBLOCK\\s+(Blocked on|Waiting on|Parked on): (\\S+)(?: Owned by: (?:\"(.*)\""
              + " \\(J9VMThread:(0x[0-9A-Fa-f]+)|<unowned>|<unknown>))?");
  private static final Pattern FRAME = Pattern.compile("^4XESTACKTRACE\\s+at (.+)$");
  private static final Pattern ENTERED =
      Pattern.compile("^5XESTACKTRACE\\s+\\(entered lock: (\\S+?),");

  /** Whether the text at the head of a file is a javacore: its sections start {@code 0SECTION}. */
  static boolean looksLikeJavacore(String head) {
    return head.contains("0SECTION") && head.contains("TITLE");
  }

  void read(Path file, Observations into) throws EvidenceException {
    DumpAssembler dumps = new DumpAssembler(into);
    int threads = 0;
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8), 1 << 16)) {
      DumpThread thread = null;
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("0SECTION") && line.contains("TITLE")) {
          if (thread != null) {
            dumps.thread(thread);
            thread = null;
          }
          dumps.startDump();
          continue;
        }
        Matcher header = THREAD.matcher(line);
        if (header.find()) {
          if (thread != null) {
            dumps.thread(thread);
          }
          thread = new DumpThread();
          thread.name = header.group(1);
          thread.tid = header.group(2);
          thread.state = state(header.group(3));
          threads++;
          continue;
        }
        if (thread == null) {
          continue;
        }
        if (line.startsWith("0SECTION") || line.startsWith("1XMTHDSUMMARY")) {
          dumps.thread(thread);
          thread = null;
          continue;
        }
        Matcher block = BLOCK.matcher(line);
        if (block.find()) {
          String object = block.group(2);
          DumpThread.Wait wait =
              switch (block.group(1)) {
                case "Blocked on" -> DumpThread.Wait.ENTER;
                case "Waiting on" -> DumpThread.Wait.WAIT;
                default -> DumpThread.Wait.PARK;
              };
          thread.waitsFor(wait, object, DumpThread.classOf(object));
          if (block.group(3) != null) {
            thread.ownerName = block.group(3);
            thread.ownerTid = block.group(4);
          }
          continue;
        }
        Matcher frame = FRAME.matcher(line);
        if (frame.find()) {
          Frame parsed = Frame.parse(frame.group(1));
          if (parsed != null) {
            thread.frames.add(parsed);
          }
          continue;
        }
        Matcher entered = ENTERED.matcher(line);
        if (entered.find()) {
          thread.holds(entered.group(1));
          continue;
        }
        Matcher javaId = JAVA_ID.matcher(line);
        if (javaId.find()) {
          continue; // the Java thread id; the J9VMThread address names owners
        }
      }
      if (thread != null) {
        dumps.thread(thread);
      }
      dumps.endDump();
    } catch (IOException e) {
      throw new EvidenceException(
          "lockjaw cannot read the javacore " + file + ": " + e.getMessage() + ".", e);
    }
    if (threads == 0) {
      throw new EvidenceException(
          file
              + " is an OpenJ9 javacore without a THREADS section lockjaw can read (no 3XMTHREADINFO"
              + " lines). Take it while the load runs with kill -3 PID or jcmd PID Dump.java.");
    }
    into.readDumpFile(file);
  }

  /**
   * HotSpot's names for OpenJ9's states, so one classifier reads both: B is BLOCKED, CW and P are
   * WAITING (a parked or waiting thread names its object in 3XMTHREADBLOCK), the rest RUNNABLE.
   */
  private static String state(String j9) {
    return switch (j9) {
      case "B" -> "BLOCKED";
      case "CW", "P" -> "WAITING";
      default -> "RUNNABLE";
    };
  }
}
