package io.github.lockjaw.engine.report;

import io.github.lockjaw.contention.ContentionComparison;
import io.github.lockjaw.contention.ContentionGate;
import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.Frame;
import io.github.lockjaw.contention.HolderTally;
import io.github.lockjaw.contention.ObservedSite;
import io.github.lockjaw.contention.ReportWriter;
import io.github.lockjaw.contention.StaticFinding;
import io.github.lockjaw.engine.report.html.HtmlPage;
import io.github.lockjaw.engine.report.html.HtmlPage.Bar;
import io.github.lockjaw.engine.report.html.HtmlPage.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The contention report as one self-contained HTML page ({@code contention.html}, {@code --format
 * html}): a bar chart of the blocked time per site (waiting threads from dumps), the ranked table,
 * then each site with who held its lock and the frames the holder ran, the finding that covers it
 * with its fix (as a diff when the fix is an edit), the comparison with a baseline and the gate's
 * verdict. Rendered with {@link HtmlPage}: inline style, no script, nothing fetched.
 */
public final class ContentionHtmlReport {
  private final ContentionReport report;
  private final ContentionComparison comparison;
  private final ContentionGate.Verdict verdict;
  private final ReportWriter writer;
  private final boolean jfr;
  private final boolean dumps;

  /**
   * @param comparison the comparison with a baseline run, or null
   * @param verdict the gate's verdict, or null when no gate was asked for
   */
  public ContentionHtmlReport(
      ContentionReport report, ContentionComparison comparison, ContentionGate.Verdict verdict) {
    this.report = report;
    this.comparison = comparison;
    this.verdict = verdict;
    this.writer = new ReportWriter(report, comparison);
    this.jfr = !report.observations().recordings().isEmpty();
    this.dumps = report.observations().dumps() > 0;
  }

  /** The whole page. */
  public String render() {
    HtmlPage page = new HtmlPage("lockjaw contention report");
    page.paragraph(writer.summary() + ".");
    if (verdict != null) {
      if (verdict.failed()) {
        page.raw("<p><strong>The gate failed:</strong></p>\n<ul>\n");
        for (String reason : verdict.reasons()) {
          page.raw("<li>" + HtmlPage.escape(reason) + "</li>\n");
        }
        page.raw("</ul>\n");
      } else {
        page.paragraph("The gate passed: no site is over its limit.");
      }
    }
    if (report.rows().isEmpty()) {
      page.paragraph("No thread was seen waiting on a lock outside the Java runtime.");
    } else {
      chart(page);
      table(page);
      for (ContentionReport.Row row : report.rows()) {
        site(page, row);
      }
    }
    if (comparison != null) {
      comparisonSection(page);
    }
    unobserved(page);
    List<String> notes = writer.notes();
    if (!notes.isEmpty()) {
      page.heading(2, "Notes");
      for (String note : notes) {
        page.note(note);
      }
    }
    return page.render();
  }

  /** One bar per site: blocked milliseconds (JFR), else waiting threads (dumps). */
  private void chart(HtmlPage page) {
    List<Bar> bars = new ArrayList<>();
    for (ContentionReport.Row row : report.rows()) {
      bars.add(new Bar(barLabel(row), value(row.site()), row.hasFinding()));
    }
    page.barChart(
        jfr
            ? "Blocked time per site, in milliseconds summed over the threads (red: a lockjaw"
                + " finding covers the site)"
            : "Waiting threads per site, summed over the dumps (red: a lockjaw finding covers the"
                + " site)",
        bars,
        jfr ? "ms" : "threads");
  }

  /** The label a bar and its table row share: the rank and the site. */
  static String barLabel(ContentionReport.Row row) {
    return row.rank() + ". " + row.site().frame().display();
  }

  /** The charted figure: blocked milliseconds (JFR), or waiting threads (dumps). */
  private double value(ObservedSite site) {
    return jfr ? Math.round(site.totalNanos() / 1e5) / 10.0 : site.dumpThreads();
  }

  private void table(HtmlPage page) {
    List<String> headers = new ArrayList<>(List.of("rank"));
    if (jfr) {
      headers.addAll(List.of("blocked", "waits"));
    }
    if (dumps) {
      headers.addAll(List.of("waiting threads", "dumps"));
    }
    if (comparison != null) {
      headers.add("vs baseline");
    }
    headers.addAll(List.of("site", "waits for", "held by", "finding"));
    List<List<Cell>> rows = new ArrayList<>();
    for (ContentionReport.Row row : report.rows()) {
      ObservedSite site = row.site();
      List<Cell> cells = new ArrayList<>();
      cells.add(Cell.number(String.valueOf(row.rank())));
      if (jfr) {
        cells.add(Cell.number(String.format(Locale.ROOT, "%,.1f ms", value(site))));
        cells.add(Cell.number(String.format(Locale.ROOT, "%,d", site.events())));
      }
      if (dumps) {
        cells.add(Cell.number(String.valueOf(site.dumpThreads())));
        cells.add(Cell.number(site.dumps() + "/" + report.observations().dumps()));
      }
      if (comparison != null) {
        ContentionComparison.Entry entry = comparison.entryOf(row);
        cells.add(Cell.text(entry == null ? "" : comparison.describe(entry)));
      }
      cells.add(
          Cell.html(
              "<a href=\"#site-"
                  + row.rank()
                  + "\"><code>"
                  + breakable(site.frame().display())
                  + "</code></a>"));
      cells.add(Cell.html(breakable(ReportWriter.waitsFor(site))));
      HolderTally.Group top = site.holders().top();
      cells.add(Cell.html(top == null ? "" : breakable(top.holder().shortSummary())));
      cells.add(
          Cell.text(
              row.hasFinding()
                  ? String.join(
                      ", ", row.findings().stream().map(StaticFinding::check).distinct().toList())
                  : "no finding"));
      rows.add(cells);
    }
    page.table(headers, rows);
  }

  private void site(HtmlPage page, ContentionReport.Row row) {
    ObservedSite site = row.site();
    page.heading(2, row.rank() + ". " + site.frame().display(), "site-" + row.rank());
    StringBuilder where = new StringBuilder();
    if (site.caller() != null) {
      where.append("Called from ").append(site.caller().display()).append("; ");
    }
    where.append("waits for ").append(ReportWriter.waitsFor(site)).append('.');
    if (jfr && site.events() > 0) {
      where.append(
          String.format(
              Locale.ROOT,
              " %,d waits, %s in all, the longest %s.",
              site.events(),
              ReportWriter.millis(site.totalNanos()),
              ReportWriter.millis(site.maxNanos())));
    }
    page.paragraph(where.toString());
    HolderTally holders = site.holders();
    if (!holders.isEmpty()) {
      page.heading(3, "Who held the lock");
      page.paragraph("Held by: " + writer.heldBy(row) + ".");
      HolderTally.Group top = holders.top();
      page.code(frames(top.holder().frames()));
      List<HolderTally.Group> groups = holders.groups();
      if (groups.size() > 1) {
        List<List<Cell>> others = new ArrayList<>();
        for (HolderTally.Group group : groups.subList(1, Math.min(groups.size(), 6))) {
          others.add(
              List.of(
                  Cell.number(String.valueOf(group.weight())),
                  Cell.text(group.holder().summary()),
                  Cell.text(String.join(", ", group.threads()))));
        }
        page.table(List.of("weight", "other holders", "threads"), others);
      }
    }
    if (!row.hasFinding()) {
      page.paragraph(
          "No lockjaw finding covers this site: the lock may be right for what it guards, or a case"
              + " lockjaw's checks do not cover. Look at what it guards before changing it.");
      return;
    }
    for (StaticFinding finding : row.findings()) {
      page.heading(3, finding.check() + " at " + finding.location());
      page.paragraph(finding.message());
      if (row.holderConfirms(finding)) {
        page.note("The holder's frames run in this finding's code: the evidence for it.");
      }
      if (!finding.fixDiff().isEmpty()) {
        page.diff(finding.fixDiff());
      }
      if (!finding.advice().isEmpty() && !finding.message().contains(finding.advice())) {
        page.paragraph("Fix: " + finding.advice());
      }
    }
  }

  private void comparisonSection(HtmlPage page) {
    page.heading(2, "Compared with the baseline", "baseline");
    page.paragraph(
        "Each site's figure per "
            + (comparison.measure() == ContentionComparison.Measure.JFR
                ? "second of recording (blocked milliseconds per second)"
                : "dump (waiting threads per dump)")
            + " in the baseline and in this run.");
    List<List<Cell>> rows = new ArrayList<>();
    for (ContentionComparison.Entry entry : comparison.entries()) {
      rows.add(
          List.of(
              Cell.text(entry.mark().label()),
              Cell.html("<code>" + HtmlPage.escape(entry.site().frame().display()) + "</code>"),
              Cell.number(
                  entry.baselineRow() == null ? "" : comparison.format(entry.baselineRate())),
              Cell.number(entry.row() == null ? "" : comparison.format(entry.rate())),
              Cell.text(
                  entry.findings().isEmpty()
                      ? "no finding"
                      : String.join(
                          ", ",
                          entry.findings().stream()
                              .map(StaticFinding::check)
                              .distinct()
                              .toList()))));
    }
    page.table(List.of("change", "site", "baseline", "this run", "finding"), rows);
  }

  private void unobserved(HtmlPage page) {
    List<StaticFinding> own =
        report.unobserved().stream().filter(f -> f.artifact().isEmpty()).toList();
    long inJars = report.unobserved().size() - own.size();
    if (own.isEmpty() && inJars == 0) {
      return;
    }
    page.heading(2, "Findings no thread was seen waiting on");
    if (!own.isEmpty()) {
      List<List<Cell>> rows = new ArrayList<>();
      for (StaticFinding finding : own) {
        rows.add(List.of(Cell.text(finding.check()), Cell.text(finding.location())));
      }
      page.table(List.of("check", "where"), rows);
    }
    if (inJars > 0) {
      page.note(
          inJars
              + " finding(s) in dependency jars, in code no thread was seen waiting in; lockjaw's"
              + " audit lists them.");
    }
  }

  /** Escaped, with a line-break opportunity after each dot and before each parenthesis. */
  private static String breakable(String text) {
    return HtmlPage.escape(text).replace(".", ".<wbr>").replace("(", "<wbr>(");
  }

  private static String frames(List<Frame> frames) {
    StringBuilder text = new StringBuilder();
    for (Frame frame : frames) {
      text.append("at ").append(frame.className()).append('.').append(frame.methodName());
      text.append('(')
          .append(frame.fileName().isEmpty() ? "" : frame.fileName())
          .append(
              frame.line() > 0 ? (frame.fileName().isEmpty() ? "line " : ":") + frame.line() : "")
          .append(")\n");
    }
    return text.toString().stripTrailing();
  }
}
