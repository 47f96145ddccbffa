package io.github.lockjaw.maven;

import io.github.lockjaw.maven.analyzer.AnalysisResult;
import io.github.lockjaw.maven.model.Baseline;
import io.github.lockjaw.maven.model.Finding;
import io.github.lockjaw.maven.model.Fingerprint;
import io.github.lockjaw.maven.model.Severity;
import io.github.lockjaw.maven.report.ConsoleReporter;
import io.github.lockjaw.maven.report.SarifReporter;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Analyses the module's sources with lockjaw's checks, prints the findings with their fixes,
 * writes SARIF 2.1.0, and fails the build on findings that are not in the baseline.
 */
@Mojo(
    name = "check",
    defaultPhase = LifecyclePhase.VERIFY,
    requiresDependencyResolution = ResolutionScope.TEST,
    threadSafe = true)
public class CheckMojo extends AbstractLockjawMojo {

  /** The SARIF report. */
  @Parameter(property = "lockjaw.sarif", defaultValue = "${project.build.directory}/lockjaw/lockjaw.sarif")
  private File sarif;

  /** Findings at or above this severity fail the build: SUGGESTION, WARNING or ERROR. */
  @Parameter(property = "lockjaw.failOnSeverity", defaultValue = "WARNING")
  private String failOnSeverity;

  /** Set to false to report without failing the build. */
  @Parameter(property = "lockjaw.failOnViolation", defaultValue = "true")
  private boolean failOnViolation;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    Severity threshold = Severity.parse(failOnSeverity);
    if (threshold == null) {
      throw new MojoFailureException(
          "lockjaw.failOnSeverity is '" + failOnSeverity + "'; use SUGGESTION, WARNING or ERROR.");
    }
    if (compilerRunsLockjaw() && !forceAnalysis) {
      getLog().info(
          "lockjaw: the compile of " + project.getArtifactId() + " already runs lockjaw's checks (maven-compiler-plugin"
              + " with -Xplugin:ErrorProne and lockjaw-checks), and its warnings are in the compile output above;"
              + " lockjaw:check does not analyse the same sources twice. To fail the build from the compile, use"
              + " -Xep:<Check>:ERROR there; to get SARIF and baseline support from this goal instead, set"
              + " lockjaw.forceAnalysis=true (or drop lockjaw from the compiler configuration).");
      return;
    }
    Baseline accepted;
    try {
      accepted = Baseline.read(baseline.toPath());
    } catch (Baseline.BaselineException e) {
      throw new MojoFailureException(e.getMessage());
    }
    Optional<AnalysisResult> analysed = analyse(true);
    if (analysed.isEmpty()) {
      return;
    }
    AnalysisResult result = analysed.get();
    List<Finding> findings = result.findings().stream().filter(this::isReported).toList();
    Map<Finding, String> fingerprints = Fingerprint.all(findings, this::relativePath);
    Predicate<Finding> baselined = f -> accepted.contains(fingerprints.get(f));

    for (String line : new ConsoleReporter(this::relativePath, baselined, charset()).render(findings)) {
      if (line.startsWith("lockjaw: ")) {
        getLog().info(line);
      } else {
        getLog().warn(line);
      }
    }
    SarifReporter sarifReporter = new SarifReporter(plugin.getVersion(), repositoryRoot());
    try {
      sarifReporter.write(
          sarif.toPath(), sarifReporter.build(result.rules(), findings, this::relativePath, fingerprints, baselined));
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot write its SARIF report " + sarif + ": " + e.getMessage(), e);
    }

    List<Finding> failing =
        findings.stream().filter(f -> !baselined.test(f) && f.severity().atLeast(threshold)).toList();
    if (findings.isEmpty()) {
      getLog().info("lockjaw: no findings in " + project.getArtifactId() + "; SARIF report: " + sarif);
      return;
    }
    if (failing.isEmpty()) {
      getLog().info(
          "lockjaw: " + findings.size() + " finding(s), none new at or above " + threshold + "; SARIF report: " + sarif);
      return;
    }
    Map<String, Integer> perCheck = new TreeMap<>();
    failing.forEach(f -> perCheck.merge(f.check(), 1, Integer::sum));
    StringBuilder checksText = new StringBuilder();
    perCheck.forEach((check, count) -> checksText.append(checksText.length() == 0 ? "" : ", ").append(check).append(" (").append(count).append(")"));
    String message =
        "lockjaw found " + failing.size() + " new finding(s) at or above " + threshold + " in " + project.getArtifactId()
            + ": " + checksText + ". Report: " + sarif + ". Fix them (mvn lockjaw:fix applies the suggested fixes),"
            + " suppress one with @SuppressWarnings(\"CheckName\"), or accept the current findings with"
            + " mvn lockjaw:baseline.";
    if (failOnViolation) {
      throw new MojoFailureException(message);
    }
    getLog().warn(message + " (not failing: lockjaw.failOnViolation=false)");
  }
}
