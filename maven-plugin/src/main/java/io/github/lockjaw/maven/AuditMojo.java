package io.github.lockjaw.maven;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.ClassReach;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.bytecode.JarIdentity;
import io.github.lockjaw.bytecode.KnownFixes;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.finding.AuditFindings;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.maven.exec.UnreadableJars;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Finds the same anti-patterns in the module's resolved runtime dependency jars (not the JDK, not
 * the module itself), with lockjaw's SpotBugs detectors, and reports them per artifact through the
 * same finding model, console output, SARIF, baseline and verdict as {@code check}.
 */
@Mojo(name = "audit", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public class AuditMojo extends AbstractLockjawMojo {
  private static final Set<String> RUNTIME_SCOPES =
      Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME, Artifact.SCOPE_SYSTEM);

  /** The SARIF report of the audit. */
  @Parameter(
      property = "lockjaw.auditSarif",
      defaultValue = "${project.build.directory}/lockjaw/lockjaw-audit.sarif")
  private File auditSarif;

  /**
   * Which dependency findings fail the build. {@code actionable} (the default): a finding in a
   * release with a known fix (knowledge/known-fixes.txt), or in a class the module's own classes
   * reach through the jars (a class-level reference graph); the rest are reported as notes without
   * failing. {@code all}: every finding.
   */
  @Parameter(property = "lockjaw.auditFailOn", defaultValue = "actionable")
  private String auditFailOn;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    Severity threshold = threshold(failOnSeverity);
    if (Runtime.version().feature() < 21) {
      throw new MojoFailureException(
          "lockjaw:audit runs in Maven's JVM and needs JDK 21 or newer, but Maven is running on JDK "
              + Runtime.version().feature()
              + " ("
              + System.getProperty("java.home")
              + "). Run Maven with"
              + " JAVA_HOME set to a JDK 21+; your code can still target an older release.");
    }
    boolean failOnAll = failOnAll(auditFailOn);
    Set<String> off = checksSwitchedOff();
    Baseline accepted = readBaseline();

    Map<Path, Artifact> jars = new LinkedHashMap<>();
    for (Artifact artifact : project.getArtifacts()) {
      File file = artifact.getFile();
      if (file != null
          && file.getName().endsWith(".jar")
          && RUNTIME_SCOPES.contains(artifact.getScope())) {
        jars.put(file.toPath().toAbsolutePath().normalize(), artifact);
      }
    }
    if (jars.isEmpty()) {
      getLog()
          .info(
              "lockjaw: "
                  + project.getArtifactId()
                  + " has no runtime dependency jars; nothing to audit.");
      return;
    }
    List<String> unreadable = UnreadableJars.among(new ArrayList<>(jars.keySet()));
    if (!unreadable.isEmpty()) {
      // never "no findings" for a jar the audit could not read
      throw new MojoFailureException(
          UnreadableJars.message(
              "audit the dependencies of " + project.getArtifactId(), unreadable));
    }
    getLog()
        .info(
            "lockjaw: auditing "
                + jars.size()
                + " dependency jar(s) of "
                + project.getArtifactId()
                + "...");
    List<AuditFinding> audited;
    try {
      List<Path> paths = new ArrayList<>(jars.keySet());
      audited = new JarAuditor().audit(paths, paths);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw could not audit the dependency jars: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("lockjaw's audit was interrupted", e);
    }

    Set<String> reached =
        failOnAll || audited.isEmpty()
            ? Set.of()
            : reachedFromModule(new ArrayList<>(jars.keySet()));
    Map<Path, JarIdentity> identities = new HashMap<>();
    Set<Finding> notFailing = new HashSet<>();
    Map<Finding, String> coordinates = new LinkedHashMap<>();
    List<Finding> findings = new ArrayList<>();
    for (AuditFinding a : audited) {
      if (off.contains(a.check())) {
        continue;
      }
      boolean actionable =
          failOnAll
              || reached == null
              || reached.contains(a.className())
              || KnownFixes.find(
                      identities.computeIfAbsent(a.jar(), JarIdentity::of),
                      a.className(),
                      a.check())
                  .isPresent();
      Artifact artifact = a.jar() == null ? null : jars.get(a.jar().toAbsolutePath().normalize());
      String where =
          artifact == null
              ? "unknown jar"
              : artifact.getGroupId()
                  + ":"
                  + artifact.getArtifactId()
                  + ":"
                  + artifact.getVersion();
      Finding finding =
          AuditFindings.toFinding(a, actionable ? Severity.WARNING : Severity.SUGGESTION);
      findings.add(finding);
      if (!actionable) {
        notFailing.add(finding);
      }
      // groupId:artifactId without the version: a finding that survives an upgrade stays baselined
      coordinates.put(
          finding,
          artifact == null ? where : artifact.getGroupId() + ":" + artifact.getArtifactId());
      getLog().debug("lockjaw: " + where + " " + a.readableMethod());
    }
    Map<Finding, String> fingerprints = Fingerprint.all(findings, coordinates::get);
    Predicate<Finding> baselined = f -> accepted.contains(fingerprints.get(f));

    List<String> lines = new ArrayList<>();
    Map<String, Integer> perArtifact = new TreeMap<>();
    for (Finding f : findings) {
      Artifact artifact = jars.get(Path.of(f.file()));
      String gav =
          artifact == null
              ? coordinates.get(f)
              : artifact.getGroupId()
                  + ":"
                  + artifact.getArtifactId()
                  + ":"
                  + artifact.getVersion();
      lines.add(
          gav
              + ": "
              + f.enclosingClass()
              + "."
              + f.member()
              + (f.line() > 0 ? " line " + f.line() : "")
              + ": ["
              + f.check()
              + "] "
              + (baselined.test(f) ? "(baselined) " : "")
              + (notFailing.contains(f)
                  ? "(not reached from "
                      + project.getArtifactId()
                      + "'s classes, no known fix: not failing) "
                  : "")
              + f.message());
      perArtifact.merge(gav, 1, Integer::sum);
    }
    perArtifact.forEach(
        (gav, n) -> lines.add("lockjaw: " + gav + ": " + n + (n == 1 ? " finding" : " findings")));
    List<Rule> rules = new ArrayList<>();
    findings.stream()
        .map(Finding::check)
        .distinct()
        .sorted()
        .forEach(check -> rules.add(AuditFindings.rule(check)));
    if (!notFailing.isEmpty()) {
      lines.add(
          "lockjaw: "
              + notFailing.size()
              + " finding(s) in dependency classes that "
              + project.getArtifactId()
              + "'s classes do not reach and with no known fix: reported as notes, not failing the build"
              + " (-Dlockjaw.auditFailOn=all fails on them too)");
    }
    reportAndJudge(
        findings,
        rules,
        lines,
        f -> f.file(),
        fingerprints,
        baselined,
        notFailing::contains,
        auditSarif,
        threshold,
        failOnViolation);
  }

  /**
   * {@code lockjaw.auditFailOn}: true for {@code all}, false for {@code actionable}, else a clear
   * error.
   */
  static boolean failOnAll(String value) throws MojoFailureException {
    String mode = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    return switch (mode) {
      case "", "actionable" -> false;
      case "all" -> true;
      default ->
          throw new MojoFailureException(
              "lockjaw.auditFailOn is '"
                  + value
                  + "'; use 'actionable' (the default: fail on findings in a release with a"
                  + " known fix or in dependency classes your code reaches, report the rest) or 'all' (fail on every"
                  + " finding).");
    };
  }

  /**
   * The dependency classes the module's compiled classes reach, or null when the module has not
   * been compiled (then lockjaw cannot tell, and every finding counts).
   */
  private Set<String> reachedFromModule(List<Path> jarPaths) throws MojoExecutionException {
    Path classes = Path.of(project.getBuild().getOutputDirectory());
    if (!Files.isDirectory(classes)) {
      getLog()
          .warn(
              "lockjaw: "
                  + classes
                  + " does not exist, so lockjaw cannot tell which dependency classes "
                  + project.getArtifactId()
                  + " uses: every finding counts. Run 'mvn compile lockjaw:audit' to fail only on"
                  + " findings your code reaches or with a known fix.");
      return null;
    }
    try {
      return ClassReach.from(List.of(classes), jarPaths);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw could not read the classes of "
              + project.getArtifactId()
              + " or its dependency jars to see which"
              + " classes it uses: "
              + IoProblems.describe(e),
          e);
    }
  }

  /** Checks set to OFF in the plugin's checks configuration. */
  private Set<String> checksSwitchedOff() throws MojoFailureException, MojoExecutionException {
    try {
      return CheckSelection.switchedOff(
          checks, CheckSelection.knownChecks(getClass().getClassLoader()));
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
    }
  }
}
