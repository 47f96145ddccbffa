package io.github.lockjaw.maven;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.contention.BytecodeFindings;
import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.Evidence;
import io.github.lockjaw.contention.EvidenceException;
import io.github.lockjaw.contention.Observations;
import io.github.lockjaw.contention.ReportWriter;
import io.github.lockjaw.contention.SourceMembers;
import io.github.lockjaw.contention.StaticFinding;
import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.finding.AuditFindings;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.io.AtomicFiles;
import io.github.lockjaw.engine.report.ContentionProperties;
import io.github.lockjaw.engine.report.SarifReporter;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Ranks the module's lock sites by what a load test observed: reads a JFR recording or thread dumps
 * ({@code -Dlockjaw.recording=FILE}, or a directory of them), runs the same analysis as {@code
 * check} on the module and lockjaw's bytecode detectors on the dependency jars threads were seen
 * waiting in, and ties each contended site to the finding that covers it, or "no finding". Prints
 * the ranked table, writes {@code target/lockjaw/contention.md} and SARIF whose results carry the
 * observed figures as properties. It reports; it never fails the build.
 */
@Mojo(name = "contention", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class ContentionMojo extends AbstractLockjawMojo {
  private static final Set<String> RUNTIME_SCOPES =
      Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME, Artifact.SCOPE_SYSTEM);

  /**
   * The evidence: a JFR recording (.jfr), a thread dump (jcmd Thread.print, jstack, a log with kill
   * -3 dumps), or a directory of them.
   */
  @Parameter(property = "lockjaw.recording")
  private File recording;

  /** The Markdown report. */
  @Parameter(
      property = "lockjaw.contentionReport",
      defaultValue = "${project.build.directory}/lockjaw/contention.md")
  private File contentionReport;

  /** The SARIF report: every finding, the observed ones with their figures as result properties. */
  @Parameter(
      property = "lockjaw.contentionSarif",
      defaultValue = "${project.build.directory}/lockjaw/contention.sarif")
  private File contentionSarif;

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    if (Runtime.version().feature() < 21) {
      getLog()
          .error(
              "lockjaw:contention runs in Maven's JVM and needs JDK 21 or newer, but Maven is running on JDK "
                  + Runtime.version().feature()
                  + " ("
                  + System.getProperty("java.home")
                  + "). Run Maven with JAVA_HOME set"
                  + " to a JDK 21+; your code can still target an older release.");
      return;
    }
    if (recording == null) {
      getLog()
          .error(
              "lockjaw:contention needs the evidence of a load test: -Dlockjaw.recording=FILE with a JFR"
                  + " recording (java -XX:StartFlightRecording=settings=profile,filename=load.jfr, or jcmd PID JFR.start),"
                  + " a thread dump (jcmd PID Thread.print > dump.txt, three of them 5 s apart), or a directory of them;"
                  + " see docs/contention.md.");
      return;
    }
    Observations observations;
    try {
      observations = Evidence.read(List.of(recording.toPath()));
    } catch (EvidenceException e) {
      getLog().error("lockjaw: " + e.getMessage());
      return;
    }
    try {
      report(observations);
    } catch (IOException e) {
      getLog()
          .error(
              "lockjaw cannot write its contention report to "
                  + workDirectory()
                  + ": "
                  + e.getMessage());
    }
  }

  private void report(Observations observations) throws IOException, MojoExecutionException {
    List<Finding> findings = new ArrayList<>();
    List<Rule> rules = new ArrayList<>();
    sourceFindings(findings, rules);
    int sourceCount = findings.size();
    SourceMembers members = new SourceMembers(charsetOrUtf8());
    List<StaticFinding> statics = new ArrayList<>();
    for (int i = 0; i < sourceCount; i++) {
      Finding f = findings.get(i);
      int[] range = members.methodAround(Path.of(f.file()), f.line());
      String method =
          f.member().contains("(") ? f.member().substring(0, f.member().indexOf('(')) : "";
      statics.add(
          new StaticFinding(
              f.check(),
              "",
              f.file(),
              f.enclosingClass(),
              method,
              "",
              range == null ? -1 : range[0],
              range == null ? -1 : range[1],
              f.line(),
              relativePath(f) + ":" + f.line(),
              f.message(),
              f.hasFix()
                  ? "mvn lockjaw:fix applies the suggested fix (lockjaw:check shows it as a diff)."
                  : "",
              "",
              i));
    }
    Map<Finding, String> coordinates = new LinkedHashMap<>();
    Map<Path, Artifact> artifacts = dependencyJars();
    Set<String> off = checksSwitchedOff();
    for (AuditFinding audited :
        dependencyFindings(observations, new ArrayList<>(artifacts.keySet()))) {
      if (off.contains(audited.check())) {
        continue;
      }
      Finding finding = AuditFindings.toFinding(audited);
      Artifact artifact =
          audited.jar() == null ? null : artifacts.get(audited.jar().toAbsolutePath().normalize());
      String where =
          artifact == null
              ? BytecodeFindings.describe(audited.jar())
              : artifact.getGroupId()
                  + ":"
                  + artifact.getArtifactId()
                  + ":"
                  + artifact.getVersion();
      coordinates.put(finding, where);
      statics.add(BytecodeFindings.of(audited, where, findings.size()));
      findings.add(finding);
      if (rules.stream().noneMatch(r -> r.id().equals(audited.check()))) {
        rules.add(AuditFindings.rule(audited.check()));
      }
    }

    ContentionReport report = ContentionReport.correlate(observations, statics);
    ReportWriter writer = new ReportWriter(report);
    for (String line : writer.text()) {
      getLog().info(line.isEmpty() ? " " : line);
    }
    Path markdown = contentionReport.toPath();
    Files.createDirectories(markdown.toAbsolutePath().getParent());
    AtomicFiles.write(markdown, writer.markdown());

    Map<Finding, String> fingerprints = new LinkedHashMap<>();
    fingerprints.putAll(Fingerprint.all(findings.subList(0, sourceCount), this::relativePath));
    fingerprints.putAll(
        Fingerprint.all(findings.subList(sourceCount, findings.size()), coordinates::get));
    Map<Finding, StaticFinding> byFinding = new IdentityHashMap<>();
    for (StaticFinding s : statics) {
      byFinding.put(findings.get(s.key()), s);
    }
    SarifReporter sarif = new SarifReporter(plugin.getVersion(), repositoryRoot());
    sarif.write(
        contentionSarif.toPath(),
        sarif.build(
            rules,
            findings,
            f -> coordinates.containsKey(f) ? f.file() : relativePath(f),
            fingerprints,
            f -> false,
            f -> ContentionProperties.of(report, byFinding.get(f))));
    getLog()
        .info(
            "lockjaw: contention report "
                + markdown
                + "; SARIF with the observed figures "
                + contentionSarif);
  }

  /**
   * The module's findings and rules, as lockjaw:check has them; none (with a warning) when they
   * cannot be had.
   */
  private void sourceFindings(List<Finding> findings, List<Rule> rules)
      throws MojoExecutionException {
    try {
      Optional<AnalysisResult> result = analyse(true);
      if (result.isPresent()) {
        result.get().findings().stream().filter(this::isReported).forEach(findings::add);
        rules.addAll(result.get().rules());
      }
    } catch (MojoFailureException e) {
      getLog()
          .warn(
              "lockjaw: the module's own findings are left out of the contention report: "
                  + e.getMessage());
    }
  }

  /**
   * Checks set to OFF: their findings in dependency jars are left out, as lockjaw:audit leaves them
   * out.
   */
  private Set<String> checksSwitchedOff() throws MojoExecutionException {
    try {
      return CheckSelection.switchedOff(
          checks, CheckSelection.knownChecks(getClass().getClassLoader()));
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
    } catch (MojoFailureException e) {
      getLog().warn("lockjaw: " + e.getMessage());
      return Set.of();
    }
  }

  /** The module's runtime dependency jars. */
  private Map<Path, Artifact> dependencyJars() {
    Map<Path, Artifact> jars = new LinkedHashMap<>();
    for (Artifact artifact : project.getArtifacts()) {
      File file = artifact.getFile();
      if (file != null
          && file.getName().endsWith(".jar")
          && RUNTIME_SCOPES.contains(artifact.getScope())) {
        jars.put(file.toPath().toAbsolutePath().normalize(), artifact);
      }
    }
    return jars;
  }

  /**
   * Bytecode findings in the dependency jars that hold the classes threads were seen waiting in.
   */
  private List<AuditFinding> dependencyFindings(Observations observations, List<Path> jars)
      throws MojoExecutionException {
    List<Path> holding = BytecodeFindings.holding(BytecodeFindings.siteClasses(observations), jars);
    if (holding.isEmpty()) {
      return List.of();
    }
    getLog()
        .info(
            "lockjaw: auditing "
                + holding.size()
                + " dependency jar(s) threads were seen waiting in...");
    try {
      return new JarAuditor().audit(holding, jars);
    } catch (IOException e) {
      getLog().warn("lockjaw could not audit the dependency jars: " + e.getMessage());
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("lockjaw's audit was interrupted", e);
    }
  }

  private Charset charsetOrUtf8() {
    try {
      return charset();
    } catch (MojoFailureException e) {
      return StandardCharsets.UTF_8;
    }
  }
}
