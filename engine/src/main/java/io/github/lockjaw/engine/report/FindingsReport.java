package io.github.lockjaw.engine.report;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.SourceEdits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a findings report shows, whatever its format (HTML for {@code check --format html} and the
 * {@code mvn site} page, markdown): the source findings, with the checks' rules and pages, and the
 * audit's findings by artifact.
 *
 * @param title the report's title, e.g. {@code lockjaw findings: shop}
 * @param rules the checks that ran
 * @param findings the source findings
 * @param relativePath how a finding's file is shown (relative to the repository root)
 * @param baselined which findings the baseline accepts
 * @param charset the sources' charset, to show fixes as diffs
 * @param docsLink the link to a check's page the reader has (relative to the report, or a {@code
 *     file:} URI), or null for none
 * @param audit the audit's findings per artifact (e.g. {@code commons-dbcp:commons-dbcp:1.2.2});
 *     empty when no audit ran
 * @param notes sentences shown under the title (what was analysed, what was missing)
 */
public record FindingsReport(
    String title,
    List<Rule> rules,
    List<Finding> findings,
    Function<Finding, String> relativePath,
    Predicate<Finding> baselined,
    Charset charset,
    Function<String, String> docsLink,
    Map<String, List<Finding>> audit,
    List<String> notes) {

  public FindingsReport {
    rules = List.copyOf(rules);
    findings = List.copyOf(findings);
    audit = audit == null ? Map.of() : new LinkedHashMap<>(audit);
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  /** One row of the summary: a check and its counts. */
  public record CheckCount(String check, String summary, int findings, int fresh, int fixable) {}

  /** Every check with a finding, source and audit, in name order. */
  public List<CheckCount> summary() {
    Map<String, int[]> counts = new TreeMap<>();
    for (Finding f : findings) {
      int[] c = counts.computeIfAbsent(f.check(), k -> new int[3]);
      c[0]++;
      if (!baselined.test(f)) {
        c[1]++;
      }
      if (f.hasFix()) {
        c[2]++;
      }
    }
    for (List<Finding> jar : audit.values()) {
      for (Finding f : jar) {
        int[] c = counts.computeIfAbsent(f.check(), k -> new int[3]);
        c[0]++;
        c[1]++;
      }
    }
    List<CheckCount> rows = new ArrayList<>();
    counts.forEach(
        (check, c) -> rows.add(new CheckCount(check, summaryOf(check), c[0], c[1], c[2])));
    return rows;
  }

  /** The check's one-line summary, or empty when no rule names it. */
  public String summaryOf(String check) {
    return rules.stream()
        .filter(r -> r.id().equals(check))
        .map(Rule::summary)
        .findFirst()
        .orElse("");
  }

  /** The source findings grouped by check, in name order; each group by file and line. */
  public Map<String, List<Finding>> byCheck() {
    Map<String, List<Finding>> groups = new TreeMap<>();
    for (Finding f : sorted()) {
      groups.computeIfAbsent(f.check(), k -> new ArrayList<>()).add(f);
    }
    return groups;
  }

  /** The source findings grouped by their shown file, in path order; each by line. */
  public Map<String, List<Finding>> byFile() {
    Map<String, List<Finding>> groups = new TreeMap<>();
    for (Finding f : sorted()) {
      groups.computeIfAbsent(relativePath.apply(f), k -> new ArrayList<>()).add(f);
    }
    return groups;
  }

  /** A stable anchor per finding: {@code F1}, {@code F2}... in file and line order. */
  public Map<Finding, String> anchors() {
    Map<Finding, String> anchors = new IdentityHashMap<>();
    List<Finding> sorted = sorted();
    for (int i = 0; i < sorted.size(); i++) {
      anchors.put(sorted.get(i), "F" + (i + 1));
    }
    return anchors;
  }

  /** The finding's fix as a unified diff, or empty when it has none or it cannot be shown. */
  public String diff(Finding finding) {
    if (!finding.hasFix()) {
      return "";
    }
    try {
      String text = Files.readString(Path.of(finding.file()), charset);
      return SourceEdits.unifiedDiff(relativePath.apply(finding), text, finding.fix());
    } catch (IOException | IllegalArgumentException | UncheckedIOException e) {
      return "";
    }
  }

  /** The link to the check's page, or null. */
  public String docs(String check) {
    return docsLink == null ? null : docsLink.apply(check);
  }

  private List<Finding> sorted() {
    List<Finding> sorted = new ArrayList<>(findings);
    sorted.sort(
        Comparator.comparing((Finding f) -> relativePath.apply(f))
            .thenComparingInt(Finding::line)
            .thenComparingInt(Finding::column)
            .thenComparing(Finding::check));
    return sorted;
  }
}
