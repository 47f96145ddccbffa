package io.github.lockjaw.cli;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.contention.BytecodeFindings;
import io.github.lockjaw.contention.ContentionComparison;
import io.github.lockjaw.contention.ContentionGate;
import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.Evidence;
import io.github.lockjaw.contention.EvidenceException;
import io.github.lockjaw.contention.Observations;
import io.github.lockjaw.contention.ReportWriter;
import io.github.lockjaw.contention.StaticFinding;
import io.github.lockjaw.engine.report.ContentionHtmlReport;
import io.github.lockjaw.engine.report.ContentionProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code contention --recording FILE [--baseline FILE] PATH...}: the evidence ranked and tied to
 * the bytecode findings in PATH..., compared with an earlier run, and judged by the gate when
 * asked.
 */
final class ContentionCommand {
  private final PrintStream progress;

  ContentionCommand(PrintStream progress) {
    this.progress = progress;
  }

  Main.Report run(Options options) throws CliException, InterruptedException, IOException {
    Observations observations = read(options.recordings(), "");
    Observations baseline =
        options.baselines().isEmpty() ? null : read(options.baselines(), "the baseline: ");
    List<AuditFinding> audited = List.of();
    Targets targets = options.paths().isEmpty() ? null : Targets.expand(options.paths());
    try {
      if (targets != null) {
        audited = AuditCommand.audit(targets, progress);
      } else {
        progress.println(
            "lockjaw: no PATH given, so the sites are not tied to findings; add the application's jars,"
                + " WAR/EAR or class directories to see which finding covers each.");
      }
      List<StaticFinding> statics = new ArrayList<>();
      Map<AuditFinding, StaticFinding> byFinding = new IdentityHashMap<>();
      for (AuditFinding a : audited) {
        StaticFinding s = BytecodeFindings.of(a, AuditCommand.where(a, targets), statics.size());
        statics.add(s);
        byFinding.put(a, s);
      }
      ContentionReport report = ContentionReport.correlate(observations, statics);
      ContentionComparison comparison = null;
      if (baseline != null) {
        try {
          comparison =
              ContentionComparison.compare(report, ContentionReport.correlate(baseline, statics));
        } catch (EvidenceException e) {
          throw new CliException(Main.USAGE_ERROR, e.getMessage());
        }
      }
      ContentionGate gate = options.gate();
      ContentionGate.Verdict verdict = gate.isOn() ? gate.judge(report, comparison) : null;
      ReportWriter writer = new ReportWriter(report, comparison);
      String text =
          switch (options.format()) {
            case "markdown" -> writer.markdown() + gateMarkdown(verdict);
            case "html" -> new ContentionHtmlReport(report, comparison, verdict).render();
            case "sarif" ->
                AuditCommand.sarif(
                    audited, targets, a -> ContentionProperties.of(report, byFinding.get(a)));
            default -> String.join("\n", writer.text()) + "\n" + gateText(verdict);
          };
      if (verdict != null && verdict.failed() && options.format().matches("html|sarif")) {
        progress.print(gateText(verdict)); // the report is a file: the reasons go to the terminal
      }
      boolean failed = verdict != null && verdict.failed();
      String summary =
          writer.summary()
              + (verdict == null
                  ? ""
                  : failed
                      ? "; the gate failed (" + plural(verdict.reasons().size()) + ")"
                      : "; the gate passed");
      return new Main.Report(text, summary, failed ? Main.FINDINGS : Main.OK);
    } finally {
      if (targets != null) {
        targets.close();
      }
    }
  }

  private static Observations read(List<Path> paths, String what) throws CliException {
    try {
      return Evidence.read(paths);
    } catch (EvidenceException e) {
      throw new CliException(Main.INPUT_ERROR, what + e.getMessage());
    }
  }

  private static String plural(int n) {
    return n + (n == 1 ? " site" : " sites");
  }

  /** The gate's verdict for the terminal: one line per reason. */
  static String gateText(ContentionGate.Verdict verdict) {
    if (verdict == null) {
      return "";
    }
    if (!verdict.failed()) {
      return "lockjaw: the contention gate passed.\n";
    }
    Set<String> lines = new LinkedHashSet<>();
    lines.add("lockjaw: the contention gate failed:");
    for (String reason : verdict.reasons()) {
      lines.add("  " + reason);
    }
    return String.join("\n", lines) + "\n";
  }

  private static String gateMarkdown(ContentionGate.Verdict verdict) {
    if (verdict == null) {
      return "";
    }
    StringBuilder md = new StringBuilder("## Gate\n\n");
    if (!verdict.failed()) {
      return md.append("Passed: no site is over its limit.\n").toString();
    }
    md.append("Failed:\n\n");
    for (String reason : verdict.reasons()) {
      md.append("- ").append(reason.replace("|", "\\|")).append('\n');
    }
    return md.toString();
  }
}
