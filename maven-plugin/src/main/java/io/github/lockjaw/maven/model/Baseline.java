package io.github.lockjaw.maven.model;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.gson.JsonParseException;
import io.github.lockjaw.maven.analyzer.Json;
import java.io.IOException;
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

  /** Reads a baseline; a missing file is an empty baseline, a malformed one a clear error. */
  public static Baseline read(Path path) throws BaselineException {
    if (!Files.exists(path)) {
      return empty();
    }
    String text;
    try {
      text = Files.readString(path, UTF_8);
    } catch (IOException e) {
      throw new BaselineException(
          "lockjaw cannot read the baseline "
              + path
              + " ("
              + e.getMessage()
              + "). Check the file's permissions,"
              + " or point lockjaw.baseline at another file.");
    }
    File file;
    try {
      file = Json.GSON.fromJson(text, File.class);
    } catch (JsonParseException | IllegalStateException e) {
      throw malformed(path, e.getMessage());
    }
    if (file == null || file.entries() == null || !"lockjaw".equals(file.tool())) {
      throw malformed(
          path, "expected a JSON object with \"tool\": \"lockjaw\" and an \"entries\" array");
    }
    Set<String> fingerprints = new LinkedHashSet<>();
    for (Entry entry : file.entries()) {
      if (entry == null || entry.fingerprint() == null || entry.fingerprint().isBlank()) {
        throw malformed(path, "an entry has no \"fingerprint\"");
      }
      fingerprints.add(entry.fingerprint());
    }
    return new Baseline(fingerprints);
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
    AtomicFiles.write(path, Json.GSON.toJson(new File("lockjaw", 1, sorted)) + "\n");
  }

  /** A baseline that cannot be used, with a message for the user. */
  public static final class BaselineException extends Exception {
    public BaselineException(String message) {
      super(message);
    }
  }
}
