package io.github.lockjaw.cli;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.contention.BytecodeFindings;
import io.github.lockjaw.contention.ContentionGate;
import io.github.lockjaw.engine.finding.AuditFindings;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.io.Json;
import io.github.lockjaw.engine.report.SarifReporter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** {@code audit PATH...}: lockjaw's bytecode detectors over the application's jars and classes. */
final class AuditCommand {
  private final PrintStream progress;

  AuditCommand(PrintStream progress) {
    this.progress = progress;
  }

  Main.Report run(Options options) throws CliException, InterruptedException, IOException {
    try (Targets targets = Targets.expand(options.paths())) {
      JarAuditor.Result result = audit(targets, options, progress);
      List<AuditFinding> findings = result.findings();
      Optional<String> notAnalysed = result.notAnalysedSummary(NAMED);
      notAnalysed.ifPresent(line -> progress.println("lockjaw: " + line + "."));
      if (options.strict() && notAnalysed.isPresent()) {
        boolean lockjawFailed =
            result.notAnalysed().stream().anyMatch(n -> n.reason().contains(" failed"));
        throw new CliException(
            lockjawFailed ? Main.FAILURE : Main.INPUT_ERROR,
            notAnalysed.get()
                + ". --strict (or -Dlockjaw.strict=true) fails on every class that could not be"
                + " analysed"
                + (lockjawFailed
                    ? "; a detector failing is lockjaw's fault: please report it, with the jar."
                    : "; the class files may be damaged or generated oddly."));
      }
      String summary =
          findings.size()
              + (findings.size() == 1 ? " finding" : " findings")
              + " in "
              + targets.entries().size()
              + " jar(s) and class directories; "
              + String.format(Locale.ROOT, "%,d", result.classesAnalysed())
              + " of "
              + String.format(Locale.ROOT, "%,d", result.classesInJars())
              + " classes analysed"
              + (result.notAnalysed().isEmpty()
                  ? ""
                  : ", " + result.notAnalysed().size() + " could not be");
      String text =
          switch (options.format()) {
            case "markdown" -> markdown(findings, targets, summary, notAnalysed);
            case "sarif" -> sarif(findings, targets, f -> Map.of(), result.notAnalysed());
            default -> text(findings, targets, summary, notAnalysed);
          };
      return new Main.Report(text, summary, findings.isEmpty() ? Main.OK : Main.FINDINGS);
    }
  }

  /** How many classes that could not be analysed the console and the reports name. */
  static final int NAMED = 5;

  /** Runs the detectors over every entry (each is also the others' class path). */
  static List<AuditFinding> audit(Targets targets, PrintStream progress)
      throws CliException, InterruptedException {
    Options defaults =
        new Options(
            "audit",
            List.of(),
            List.of(),
            "text",
            null,
            ContentionGate.OFF,
            List.of(),
            0,
            Options.defaultCache(),
            Boolean.getBoolean("lockjaw.strict"),
            CheckOptions.NONE);
    return audit(targets, defaults, progress).findings();
  }

  static JarAuditor.Result audit(Targets targets, Options options, PrintStream progress)
      throws CliException, InterruptedException {
    progress.println(
        "lockjaw: auditing " + targets.entries().size() + " jar(s) and class directories...");
    JarAuditor.Options settings = JarAuditor.Options.DEFAULT.withRelease(options.release());
    if (options.cache() != null) {
      settings = settings.withCache(options.cache());
    }
    try {
      JarAuditor.Result result =
          new JarAuditor().run(targets.entries(), targets.entries(), settings);
      if (result.jarsFromCache() > 0) {
        progress.println(
            "lockjaw: "
                + result.jarsFromCache()
                + " of "
                + targets.entries().size()
                + " read from the cache "
                + options.cache()
                + " (unchanged since an earlier audit; --no-cache audits them again).");
      }
      return result;
    } catch (IOException e) {
      throw new CliException(Main.FAILURE, "lockjaw could not audit: " + e.getMessage());
    }
  }

  /**
   * {@code commons-pool:commons-pool 1.3 (shop.war!/WEB-INF/lib/commons-pool-1.3.jar)}; for a
   * shaded jar, the bundled library the class belongs to.
   */
  static String where(AuditFinding finding, Targets targets) {
    String label = targets.label(finding.jar());
    if (finding.jar() != null && Files.isDirectory(finding.jar())) {
      return label; // a class directory: its path, as the user gave it
    }
    String identity =
        finding.library() == null || finding.library().isEmpty()
            ? BytecodeFindings.describe(finding.jar())
            : finding.library();
    String file = finding.jar() == null ? "" : String.valueOf(finding.jar().getFileName());
    return label.equals(file) && identity.startsWith(file)
        ? identity
        : identity + " (" + label + ")";
  }

  private static String text(
      List<AuditFinding> findings, Targets targets, String summary, Optional<String> notAnalysed) {
    StringBuilder out = new StringBuilder("lockjaw audit: ").append(summary).append('\n');
    notAnalysed.ifPresent(line -> out.append("Not analysed: ").append(line).append('\n'));
    String current = null;
    for (AuditFinding f : findings) {
      String where = where(f, targets);
      if (!where.equals(current)) {
        out.append(where).append('\n');
        current = where;
      }
      out.append("  ")
          .append(f.readableMethod())
          .append(f.line() > 0 ? " line " + f.line() : "")
          .append(": [")
          .append(f.check())
          .append("] ")
          .append(f.message())
          .append('\n');
      if (!f.advice().isEmpty()) {
        out.append("    Fix: ").append(f.advice()).append('\n');
      }
    }
    return out.toString();
  }

  private static String markdown(
      List<AuditFinding> findings, Targets targets, String summary, Optional<String> notAnalysed) {
    StringBuilder md = new StringBuilder("# lockjaw audit\n\n").append(summary).append(".\n\n");
    notAnalysed.ifPresent(
        line -> md.append("**Not analysed:** ").append(cell(line)).append(".\n\n"));
    if (findings.isEmpty()) {
      return md.toString();
    }
    md.append(
        "| jar | method | line | check | what is wrong | fix |\n|---|---|---:|---|---|---|\n");
    for (AuditFinding f : findings) {
      md.append("| ")
          .append(cell(where(f, targets)))
          .append(" | `")
          .append(f.readableMethod())
          .append("` | ")
          .append(f.line() > 0 ? String.valueOf(f.line()) : "")
          .append(" | ")
          .append(f.check())
          .append(" | ")
          .append(cell(f.message()))
          .append(" | ")
          .append(cell(f.advice()))
          .append(" |\n");
    }
    return md.append('\n').toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  /**
   * SARIF through the plugin's reporter; locations name the file the user gave (a jar, WAR or
   * directory).
   */
  static String sarif(
      List<AuditFinding> audited,
      Targets targets,
      Function<AuditFinding, Map<String, Object>> properties) {
    return sarif(audited, targets, properties, List.of());
  }

  static String sarif(
      List<AuditFinding> audited,
      Targets targets,
      Function<AuditFinding, Map<String, Object>> properties,
      List<JarAuditor.NotAnalysed> notAnalysed) {
    List<Finding> findings = new ArrayList<>();
    Map<Finding, AuditFinding> origin = new IdentityHashMap<>();
    Map<Finding, String> coordinates = new LinkedHashMap<>();
    List<Rule> rules = new ArrayList<>();
    for (AuditFinding a : audited) {
      Finding finding = AuditFindings.toFinding(a);
      findings.add(finding);
      origin.put(finding, a);
      coordinates.put(
          finding, a.library().isEmpty() ? BytecodeFindings.describe(a.jar()) : a.library());
      if (rules.stream().noneMatch(r -> r.id().equals(a.check()))) {
        rules.add(AuditFindings.rule(a.check()));
      }
    }
    SarifReporter reporter = new SarifReporter(version(), Path.of("").toAbsolutePath());
    Map<Finding, String> fingerprints = Fingerprint.all(findings, coordinates::get);
    List<String[]> skipped = new ArrayList<>();
    for (JarAuditor.NotAnalysed n : notAnalysed) {
      skipped.add(
          new String[] {
            targets.origin(n.jar()).toUri().toString(),
            n.className() + " in " + targets.label(n.jar()),
            n.reason()
          });
    }
    return Json.GSON.toJson(
            SarifReporter.withNotAnalysed(
                reporter.build(
                    rules,
                    findings,
                    f -> String.valueOf(targets.origin(origin.get(f).jar())),
                    fingerprints,
                    f -> false,
                    f -> properties.apply(origin.get(f))),
                skipped))
        + "\n";
  }

  static String version() {
    String version = AuditCommand.class.getPackage().getImplementationVersion();
    return version == null ? "development" : version;
  }
}
