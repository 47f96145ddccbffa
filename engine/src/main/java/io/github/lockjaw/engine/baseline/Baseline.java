package io.github.lockjaw.engine.baseline;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.github.lockjaw.engine.io.AtomicFiles;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.io.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The findings a team has accepted for now ({@code lockjaw-baseline.json}): {@code check} fails
 * only on findings whose fingerprint is not here.
 */
public final class Baseline {
  /**
   * The file format; {@code entries} carry location details for people, the fingerprint for
   * lockjaw.
   */
  record File(String tool, int formatVersion, List<Entry> entries) {}

  /** One accepted finding. */
  public record Entry(
      String fingerprint,
      String check,
      String file,
      String enclosingClass,
      String member,
      int line) {}

  private final Set<String> fingerprints;

  private Baseline(Set<String> fingerprints) {
    this.fingerprints = fingerprints;
  }

  public static Baseline empty() {
    return new Baseline(Set.of());
  }

  public boolean contains(String fingerprint) {
    return fingerprints.contains(fingerprint);
  }

  public int size() {
    return fingerprints.size();
  }

  /** The format this lockjaw reads and writes. */
  static final int FORMAT_VERSION = 1;

  /** Reads a baseline; a missing file is an empty baseline, a malformed one a clear error. */
  public static Baseline read(Path path) throws BaselineException {
    if (!Files.exists(path)) {
      return empty();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new BaselineException(
          "lockjaw cannot read the baseline "
              + path
              + " ("
              + IoProblems.describe(e)
              + "). Check the file's"
              + " permissions, or point lockjaw.baseline at another file.");
    }
    String text;
    try {
      text = UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw malformed(path, "it is not a text file (not UTF-8 JSON)");
    }
    if (text.indexOf('\u0000') >= 0) {
      throw malformed(path, "it is not a text file (it holds binary data)");
    }
    JsonElement root;
    try {
      root = JsonParser.parseString(text);
    } catch (JsonParseException | IllegalStateException e) {
      throw malformed(path, "it is not complete JSON (" + withoutGsonAdvice(e.getMessage()) + ")");
    }
    if (!(root instanceof JsonObject object) || !"lockjaw".equals(string(object.get("tool")))) {
      throw malformed(
          path, "expected a JSON object with \"tool\": \"lockjaw\" and an \"entries\" array");
    }
    JsonElement version =
        object.has("formatVersion")
            ? object.get("formatVersion")
            : new JsonPrimitive(FORMAT_VERSION);
    if (!(version instanceof JsonPrimitive p)
        || !p.isNumber()
        || p.getAsDouble() != Math.rint(p.getAsDouble())) {
      throw malformed(path, "\"formatVersion\" must be the number " + FORMAT_VERSION);
    }
    if (p.getAsInt() != FORMAT_VERSION) {
      throw new BaselineException(
          "lockjaw's baseline "
              + path
              + " has format version "
              + p.getAsString()
              + ", and this lockjaw reads only"
              + " version "
              + FORMAT_VERSION
              + (p.getAsInt() > FORMAT_VERSION ? " (a newer lockjaw wrote it)" : "")
              + ". Use the lockjaw version that wrote it, or regenerate it with 'mvn lockjaw:baseline'.");
    }
    if (!(object.get("entries") instanceof JsonArray entries)) {
      throw malformed(path, "\"entries\" must be an array of accepted findings");
    }
    Set<String> fingerprints = new LinkedHashSet<>();
    int index = 0;
    for (JsonElement entry : entries) {
      index++;
      String fingerprint = entry instanceof JsonObject e ? string(e.get("fingerprint")) : null;
      if (fingerprint == null || fingerprint.isBlank()) {
        throw malformed(path, "entry " + index + " has no \"fingerprint\" string");
      }
      fingerprints.add(fingerprint);
    }
    return new Baseline(fingerprints);
  }

  private static String string(JsonElement element) {
    return element instanceof JsonPrimitive p && p.isString() ? p.getAsString() : null;
  }

  /** Gson's message without its "See https://github.com/google/gson/..." troubleshooting link. */
  private static String withoutGsonAdvice(String message) {
    if (message == null) {
      return "it ends early";
    }
    int see = message.indexOf("\nSee https://");
    if (see < 0) {
      see = message.indexOf(" See https://");
    }
    String text = see < 0 ? message : message.substring(0, see);
    text = text.replace("com.google.gson.stream.MalformedJsonException: ", "");
    return text.replace("End of input", "the file ends early").trim();
  }

  private static BaselineException malformed(Path path, String detail) {
    return new BaselineException(
        "lockjaw's baseline "
            + path
            + " is not a valid baseline file: "
            + detail
            + ". Regenerate it with"
            + " 'mvn lockjaw:baseline' (or restore it from version control), or point lockjaw.baseline at"
            + " the right file.");
  }

  /** Writes the given findings as the new baseline, sorted so the file diffs well. */
  public static void write(Path path, List<Entry> entries) throws IOException {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(
        Comparator.comparing(Entry::file)
            .thenComparing(Entry::check)
            .thenComparing(Entry::fingerprint));
    Files.createDirectories(path.toAbsolutePath().getParent());
    AtomicFiles.write(path, Json.GSON.toJson(new File("lockjaw", FORMAT_VERSION, sorted)) + "\n");
  }

  /** A baseline that cannot be used, with a message for the user. */
  public static final class BaselineException extends Exception {
    public BaselineException(String message) {
      super(message);
    }
  }
}
