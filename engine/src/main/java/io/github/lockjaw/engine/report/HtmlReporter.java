package io.github.lockjaw.engine.report;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.TraceStep;
import io.github.lockjaw.engine.report.html.HtmlPage;
import io.github.lockjaw.engine.report.html.HtmlPage.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The findings as an HTML page, built with the one {@link HtmlPage} renderer: a summary table per
 * check, then the findings by check (message, request path and effect chain, the fix as a diff, the
 * check's page), the findings by file, and the audit's findings by artifact. The command-line
 * tool's {@code check --format html} writes {@link #page}; the {@code mvn site} report embeds
 * {@link #fragment}.
 */
public final class HtmlReporter {
  private HtmlReporter() {}

  /** A self-contained HTML document. */
  public static String page(FindingsReport report) {
    return build(report).render();
  }

  /** The report's content for a page of a Maven site (the site shows the title). */
  public static String fragment(FindingsReport report) {
    return build(report).fragment();
  }

  static HtmlPage build(FindingsReport report) {
    HtmlPage page = new HtmlPage(report.title());
    report.notes().forEach(page::note);
    int auditCount = report.audit().values().stream().mapToInt(List::size).sum();
    long fresh = report.findings().stream().filter(f -> !report.baselined().test(f)).count();
    page.paragraph(
        report.findings().size()
            + (report.findings().size() == 1 ? " finding" : " findings")
            + " in the sources ("
            + fresh
            + " new, "
            + (report.findings().size() - fresh)
            + " accepted by the baseline)"
            + (report.audit().isEmpty()
                ? "."
                : "; " + auditCount + " in " + report.audit().size() + " dependency artifact(s)."));

    page.heading(2, "Summary", "summary");
    if (report.summary().isEmpty()) {
      page.paragraph("lockjaw found none of its anti-patterns.");
    } else {
      List<List<Cell>> rows = new ArrayList<>();
      for (FindingsReport.CheckCount c : report.summary()) {
        rows.add(
            List.of(
                Cell.html(checkLink(report, c.check())),
                Cell.text(c.summary()),
                Cell.number(String.valueOf(c.findings())),
                Cell.number(String.valueOf(c.fresh())),
                Cell.number(String.valueOf(c.fixable()))));
      }
      page.table(List.of("Check", "What it finds", "Findings", "New", "With a fix"), rows);
    }

    Map<Finding, String> anchors = report.anchors();
    if (!report.findings().isEmpty()) {
      page.heading(2, "Findings by check", "by-check");
      for (Map.Entry<String, List<Finding>> group : report.byCheck().entrySet()) {
        String check = group.getKey();
        page.heading(3, check + " (" + group.getValue().size() + ")", "check-" + check);
        String summary = report.summaryOf(check);
        String docs = report.docs(check);
        page.raw(
            "<p>"
                + HtmlPage.escape(summary)
                + (docs == null
                    ? ""
                    : (summary.isEmpty() ? "" : " ")
                        + HtmlPage.link(docs, "The check's page")
                        + " explains it and its fix.")
                + "</p>\n");
        for (Finding finding : group.getValue()) {
          finding(page, report, finding, anchors.get(finding));
        }
      }

      page.heading(2, "Findings by file", "by-file");
      List<List<Cell>> rows = new ArrayList<>();
      for (Map.Entry<String, List<Finding>> file : report.byFile().entrySet()) {
        for (Finding finding : file.getValue()) {
          rows.add(
              List.of(
                  Cell.html("<code>" + HtmlPage.escape(file.getKey()) + "</code>"),
                  Cell.number(String.valueOf(finding.line())),
                  Cell.html(
                      "<a href=\"#"
                          + anchors.get(finding)
                          + "\">"
                          + HtmlPage.escape(finding.check())
                          + "</a>"),
                  Cell.text(report.baselined().test(finding) ? "baselined" : "new"),
                  Cell.text(finding.hasFix() ? "yes" : "no")));
        }
      }
      page.table(List.of("File", "Line", "Check", "State", "Fix"), rows);
    }

    if (!report.audit().isEmpty()) {
      page.heading(2, "Dependencies (lockjaw:audit)", "audit");
      page.note(
          "The same anti-patterns in the bytecode of the module's dependencies; the advice names"
              + " the release that fixed one where lockjaw knows it.");
      for (Map.Entry<String, List<Finding>> artifact : report.audit().entrySet()) {
        page.heading(3, artifact.getKey() + " (" + artifact.getValue().size() + ")");
        List<List<Cell>> rows = new ArrayList<>();
        for (Finding f : artifact.getValue()) {
          String method = f.enclosingClass() + (f.member().isEmpty() ? "" : "." + f.member());
          rows.add(
              List.of(
                  Cell.html("<code>" + HtmlPage.escape(method) + "</code>"),
                  Cell.number(f.line() > 0 ? String.valueOf(f.line()) : ""),
                  Cell.html(checkLink(report, f.check())),
                  Cell.text(f.message())));
        }
        page.table(List.of("Method", "Line", "Check", "What is wrong and what to do"), rows);
      }
    }
    return page;
  }

  private static void finding(HtmlPage page, FindingsReport report, Finding finding, String id) {
    String path = report.relativePath().apply(finding);
    page.raw(
        "<h4 id=\""
            + id
            + "\"><code>"
            + HtmlPage.escape(path + ":" + finding.line() + ":" + finding.column())
            + "</code>"
            + (report.baselined().test(finding) ? " <span class=\"note\">(baselined)</span>" : "")
            + "</h4>\n");
    page.paragraph(finding.message());
    trace(page, "How requests reach it", finding.requestPath());
    trace(page, "What it does under the lock", finding.effectChain());
    String diff = report.diff(finding);
    if (!diff.isEmpty()) {
      page.paragraph("The suggested fix (lockjaw:fix, or check --fix, applies it):");
      page.diff(diff.stripTrailing());
    } else if (!finding.hasFix()) {
      page.note("No automatic fix: the check's page shows how to fix it by hand.");
    }
  }

  private static void trace(HtmlPage page, String title, List<TraceStep> steps) {
    if (steps.isEmpty()) {
      return;
    }
    page.paragraph(title + ":");
    List<String> items = new ArrayList<>();
    for (TraceStep step : steps) {
      String where =
          step.file().isEmpty()
              ? ""
              : " <span class=\"note\">("
                  + HtmlPage.escape(
                      fileName(step.file()) + (step.line() > 0 ? ":" + step.line() : ""))
                  + ")</span>";
      items.add(HtmlPage.escape(step.description()) + where);
    }
    page.listHtml(items);
  }

  private static String fileName(String file) {
    String name = file.replace('\\', '/');
    return name.substring(name.lastIndexOf('/') + 1);
  }

  private static String checkLink(FindingsReport report, String check) {
    String docs = report.docs(check);
    return docs == null ? HtmlPage.escape(check) : HtmlPage.link(docs, check);
  }
}
