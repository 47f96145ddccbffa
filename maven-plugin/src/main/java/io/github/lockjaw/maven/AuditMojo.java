package io.github.lockjaw.maven;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.maven.model.Baseline;
import io.github.lockjaw.maven.model.Finding;
import io.github.lockjaw.maven.model.Fingerprint;
import io.github.lockjaw.maven.model.Rule;
import io.github.lockjaw.maven.model.Severity;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
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

    Map<Finding, String> coordinates = new LinkedHashMap<>();
    List<Finding> findings = new ArrayList<>();
    for (AuditFinding a : audited) {
      if (off.contains(a.check())) {
        continue;
      }
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
          new Finding(
              a.check(),
              Severity.WARNING,
              a.jar() == null ? "" : a.jar().toAbsolutePath().toString(),
              Math.max(a.line(), 0),
              0,
              a.message() + " " + a.advice(),
              LockjawDocs.forCheck(a.check()),
              a.className(),
              methodOnly(a),
              a.methodName() + a.methodDescriptor(),
              List.of());
      findings.add(finding);
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
        .forEach(
            check ->
                rules.add(
                    new Rule(
                        check,
                        "lockjaw's " + check + " anti-pattern, found in a dependency's bytecode",
                        LockjawDocs.forCheck(check),
                        Severity.WARNING)));
    reportAndJudge(
        findings,
        rules,
        lines,
        f -> f.file(),
        fingerprints,
        baselined,
        auditSarif,
        threshold,
        failOnViolation);
  }

  /** {@code borrowObject()} from {@code GenericObjectPool.borrowObject()}. */
  private static String methodOnly(AuditFinding finding) {
    String simpleClass =
        finding.className().substring(finding.className().lastIndexOf('.') + 1).replace('$', '.');
    String readable = finding.readableMethod();
    return readable.startsWith(simpleClass + ".")
        ? readable.substring(simpleClass.length() + 1)
        : readable;
  }

  /** Checks set to OFF in the plugin's checks configuration. */
  private Set<String> checksSwitchedOff() throws MojoFailureException, MojoExecutionException {
    Set<String> off = new HashSet<>();
    List<String> flags;
    try {
      flags =
          CheckSelection.toErrorProneFlags(
              checks, CheckSelection.knownChecks(getClass().getClassLoader()));
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
    }
    for (String flag : flags) {
      if (flag.endsWith(":OFF")) {
        off.add(flag.substring("-Xep:".length(), flag.length() - ":OFF".length()));
      }
    }
    return off;
  }
}
