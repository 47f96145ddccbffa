package io.github.lockjaw.maven;

import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.SourceEdits;
import io.github.lockjaw.maven.exec.AnalyzerJdk;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.apache.maven.project.MavenProject;

/**
 * Ranks the lock sites a load test observed: reads a JFR recording or thread dumps ({@code
 * -Dlockjaw.recording=FILE}, or a directory of them), runs the same analysis as {@code check} on
 * every module of the build and lockjaw's bytecode detectors on the dependency jars threads were
 * seen waiting in, names who held each lock and what it did, and ties each contended site to the
 * finding that covers it, or "no finding". With {@code -Dlockjaw.baseline.recording=FILE} each site
 * is compared with an earlier run. Prints the ranked table and writes one report for the build:
 * {@code target/lockjaw/contention.md}, {@code contention.html} (a self-contained page with a bar
 * chart) and SARIF whose results carry the observed figures. It fails the build when the evidence
 * cannot be read, and when a gate that was asked for fails ({@code lockjaw.contentionFailAbove},
 * {@code lockjaw.contentionFailOnRegression}); otherwise it reports.
 *
 * <p>An aggregator: in a reactor it runs once, after the modules are built, with every module's
 * findings. Relative paths given with {@code -D} are resolved against the directory Maven was
 * started in. The readers need JDK 21+: on an older Maven JDK the work runs in {@code
 * lockjaw.javaHome}'s JVM, or the goal fails with a one-line message.
 */
@Mojo(
    name = "contention",
    aggregator = true,
    requiresDependencyResolution = ResolutionScope.TEST,
    threadSafe = true)
public class ContentionMojo extends AbstractLockjawMojo {
  private static final Set<String> RUNTIME_SCOPES =
      Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME, Artifact.SCOPE_SYSTEM);

  /**
   * The evidence: a JFR recording (.jfr), a thread dump (jcmd Thread.print, jstack, a log with kill
   * -3 dumps, jcmd Thread.dump_to_file text or JSON, an OpenJ9 javacore), or a directory of them.
   * Relative to the directory Maven was started in (given with -D) or to the module (in the POM).
   */
  @Parameter(property = "lockjaw.recording")
  private String recording;

  /**
   * The evidence of an earlier run to compare with, site by site; resolved as {@code recording}.
   */
  @Parameter(property = "lockjaw.baseline.recording")
  private String baselineRecording;

  /**
   * Fails the build when a site tied to a lockjaw finding blocks threads for more than this share
   * of the recording, e.g. {@code 10%} (100% is one thread blocked the whole time; from dumps, one
   * waiting thread per dump). Off by default.
   */
  @Parameter(property = "lockjaw.contentionFailAbove")
  private String contentionFailAbove;

  /** With a baseline: fails the build when a site is new or worse than in the baseline. */
  @Parameter(property = "lockjaw.contentionFailOnRegression", defaultValue = "false")
  private boolean contentionFailOnRegression;

  /** The Markdown report. */
  @Parameter(
      property = "lockjaw.contentionReport",
      defaultValue = "${project.build.directory}/lockjaw/contention.md")
  private File contentionReport;

  /** The HTML report: one self-contained page, with the chart, the holders and the fixes. */
  @Parameter(
      property = "lockjaw.contentionHtml",
      defaultValue = "${project.build.directory}/lockjaw/contention.html")
  private File contentionHtml;

  /** The SARIF report: every finding, the observed ones with their figures as result properties. */
  @Parameter(
      property = "lockjaw.contentionSarif",
      defaultValue = "${project.build.directory}/lockjaw/contention.sarif")
  private File contentionSarif;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    if (recording == null || recording.isBlank()) {
      throw new MojoFailureException(
          "lockjaw:contention needs the evidence of a load test: -Dlockjaw.recording=FILE with a JFR"
              + " recording (java -XX:StartFlightRecording=settings=profile,filename=load.jfr, or jcmd PID JFR.start),"
              + " thread dumps (jcmd PID Thread.print > dump.txt, three of them 5 s apart; jcmd PID"
              + " Thread.dump_to_file -format=json dump.json for virtual threads), or a directory of them;"
              + " see docs/contention.md.");
    }
    int feature = Runtime.version().feature();
    if (feature < 21 && javaHome == null) {
      throw new MojoFailureException(
          "lockjaw:contention reads recordings and audits jars with code built for Java 21, but Maven is"
              + " running on JDK "
              + feature
              + " ("
              + System.getProperty("java.home")
              + "). Run Maven with JAVA_HOME set to a JDK 21+ (your code can still target an older release),"
              + " or set -Dlockjaw.javaHome=/path/to/jdk21 so that lockjaw runs there.");
    }
    ContentionJob job = job();
    ContentionJob.Outcome outcome =
        feature >= 21
            ? ContentionWork.run(job)
            : ForkedContention.run(
                AnalyzerJdk.select(javaHome).java(), plugin, job, workDirectory());
    for (String line : outcome.lines()) {
      getLog().info(line.isEmpty() ? " " : line);
    }
    outcome.warnings().forEach(getLog()::warn);
    if (outcome.error() != null) {
      throw new MojoFailureException(outcome.error());
    }
    if (!outcome.gateFailures().isEmpty()) {
      throw new MojoFailureException(
          "lockjaw's contention gate failed ("
              + outcome.gateFailures().size()
              + "):\n  "
              + String.join("\n  ", outcome.gateFailures())
              + "\nFix the sites (the report names the finding and its fix), or raise the limit"
              + " (lockjaw.contentionFailAbove) or drop the gate.");
    }
  }

  /** The job: the evidence, every module's findings, the reactor's jars, the outputs, the gate. */
  private ContentionJob job() throws MojoExecutionException {
    List<Finding> findings = new ArrayList<>();
    List<String> locations = new ArrayList<>();
    List<String> fingerprints = new ArrayList<>();
    List<String> fixDiffs = new ArrayList<>();
    List<Rule> rules = new ArrayList<>();
    Map<Path, ContentionJob.Jar> jars = new LinkedHashMap<>();
    Path root = repositoryRoot();
    MavenProject top = project;
    try {
      for (MavenProject module : modules()) {
        project = module;
        List<Finding> own = new ArrayList<>();
        sourceFindings(own, rules);
        Map<Finding, String> prints = Fingerprint.all(own, this::relativePath);
        for (Finding f : own) {
          findings.add(f);
          locations.add(relativePath(f));
          fingerprints.add(prints.getOrDefault(f, ""));
          fixDiffs.add(fixDiff(f));
        }
        for (Artifact artifact : module.getArtifacts()) {
          File file = artifact.getFile();
          if (file != null
              && file.getName().endsWith(".jar")
              && RUNTIME_SCOPES.contains(artifact.getScope())) {
            Path path = file.toPath().toAbsolutePath().normalize();
            jars.putIfAbsent(
                path,
                new ContentionJob.Jar(
                    path.toString(),
                    artifact.getGroupId()
                        + ":"
                        + artifact.getArtifactId()
                        + ":"
                        + artifact.getVersion()));
          }
        }
      }
    } finally {
      project = top;
    }
    List<String> baselines =
        baselineRecording == null || baselineRecording.isBlank()
            ? List.of()
            : List.of(resolve(baselineRecording, "lockjaw.baseline.recording").toString());
    return new ContentionJob(
        List.of(resolve(recording, "lockjaw.recording").toString()),
        baselines,
        findings,
        locations,
        fingerprints,
        fixDiffs,
        dedupe(rules),
        List.copyOf(jars.values()),
        List.copyOf(checksSwitchedOff()),
        encoding,
        contentionReport.getAbsolutePath(),
        contentionHtml.getAbsolutePath(),
        contentionSarif.getAbsolutePath(),
        plugin.getVersion(),
        root.toString(),
        contentionFailAbove == null ? "" : contentionFailAbove,
        contentionFailOnRegression);
  }

  /** The build's modules: the reactor's projects, or this one alone. */
  private List<MavenProject> modules() {
    List<MavenProject> projects = session.getProjects();
    return projects == null || projects.isEmpty() ? List.of(project) : projects;
  }

  /**
   * A path given on the command line ({@code -D}) is relative to the directory Maven was started
   * in, as the user typed it there; a path in the POM is relative to the module.
   */
  private Path resolve(String value, String property) {
    Path path = Path.of(value.trim());
    if (path.isAbsolute()) {
      return path.normalize();
    }
    boolean typed = session.getUserProperties().containsKey(property);
    String start = session.getRequest() == null ? null : session.getRequest().getBaseDirectory();
    Path base =
        typed && start != null
            ? Path.of(start)
            : typed ? Path.of(session.getExecutionRootDirectory()) : project.getBasedir().toPath();
    return base.resolve(path).toAbsolutePath().normalize();
  }

  private String fixDiff(Finding finding) {
    if (!finding.hasFix()) {
      return "";
    }
    try {
      String text = Files.readString(Path.of(finding.file()), charsetOrUtf8());
      return SourceEdits.unifiedDiff(relativePath(finding), text, finding.fix());
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static List<Rule> dedupe(List<Rule> rules) {
    Map<String, Rule> byId = new LinkedHashMap<>();
    for (Rule rule : rules) {
      byId.putIfAbsent(rule.id(), rule);
    }
    return List.copyOf(byId.values());
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
              "lockjaw: the findings of "
                  + project.getArtifactId()
                  + " are left out of the contention report: "
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

  private Charset charsetOrUtf8() {
    try {
      return charset();
    } catch (MojoFailureException e) {
      return StandardCharsets.UTF_8;
    }
  }
}
