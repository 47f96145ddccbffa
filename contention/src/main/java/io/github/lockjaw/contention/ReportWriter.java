package io.github.lockjaw.contention;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders a {@link ContentionReport}: a table for the terminal or build log, or Markdown. The
 * figures shown depend on the evidence: blocked time, waits and longest wait from JFR; waiting
 * threads and dumps from thread dumps.
 */
public final class ReportWriter {
  private final ContentionReport report;
  private final boolean jfr;
  private final boolean dumps;

  public ReportWriter(ContentionReport report) {
    this.report = report;
    this.jfr = !report.observations().recordings().isEmpty();
    this.dumps = report.observations().dumps() > 0;
  }

  /** One line on what was read: files, events, dumps. */
  public String summary() {
    Observations seen = report.observations();
    List<String> parts = new ArrayList<>();
    if (jfr) {
      parts.add(
          plural(seen.recordings().size(), "JFR recording")
              + " ("
              + String.format(Locale.ROOT, "%,d", seen.lockEvents())
              + " lock events over "
              + seconds(seen.eventSpanMillis())
              + ")");
    }
    if (dumps) {
      parts.add(
          plural(seen.dumps(), "thread dump") + " in " + plural(seen.dumpFiles().size(), "file"));
    }
    long covered = report.rows().stream().filter(ContentionReport.Row::hasFinding).count();
    return plural(report.rows().size(), "contended lock site")
        + " ("
        + covered
        + " with a lockjaw finding) from "
        + String.join(" and ", parts)
        + ": "
        + files();
  }

  private String files() {
    List<String> names = new ArrayList<>();
    for (Path p : report.observations().recordings()) {
      names.add(String.valueOf(p.getFileName()));
    }
    for (Path p : report.observations().dumpFiles()) {
      names.add(String.valueOf(p.getFileName()));
    }
    return names.size() <= 3
        ? String.join(", ", names)
        : String.join(", ", names.subList(0, 3)) + ", ...";
  }

  /**
   * The report for a terminal: the ranked table, the findings' advice, the unobserved findings, the
   * notes.
   */
  public List<String> text() {
    List<String> out = new ArrayList<>();
    out.add("lockjaw contention: " + summary());
    if (!report.rows().isEmpty()) {
      List<String[]> table = new ArrayList<>();
      table.add(header());
      for (ContentionReport.Row row : report.rows()) {
        table.add(cells(row, false));
      }
      out.addAll(align(table));
      out.add("");
      for (ContentionReport.Row row : report.rows()) {
        if (!row.hasFinding()) {
          continue;
        }
        for (StaticFinding finding : row.findings()) {
          out.add(
              row.rank()
                  + ". "
                  + row.site().frame().display()
                  + ": ["
                  + finding.check()
                  + "] "
                  + finding.location()
                  + lineSuffix(finding));
          out.add("   " + finding.message());
          if (!finding.advice().isEmpty() && !finding.message().contains(finding.advice())) {
            out.add("   Fix: " + finding.advice());
          }
        }
      }
    }
    if (!report.unobserved().isEmpty()) {
      out.add("Findings no thread was seen waiting on (" + report.unobserved().size() + "):");
      for (StaticFinding finding : report.unobserved()) {
        if (finding.artifact().isEmpty()) {
          out.add(
              "  ["
                  + finding.check()
                  + "] "
                  + finding.location()
                  + lineSuffix(finding)
                  + " "
                  + member(finding));
        }
      }
      perArtifact().forEach((artifact, checks) -> out.add("  " + artifact + ": " + checks));
    }
    for (String note : report.observations().notes()) {
      out.add("Note: " + note);
    }
    return out;
  }

  /** The report as Markdown, for {@code target/lockjaw/contention.md} and CI summaries. */
  public String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("# lockjaw contention report\n\n");
    md.append(summary()).append(".\n\n");
    if (report.rows().isEmpty()) {
      md.append("No thread was seen waiting on a lock outside the Java runtime.\n\n");
    } else {
      String[] header = header();
      md.append("| ").append(String.join(" | ", header)).append(" |\n|");
      for (int i = 0; i < header.length; i++) {
        md.append(i == 0 || isNumeric(header[i]) ? "---:|" : "---|");
      }
      md.append('\n');
      for (ContentionReport.Row row : report.rows()) {
        String[] cells = cells(row, true);
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
      }
      md.append('\n');
      for (ContentionReport.Row row : report.rows()) {
        if (!row.hasFinding()) {
          continue;
        }
        md.append("## ")
            .append(row.rank())
            .append(". `")
            .append(row.site().frame().display())
            .append("`\n\n");
        if (row.site().caller() != null) {
          md.append("Called from `").append(row.site().caller().display()).append("`; ");
        }
        md.append("waits for ").append(waitsFor(row.site())).append(".\n\n");
        for (StaticFinding finding : row.findings()) {
          md.append("- **")
              .append(finding.check())
              .append("** at `")
              .append(finding.location())
              .append(lineSuffix(finding))
              .append("`: ")
              .append(escape(finding.message()))
              .append('\n');
          if (!finding.advice().isEmpty() && !finding.message().contains(finding.advice())) {
            md.append("  - Fix: ").append(escape(finding.advice())).append('\n');
          }
        }
        md.append('\n');
      }
    }
    if (!report.unobserved().isEmpty()) {
      md.append("## Findings no thread was seen waiting on\n\n");
      for (StaticFinding finding : report.unobserved()) {
        if (finding.artifact().isEmpty()) {
          md.append("- **")
              .append(finding.check())
              .append("** at `")
              .append(finding.location())
              .append(lineSuffix(finding))
              .append("` ")
              .append(escape(member(finding)))
              .append('\n');
        }
      }
      perArtifact()
          .forEach(
              (artifact, checks) ->
                  md.append("- `")
                      .append(artifact)
                      .append("`: ")
                      .append(escape(checks))
                      .append('\n'));
      md.append('\n');
    }
    if (!report.observations().notes().isEmpty()) {
      md.append("## Notes\n\n");
      for (String note : report.observations().notes()) {
        md.append("- ").append(escape(note)).append('\n');
      }
      md.append('\n');
    }
    return md.toString();
  }

  /**
   * The unobserved findings in jars, one line per jar: {@code 48 findings (SharedMonitorDao 46,
   * SynchronizedMapCache 2); lockjaw audit lists them}. A jar's findings are many and mostly in
   * code the application never calls; the observed ones are in the table.
   */
  private Map<String, String> perArtifact() {
    Map<String, Map<String, Integer>> counts = new TreeMap<>();
    for (StaticFinding finding : report.unobserved()) {
      if (!finding.artifact().isEmpty()) {
        counts
            .computeIfAbsent(finding.artifact(), a -> new TreeMap<>())
            .merge(finding.check(), 1, Integer::sum);
      }
    }
    Map<String, String> lines = new LinkedHashMap<>();
    counts.forEach(
        (artifact, perCheck) -> {
          int total = perCheck.values().stream().mapToInt(Integer::intValue).sum();
          List<String> parts = new ArrayList<>();
          perCheck.forEach((check, n) -> parts.add(check + " " + n));
          lines.put(
              artifact,
              plural(total, "finding")
                  + " in code no thread was seen waiting in ("
                  + String.join(", ", parts)
                  + "); lockjaw's audit lists them");
        });
    return lines;
  }

  private String[] header() {
    List<String> h = new ArrayList<>(List.of("rank"));
    if (jfr) {
      h.addAll(List.of("blocked", "waits", "longest"));
    }
    if (dumps) {
      h.addAll(List.of("waiting threads", "dumps"));
    }
    h.addAll(List.of("site", "waits for", "finding"));
    return h.toArray(String[]::new);
  }

  private static boolean isNumeric(String column) {
    return List.of("blocked", "waits", "longest", "waiting threads", "dumps").contains(column);
  }

  private String[] cells(ContentionReport.Row row, boolean markdown) {
    ObservedSite site = row.site();
    List<String> c = new ArrayList<>(List.of(String.valueOf(row.rank())));
    if (jfr) {
      c.add(millis(site.totalNanos()));
      c.add(String.format(Locale.ROOT, "%,d", site.events()));
      c.add(millis(site.maxNanos()));
    }
    if (dumps) {
      c.add(String.valueOf(site.dumpThreads()));
      c.add(site.dumps() + "/" + report.observations().dumps());
    }
    String frame = site.frame().display();
    c.add(markdown ? "`" + frame + "`" : frame);
    c.add(markdown ? escape(waitsFor(site)) : waitsFor(site));
    String finding =
        row.hasFinding()
            ? String.join(
                ", ", row.findings().stream().map(StaticFinding::check).distinct().toList())
            : "no finding";
    c.add(finding);
    return c.toArray(String[]::new);
  }

  /**
   * {@code monitor enter: ReflectionCache.class}, {@code monitor enter: Hashtable in
   * Hashtable.get}, {@code lock park: ReentrantLock.lock}.
   */
  static String waitsFor(ObservedSite site) {
    String monitor = site.monitor();
    String shown;
    if (monitor.startsWith("java.lang.Class for ")) {
      shown = simple(monitor.substring("java.lang.Class for ".length())) + ".class";
    } else if (monitor.equals("java.lang.Class")) {
      shown = "a Class";
    } else {
      shown = monitor.isEmpty() ? "" : simple(monitor);
    }
    String via =
        site.via().isEmpty()
            ? ""
            : simple(site.via().substring(0, site.via().lastIndexOf('.')))
                + site.via().substring(site.via().lastIndexOf('.'));
    if (site.kind() == WaitKind.LOCK_PARK && !via.isEmpty()) {
      return site.kind().label()
          + ": "
          + via; // "lock park: ReentrantLock.lock" says more than its Sync class
    }
    return site.kind().label()
        + (shown.isEmpty() ? "" : ": " + shown)
        + (via.isEmpty() ? "" : " in " + via);
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  private static String lineSuffix(StaticFinding finding) {
    return finding.line() > 0
            && !finding.location().contains(":" + finding.line())
            && finding.className().isEmpty()
        ? ":" + finding.line()
        : "";
  }

  private static String member(StaticFinding finding) {
    String owner =
        finding.enclosingClass().isEmpty() ? simple(finding.className()) : finding.enclosingClass();
    return owner + (finding.methodName().isEmpty() ? "" : "." + finding.methodName() + "()");
  }

  private static String millis(long nanos) {
    double ms = nanos / 1e6;
    return ms >= 100
        ? String.format(Locale.ROOT, "%,.0f ms", ms)
        : String.format(Locale.ROOT, "%.1f ms", ms);
  }

  private static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String escape(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  private static List<String> align(List<String[]> table) {
    int columns = table.get(0).length;
    int[] widths = new int[columns];
    for (String[] row : table) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    String[] header = table.get(0);
    List<String> lines = new ArrayList<>();
    for (String[] row : table) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        boolean right = i == 0 || isNumeric(header[i]);
        String cell = row[i];
        String pad = " ".repeat(widths[i] - cell.length());
        if (i > 0) {
          line.append("  ");
        }
        line.append(right ? pad + cell : (i == columns - 1 ? cell : cell + pad));
      }
      lines.add(line.toString().stripTrailing());
    }
    return lines;
  }
}
