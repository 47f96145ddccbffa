package io.github.lockjaw.maven;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.contention.BytecodeFindings;
import io.github.lockjaw.contention.ContentionComparison;
import io.github.lockjaw.contention.ContentionGate;
import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.Evidence;
import io.github.lockjaw.contention.EvidenceException;
import io.github.lockjaw.contention.Observations;
import io.github.lockjaw.contention.ReportWriter;
import io.github.lockjaw.contention.SourceMembers;
import io.github.lockjaw.contention.StaticFinding;
import io.github.lockjaw.engine.analyzer.ParentWatch;
import io.github.lockjaw.engine.finding.AuditFindings;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.io.AtomicFiles;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.io.Json;
import io.github.lockjaw.engine.report.ContentionHtmlReport;
import io.github.lockjaw.engine.report.ContentionProperties;
import io.github.lockjaw.engine.report.SarifReporter;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The work of lockjaw:contention on JDK 21+: reads the evidence (and the baseline's), audits the
 * dependency jars threads were seen waiting in, ties the sites to the findings, compares, judges
 * the gate, and writes {@code contention.md}, {@code contention.html} and SARIF. Called in Maven's
 * JVM when it runs on JDK 21+, else run as {@code main} in a forked JDK 21+ ({@link
 * ForkedContention}), so that no class compiled for 21 is loaded into an older Maven.
 */
public final class ContentionWork {
  private ContentionWork() {}

  /** The forked JVM's entry: {@code ContentionWork job.json outcome.json}. */
  public static void main(String[] args) throws IOException {
    ParentWatch.start(); // ends this JVM when Maven is killed
    ContentionJob job =
        Json.GSON.fromJson(Files.readString(Path.of(args[0]), UTF_8), ContentionJob.class);
    ContentionJob.Outcome outcome;
    try {
      outcome = run(job);
    } catch (RuntimeException | LinkageError e) {
      outcome = ContentionJob.Outcome.failed("lockjaw:contention failed unexpectedly: " + e + ".");
    }
    AtomicFiles.write(Path.of(args[1]), Json.GSON.toJson(outcome));
    System.exit(0);
  }

  static ContentionJob.Outcome run(ContentionJob job) {
    List<String> warnings = new ArrayList<>();
    Observations observations;
    Observations baseline = null;
    try {
      observations = Evidence.read(paths(job.recordings()));
    } catch (EvidenceException e) {
      return ContentionJob.Outcome.failed("lockjaw: " + e.getMessage());
    }
    if (!job.baselines().isEmpty()) {
      try {
        baseline = Evidence.read(paths(job.baselines()));
      } catch (EvidenceException e) {
        return ContentionJob.Outcome.failed(
            "lockjaw: the baseline recording (lockjaw.baseline.recording): " + e.getMessage());
      }
    }

    List<Finding> findings = new ArrayList<>(job.findings());
    List<StaticFinding> statics = new ArrayList<>();
    SourceMembers members = new SourceMembers(charset(job.encoding()));
    for (int i = 0; i < job.findings().size(); i++) {
      statics.add(staticFinding(job, i, members));
    }
    Map<Finding, String> coordinates = new LinkedHashMap<>();
    Map<Finding, String> locations = new IdentityHashMap<>();
    Map<Finding, String> fingerprints = new LinkedHashMap<>();
    for (int i = 0; i < job.findings().size(); i++) {
      locations.put(job.findings().get(i), job.locations().get(i));
      fingerprints.put(job.findings().get(i), job.fingerprints().get(i));
    }
    List<Rule> rules = new ArrayList<>(job.rules());
    for (AuditFinding audited : dependencyFindings(job, observations, baseline, warnings)) {
      Finding finding = AuditFindings.toFinding(audited);
      String where = coordinatesOf(job, audited);
      coordinates.put(finding, where);
      statics.add(BytecodeFindings.of(audited, where, findings.size()));
      findings.add(finding);
      if (rules.stream().noneMatch(r -> r.id().equals(audited.check()))) {
        rules.add(AuditFindings.rule(audited.check()));
      }
    }
    fingerprints.putAll(
        Fingerprint.all(
            findings.subList(job.findings().size(), findings.size()), coordinates::get));

    ContentionReport report = ContentionReport.correlate(observations, statics);
    ContentionComparison comparison = null;
    if (baseline != null) {
      try {
        comparison =
            ContentionComparison.compare(report, ContentionReport.correlate(baseline, statics));
      } catch (EvidenceException e) {
        return ContentionJob.Outcome.failed("lockjaw: " + e.getMessage());
      }
    }
    ContentionGate gate;
    try {
      gate =
          new ContentionGate(
              job.failAbove().isBlank() ? -1 : ContentionGate.parseShare(job.failAbove()),
              job.failOnRegression());
    } catch (IllegalArgumentException e) {
      return ContentionJob.Outcome.failed("lockjaw.contentionFailAbove: " + e.getMessage());
    }
    if (gate.failOnRegression() && baseline == null) {
      return ContentionJob.Outcome.failed(
          "lockjaw.contentionFailOnRegression compares with an earlier run: add"
              + " -Dlockjaw.baseline.recording=FILE with that run's recording or dumps.");
    }
    ContentionGate.Verdict verdict = gate.isOn() ? gate.judge(report, comparison) : null;

    ReportWriter writer = new ReportWriter(report, comparison);
    List<String> lines = new ArrayList<>(writer.text());
    Map<Finding, StaticFinding> byFinding = new IdentityHashMap<>();
    for (StaticFinding s : statics) {
      byFinding.put(findings.get(s.key()), s);
    }
    try {
      write(Path.of(job.markdown()), writer.markdown());
      write(Path.of(job.html()), new ContentionHtmlReport(report, comparison, verdict).render());
      SarifReporter sarif = new SarifReporter(job.pluginVersion(), Path.of(job.repositoryRoot()));
      Path sarifFile = Path.of(job.sarif());
      Files.createDirectories(sarifFile.toAbsolutePath().getParent());
      sarif.write(
          sarifFile,
          sarif.build(
              rules,
              findings,
              f -> coordinates.containsKey(f) ? f.file() : locations.getOrDefault(f, f.file()),
              fingerprints,
              f -> false,
              f -> ContentionProperties.of(report, byFinding.get(f))));
    } catch (IOException e) {
      return ContentionJob.Outcome.failed(
          "lockjaw cannot write its contention report ("
              + IoProblems.describe(e)
              + "). Check that the build directory is writable.");
    }
    lines.add(
        "lockjaw: contention report "
            + job.markdown()
            + "; the page with the chart "
            + job.html()
            + "; SARIF with the observed figures "
            + job.sarif());
    List<String> failures = verdict == null || !verdict.failed() ? List.of() : verdict.reasons();
    if (verdict != null && !verdict.failed()) {
      lines.add("lockjaw: the contention gate passed.");
    }
    return new ContentionJob.Outcome(lines, warnings, null, failures);
  }

  private static StaticFinding staticFinding(ContentionJob job, int i, SourceMembers members) {
    Finding f = job.findings().get(i);
    int[] range = members.methodAround(Path.of(f.file()), f.line());
    String method =
        f.member().contains("(") ? f.member().substring(0, f.member().indexOf('(')) : "";
    return new StaticFinding(
        f.check(),
        "",
        f.file(),
        f.enclosingClass(),
        method,
        "",
        range == null ? -1 : range[0],
        range == null ? -1 : range[1],
        f.line(),
        job.locations().get(i) + ":" + f.line(),
        f.message(),
        f.hasFix()
            ? "mvn lockjaw:fix applies the suggested fix (lockjaw:check shows it as a diff)."
            : "",
        "",
        i,
        job.fixDiffs().get(i));
  }

  /** Bytecode findings in the dependency jars holding classes threads were seen waiting in. */
  private static List<AuditFinding> dependencyFindings(
      ContentionJob job, Observations observations, Observations baseline, List<String> warnings) {
    List<Path> jars = job.jars().stream().map(j -> Path.of(j.path())).toList();
    Set<String> classes = new LinkedHashSet<>(BytecodeFindings.siteClasses(observations));
    if (baseline != null) {
      classes.addAll(BytecodeFindings.siteClasses(baseline));
    }
    List<Path> holding = BytecodeFindings.holding(classes, jars);
    if (holding.isEmpty()) {
      return List.of();
    }
    try {
      return new JarAuditor()
          .audit(holding, jars).stream().filter(a -> !job.checksOff().contains(a.check())).toList();
    } catch (IOException e) {
      warnings.add("lockjaw could not audit the dependency jars: " + IoProblems.describe(e));
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      warnings.add("lockjaw's audit of the dependency jars was interrupted");
      return List.of();
    }
  }

  private static String coordinatesOf(ContentionJob job, AuditFinding audited) {
    if (audited.jar() != null) {
      Path jar = audited.jar().toAbsolutePath().normalize();
      for (ContentionJob.Jar known : job.jars()) {
        if (Path.of(known.path()).toAbsolutePath().normalize().equals(jar)) {
          return known.coordinates();
        }
      }
    }
    return BytecodeFindings.describe(audited.jar());
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    AtomicFiles.write(file, text);
  }

  private static List<Path> paths(List<String> names) {
    return names.stream().map(Path::of).toList();
  }

  private static Charset charset(String name) {
    try {
      return Charset.forName(name == null || name.isBlank() ? "UTF-8" : name.trim());
    } catch (RuntimeException e) {
      return UTF_8;
    }
  }
}
