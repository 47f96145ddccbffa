package io.github.lockjaw.engine.report;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.SourceEdits;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Formats findings for the build log: {@code path:line:col: [Check] message}, the suggested fix as
 * a small unified diff, then one summary line per check.
 */
public final class ConsoleReporter {
  private final Function<Finding, String> relativePath;
  private final Predicate<Finding> baselined;
  private final Charset charset;

  public ConsoleReporter(
      Function<Finding, String> relativePath, Predicate<Finding> baselined, Charset charset) {
    this.relativePath = relativePath;
    this.baselined = baselined;
    this.charset = charset;
  }

  /** The lines to log, in order. */
  public List<String> render(List<Finding> findings) {
    List<String> out = new ArrayList<>();
    Map<String, int[]> perCheck = new TreeMap<>();
    for (Finding finding : findings) {
      boolean old = baselined.test(finding);
      String path = relativePath.apply(finding);
      out.add(
          path
              + ":"
              + finding.line()
              + ":"
              + finding.column()
              + ": ["
              + finding.check()
              + "] "
              + (old ? "(baselined) " : "")
              + finding.message());
      out.add("    see " + finding.helpUri());
      if (finding.hasFix()) {
        try {
          String text = Files.readString(Path.of(finding.file()), charset);
          for (String line : SourceEdits.unifiedDiff(path, text, finding.fix()).split("\n")) {
            out.add("    " + line);
          }
        } catch (IOException | IllegalArgumentException e) {
          out.add("    (suggested fix not shown: " + e.getMessage() + ")");
        }
      }
      int[] counts = perCheck.computeIfAbsent(finding.check(), k -> new int[2]);
      counts[0]++;
      if (old) {
        counts[1]++;
      }
    }
    perCheck.forEach(
        (check, counts) ->
            out.add(
                "lockjaw: "
                    + check
                    + ": "
                    + counts[0]
                    + (counts[0] == 1 ? " finding" : " findings")
                    + (counts[1] > 0
                        ? " (" + counts[1] + " baselined, " + (counts[0] - counts[1]) + " new)"
                        : "")));
    return out;
  }
}
