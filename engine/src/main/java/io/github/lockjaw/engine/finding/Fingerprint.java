package io.github.lockjaw.engine.finding;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Identifies a finding across edits that do not touch it: built from the check, the
 * repository-relative file, the enclosing class and member, and the flagged code with white space
 * removed — never from line numbers, so lines shifting or reformatting elsewhere keep it.
 */
public final class Fingerprint {
  private Fingerprint() {}

  /** The fingerprint of one finding, without disambiguation. */
  public static String of(Finding finding, String relativeFile) {
    String key =
        String.join(
            "\u0000",
            finding.check(),
            relativeFile.replace('\\', '/'),
            finding.enclosingClass(),
            finding.member(),
            finding.flaggedCode());
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.getBytes(UTF_8));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * Fingerprints for a list of findings; identical ones (the same code flagged twice in one member)
   * get {@code :2}, {@code :3}... in source order so each stays distinct.
   */
  public static Map<Finding, String> all(
      List<Finding> findings, Function<Finding, String> relativeFile) {
    Map<Finding, String> result = new LinkedHashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    findings.stream()
        .sorted(
            Comparator.comparing(Finding::file)
                .thenComparingInt(Finding::line)
                .thenComparingInt(Finding::column))
        .forEach(
            f -> {
              String base = of(f, relativeFile.apply(f));
              int count = seen.merge(base, 1, Integer::sum);
              result.put(f, count == 1 ? base : base + ":" + count);
            });
    return result;
  }
}
