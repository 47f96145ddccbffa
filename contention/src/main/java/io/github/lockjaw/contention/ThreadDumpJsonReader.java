package io.github.lockjaw.contention;

import com.google.gson.JsonParseException;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the JSON thread dump of {@code jcmd PID Thread.dump_to_file -format=json FILE}, which holds
 * every virtual thread: JDK 21 gives each thread's name and frames; JDK 25 adds its state, the
 * object it is blocked on, waits on or parks on (with a lock's owner), and the monitors it holds at
 * each depth. Streamed with a {@link JsonReader}: one thread at a time.
 */
final class ThreadDumpJsonReader {
  /** Whether the file starts like a {@code Thread.dump_to_file} JSON dump. */
  static boolean looksLikeJsonDump(String head) {
    String start = head.stripLeading();
    return start.startsWith("{") && start.contains("\"threadDump\"");
  }

  void read(Path file, Observations into) throws EvidenceException {
    DumpAssembler dumps = new DumpAssembler(into);
    boolean withoutStates = false;
    int threads = 0;
    try (Reader in =
            new BufferedReader(
                new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8),
                1 << 16);
        JsonReader json = new JsonReader(in)) {
      json.beginObject();
      while (json.hasNext()) {
        if (!json.nextName().equals("threadDump")) {
          json.skipValue();
          continue;
        }
        dumps.startDump();
        json.beginObject();
        while (json.hasNext()) {
          String name = json.nextName();
          if (name.equals("runtimeVersion") && json.peek() == JsonToken.STRING) {
            into.recordedOn(feature(json.nextString()));
          } else if (name.equals("threadContainers")) {
            json.beginArray();
            while (json.hasNext()) {
              json.beginObject();
              while (json.hasNext()) {
                if (json.nextName().equals("threads")) {
                  json.beginArray();
                  while (json.hasNext()) {
                    DumpThread thread = thread(json);
                    withoutStates |= thread.state.isEmpty();
                    threads++;
                    dumps.thread(thread);
                  }
                  json.endArray();
                } else {
                  json.skipValue();
                }
              }
              json.endObject();
            }
            json.endArray();
          } else {
            json.skipValue();
          }
        }
        json.endObject();
      }
      json.endObject();
      dumps.endDump();
    } catch (IOException | JsonParseException | IllegalStateException e) {
      throw new EvidenceException(
          file
              + " is not a complete jcmd Thread.dump_to_file JSON dump ("
              + e.getMessage()
              + "): it may have been cut off while being copied. Take it again with jcmd PID"
              + " Thread.dump_to_file -format=json FILE.",
          e);
    }
    if (threads == 0) {
      throw new EvidenceException(
          file
              + " is a JSON thread dump without threads. Take it while the load runs with jcmd PID"
              + " Thread.dump_to_file -format=json FILE.");
    }
    if (withoutStates) {
      into.note(
          file
              + " is a jcmd Thread.dump_to_file dump without thread states or locks (JDK 21 to 24"
              + " print none): lockjaw counted the threads parked acquiring a lock, waiting in Object.wait()"
              + " or sleeping by their frames, but cannot see threads blocked entering a synchronized block"
              + " or who held a lock. Take the dumps on JDK 25 or newer, or record with JFR.");
    }
    into.readDumpFile(file);
  }

  private static DumpThread thread(JsonReader json) throws IOException {
    DumpThread thread = new DumpThread();
    String blockedOn = "";
    String waitingOn = "";
    String parkedOn = "";
    json.beginObject();
    while (json.hasNext()) {
      switch (json.nextName()) {
        case "tid" -> thread.tid = scalar(json);
        case "name" -> thread.name = scalar(json);
        case "state" -> thread.state = scalar(json);
        case "blockedOn" -> blockedOn = scalar(json);
        case "waitingOn" -> waitingOn = scalar(json);
        case "parkBlocker" -> {
          if (json.peek() == JsonToken.BEGIN_OBJECT) {
            json.beginObject();
            while (json.hasNext()) {
              String field = json.nextName();
              if (field.equals("object")) {
                parkedOn = scalar(json);
              } else if (field.equals("exclusiveOwnerThreadId") || field.equals("owner")) {
                thread.ownerTid = scalar(json);
              } else {
                json.skipValue();
              }
            }
            json.endObject();
          } else {
            parkedOn = scalar(json);
          }
        }
        case "stack" -> {
          json.beginArray();
          while (json.hasNext()) {
            Frame frame = Frame.parse(scalar(json));
            if (frame != null) {
              thread.frames.add(frame);
            }
          }
          json.endArray();
        }
        case "monitorsOwned" -> monitorsOwned(json, thread);
        default -> json.skipValue();
      }
    }
    json.endObject();
    if (!blockedOn.isEmpty()) {
      thread.waitsFor(DumpThread.Wait.ENTER, blockedOn, "");
    } else if (!waitingOn.isEmpty()) {
      thread.waitsFor(DumpThread.Wait.WAIT, waitingOn, "");
    } else if (!parkedOn.isEmpty()) {
      thread.waitsFor(DumpThread.Wait.PARK, parkedOn, "");
    }
    return thread;
  }

  private static void monitorsOwned(JsonReader json, DumpThread thread) throws IOException {
    json.beginArray();
    while (json.hasNext()) {
      int depth = -1;
      List<String> locks = new ArrayList<>();
      json.beginObject();
      while (json.hasNext()) {
        String field = json.nextName();
        if (field.equals("depth") && json.peek() == JsonToken.NUMBER) {
          depth = json.nextInt();
        } else if (field.equals("locks")) {
          json.beginArray();
          while (json.hasNext()) {
            locks.add(scalar(json));
          }
          json.endArray();
        } else {
          json.skipValue();
        }
      }
      json.endObject();
      for (String lock : locks) {
        thread.held.add(new DumpThread.Held(lock, depth));
      }
    }
    json.endArray();
  }

  /** A string or number as text; null as empty. */
  private static String scalar(JsonReader json) throws IOException {
    return switch (json.peek()) {
      case NULL -> {
        json.nextNull();
        yield "";
      }
      case STRING, NUMBER -> json.nextString();
      case BOOLEAN -> String.valueOf(json.nextBoolean());
      default -> {
        json.skipValue();
        yield "";
      }
    };
  }

  /** {@code 25.0.3+9-LTS} is 25, {@code 21-internal} 21, {@code 1.8.0_392} 8. */
  static int feature(String version) {
    String v = version.startsWith("1.") ? version.substring(2) : version;
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    try {
      return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
