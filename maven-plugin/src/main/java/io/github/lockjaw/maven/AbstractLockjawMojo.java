package io.github.lockjaw.maven;

import com.google.gson.JsonObject;
import io.github.lockjaw.engine.analyzer.AnalysisRequest;
import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.docs.CheckPages;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.report.SarifReporter;
import io.github.lockjaw.maven.exec.AnalyzerJdk;
import io.github.lockjaw.maven.exec.CompilerSettings;
import io.github.lockjaw.maven.exec.ForkedAnalyzer;
import io.github.lockjaw.maven.exec.ModuleClasspath;
import io.github.lockjaw.maven.exec.UnreadableJars;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.project.ProjectDependenciesResolver;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/** What the check, fix and baseline goals share: configuration, the forked analysis, paths. */
abstract class AbstractLockjawMojo extends AbstractMojo {
  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  protected MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true, required = true)
  protected MavenSession session;

  @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
  protected PluginDescriptor plugin;

  /**
   * Resolves the module's class path itself, so that a reactor module need not be packaged
   * (ModuleClasspath).
   */
  @Component protected ProjectDependenciesResolver dependenciesResolver;

  /** Skips lockjaw for this module. */
  @Parameter(property = "lockjaw.skip", defaultValue = "false")
  protected boolean skip;

  /** Also analyses test sources (against the test classpath). */
  @Parameter(property = "lockjaw.includeTests", defaultValue = "false")
  protected boolean includeTests;

  /**
   * Per-check settings, {@code Name:LEVEL} with LEVEL one of OFF, WARN, ERROR, DEFAULT (a bare name
   * means WARN). As a property: {@code
   * -Dlockjaw.checks=ThreadAliveBusyWait:OFF,ClassMonitorCache:ERROR}.
   */
  @Parameter(property = "lockjaw.checks")
  protected List<String> checks;

  /**
   * Source files whose findings are ignored, as globs relative to the module directory, e.g. {@code
   * src/main/java/com/acme/legacy/**}. Generated sources (under the build directory) are always
   * excluded.
   */
  @Parameter(property = "lockjaw.excludes")
  protected List<String> excludes;

  /** The baseline file: findings listed there are reported but do not fail the build. */
  @Parameter(
      property = "lockjaw.baseline",
      defaultValue = "${project.basedir}/lockjaw-baseline.json")
  protected File baseline;

  /** A JDK 21+ to run the analysis with, when Maven itself runs on an older JDK. */
  @Parameter(property = "lockjaw.javaHome")
  protected File javaHome;

  /**
   * check and audit fail the build on new findings at or above this: SUGGESTION, WARNING, ERROR.
   */
  @Parameter(property = "lockjaw.failOnSeverity", defaultValue = "WARNING")
  protected String failOnSeverity;

  /** Set to false for check and audit to report without failing the build. */
  @Parameter(property = "lockjaw.failOnViolation", defaultValue = "true")
  protected boolean failOnViolation;

  /** Analyse even when the module's compile already runs the lockjaw checks. */
  @Parameter(property = "lockjaw.forceAnalysis", defaultValue = "false")
  protected boolean forceAnalysis;

  /**
   * The Java release to analyse the sources at; unset, the compiler plugin's effective release (its
   * {@code release}, else {@code source}/{@code target}, else the {@code maven.compiler.*}
   * properties).
   */
  @Parameter(property = "lockjaw.release")
  protected String release;

  @Parameter(property = "lockjaw.encoding", defaultValue = "${project.build.sourceEncoding}")
  protected String encoding;

  /** The baseline, or a build failure that says what is wrong with it. */
  protected Baseline readBaseline() throws MojoFailureException {
    File defaultBaseline = new File(project.getBasedir(), "lockjaw-baseline.json");
    if (!baseline.exists()
        && !baseline.getAbsoluteFile().equals(defaultBaseline.getAbsoluteFile())) {
      // only the default file may be missing (no finding accepted yet); a named one is a typo or a
      // missing checkout
      throw new MojoFailureException(
          "lockjaw.baseline names "
              + baseline
              + ", which does not exist. Correct the path, create the file with"
              + " 'mvn lockjaw:baseline -Dlockjaw.baseline="
              + baseline
              + "', or remove the setting to use "
              + defaultBaseline.getName()
              + " in the module's directory.");
    }
    try {
      return Baseline.read(baseline.toPath());
    } catch (Baseline.BaselineException e) {
      throw new MojoFailureException(e.getMessage());
    }
  }

  /**
   * The common end of check and audit: logs the findings, writes SARIF, and fails the build on
   * findings at or above the threshold that the baseline does not list.
   */
  protected void reportAndJudge(
      List<Finding> findings,
      List<Rule> rules,
      List<String> consoleLines,
      Function<Finding, String> location,
      Map<Finding, String> fingerprints,
      Predicate<Finding> baselined,
      File sarif,
      Severity threshold,
      boolean failOnViolation)
      throws MojoExecutionException, MojoFailureException {
    reportAndJudge(
        findings,
        rules,
        consoleLines,
        location,
        fingerprints,
        baselined,
        f -> false,
        sarif,
        threshold,
        failOnViolation);
  }

  /** As above; findings {@code reportedOnly} accepts are reported but never fail the build. */
  protected void reportAndJudge(
      List<Finding> findings,
      List<Rule> rules,
      List<String> consoleLines,
      Function<Finding, String> location,
      Map<Finding, String> fingerprints,
      Predicate<Finding> baselined,
      Predicate<Finding> reportedOnly,
      File sarif,
      Severity threshold,
      boolean failOnViolation)
      throws MojoExecutionException, MojoFailureException {
    for (String line : consoleLines) {
      if (line.startsWith("lockjaw: ")) {
        getLog().info(line);
      } else {
        getLog().warn(line);
      }
    }
    SarifReporter sarifReporter =
        new SarifReporter(
            plugin.getVersion(),
            repositoryRoot(),
            writeCheckPages(rules.stream().map(Rule::id).toList()));
    try {
      sarifReporter.write(
          sarif.toPath(),
          decorateSarif(
              sarifReporter.build(
                  rules, findings, location, fingerprints, baselined, this::resultProperties)));
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write its SARIF report "
              + sarif
              + ": "
              + IoProblems.describe(e)
              + ". Check that the build"
              + " directory is writable, or set lockjaw.sarif to a writable path.",
          e);
    }
    if (findings.isEmpty()) {
      getLog()
          .info("lockjaw: no findings in " + project.getArtifactId() + "; SARIF report: " + sarif);
      return;
    }
    List<Finding> failing =
        findings.stream()
            .filter(
                f -> !baselined.test(f) && !reportedOnly.test(f) && f.severity().atLeast(threshold))
            .toList();
    if (failing.isEmpty()) {
      getLog()
          .info(
              "lockjaw: "
                  + findings.size()
                  + " finding(s), none new at or above "
                  + threshold
                  + "; SARIF report: "
                  + sarif);
      return;
    }
    Map<String, Integer> perCheck = new TreeMap<>();
    failing.forEach(f -> perCheck.merge(f.check(), 1, Integer::sum));
    String checksText =
        perCheck.entrySet().stream()
            .map(e -> e.getKey() + " (" + e.getValue() + ")")
            .collect(Collectors.joining(", "));
    String message =
        "lockjaw found "
            + failing.size()
            + " new finding(s) at or above "
            + threshold
            + " in "
            + project.getArtifactId()
            + ": "
            + checksText
            + ". Report: "
            + sarif
            + ". "
            + howToAct();
    if (failOnViolation) {
      throw new MojoFailureException(message);
    }
    getLog().warn(message + " (not failing: lockjaw.failOnViolation=false)");
  }

  /**
   * Why lockjaw's compile failed: the options it used and where they come from, javac's first
   * errors, whether Maven's own compile succeeded in this build, the property that changes the
   * release, and the annotation processors on the class path (lockjaw runs none).
   */
  private String compileFailure(
      CompilerSettings compiler,
      List<String> javacOptions,
      List<String> errors,
      List<String> classpath) {
    StringBuilder message =
        new StringBuilder("lockjaw cannot analyse ")
            .append(project.getArtifactId())
            .append(": its sources do not compile with the options lockjaw used (javac ")
            .append(String.join(" ", javacOptions));
    if (!compiler.origin().isEmpty()) {
      message.append(", release options from ").append(compiler.origin());
    }
    message
        .append(", against the module's class path). javac's first errors:\n  ")
        .append(String.join("\n  ", errors))
        .append('\n');
    if (CompilerIntegration.compileRunsInThisBuild(session.getGoals())) {
      message.append(
          "Maven's own compile of this module succeeded in this build, so lockjaw compiled it"
              + " differently. ");
    } else {
      message.append(
          "Run mvn compile to see whether Maven's compiler accepts these sources; lockjaw analyses"
              + " only code that compiles. ");
    }
    if ("lockjaw.release".equals(compiler.origin())) {
      message.append(
          "lockjaw.release passes --release, which also checks the code against that release's"
              + " class library: remove -Dlockjaw.release (or <release> in lockjaw's configuration)"
              + " to compile as the compiler plugin does, or set it to another release.");
    } else {
      message.append(
          "To analyse at another Java release, set -Dlockjaw.release=N (or <release> in lockjaw's"
              + " plugin configuration); it passes --release N instead.");
    }
    List<String> processors = AnnotationProcessors.on(classpath);
    if (!processors.isEmpty()) {
      message
          .append(" lockjaw runs no annotation processors, and the class path has some (")
          .append(String.join(", ", processors))
          .append(
              "): code they generate or rewrite (Lombok) is missing here; run lockjaw's checks in"
                  + " the compile instead (the compiler integration, docs/getting-started.md).");
    }
    return message.toString();
  }

  /**
   * Writes the pages of {@code checks} under {@code target/lockjaw/docs/}, the copies every console
   * line and SARIF rule links to; none (with a warning) when they cannot be written.
   */
  protected CheckPages writeCheckPages(Collection<String> checks) {
    Path directory = workDirectory().resolve("docs");
    try {
      return CheckPages.writeTo(directory, checks);
    } catch (IOException e) {
      getLog()
          .warn(
              "lockjaw cannot write the checks' pages to "
                  + directory
                  + ": "
                  + IoProblems.describe(e)
                  + "; findings name their check's page without a link.");
      return CheckPages.none();
    }
  }

  /** What a console line says after "see": the copy of the check's page, as findings' paths are. */
  protected String docsLink(Finding finding, CheckPages pages) {
    return pages.page(finding.check()).map(this::displayPath).orElse(finding.helpUri());
  }

  /** A path as console lines show it: relative to the repository root when it is under it. */
  protected String displayPath(Path path) {
    Path file = path.toAbsolutePath().normalize();
    Path root = repositoryRoot();
    return file.startsWith(root)
        ? root.relativize(file).toString().replace('\\', '/')
        : file.toString();
  }

  /** The failure message's last sentence: what the user can do about the findings. */
  protected String howToAct() {
    return "Fix them (mvn lockjaw:fix applies the suggested fixes), suppress one with"
        + " @SuppressWarnings(\"CheckName\"), or accept the current findings with mvn lockjaw:baseline.";
  }

  /** Per-result SARIF properties (the audit: how a dependency class is reached). */
  protected Map<String, Object> resultProperties(Finding finding) {
    return Map.of();
  }

  /** A last change to the SARIF log before it is written (the audit: classes not analysed). */
  protected JsonObject decorateSarif(JsonObject log) {
    return log;
  }

  /** Parses failOnSeverity, or fails saying which values are allowed. */
  protected static Severity threshold(String failOnSeverity) throws MojoFailureException {
    Severity threshold = Severity.parse(failOnSeverity);
    if (threshold == null) {
      throw new MojoFailureException(
          "lockjaw.failOnSeverity is '" + failOnSeverity + "'; use SUGGESTION, WARNING or ERROR.");
    }
    return threshold;
  }

  /** The charset the module's sources are written in. */
  protected Charset charset() throws MojoFailureException {
    String name = encoding == null || encoding.isBlank() ? "UTF-8" : encoding.trim();
    try {
      return Charset.forName(name);
    } catch (RuntimeException e) {
      throw new MojoFailureException(
          "lockjaw does not know the source encoding '"
              + name
              + "' (project.build.sourceEncoding or lockjaw.encoding); use a charset name such as UTF-8 or ISO-8859-1.");
    }
  }

  /** Where lockjaw writes its working files and reports. */
  protected Path workDirectory() {
    return Path.of(project.getBuild().getDirectory(), "lockjaw");
  }

  /**
   * The directory SARIF and console paths are relative to: the repository root, else the reactor
   * root.
   */
  protected Path repositoryRoot() {
    for (Path dir = project.getBasedir().toPath().toAbsolutePath();
        dir != null;
        dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return Path.of(session.getExecutionRootDirectory()).toAbsolutePath();
  }

  protected String relativePath(Finding finding) {
    return displayPath(Path.of(finding.file()));
  }

  /** Fails early, and clearly, when no JDK 21+ is available to run Error Prone. */
  protected Path javaExecutable() throws MojoFailureException {
    return AnalyzerJdk.select(javaHome).java();
  }

  /** The module's Java sources, including generated ones (needed to compile, never reported). */
  protected List<Path> sourceFiles() throws MojoExecutionException {
    Set<String> roots = new LinkedHashSet<>(project.getCompileSourceRoots());
    if (includeTests) {
      roots.addAll(project.getTestCompileSourceRoots());
    }
    List<Path> files = new ArrayList<>();
    for (String root : roots) {
      Path dir = Path.of(root);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
            .map(p -> p.toAbsolutePath().normalize())
            .sorted()
            .forEach(files::add);
      } catch (IOException e) {
        throw new MojoExecutionException(
            "lockjaw cannot list the sources in " + dir + ": " + e.getMessage(), e);
      }
    }
    return files;
  }

  /** Whether findings in this file are reported: not generated, not excluded by the user. */
  protected boolean isReported(Finding finding) {
    Path file = Path.of(finding.file()).toAbsolutePath().normalize();
    if (file.startsWith(Path.of(project.getBuild().getDirectory()).toAbsolutePath().normalize())) {
      return false;
    }
    if (excludes == null || excludes.isEmpty()) {
      return true;
    }
    Path relative = project.getBasedir().toPath().toAbsolutePath().normalize().relativize(file);
    for (String glob : excludes) {
      if (glob == null || glob.isBlank()) {
        continue;
      }
      PathMatcher matcher =
          FileSystems.getDefault().getPathMatcher("glob:" + glob.trim()); // checked in analyse()
      if (matcher.matches(relative)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether maven-compiler-plugin already runs Error Prone with lockjaw-checks for this module:
   * then every compile reports lockjaw's findings, and analysing again would do the work twice.
   */
  protected boolean compilerRunsLockjaw() {
    Plugin compiler = project.getPlugin("org.apache.maven.plugins:maven-compiler-plugin");
    if (compiler == null || !(compiler.getConfiguration() instanceof Xpp3Dom configuration)) {
      return false;
    }
    String text = configuration.toString();
    return text.contains("-Xplugin:ErrorProne") && text.contains("lockjaw-checks");
  }

  /** The compiler plugin's arguments (compilerArgs, compilerArgument), as configured. */
  protected List<String> compilerArguments() {
    Plugin compiler = project.getPlugin("org.apache.maven.plugins:maven-compiler-plugin");
    List<String> args = new ArrayList<>();
    if (compiler == null) {
      return args;
    }
    List<Object> configurations = new ArrayList<>();
    PluginExecution execution = compiler.getExecutionsAsMap().get("default-compile");
    if (execution != null) {
      configurations.add(execution.getConfiguration());
    }
    configurations.add(compiler.getConfiguration());
    for (Object configuration : configurations) {
      if (configuration instanceof Xpp3Dom dom) {
        Xpp3Dom list = dom.getChild("compilerArgs");
        if (list != null) {
          for (Xpp3Dom arg : list.getChildren()) {
            if (arg.getValue() != null) {
              args.add(arg.getValue());
            }
          }
        }
        Xpp3Dom single = dom.getChild("compilerArgument");
        if (single != null && single.getValue() != null) {
          args.add(single.getValue());
        }
      }
    }
    return args;
  }

  /**
   * The module's resource directories, where the analyzer looks for the configuration that runs
   * request handlers on virtual threads (Spring Boot's {@code
   * spring.threads.virtual.enabled=true}).
   */
  private List<String> resourceDirectories() {
    List<String> directories = new ArrayList<>();
    for (Resource resource : project.getResources()) {
      if (resource.getDirectory() != null) {
        directories.add(resource.getDirectory());
      }
    }
    return directories;
  }

  /**
   * Error Prone flags that switch off these checks for one analysis (e.g. those the compile already
   * runs).
   */
  protected List<String> extraErrorProneFlags = List.of();

  /** The result of one forked analysis, or empty when the module has no Java sources. */
  protected Optional<AnalysisResult> analyse(boolean runChecks)
      throws MojoExecutionException, MojoFailureException {
    AnalyzerJdk jdk = AnalyzerJdk.select(javaHome);
    for (String glob : excludes == null ? List.<String>of() : excludes) {
      if (glob != null && !glob.isBlank()) {
        try {
          FileSystems.getDefault().getPathMatcher("glob:" + glob.trim());
        } catch (IllegalArgumentException e) {
          throw new MojoFailureException(
              "lockjaw cannot read the exclude pattern '"
                  + glob
                  + "': "
                  + e.getMessage()
                  + ". Write globs such as"
                  + " src/main/java/com/acme/legacy/** ; on the command line -Dlockjaw.excludes is split at commas,"
                  + " so put patterns with {a,b} in the plugin's <excludes> configuration instead.");
        }
      }
    }
    // A named module is analysed on the class path, as the unnamed module: its code compiles the
    // same there, and the module path would need Maven's own module resolution.
    List<Path> sources =
        sourceFiles().stream()
            .filter(p -> !p.getFileName().toString().equals("module-info.java"))
            .toList();
    if (sources.isEmpty()) {
      getLog()
          .info("lockjaw: no Java sources in " + project.getArtifactId() + "; nothing to analyse.");
      return Optional.empty();
    }
    List<String> flags = new ArrayList<>();
    try {
      flags.addAll(
          CheckSelection.toErrorProneFlags(
              checks, CheckSelection.knownChecks(getClass().getClassLoader())));
      flags.addAll(extraErrorProneFlags);
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
    }
    List<String> classpath =
        ModuleClasspath.of(project, session, dependenciesResolver, includeTests);
    List<String> unreadable =
        UnreadableJars.among(
            classpath.stream().filter(c -> c.endsWith(".jar")).map(Path::of).toList());
    if (!unreadable.isEmpty()) {
      throw new MojoFailureException(
          UnreadableJars.message("analyse " + project.getArtifactId(), unreadable));
    }
    CompilerSettings compiler = CompilerSettings.of(project, session, release, jdk.feature());
    compiler.notes().forEach(getLog()::info);
    List<String> javacOptions = new ArrayList<>(compiler.javacOptions());
    javacOptions.addAll(
        List.of("-encoding", encoding == null || encoding.isBlank() ? "UTF-8" : encoding));

    Path work = workDirectory();
    Path requestFile = work.resolve(runChecks ? "analysis-request.json" : "compile-request.json");
    Path resultFile = work.resolve(runChecks ? "analysis-result.json" : "compile-result.json");
    AnalysisRequest request =
        new AnalysisRequest(
            sources.stream().map(Path::toString).toList(),
            classpath.stream().filter(c -> new File(c).exists()).toList(),
            javacOptions,
            flags,
            runChecks,
            resultFile.toString(),
            resourceDirectories());
    Path log = work.resolve(runChecks ? "analysis.log" : "compile.log");
    AnalysisResult result = ForkedAnalyzer.forPlugin(jdk, plugin).run(request, requestFile, log);
    switch (result.status()) {
      case AnalysisResult.COMPILE_ERROR ->
          throw new MojoFailureException(
              compileFailure(compiler, javacOptions, result.errors(), request.classpath()));
      case AnalysisResult.FAILURE ->
          throw new MojoExecutionException(
              "lockjaw's analyzer failed on "
                  + project.getArtifactId()
                  + "; please report this with the"
                  + " details below.\n"
                  + String.join("\n", result.errors()));
      default -> {}
    }
    if (result.notes() != null) {
      result.notes().forEach(note -> getLog().info("lockjaw: " + note));
    }
    return Optional.of(result);
  }
}
