package io.github.lockjaw.maven;

import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.docs.CheckPages;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.report.ConsoleReporter;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Analyses the module's sources with lockjaw's checks, prints the findings with their fixes, writes
 * SARIF 2.1.0, and fails the build on findings that are not in the baseline.
 */
@Mojo(
    name = "check",
    defaultPhase = LifecyclePhase.VERIFY,
    requiresDependencyCollection = ResolutionScope.TEST,
    threadSafe = true)
public class CheckMojo extends AbstractLockjawMojo {

  /** The SARIF report. */
  @Parameter(
      property = "lockjaw.sarif",
      defaultValue = "${project.build.directory}/lockjaw/lockjaw.sarif")
  private File sarif;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    Severity threshold = threshold(failOnSeverity);
    if (compilerRunsLockjaw() && !forceAnalysis) {
      Set<String> known;
      try {
        known = CheckSelection.knownChecks(getClass().getClassLoader());
      } catch (IOException e) {
        throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
      }
      Set<String> byCompiler = CompilerIntegration.checksRun(compilerArguments(), known);
      if (!CompilerIntegration.compileRunsInThisBuild(session.getGoals())) {
        getLog()
            .info(
                "lockjaw: the compile of "
                    + project.getArtifactId()
                    + " runs lockjaw's checks, but no compile"
                    + " ran in this build ("
                    + String.join(" ", session.getGoals())
                    + "), so lockjaw:check analyses the sources"
                    + " itself.");
      } else if (byCompiler.containsAll(known)) {
        getLog()
            .info(
                "lockjaw: the compile of "
                    + project.getArtifactId()
                    + " already runs lockjaw's checks (maven-compiler-plugin"
                    + " with -Xplugin:ErrorProne and lockjaw-checks), and its warnings are in the compile output above;"
                    + " lockjaw:check does not analyse the same sources twice. To fail the build from the compile, use"
                    + " -Xep:<Check>:ERROR there; to get SARIF and baseline support from this goal instead, set"
                    + " lockjaw.forceAnalysis=true (or drop lockjaw from the compiler configuration).");
        return;
      } else {
        Set<String> missing = new TreeSet<>(known);
        missing.removeAll(byCompiler);
        // never "clean" for checks that did not run: analyse what the compile leaves out
        getLog()
            .info(
                "lockjaw: the compile of "
                    + project.getArtifactId()
                    + " runs "
                    + (byCompiler.isEmpty() ? "none" : String.join(", ", byCompiler))
                    + " of lockjaw's checks; lockjaw:check"
                    + " analyses the others: "
                    + String.join(", ", missing)
                    + ". (The compiler argument"
                    + " -XepDisableAllChecks turns off every check not named after it.)");
        extraErrorProneFlags = byCompiler.stream().map(c -> "-Xep:" + c + ":OFF").toList();
      }
    }
    Baseline accepted = readBaseline();
    Optional<AnalysisResult> analysed = analyse(true);
    if (analysed.isEmpty()) {
      return;
    }
    AnalysisResult result = analysed.get();
    List<Finding> findings = result.findings().stream().filter(this::isReported).toList();
    Map<Finding, String> fingerprints = Fingerprint.all(findings, this::relativePath);
    Predicate<Finding> baselined = f -> accepted.contains(fingerprints.get(f));
    CheckPages pages = writeCheckPages(result.rules().stream().map(Rule::id).toList());
    List<String> lines =
        new ConsoleReporter(this::relativePath, baselined, charset(), f -> docsLink(f, pages))
            .render(findings);
    List<String> off = switchedOff();
    if (!off.isEmpty()) {
      getLog()
          .info(
              "lockjaw: not run in this analysis: "
                  + String.join(", ", off)
                  + (extraErrorProneFlags.isEmpty()
                      ? " (OFF in the plugin's checks configuration)"
                      : " (OFF in the plugin's checks configuration, or run by the compile)"));
    }
    reportAndJudge(
        findings,
        result.rules(),
        lines,
        this::relativePath,
        fingerprints,
        baselined,
        sarif,
        threshold,
        failOnViolation);
  }

  /**
   * The checks this analysis switched off (plugin configuration, or run by the compile instead).
   */
  private List<String> switchedOff() throws MojoFailureException, MojoExecutionException {
    List<String> flags = new ArrayList<>();
    try {
      flags.addAll(
          CheckSelection.toErrorProneFlags(
              checks, CheckSelection.knownChecks(getClass().getClassLoader())));
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
    }
    flags.addAll(extraErrorProneFlags);
    return flags.stream()
        .filter(f -> f.endsWith(":OFF"))
        .map(f -> f.substring("-Xep:".length(), f.length() - ":OFF".length()))
        .distinct()
        .sorted()
        .toList();
  }
}
