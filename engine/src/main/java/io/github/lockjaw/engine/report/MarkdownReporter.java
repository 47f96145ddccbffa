package io.github.lockjaw.engine.report;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.TraceStep;
import java.util.List;
import java.util.Map;

/**
 * The findings as GitHub-flavoured markdown (a pull-request comment, a job summary): the same
 * sections as {@link HtmlReporter}, the fixes as {@code diff} blocks.
 */
public final class MarkdownReporter {
  private MarkdownReporter() {}

  public static String render(FindingsReport report) {
    StringBuilder md = new StringBuilder("# ").append(report.title()).append("\n\n");
    for (String note : report.notes()) {
      md.append("> ").append(note).append("\n\n");
    }
    long fresh = report.findings().stream().filter(f -> !report.baselined().test(f)).count();
    md.append(report.findings().size())
        .append(report.findings().size() == 1 ? " finding" : " findings")
        .append(" in the sources (")
        .append(fresh)
        .append(" new, ")
        .append(report.findings().size() - fresh)
        .append(" accepted by the baseline)");
    if (!report.audit().isEmpty()) {
      md.append("; ")
          .append(report.audit().values().stream().mapToInt(List::size).sum())
          .append(" in ")
          .append(report.audit().size())
          .append(" dependency artifact(s)");
    }
    md.append(".\n\n## Summary\n\n");
    if (report.summary().isEmpty()) {
      md.append("lockjaw found none of its anti-patterns.\n");
    } else {
      md.append(
          "| Check | What it finds | Findings | New | With a fix |\n|---|---|---:|---:|---:|\n");
      for (FindingsReport.CheckCount c : report.summary()) {
        md.append("| ")
            .append(checkLink(report, c.check()))
            .append(" | ")
            .append(cell(c.summary()))
            .append(" | ")
            .append(c.findings())
            .append(" | ")
            .append(c.fresh())
            .append(" | ")
            .append(c.fixable())
            .append(" |\n");
      }
    }

    if (!report.findings().isEmpty()) {
      md.append("\n## Findings by check\n");
      for (Map.Entry<String, List<Finding>> group : report.byCheck().entrySet()) {
        md.append("\n### ")
            .append(group.getKey())
            .append(" (")
            .append(group.getValue().size())
            .append(")\n\n");
        String summary = report.summaryOf(group.getKey());
        if (!summary.isEmpty()) {
          md.append(summary).append(". ");
        }
        String docs = report.docs(group.getKey());
        if (docs != null) {
          md.append("[The check's page](")
              .append(target(docs))
              .append(") explains it and its fix.");
        }
        md.append("\n");
        for (Finding finding : group.getValue()) {
          finding(md, report, finding);
        }
      }

      md.append(
          "\n## Findings by file\n\n| File | Line | Check | State | Fix |\n|---|---:|---|---|---|\n");
      for (Map.Entry<String, List<Finding>> file : report.byFile().entrySet()) {
        for (Finding f : file.getValue()) {
          md.append("| `")
              .append(cell(file.getKey()))
              .append("` | ")
              .append(f.line())
              .append(" | ")
              .append(f.check())
              .append(" | ")
              .append(report.baselined().test(f) ? "baselined" : "new")
              .append(" | ")
              .append(f.hasFix() ? "yes" : "no")
              .append(" |\n");
        }
      }
    }

    if (!report.audit().isEmpty()) {
      md.append("\n## Dependencies (lockjaw:audit)\n");
      for (Map.Entry<String, List<Finding>> artifact : report.audit().entrySet()) {
        md.append("\n### ")
            .append(artifact.getKey())
            .append(
                "\n\n| Method | Line | Check | What is wrong and what to do |\n|---|---:|---|---|\n");
        for (Finding f : artifact.getValue()) {
          md.append("| `")
              .append(cell(f.enclosingClass() + (f.member().isEmpty() ? "" : "." + f.member())))
              .append("` | ")
              .append(f.line() > 0 ? String.valueOf(f.line()) : "")
              .append(" | ")
              .append(checkLink(report, f.check()))
              .append(" | ")
              .append(cell(f.message()))
              .append(" |\n");
        }
      }
    }
    return md.toString();
  }

  private static void finding(StringBuilder md, FindingsReport report, Finding finding) {
    md.append("\n#### `")
        .append(report.relativePath().apply(finding))
        .append(':')
        .append(finding.line())
        .append(':')
        .append(finding.column())
        .append('`')
        .append(report.baselined().test(finding) ? " (baselined)" : "")
        .append("\n\n")
        .append(finding.message())
        .append('\n');
    trace(md, "How requests reach it", finding.requestPath());
    trace(md, "What it does under the lock", finding.effectChain());
    String diff = report.diff(finding);
    if (!diff.isEmpty()) {
      md.append("\n```diff\n").append(diff.stripTrailing()).append("\n```\n");
    }
  }

  private static void trace(StringBuilder md, String title, List<TraceStep> steps) {
    if (steps.isEmpty()) {
      return;
    }
    md.append('\n').append(title).append(":\n\n");
    for (TraceStep step : steps) {
      md.append("- ").append(step.description());
      if (!step.file().isEmpty()) {
        String name = step.file().replace('\\', '/');
        md.append(" (`")
            .append(name.substring(name.lastIndexOf('/') + 1))
            .append(step.line() > 0 ? ":" + step.line() : "")
            .append("`)");
      }
      md.append('\n');
    }
  }

  private static String checkLink(FindingsReport report, String check) {
    String docs = report.docs(check);
    return docs == null ? check : "[" + check + "](" + target(docs) + ")";
  }

  /** A link target; one with spaces in angle brackets. */
  private static String target(String link) {
    return link.contains(" ") ? "<" + link + ">" : link;
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
