package io.github.lockjaw.engine.report;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.SourceEdits;
import io.github.lockjaw.engine.finding.TraceStep;
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
 * Formats findings for a terminal or the build log: {@code path:line:col: [Check] message} with the
 * message wrapped at {@value #WIDTH} characters, then indented: the rest of the message, the
 * request path and effect chain, the link to the check's page, and the suggested fix as a small
 * unified diff; then one summary line per check.
 */
public final class ConsoleReporter {
  /** The width messages are wrapped at (a fix's code lines are shown as they are). */
  public static final int WIDTH = 100;

  private static final String INDENT = "    ";

  private final Function<Finding, String> relativePath;
  private final Predicate<Finding> baselined;
  private final Charset charset;
  private final Function<Finding, String> docsLink;

  /**
   * @param docsLink what "see" names for a finding: the path of the copy of its check's page the
   *     user has
   */
  public ConsoleReporter(
      Function<Finding, String> relativePath,
      Predicate<Finding> baselined,
      Charset charset,
      Function<Finding, String> docsLink) {
    this.relativePath = relativePath;
    this.baselined = baselined;
    this.charset = charset;
    this.docsLink = docsLink;
  }

  /** Links each finding to its {@link Finding#helpUri()}. */
  public ConsoleReporter(
      Function<Finding, String> relativePath, Predicate<Finding> baselined, Charset charset) {
    this(relativePath, baselined, charset, Finding::helpUri);
  }

  /** The lines to log, in order. */
  public List<String> render(List<Finding> findings) {
    List<String> out = new ArrayList<>();
    Map<String, int[]> perCheck = new TreeMap<>();
    for (Finding finding : findings) {
      boolean old = baselined.test(finding);
      String path = relativePath.apply(finding);
      String head =
          path + ":" + finding.line() + ":" + finding.column() + ": [" + finding.check() + "] ";
      out.addAll(wrap(head, (old ? "(baselined) " : "") + finding.message(), WIDTH));
      trace(out, "request path:", finding.requestPath(), finding, path);
      trace(out, "under the lock:", finding.effectChain(), finding, path);
      String link = docsLink.apply(finding);
      if (link != null && !link.isEmpty()) {
        out.add(INDENT + "see " + link);
      }
      if (finding.hasFix()) {
        try {
          String text = Files.readString(Path.of(finding.file()), charset);
          for (String line : SourceEdits.unifiedDiff(path, text, finding.fix()).split("\n")) {
            out.add(INDENT + line);
          }
        } catch (IOException | IllegalArgumentException e) {
          out.add(INDENT + "(suggested fix not shown: " + e.getMessage() + ")");
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

  private static void trace(
      List<String> out, String title, List<TraceStep> steps, Finding finding, String path) {
    if (steps.isEmpty()) {
      return;
    }
    out.add(INDENT + title);
    for (TraceStep step : steps) {
      String where = where(step, finding, path);
      out.addAll(
          wrap(
              INDENT + "  ",
              step.description() + (where.isEmpty() ? "" : " (" + where + ")"),
              WIDTH,
              INDENT + "    "));
    }
  }

  /** A step's place: the finding's own path for its file, else the file's name, with the line. */
  static String where(TraceStep step, Finding finding, String path) {
    if (step.file().isEmpty()) {
      return "";
    }
    String file;
    if (step.file().equals(finding.file())) {
      file = path;
    } else {
      String name = step.file().replace('\\', '/');
      file = name.substring(name.lastIndexOf('/') + 1);
    }
    return step.line() > 0 ? file + ":" + step.line() : file;
  }

  /**
   * {@code head} then {@code text}, broken at spaces into lines of at most {@code width},
   * continuation lines indented by four spaces: for any console output of findings (the audit's
   * too).
   */
  public static List<String> wrap(String head, String text, int width) {
    return wrap(head, text, width, INDENT);
  }

  /**
   * {@code head} then {@code text}, broken at spaces into lines of at most {@code width} (a word
   * longer than a line overflows it; the first word always follows {@code head}); continuation
   * lines start with {@code indent}. The message's own line breaks are kept.
   */
  public static List<String> wrap(String head, String text, int width, String indent) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder(head);
    boolean first = true;
    for (String paragraph : text.strip().split("\\R")) {
      if (!first) {
        lines.add(line.toString().stripTrailing());
        line = new StringBuilder(indent);
      }
      first = false;
      boolean lineHasWord = false;
      for (String word : paragraph.trim().split(" +")) {
        if (word.isEmpty()) {
          continue;
        }
        int needed = line.length() + (lineHasWord ? 1 : 0) + word.length();
        if (needed > width && lineHasWord) {
          lines.add(line.toString().stripTrailing());
          line = new StringBuilder(indent);
          lineHasWord = false;
        }
        if (lineHasWord) {
          line.append(' ');
        }
        line.append(word);
        lineHasWord = true;
      }
    }
    lines.add(line.toString().stripTrailing());
    return lines;
  }
}
