package io.github.lockjaw.cli;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.contention.BytecodeFindings;
import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.Evidence;
import io.github.lockjaw.contention.EvidenceException;
import io.github.lockjaw.contention.Observations;
import io.github.lockjaw.contention.ReportWriter;
import io.github.lockjaw.contention.StaticFinding;
import io.github.lockjaw.engine.report.ContentionProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code contention --recording FILE PATH...}: the evidence ranked and tied to the bytecode
 * findings in PATH...
 */
final class ContentionCommand {
  private final PrintStream progress;

  ContentionCommand(PrintStream progress) {
    this.progress = progress;
  }

  Main.Report run(Options options) throws CliException, InterruptedException, IOException {
    Observations observations;
    try {
      observations = Evidence.read(options.recordings());
    } catch (EvidenceException e) {
      throw new CliException(Main.INPUT_ERROR, e.getMessage());
    }
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
      ReportWriter writer = new ReportWriter(report);
      String text =
          switch (options.format()) {
            case "markdown" -> writer.markdown();
            case "sarif" ->
                AuditCommand.sarif(
                    audited, targets, a -> ContentionProperties.of(report, byFinding.get(a)));
            default -> String.join("\n", writer.text()) + "\n";
          };
      return new Main.Report(text, writer.summary(), Main.OK);
    } finally {
      if (targets != null) {
        targets.close();
      }
    }
  }
}
