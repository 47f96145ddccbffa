package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugAnnotation;
import edu.umd.cs.findbugs.BugCollectionBugReporter;
import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugRanker;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.DetectorFactory;
import edu.umd.cs.findbugs.DetectorFactoryCollection;
import edu.umd.cs.findbugs.FindBugs;
import edu.umd.cs.findbugs.FindBugs2;
import edu.umd.cs.findbugs.MethodAnnotation;
import edu.umd.cs.findbugs.Plugin;
import edu.umd.cs.findbugs.PluginException;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.Project;
import edu.umd.cs.findbugs.SourceLineAnnotation;
import edu.umd.cs.findbugs.StringAnnotation;
import edu.umd.cs.findbugs.config.UserPreferences;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

/**
 * Audits dependency jars for lockjaw's anti-patterns: runs SpotBugs in this JVM with only lockjaw's
 * detectors enabled and returns the findings. The entry point of {@code lockjaw:audit}.
 *
 * <pre>{@code
 * List<AuditFinding> findings = new JarAuditor().audit(runtimeJars, List.of());
 * }</pre>
 *
 * <p>Needs {@code com.github.spotbugs:spotbugs} on the class path (lockjaw-checks declares it
 * {@code provided}). SpotBugs keeps global state, so audits run one at a time per JVM.
 */
public final class JarAuditor {
  /** The plugin id in findbugs.xml. */
  public static final String PLUGIN_ID = "io.github.lockjaw";

  private static final Object LOCK = new Object();

  /**
   * Audits {@code jars} (jars or class directories); {@code auxClasspath} resolves the types they
   * refer to without being audited (it may be empty: missing classes make lockjaw see less, never
   * more). Findings come sorted by jar, class and line.
   */
  public List<AuditFinding> audit(List<Path> jars, List<Path> auxClasspath)
      throws IOException, InterruptedException {
    List<Path> existing = jars.stream().filter(Files::exists).toList();
    if (existing.isEmpty()) {
      return List.of();
    }
    synchronized (LOCK) {
      Plugin plugin = lockjawPlugin();
      Project project = new Project();
      project.setProjectName("lockjaw audit");
      for (Path jar : existing) {
        project.addFile(jar.toAbsolutePath().toString());
      }
      for (Path aux : auxClasspath) {
        if (Files.exists(aux)) {
          project.addAuxClasspathEntry(aux.toAbsolutePath().toString());
        }
      }
      UserPreferences preferences = UserPreferences.createDefaultUserPreferences();
      preferences.enableAllDetectors(false);
      Iterator<DetectorFactory> factories = DetectorFactoryCollection.instance().factoryIterator();
      while (factories.hasNext()) {
        DetectorFactory factory = factories.next();
        preferences.enableDetector(factory, factory.getPlugin() == plugin);
      }
      preferences.getFilterSettings().setMinPriority("Low");
      preferences.getFilterSettings().setMinRank(BugRanker.VISIBLE_RANK_MAX);

      BugCollectionBugReporter reporter = new BugCollectionBugReporter(project);
      reporter.setPriorityThreshold(Priorities.LOW_PRIORITY);
      reporter.setRankThreshold(BugRanker.VISIBLE_RANK_MAX);
      reporter.setErrorVerbosity(BugReporter.SILENT);

      FindBugs2 engine = new FindBugs2();
      try {
        engine.setDetectorFactoryCollection(DetectorFactoryCollection.instance());
        engine.setBugReporter(reporter);
        engine.setProject(project);
        engine.setUserPreferences(preferences);
        engine.setNoClassOk(true);
        // lockjaw's detectors scan bytecode with an operand stack and need no dataflow: the
        // minimum effort keeps fewer analyses in memory
        engine.setAnalysisFeatureSettings(FindBugs.MIN_EFFORT);
        engine.setRankThreshold(BugRanker.VISIBLE_RANK_MAX);
        engine.finishSettings();
        engine.execute();
      } finally {
        engine.dispose();
      }
      return toFindings(reporter, existing);
    }
  }

  /** The lockjaw plugin, loaded from the jar (or class directory) this class comes from. */
  static Plugin lockjawPlugin() throws IOException {
    Plugin loaded = Plugin.getByPluginId(PLUGIN_ID);
    if (loaded != null) {
      return loaded;
    }
    URL location = JarAuditor.class.getProtectionDomain().getCodeSource().getLocation();
    try {
      Plugin plugin = Plugin.addCustomPlugin(location, JarAuditor.class.getClassLoader());
      if (plugin == null) {
        throw new IOException("SpotBugs did not load the lockjaw plugin from " + location);
      }
      plugin.setGloballyEnabled(true);
      return plugin;
    } catch (PluginException e) {
      throw new IOException(
          "SpotBugs cannot load the lockjaw detectors from "
              + location
              + " (findbugs.xml and messages.xml must be in that jar): "
              + e.getMessage(),
          e);
    }
  }

  private static List<AuditFinding> toFindings(BugCollectionBugReporter reporter, List<Path> jars) {
    List<AuditFinding> findings = new ArrayList<>();
    Map<String, Path> jarOfClass = new HashMap<>();
    for (BugInstance bug : reporter.getBugCollection()) {
      LockjawBugType type = LockjawBugType.ofBugType(bug.getType()).orElse(null);
      if (type == null) {
        continue;
      }
      String className = bug.getPrimaryClass().getClassName();
      MethodAnnotation method = bug.getPrimaryMethod();
      SourceLineAnnotation line = bug.getPrimarySourceLineAnnotation();
      List<String> strings = new ArrayList<>();
      for (BugAnnotation annotation : bug.getAnnotations()) {
        if (annotation instanceof StringAnnotation string) {
          strings.add(string.getValue());
        }
      }
      Path jar = jarOfClass.computeIfAbsent(className, c -> jarOf(c, jars));
      findings.add(
          new AuditFinding(
              type.check(),
              jar,
              className,
              method == null ? "" : method.getMethodName(),
              method == null ? "" : method.getMethodSignature(),
              line == null || line.getStartLine() <= 0 ? -1 : line.getStartLine(),
              strings.isEmpty() ? "" : strings.get(0),
              strings.size() < 2 ? type.genericAdvice() : strings.get(1)));
    }
    findings.sort(
        Comparator.comparing((AuditFinding f) -> String.valueOf(f.jar()))
            .thenComparing(AuditFinding::className)
            .thenComparingInt(AuditFinding::line)
            .thenComparing(AuditFinding::methodName));
    return List.copyOf(findings);
  }

  private static Path jarOf(String className, List<Path> jars) {
    String entry = className.replace('.', '/') + ".class";
    for (Path jar : jars) {
      if (Files.isDirectory(jar)) {
        if (Files.exists(jar.resolve(entry))) {
          return jar;
        }
      } else {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
          if (zip.getEntry(entry) != null) {
            return jar;
          }
        } catch (IOException e) {
          // not a zip: not this one
        }
      }
    }
    return null;
  }
}
