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
  private final ContentionComparison comparison;
  private final boolean jfr;
  private final boolean dumps;

  public ReportWriter(ContentionReport report) {
    this(report, null);
  }

  /** A writer that also shows each site's change against a baseline ({@code comparison}). */
  public ReportWriter(ContentionReport report, ContentionComparison comparison) {
    this.report = report;
    this.comparison = comparison;
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
        if (!row.hasFinding() && row.site().holders().isEmpty()) {
          continue;
        }
        if (!row.hasFinding()) {
          out.add(row.rank() + ". " + row.site().frame().display() + ": no finding");
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
        String held = heldBy(row);
        if (!held.isEmpty()) {
          out.add("   Held by: " + held);
        }
      }
    }
    if (comparison != null && !comparison.gone().isEmpty()) {
      out.add("Gone since the baseline (" + comparison.gone().size() + "):");
      for (ContentionComparison.Entry entry : comparison.gone()) {
        out.add("  " + goneLine(entry));
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
    for (String note : notes()) {
      out.add("Note: " + note);
    }
    return out;
  }

  /**
   * Who held the lock and what it did, from the heaviest holder group: {@code socket read
   * (Socket$SocketInputStream.read) in OrderDao.roundTrip(OrderDao.java:40) < ... (41 of 52 holder
   * samples: order-3, order-5)}; empty when no holder was seen.
   */
  public String heldBy(ContentionReport.Row row) {
    HolderTally holders = row.site().holders();
    HolderTally.Group top = holders.top();
    if (top == null) {
      return "";
    }
    String unit = jfr && row.site().totalNanos() > 0 ? "holder samples" : "waiting threads";
    StringBuilder line = new StringBuilder(top.holder().summary());
    line.append(" (")
        .append(top.weight())
        .append(" of ")
        .append(holders.total())
        .append(' ')
        .append(unit);
    if (!top.threads().isEmpty()) {
      line.append(": ").append(String.join(", ", top.threads()));
    }
    line.append(')');
    for (StaticFinding finding : row.findings()) {
      if (row.holderConfirms(finding)) {
        line.append("; the holder ran the ").append(finding.check()).append(" finding's code");
        break;
      }
    }
    return line.toString();
  }

  private String goneLine(ContentionComparison.Entry entry) {
    String checks =
        entry.findings().isEmpty()
            ? "no finding"
            : String.join(
                ", ", entry.findings().stream().map(StaticFinding::check).distinct().toList());
    return entry.site().frame().display() + " [" + checks + "]: " + comparison.describe(entry);
  }

  /**
   * The observations' notes, then what the report adds: idle threads left out, the pinning note for
   * virtual threads, how to record when nothing was seen.
   */
  public List<String> notes() {
    List<String> notes = new ArrayList<>(report.observations().notes());
    Observations seen = report.observations();
    if (seen.idleWaits() > 0) {
      List<String> where = new ArrayList<>();
      seen.idleSites().forEach((site, n) -> where.add(site + " (" + n + ")"));
      notes.add(
          plural(seen.idleWaits(), "wait")
              + " of threads waiting for work (idle pool, queue, selector and worker threads in"
              + " Object.wait) are not contention and are not ranked: "
              + String.join(", ", where.subList(0, Math.min(5, where.size())))
              + (where.size() > 5 ? ", ..." : "")
              + ".");
    }
    if (report.rows().stream().anyMatch(r -> r.site().kind() == WaitKind.PINNED)) {
      int jdk = seen.recordingJdk();
      notes.add(
          jdk >= 24
              ? "The pinned virtual threads were recorded on JDK "
                  + jdk
                  + ", which no longer pins on synchronized (JEP 491): these pins come from a class"
                  + " initializer or a native frame on the stack (the pinned-by reason says which)."
                  + " Move the blocking call out of it."
              : "JDK 24 and newer no longer pin virtual threads on synchronized (JEP 491). On JDK 21"
                  + " to 23, replace the synchronized around the blocking call with a ReentrantLock, or"
                  + " run on JDK 24+; pins from class initializers and native frames stay.");
    }
    if (report.rows().isEmpty()) {
      notes.add(
          jfr
              ? "Nothing waited on a lock in this recording. " + JfrReader.HOW_TO_RECORD
              : "No thread waited on a lock in these dumps. Take three dumps five seconds apart"
                  + " while the load runs (jcmd PID Thread.print > dump-1.txt; for virtual threads jcmd"
                  + " PID Thread.dump_to_file -format=json dump-1.json); see docs/contention.md.");
    }
    return notes;
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
        if (!row.hasFinding() && row.site().holders().isEmpty()) {
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
        String held = heldBy(row);
        if (!held.isEmpty()) {
          md.append("Held by: ").append(escape(held)).append(".\n\n");
        }
        if (!row.hasFinding()) {
          md.append("No lockjaw finding covers this site.\n");
        }
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
    if (comparison != null && !comparison.gone().isEmpty()) {
      md.append("## Gone since the baseline\n\n");
      for (ContentionComparison.Entry entry : comparison.gone()) {
        md.append("- ").append(escape(goneLine(entry))).append('\n');
      }
      md.append('\n');
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
    List<String> notes = notes();
    if (!notes.isEmpty()) {
      md.append("## Notes\n\n");
      for (String note : notes) {
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
    if (comparison != null) {
      h.add("vs baseline");
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
    if (comparison != null) {
      ContentionComparison.Entry entry = comparison.entryOf(row);
      c.add(entry == null ? "" : comparison.describe(entry));
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
  public static String waitsFor(ObservedSite site) {
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
    if (site.kind() == WaitKind.PINNED && !site.pinnedBy().isEmpty()) {
      return site.kind().label() + ": " + site.pinnedBy();
    }
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

  public static String millis(long nanos) {
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
