package io.github.lockjaw.maven;

import com.google.gson.JsonObject;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.report.SarifReporter;
import io.github.lockjaw.maven.exec.AnalyzerJdk;
import io.github.lockjaw.maven.exec.AuditOutcome;
import io.github.lockjaw.maven.exec.AuditRequest;
import io.github.lockjaw.maven.exec.AuditRunner;
import io.github.lockjaw.maven.exec.ForkedMain;
import io.github.lockjaw.maven.exec.UnreadableJars;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * same finding model, console output, SARIF, baseline and verdict as {@code check}. The audit runs
 * in {@link AuditRunner}: in Maven's JVM on JDK 21+, else in a JVM of {@code lockjaw.javaHome}.
 */
@Mojo(name = "audit", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public class AuditMojo extends AbstractLockjawMojo {
  private static final Set<String> RUNTIME_SCOPES =
      Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME, Artifact.SCOPE_SYSTEM);

  /** How many classes that could not be analysed the console names. */
  private static final int NAMED = 5;

  /** The SARIF report of the audit. */
  @Parameter(
      property = "lockjaw.auditSarif",
      defaultValue = "${project.build.directory}/lockjaw/lockjaw-audit.sarif")
  private File auditSarif;

  /**
   * Which dependency findings fail the build. {@code actionable} (the default): a finding in a
   * release with a known fix (knowledge/known-fixes.txt), or in a class the module's own classes or
   * configuration files reach; the rest are notes. {@code all}: every finding.
   */
  @Parameter(property = "lockjaw.auditFailOn", defaultValue = "actionable")
  private String auditFailOn;

  /**
   * A dependency's findings to leave out, as {@code groupId:artifactId} (all of the artifact) or
   * {@code groupId:artifactId:className} (a class, its nested classes; {@code com.acme.*} a
   * package): the dependency's own suppression, since its code carries no
   * {@code @SuppressWarnings}.
   */
  @Parameter(property = "lockjaw.auditExcludes")
  private List<String> auditExcludes;

  /**
   * The Java release whose classes of a multi-release jar are read; by default the project's
   * ({@code maven.compiler.release}, the compiler plugin's {@code release}), else each jar's
   * newest.
   */
  @Parameter(property = "lockjaw.auditRelease")
  private Integer auditRelease;

  /** Keeps per-jar results between audits (a jar re-read only when it or its neighbours change). */
  @Parameter(
      property = "lockjaw.auditCache",
      defaultValue = "${project.build.directory}/lockjaw/audit-cache")
  private File auditCache;

  /** Audits every jar again instead of reading {@code auditCache}. */
  @Parameter(property = "lockjaw.auditNoCache", defaultValue = "false")
  private boolean auditNoCache;

  private List<String[]> notAnalysedForSarif = List.of();
  private Map<Finding, String> reachedBy = Map.of();

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    try {
      audit();
    } catch (MojoFailureException e) {
      ReactorVerdict.failOrDefer(session, project, e, getLog());
    }
    ReactorVerdict.failIfLast(session, project, getLog());
  }

  private void audit() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    Severity threshold = threshold(failOnSeverity);
    boolean failOnAll = failOnAll(auditFailOn);
    List<String[]> excludes = parseExcludes(auditExcludes);
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
    AuditRequest request = new AuditRequest();
    for (Map.Entry<Path, Artifact> jar : jars.entrySet()) {
      request.jars.add(jar.getKey().toString());
      request.coordinates.add(gav(jar.getValue()));
    }
    request.moduleClasses = project.getBuild().getOutputDirectory();
    request.release = release();
    request.cache = auditNoCache ? null : auditCache.getAbsolutePath();
    request.failOnAll = failOnAll;
    AuditOutcome outcome = run(request);

    if (!outcome.notAnalysed.isEmpty()) {
      StringBuilder names = new StringBuilder();
      for (List<String> n :
          outcome.notAnalysed.subList(0, Math.min(NAMED, outcome.notAnalysed.size()))) {
        names
            .append(names.length() == 0 ? "" : ", ")
            .append(n.get(1))
            .append(" (")
            .append(n.get(2))
            .append(")");
      }
      int more = outcome.notAnalysed.size() - Math.min(NAMED, outcome.notAnalysed.size());
      String line =
          "lockjaw: "
              + outcome.notAnalysed.size()
              + " class(es) of "
              + outcome.classesInJars
              + " could not be analysed: "
              + names
              + (more > 0 ? " and " + more + " more" : "")
              + "; all are listed in "
              + auditSarif;
      if (strict()) {
        throw new MojoFailureException(
            line + ". lockjaw.strict fails the audit on every class that could not be analysed.");
      }
      getLog().warn(line);
    }
    getLog()
        .info(
            "lockjaw: "
                + outcome.classesAnalysed
                + " of "
                + outcome.classesInJars
                + " classes analysed in "
                + jars.size()
                + " jar(s)"
                + (outcome.jarsFromCache > 0
                    ? " ("
                        + outcome.jarsFromCache
                        + " unchanged jar(s) read from "
                        + auditCache
                        + ")"
                    : ""));
    if ("not compiled".equals(outcome.reachNote)) {
      getLog()
          .warn(
              "lockjaw: "
                  + request.moduleClasses
                  + " does not exist, so lockjaw cannot tell which dependency classes "
                  + project.getArtifactId()
                  + " uses: every finding counts. Run 'mvn compile lockjaw:audit' to fail only on"
                  + " findings your code reaches or with a known fix.");
    }

    Set<Finding> notFailing = new HashSet<>();
    Map<Finding, String> coordinates = new LinkedHashMap<>();
    Map<Finding, String> paths = new IdentityHashMap<>();
    Map<Finding, String> gavOf = new HashMap<>();
    List<Finding> findings = new ArrayList<>();
    int excluded = 0;
    for (AuditOutcome.Item a : outcome.findings) {
      if (off.contains(a.check)) {
        continue;
      }
      Artifact artifact = jars.get(Path.of(a.jar));
      if (isExcluded(excludes, artifact, a.className)) {
        excluded++;
        continue;
      }
      String message = a.message + " " + a.advice;
      if (!a.reachedBy.isEmpty()) {
        message += " Reached from " + project.getArtifactId() + ": " + a.reachedBy + ".";
      }
      Finding finding =
          new Finding(
              a.check,
              a.actionable ? Severity.WARNING : Severity.SUGGESTION,
              a.jar,
              Math.max(a.line, 0),
              0,
              message,
              a.docs,
              a.className,
              methodOnly(a),
              a.methodName + a.methodDescriptor,
              List.of());
      findings.add(finding);
      if (!a.actionable) {
        notFailing.add(finding);
      }
      paths.put(finding, a.reachedBy);
      String where = artifact == null ? a.library : gav(artifact);
      gavOf.put(finding, where);
      // groupId:artifactId without the version: a finding that survives an upgrade stays baselined
      coordinates.put(
          finding,
          artifact == null ? a.library : artifact.getGroupId() + ":" + artifact.getArtifactId());
    }
    reachedBy = paths;
    notAnalysedForSarif = new ArrayList<>();
    for (List<String> n : outcome.notAnalysed) {
      Artifact artifact = jars.get(Path.of(n.get(0)));
      notAnalysedForSarif.add(
          new String[] {
            Path.of(n.get(0)).toUri().toString(),
            n.get(1) + (artifact == null ? "" : " in " + gav(artifact)),
            n.get(2)
          });
    }
    Map<Finding, String> fingerprints = Fingerprint.all(findings, coordinates::get);
    Predicate<Finding> baselined = f -> accepted.contains(fingerprints.get(f));

    List<String> lines = new ArrayList<>();
    Map<String, Integer> perArtifact = new TreeMap<>();
    Set<String> noteJars = new TreeSet<>();
    for (Finding f : findings) {
      String gav = gavOf.get(f);
      if (notFailing.contains(f)) {
        noteJars.add(gav);
        continue; // a note: counted in one line below, every one in the SARIF report
      }
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
    if (!notFailing.isEmpty()) {
      lines.add(
          "lockjaw: "
              + notFailing.size()
              + " note(s) in "
              + noteJars.size()
              + " jar(s) ("
              + String.join(", ", noteJars)
              + "): findings in dependency classes that "
              + project.getArtifactId()
              + "'s classes and configuration do not reach, with no known fix; not failing the"
              + " build, each one in "
              + auditSarif
              + " (-Dlockjaw.auditFailOn=all fails on them too)");
    }
    if (excluded > 0) {
      lines.add("lockjaw: " + excluded + " finding(s) left out by auditExcludes");
    }
    List<Rule> rules = new ArrayList<>();
    findings.stream()
        .map(f -> new String[] {f.check(), f.helpUri()})
        .filter(pair -> rules.stream().noneMatch(r -> r.id().equals(pair[0])))
        .sorted((x, y) -> x[0].compareTo(y[0]))
        .forEach(
            pair -> {
              if (rules.stream().noneMatch(r -> r.id().equals(pair[0]))) {
                rules.add(
                    new Rule(
                        pair[0],
                        "lockjaw's " + pair[0] + " anti-pattern, found in a dependency's bytecode",
                        pair[1],
                        Severity.WARNING));
              }
            });
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

  /** Runs the audit here on JDK 21+, else (or with lockjaw.javaHome) in a forked JDK 21+ JVM. */
  private AuditOutcome run(AuditRequest request)
      throws MojoExecutionException, MojoFailureException {
    AuditOutcome outcome;
    if (javaHome == null && Runtime.version().feature() >= 21) {
      try {
        outcome = AuditRunner.run(request);
      } catch (IOException e) {
        throw new MojoExecutionException(
            "lockjaw could not audit the dependency jars: " + IoProblems.describe(e), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MojoExecutionException("lockjaw's audit was interrupted", e);
      }
    } else {
      AnalyzerJdk jdk = AnalyzerJdk.select(javaHome);
      Path work = workDirectory();
      request.output = work.resolve("audit-result.json").toString();
      getLog().info("lockjaw: auditing in a JDK " + jdk.feature() + " JVM (" + jdk.java() + ")");
      outcome =
          ForkedMain.forPlugin(jdk, plugin)
              .run(
                  AuditRunner.class,
                  request,
                  work.resolve("audit-request.json"),
                  Path.of(request.output),
                  AuditOutcome.class,
                  work.resolve("audit.log"));
    }
    if (outcome.error != null) {
      throw new MojoExecutionException(
          "lockjaw could not audit the dependency jars of "
              + project.getArtifactId()
              + ": "
              + outcome.error
              + ". Please report this, with the jars.");
    }
    return outcome;
  }

  @Override
  protected String howToAct() {
    return "Upgrade or replace the library as each finding's advice says, accept today's findings"
        + " with mvn lockjaw:baseline, or leave out a dependency's finding with"
        + " <auditExcludes><exclude>groupId:artifactId:ClassName</exclude></auditExcludes>"
        + " in the plugin's configuration.";
  }

  @Override
  protected Map<String, Object> resultProperties(Finding finding) {
    String path = reachedBy.get(finding);
    return path == null || path.isEmpty() ? Map.of() : Map.of("lockjaw/reachedBy", path);
  }

  @Override
  protected JsonObject decorateSarif(JsonObject log) {
    return SarifReporter.withNotAnalysed(log, notAnalysedForSarif);
  }

  private boolean strict() {
    return Boolean.getBoolean("lockjaw.strict")
        || Boolean.parseBoolean(session.getUserProperties().getProperty("lockjaw.strict", "false"));
  }

  /** The release to read multi-release jars for: auditRelease, else the project's, else 0. */
  private int release() {
    if (auditRelease != null) {
      return auditRelease;
    }
    if (release != null && release.trim().matches("\\d+")) {
      return Integer.parseInt(release.trim()); // lockjaw.release, the release check analyses at
    }
    for (String key : List.of("maven.compiler.release", "maven.compiler.target")) {
      String value = project.getProperties().getProperty(key);
      if (value != null) {
        try {
          String v = value.trim().startsWith("1.") ? value.trim().substring(2) : value.trim();
          return Integer.parseInt(v);
        } catch (NumberFormatException e) {
          // a property expression or an odd value: the newest release each jar has
        }
      }
    }
    return 0;
  }

  private static String gav(Artifact artifact) {
    return artifact.getGroupId() + ":" + artifact.getArtifactId() + ":" + artifact.getVersion();
  }

  private static String methodOnly(AuditOutcome.Item a) {
    String simpleClass = a.className.substring(a.className.lastIndexOf('.') + 1).replace('$', '.');
    return (a.methodName.equals("<init>") ? simpleClass : a.methodName) + "()";
  }

  /** {@code [groupId, artifactId, classOrPackage-or-empty]} per exclude, or a clear error. */
  static List<String[]> parseExcludes(List<String> excludes) throws MojoFailureException {
    List<String[]> parsed = new ArrayList<>();
    for (String exclude : excludes == null ? List.<String>of() : excludes) {
      if (exclude == null || exclude.isBlank()) {
        continue;
      }
      String[] parts = exclude.trim().split(":");
      if (parts.length < 2 || parts.length > 3 || parts[0].isBlank() || parts[1].isBlank()) {
        throw new MojoFailureException(
            "lockjaw.auditExcludes has '"
                + exclude
                + "'; write groupId:artifactId (all its findings) or"
                + " groupId:artifactId:com.acme.ClassName (one class; com.acme.* for a package).");
      }
      parsed.add(
          new String[] {
            parts[0].trim(), parts[1].trim(), parts.length == 3 ? parts[2].trim() : ""
          });
    }
    return parsed;
  }

  static boolean isExcluded(List<String[]> excludes, Artifact artifact, String className) {
    if (artifact == null) {
      return false;
    }
    for (String[] e : excludes) {
      if (!e[0].equals(artifact.getGroupId()) || !e[1].equals(artifact.getArtifactId())) {
        continue;
      }
      String target = e[2];
      if (target.isEmpty()
          || className.equals(target)
          || className.startsWith(target + "$")
          || (target.endsWith(".*")
              && className.startsWith(target.substring(0, target.length() - 1)))) {
        return true;
      }
    }
    return false;
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
