package io.github.lockjaw.corpus;

import io.github.lockjaw.corpus.CorpusCompiler.Finding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many of the corpus's findings come with a fix, by check, and why the others do not: every "No
 * automatic fix" reason counted, with the names in it (a field, a key, a line) folded so that the
 * same blocker counts once. Findings the manifest expects (the real instances the corpus was chosen
 * for) are counted apart from all findings.
 */
final class FixCoverage {
  private static final Pattern NO_FIX =
      Pattern.compile("\\(No automatic fix(?:: (.*?))?\\.\\)(?=\\s|$)");

  /** A quoted name; an apostrophe inside a word ("Guava's", "the lookup's") opens no quote. */
  private static final Pattern QUOTED = Pattern.compile("(?<![A-Za-z])'[^']*'(?![A-Za-z])");

  private static final Pattern LINE = Pattern.compile("line \\d+");

  /** Per check: findings, those with a fix, and the blockers of the rest. */
  private static final class Tally {
    int findings;
    int fixed;
    int expected;
    int expectedFixed;
    final Map<String, Integer> blockers = new TreeMap<>();
  }

  private FixCoverage() {}

  /**
   * Whether a finding came with a fix. javac's diagnostic does not carry the fix; but every lockjaw
   * finding without one names its blocker, "(No automatic fix: …)" (held by the engine's {@code
   * FixOrBlockerTest}), and Error Prone appends "Did you mean" to some fixed ones.
   */
  static boolean hasFix(Finding finding) {
    return finding.message().contains("Did you mean")
        || !finding.message().contains("(No automatic fix");
  }

  /** The blocker a finding's message names, its names folded; "(none given)" with a fix. */
  static String blocker(Finding finding) {
    Matcher m = NO_FIX.matcher(finding.message().replace('\n', ' '));
    if (!m.find()) {
      return "(none given)";
    }
    String reason = m.group(1) == null ? "(no reason given)" : m.group(1);
    return LINE.matcher(QUOTED.matcher(reason).replaceAll("'…'")).replaceAll("line N");
  }

  /** The report of the corpus. */
  static String markdown(List<CorpusTest.Report> reports) {
    return markdown("the corpus", reports);
  }

  /** The report of a set of libraries ({@code "the corpus"}, {@code "the holdout set"}). */
  static String markdown(String set, List<CorpusTest.Report> reports) {
    Map<String, Tally> byCheck = new TreeMap<>();
    for (CorpusTest.Report report : reports) {
      List<Manifest.Expectation> expected = report.prepared().library().expect();
      for (Finding f : report.result().findings()) {
        Tally tally = byCheck.computeIfAbsent(f.check(), k -> new Tally());
        boolean isExpected =
            expected.stream()
                .anyMatch(
                    e ->
                        e.check().equals(f.check())
                            && e.className().equals(f.className())
                            && e.member().equals(f.member()));
        boolean fixed = hasFix(f);
        tally.findings++;
        tally.expected += isExpected ? 1 : 0;
        if (fixed) {
          tally.fixed++;
          tally.expectedFixed += isExpected ? 1 : 0;
        } else {
          tally.blockers.merge(blocker(f), 1, Integer::sum);
        }
      }
    }
    StringBuilder md = new StringBuilder("# lockjaw fix coverage on " + set + "\n\n");
    md.append("| check | findings | with a fix | expected findings | expected with a fix |\n")
        .append("|---|---:|---:|---:|---:|\n");
    int all = 0;
    int fixed = 0;
    for (Map.Entry<String, Tally> e : byCheck.entrySet()) {
      Tally t = e.getValue();
      all += t.findings;
      fixed += t.fixed;
      md.append("| ")
          .append(e.getKey())
          .append(" | ")
          .append(t.findings)
          .append(" | ")
          .append(t.fixed)
          .append(" | ")
          .append(t.expected)
          .append(" | ")
          .append(t.expectedFixed)
          .append(" |\n");
    }
    md.append("| all | ").append(all).append(" | ").append(fixed).append(" | | |\n\n");
    for (Map.Entry<String, Tally> e : byCheck.entrySet()) {
      if (e.getValue().blockers.isEmpty()) {
        continue;
      }
      md.append("## ").append(e.getKey()).append(": why there is no fix\n\n");
      List<Map.Entry<String, Integer>> sorted = new ArrayList<>(e.getValue().blockers.entrySet());
      sorted.sort((a, b) -> b.getValue() - a.getValue());
      for (Map.Entry<String, Integer> b : sorted) {
        md.append("- ").append(b.getValue()).append(" × ").append(b.getKey()).append('\n');
      }
      md.append('\n');
    }
    return md.toString();
  }

  /** One line per check for the console: {@code SynchronizedMapCache 3/33}. */
  static String summary(List<CorpusTest.Report> reports) {
    Map<String, int[]> byCheck = new LinkedHashMap<>();
    for (CorpusTest.Report report : reports) {
      for (Finding f : report.result().findings()) {
        int[] counts = byCheck.computeIfAbsent(f.check(), k -> new int[2]);
        counts[0]++;
        counts[1] += hasFix(f) ? 1 : 0;
      }
    }
    StringBuilder text = new StringBuilder();
    byCheck.forEach(
        (check, counts) ->
            text.append(text.length() == 0 ? "" : ", ")
                .append(check)
                .append(' ')
                .append(counts[1])
                .append('/')
                .append(counts[0]));
    return text.toString();
  }
}
