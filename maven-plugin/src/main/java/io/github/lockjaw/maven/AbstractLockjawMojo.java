package io.github.lockjaw.maven;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.maven.analyzer.AnalysisRequest;
import io.github.lockjaw.maven.analyzer.AnalysisResult;
import io.github.lockjaw.maven.analyzer.Json;
import io.github.lockjaw.maven.analyzer.LockjawAnalyzer;
import io.github.lockjaw.maven.model.Baseline;
import io.github.lockjaw.maven.model.Finding;
import io.github.lockjaw.maven.model.Rule;
import io.github.lockjaw.maven.model.Severity;
import io.github.lockjaw.maven.report.SarifReporter;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.classworlds.realm.ClassRealm;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/** What the check, fix and baseline goals share: configuration, the forked analysis, paths. */
abstract class AbstractLockjawMojo extends AbstractMojo {
  /** The flags Error Prone needs to reach into javac; the forked analyzer JVM gets them. */
  private static final List<String> JAVAC_EXPORTS =
      Stream.of(
              "api",
              "code",
              "comp",
              "file",
              "main",
              "model",
              "parser",
              "processing",
              "tree",
              "util")
          .map(p -> "--add-exports=jdk.compiler/com.sun.tools.javac." + p + "=ALL-UNNAMED")
          .collect(Collectors.toCollection(ArrayList::new));

  static {
    JAVAC_EXPORTS.add("--add-opens=jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED");
    JAVAC_EXPORTS.add("--add-opens=jdk.compiler/com.sun.tools.javac.comp=ALL-UNNAMED");
  }

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  protected MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true, required = true)
  protected MavenSession session;

  @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
  protected PluginDescriptor plugin;

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

  /** The Java release the sources are written for; defaults to the compiler plugin's. */
  @Parameter(property = "lockjaw.release", defaultValue = "${maven.compiler.release}")
  protected String release;

  @Parameter(defaultValue = "${maven.compiler.source}", readonly = true)
  protected String source;

  @Parameter(property = "lockjaw.encoding", defaultValue = "${project.build.sourceEncoding}")
  protected String encoding;

  /** The baseline, or a build failure that says what is wrong with it. */
  protected Baseline readBaseline() throws MojoFailureException {
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
    for (String line : consoleLines) {
      if (line.startsWith("lockjaw: ")) {
        getLog().info(line);
      } else {
        getLog().warn(line);
      }
    }
    SarifReporter sarifReporter = new SarifReporter(plugin.getVersion(), repositoryRoot());
    try {
      sarifReporter.write(
          sarif.toPath(), sarifReporter.build(rules, findings, location, fingerprints, baselined));
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write its SARIF report " + sarif + ": " + e.getMessage(), e);
    }
    if (findings.isEmpty()) {
      getLog()
          .info("lockjaw: no findings in " + project.getArtifactId() + "; SARIF report: " + sarif);
      return;
    }
    List<Finding> failing =
        findings.stream()
            .filter(f -> !baselined.test(f) && f.severity().atLeast(threshold))
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
            + ". Fix them (mvn lockjaw:fix applies the suggested fixes;"
            + " for dependencies, the advice names the release that fixed it), suppress one with"
            + " @SuppressWarnings(\"CheckName\"), or accept the current findings with mvn lockjaw:baseline.";
    if (failOnViolation) {
      throw new MojoFailureException(message);
    }
    getLog().warn(message + " (not failing: lockjaw.failOnViolation=false)");
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
    Path file = Path.of(finding.file()).toAbsolutePath().normalize();
    Path root = repositoryRoot();
    return file.startsWith(root)
        ? root.relativize(file).toString().replace('\\', '/')
        : file.toString();
  }

  /** Fails early, and clearly, when no JDK 21+ is available to run Error Prone. */
  protected Path javaExecutable() throws MojoFailureException {
    if (javaHome != null) {
      Path java = javaHome.toPath().resolve("bin").resolve(isWindows() ? "java.exe" : "java");
      if (!Files.isExecutable(java)) {
        throw new MojoFailureException(
            "lockjaw.javaHome is "
                + javaHome
                + ", but it has no bin/java. Point it at the directory of a JDK 21 or newer.");
      }
      return java;
    }
    int feature = Runtime.version().feature();
    if (feature < 21) {
      throw new MojoFailureException(
          "lockjaw runs Error Prone 2.50, which needs JDK 21 or newer, but Maven is running on JDK "
              + feature
              + " ("
              + System.getProperty("java.home")
              + "). Run Maven with JAVA_HOME set to a JDK 21+"
              + " (your code can still target an older release), or set -Dlockjaw.javaHome=/path/to/jdk21 so"
              + " that only the analysis uses it.");
    }
    return Path.of(System.getProperty("java.home"), "bin", isWindows() ? "java.exe" : "java");
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
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

  /** The result of one forked analysis, or empty when the module has no Java sources. */
  protected Optional<AnalysisResult> analyse(boolean runChecks)
      throws MojoExecutionException, MojoFailureException {
    Path javaCommand = javaExecutable();
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
    } catch (IOException e) {
      throw new MojoExecutionException("lockjaw cannot list its checks: " + e.getMessage(), e);
    }
    List<String> classpath;
    try {
      classpath =
          includeTests ? project.getTestClasspathElements() : project.getCompileClasspathElements();
    } catch (DependencyResolutionRequiredException e) {
      throw new MojoExecutionException(
          "lockjaw needs the module's dependencies resolved: " + e.getMessage(), e);
    }
    List<String> javacOptions = new ArrayList<>();
    if (release != null && !release.isBlank()) {
      javacOptions.addAll(List.of("--release", atLeastJava8(release)));
    } else if (source != null && !source.isBlank()) {
      javacOptions.addAll(List.of("-source", atLeastJava8(source)));
    }
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
            resultFile.toString());
    try {
      Files.createDirectories(work);
      Files.deleteIfExists(resultFile);
      Files.writeString(requestFile, Json.GSON.toJson(request), UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write to " + work + ": " + e.getMessage(), e);
    }

    List<String> command = new ArrayList<>();
    command.add(javaCommand.toString());
    command.addAll(JAVAC_EXPORTS);
    // The analyzer is one short javac run: C1 alone compiles its hot code soon enough, while C2's
    // compiler threads would compete with it for the CPU (40-50 % less time measured by
    // scripts/benchmark-plugin.sh); one GC thread suffices for its heap.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(analyzerClasspath());
    command.add(LockjawAnalyzer.class.getName());
    command.add(requestFile.toString());
    Path log = work.resolve(runChecks ? "analysis.log" : "compile.log");
    int exit;
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      exit = process.waitFor();
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot start its analyzer (" + command.get(0) + "): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("lockjaw's analysis was interrupted", e);
    }
    if (exit != 0 || !Files.exists(resultFile)) {
      String output;
      try {
        output = Files.readString(log, UTF_8);
      } catch (IOException e) {
        output = "(no output)";
      }
      throw new MojoExecutionException(
          "lockjaw's analyzer stopped unexpectedly (exit code "
              + exit
              + "); its output, also in "
              + log
              + ":\n"
              + output);
    }
    AnalysisResult result;
    try {
      result = Json.GSON.fromJson(Files.readString(resultFile, UTF_8), AnalysisResult.class);
    } catch (IOException | RuntimeException e) {
      throw new MojoExecutionException(
          "lockjaw cannot read its analyzer's result " + resultFile + ": " + e.getMessage(), e);
    }
    switch (result.status()) {
      case AnalysisResult.COMPILE_ERROR ->
          throw new MojoFailureException(
              "lockjaw cannot analyse "
                  + project.getArtifactId()
                  + ": its sources do not compile against the"
                  + " module's classpath. javac's first errors:\n  "
                  + String.join("\n  ", result.errors())
                  + "\nFix these errors (mvn compile shows them too); lockjaw analyses only code that compiles."
                  + " If the module does compile with mvn compile, its build does something lockjaw's analysis does"
                  + " not: lockjaw runs no annotation processors (with Lombok, which rewrites code, use the compiler"
                  + " integration instead; see docs/getting-started.md).");
      case AnalysisResult.FAILURE ->
          throw new MojoExecutionException(
              "lockjaw's analyzer failed on "
                  + project.getArtifactId()
                  + "; please report this with the"
                  + " details below.\n"
                  + String.join("\n", result.errors()));
      default -> {}
    }
    return Optional.of(result);
  }

  /**
   * The language level to analyse at: the project's, but at least 8, the oldest that a JDK 21+
   * javac accepts (code written for 6 or 7 is valid Java 8 in all but rare corners).
   */
  static String atLeastJava8(String level) {
    String trimmed = level.trim();
    String major = trimmed.startsWith("1.") ? trimmed.substring(2) : trimmed;
    try {
      return Integer.parseInt(major) < 8 ? "8" : major;
    } catch (NumberFormatException e) {
      return trimmed;
    }
  }

  /** The plugin's own class path (its jar, lockjaw-checks, Error Prone), for the forked JVM. */
  private String analyzerClasspath() throws MojoExecutionException {
    List<String> entries = new ArrayList<>();
    ClassRealm realm = plugin.getClassRealm();
    URL[] urls = realm != null ? realm.getURLs() : new URL[0];
    for (URL url : urls) {
      try {
        entries.add(Path.of(url.toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new MojoExecutionException("lockjaw cannot use class path entry " + url, e);
      }
    }
    if (entries.isEmpty()) {
      throw new MojoExecutionException(
          "lockjaw cannot find its own class path to start the analyzer");
    }
    return String.join(File.pathSeparator, entries);
  }
}
