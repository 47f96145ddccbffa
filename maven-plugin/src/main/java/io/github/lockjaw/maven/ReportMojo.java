package io.github.lockjaw.maven;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.docs.CheckPages;
import io.github.lockjaw.engine.finding.AuditFindings;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.report.FindingsReport;
import io.github.lockjaw.engine.report.HtmlReporter;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.ProjectDependenciesResolver;
import org.apache.maven.reporting.AbstractMavenReport;
import org.apache.maven.reporting.MavenReportException;

/**
 * lockjaw's page in {@code mvn site} (configure the plugin under {@code <reporting>}): the module's
 * findings by check and by file, with their messages, fixes as diffs and the checks' pages, the
 * audit's findings by dependency artifact, and a summary table. The same analysis as {@code
 * lockjaw:check} and the same HTML renderer as the command-line tool's {@code check --format html}.
 * A report never fails the build on findings.
 */
@Mojo(
    name = "report",
    defaultPhase = LifecyclePhase.SITE,
    requiresDependencyResolution = ResolutionScope.TEST,
    threadSafe = true)
public class ReportMojo extends AbstractMavenReport {
  /** The directory, inside the report's, that the checks' pages are written to and linked at. */
  static final String DOCS = "lockjaw-docs";

  private static final Set<String> RUNTIME_SCOPES =
      Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME, Artifact.SCOPE_SYSTEM);

  @Parameter(defaultValue = "${session}", readonly = true, required = true)
  private MavenSession session;

  @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
  private PluginDescriptor plugin;

  @Component private ProjectDependenciesResolver dependenciesResolver;

  /** Skips lockjaw for this module: the site gets no lockjaw page. */
  @Parameter(property = "lockjaw.skip", defaultValue = "false")
  private boolean skip;

  /** Also analyses test sources (against the test classpath). */
  @Parameter(property = "lockjaw.includeTests", defaultValue = "false")
  private boolean includeTests;

  /** Per-check settings, as for {@code lockjaw:check}: {@code Name:LEVEL}. */
  @Parameter(property = "lockjaw.checks")
  private List<String> checks;

  /** Source files whose findings are left out, as for {@code lockjaw:check}. */
  @Parameter(property = "lockjaw.excludes")
  private List<String> excludes;

  /** The baseline: findings listed there are shown as baselined. */
  @Parameter(
      property = "lockjaw.baseline",
      defaultValue = "${project.basedir}/lockjaw-baseline.json")
  private File baseline;

  /** A JDK 21+ to run the analysis with, when Maven itself runs on an older JDK. */
  @Parameter(property = "lockjaw.javaHome")
  private File javaHome;

  /** The Java release to analyse the sources at, as for {@code lockjaw:check}. */
  @Parameter(property = "lockjaw.release")
  private String release;

  @Parameter(property = "lockjaw.encoding", defaultValue = "${project.build.sourceEncoding}")
  private String encoding;

  /** Also audits the module's runtime dependency jars, as {@code lockjaw:audit} does. */
  @Parameter(property = "lockjaw.reportAudit", defaultValue = "true")
  private boolean audit;

  @Override
  public String getOutputName() {
    return "lockjaw";
  }

  @Override
  public String getName(Locale locale) {
    return "lockjaw";
  }

  @Override
  public String getDescription(Locale locale) {
    return "The Java concurrency anti-patterns that make servers collapse under load, found by"
        + " lockjaw in the sources and the dependencies, with their fixes.";
  }

  @Override
  public boolean canGenerateReport() {
    return !skip;
  }

  @Override
  protected void executeReport(Locale locale) throws MavenReportException {
    Analysis analysis = new Analysis();
    analysis.setLog(getLog());
    analysis.project = getProject();
    analysis.session = session;
    analysis.plugin = plugin;
    analysis.dependenciesResolver = dependenciesResolver;
    analysis.includeTests = includeTests;
    analysis.checks = checks;
    analysis.excludes = excludes;
    analysis.baseline = baseline;
    analysis.javaHome = javaHome;
    analysis.release = release;
    analysis.encoding = encoding;

    List<Rule> rules = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Baseline accepted;
    try {
      accepted = analysis.readBaseline();
      Optional<AnalysisResult> result = analysis.analyse(true);
      if (result.isPresent()) {
        rules.addAll(result.get().rules());
        result.get().findings().stream().filter(analysis::isReported).forEach(findings::add);
      } else {
        notes.add(getProject().getArtifactId() + " has no Java sources to analyse.");
      }
    } catch (MojoFailureException | MojoExecutionException e) {
      throw new MavenReportException(e.getMessage(), e);
    }
    Map<Finding, String> fingerprints = Fingerprint.all(findings, analysis::relativePath);
    Predicate<Finding> baselined = f -> accepted.contains(fingerprints.get(f));

    Map<String, List<Finding>> audited = audit ? audit(notes, analysis) : Map.of();
    List<String> pageChecks = new ArrayList<>(rules.stream().map(Rule::id).toList());
    audited.values().forEach(fs -> fs.forEach(f -> pageChecks.add(f.check())));
    CheckPages pages = pages(pageChecks);

    FindingsReport report =
        new FindingsReport(
            "lockjaw",
            rules,
            findings,
            analysis::relativePath,
            baselined,
            charset(analysis),
            check -> pages.page(check).isPresent() ? DOCS + "/" + check + ".md" : null,
            audited,
            notes);
    Sink sink = getSink();
    sink.head();
    sink.title();
    sink.text("lockjaw");
    sink.title_();
    sink.head_();
    sink.body();
    sink.section1();
    sink.sectionTitle1();
    sink.text("lockjaw");
    sink.sectionTitle1_();
    sink.rawText(HtmlReporter.fragment(report));
    sink.section1_();
    sink.body_();
    getLog()
        .info(
            "lockjaw: the site's lockjaw page lists "
                + findings.size()
                + " finding(s) in the sources"
                + (audited.isEmpty()
                    ? ""
                    : " and the audit's findings in " + audited.size() + " artifact(s)")
                + ".");
  }

  /** The audit's findings per dependency artifact ({@code groupId:artifactId:version}). */
  private Map<String, List<Finding>> audit(List<String> notes, Analysis analysis)
      throws MavenReportException {
    if (Runtime.version().feature() < 21) {
      notes.add(
          "The dependencies were not audited: lockjaw's audit runs in Maven's JVM and needs JDK 21"
              + " or newer (Maven runs on JDK "
              + Runtime.version().feature()
              + ").");
      return Map.of();
    }
    Map<Path, Artifact> jars = new LinkedHashMap<>();
    for (Artifact artifact : getProject().getArtifacts()) {
      File file = artifact.getFile();
      if (file != null
          && file.getName().endsWith(".jar")
          && RUNTIME_SCOPES.contains(artifact.getScope())) {
        jars.put(file.toPath().toAbsolutePath().normalize(), artifact);
      }
    }
    if (jars.isEmpty()) {
      return Map.of();
    }
    Set<String> off;
    try {
      off =
          CheckSelection.switchedOff(
              checks, CheckSelection.knownChecks(getClass().getClassLoader()));
    } catch (MojoFailureException | IOException e) {
      throw new MavenReportException(
          "lockjaw cannot read its checks configuration: " + e.getMessage(), e);
    }
    List<AuditFinding> found;
    try {
      List<Path> paths = new ArrayList<>(jars.keySet());
      found = new JarAuditor().audit(paths, paths);
    } catch (IOException e) {
      throw new MavenReportException(
          "lockjaw could not audit the dependency jars: " + IoProblems.describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MavenReportException("lockjaw's audit was interrupted", e);
    }
    Map<String, List<Finding>> byArtifact = new TreeMap<>();
    for (AuditFinding a : found) {
      if (off.contains(a.check())) {
        continue;
      }
      Artifact artifact = a.jar() == null ? null : jars.get(a.jar().toAbsolutePath().normalize());
      String gav =
          artifact == null
              ? String.valueOf(a.jar())
              : artifact.getGroupId()
                  + ":"
                  + artifact.getArtifactId()
                  + ":"
                  + artifact.getVersion();
      byArtifact.computeIfAbsent(gav, k -> new ArrayList<>()).add(AuditFindings.toFinding(a));
    }
    return byArtifact;
  }

  /** The checks' pages, written next to the report page. */
  private CheckPages pages(List<String> checks) {
    Path directory = getReportOutputDirectory().toPath().resolve(DOCS);
    try {
      return CheckPages.writeTo(directory, checks);
    } catch (IOException e) {
      getLog()
          .warn(
              "lockjaw cannot write the checks' pages to "
                  + directory
                  + ": "
                  + IoProblems.describe(e)
                  + "; the page names the checks without links.");
      return CheckPages.none();
    }
  }

  private static Charset charset(Analysis analysis) throws MavenReportException {
    try {
      return analysis.charset();
    } catch (MojoFailureException e) {
      throw new MavenReportException(e.getMessage(), e);
    }
  }

  /** The analysis {@code lockjaw:check} runs, configured from this report's parameters. */
  static final class Analysis extends AbstractLockjawMojo {
    @Override
    public void execute() {
      // only its analysis is used
    }
  }
}
