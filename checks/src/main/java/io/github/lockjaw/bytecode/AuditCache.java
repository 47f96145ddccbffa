package io.github.lockjaw.bytecode;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Per-jar audit results on disk, so that a second audit of unchanged jars reads them instead of
 * running SpotBugs again. An entry is keyed by the jar's SHA-256, lockjaw's own code (the checksum
 * of the lockjaw-checks jar: a rebuilt snapshot is a new version), the Java release the jar is read
 * for, and the checksums of the jars around it (a superclass or a knowledge type in another jar can
 * change what is found). A damaged or foreign entry is ignored and rewritten. Plain files, written
 * to a temporary name and moved into place.
 */
final class AuditCache {
  private static final String HEADER = "lockjaw-audit-cache 1";
  private static volatile String codeFingerprint;

  private final Path directory;

  AuditCache(Path directory) {
    this.directory = directory;
  }

  /** One jar's results. */
  record Entry(int classesAnalysed, Map<String, String> notAnalysed, List<AuditFinding> findings) {}

  /** The key of a jar's results in a given context. */
  static String key(String jarChecksum, int release, String context) throws IOException {
    return sha256((code() + "\n" + jarChecksum + "\n" + release + "\n" + context).getBytes(UTF_8));
  }

  Optional<Entry> read(String key, Path jar) {
    Path file = directory.resolve(key + ".audit");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      List<String> lines = Files.readAllLines(file, UTF_8);
      if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
        return Optional.empty();
      }
      int classes = -1;
      Map<String, String> skipped = new LinkedHashMap<>();
      List<AuditFinding> findings = new ArrayList<>();
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.split("\t", -1);
        for (int i = 0; i < f.length; i++) {
          f[i] = unescape(f[i]);
        }
        switch (f[0]) {
          case "classes" -> classes = Integer.parseInt(f[1]);
          case "skipped" -> skipped.put(f[1], f[2]);
          case "finding" ->
              findings.add(
                  new AuditFinding(
                      f[1], jar, f[2], f[3], f[4], Integer.parseInt(f[5]), f[6], f[7], f[8]));
          default -> {
            return Optional.empty();
          }
        }
      }
      return classes < 0
          ? Optional.empty()
          : Optional.of(new Entry(classes, skipped, List.copyOf(findings)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // a damaged entry: audit again
    }
  }

  void write(String key, Entry entry) {
    StringBuilder text = new StringBuilder(HEADER).append('\n');
    text.append("classes\t").append(entry.classesAnalysed()).append('\n');
    entry.notAnalysed().forEach((c, why) -> line(text, "skipped", c, why));
    for (AuditFinding f : entry.findings()) {
      line(
          text,
          "finding",
          f.check(),
          f.className(),
          f.methodName(),
          f.methodDescriptor(),
          String.valueOf(f.line()),
          f.message(),
          f.advice(),
          f.library());
    }
    try {
      Files.createDirectories(directory);
      Path temp = Files.createTempFile(directory, key, ".part");
      Files.writeString(temp, text, UTF_8);
      try {
        Files.move(
            temp,
            directory.resolve(key + ".audit"),
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, directory.resolve(key + ".audit"), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      // a cache that cannot be written costs the next audit time, never this one's result
    }
  }

  private static void line(StringBuilder text, String... fields) {
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        text.append('\t');
      }
      text.append(escape(fields[i]));
    }
    text.append('\n');
  }

  private static String escape(String value) {
    return value
        .replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r");
  }

  private static String unescape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        char next = value.charAt(++i);
        out.append(
            switch (next) {
              case 't' -> '\t';
              case 'n' -> '\n';
              case 'r' -> '\r';
              default -> next;
            });
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** SHA-256 of a file, or of a class directory's file names and contents. */
  static String checksum(Path path) throws IOException {
    MessageDigest digest = digest();
    if (Files.isDirectory(path)) {
      try (Stream<Path> walk = Files.walk(path)) {
        for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
          digest.update(path.relativize(file).toString().getBytes(UTF_8));
          update(digest, file);
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    } else {
      update(digest, path);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static void update(MessageDigest digest, Path file) throws IOException {
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
    }
  }

  /** lockjaw's own code: the checksum of the jar (or class directory) the detectors come from. */
  private static String code() throws IOException {
    String fingerprint = codeFingerprint;
    if (fingerprint == null) {
      try {
        Path location =
            Path.of(AuditCache.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        fingerprint = checksum(location);
      } catch (URISyntaxException | RuntimeException e) {
        fingerprint = "unknown " + System.nanoTime(); // never reuse what cannot be told apart
      }
      codeFingerprint = fingerprint;
    }
    return fingerprint;
  }

  static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
