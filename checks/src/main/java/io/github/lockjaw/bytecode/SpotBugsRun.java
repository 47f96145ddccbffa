package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.AnalysisError;
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
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.Project;
import edu.umd.cs.findbugs.SourceLineAnnotation;
import edu.umd.cs.findbugs.StringAnnotation;
import edu.umd.cs.findbugs.config.UserPreferences;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One SpotBugs run with only lockjaw's detectors over the classes of one jar (or class directory):
 * which classes it analysed, which it could not (a detector failed on them, or SpotBugs skipped
 * them as too big), and the findings. Everything SpotBugs held is disposed of when it returns.
 */
final class SpotBugsRun {
  /** SpotBugs' message for an exception a detector threw on a class (FindBugs2). */
  private static final Pattern DETECTOR_FAILED =
      Pattern.compile("Exception analyzing (\\S+) using detector (\\S+)");

  /**
   * lockjaw's own message when a detector gave up on a class (ModelDetector: "lockjaw:
   * ModelDetector skipped a.B").
   */
  private static final Pattern LOCKJAW_SKIPPED = Pattern.compile("lockjaw: (\\S+) skipped (\\S+)");

  private SpotBugsRun() {}

  /** What one run saw. */
  record Outcome(Set<String> observed, Map<String, String> failed, List<AuditFinding> findings) {}

  /**
   * Runs SpotBugs over {@code read} (the jar, or the view of a multi-release jar for one release),
   * resolving other types through {@code auxClasspath}. Findings are attributed to {@code jar}.
   */
  static Outcome run(Path jar, Path read, List<Path> auxClasspath)
      throws IOException, InterruptedException {
    Plugin plugin = JarAuditor.lockjawPlugin();
    Project project = new Project();
    project.setProjectName("lockjaw audit of " + jar.getFileName());
    project.addFile(read.toAbsolutePath().toString());
    for (Path aux : auxClasspath) {
      project.addAuxClasspathEntry(aux.toAbsolutePath().toString());
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

    Map<String, String> failed = new ConcurrentHashMap<>();
    Set<String> observed = ConcurrentHashMap.newKeySet();
    BugCollectionBugReporter reporter = new FailureRecordingReporter(project, failed);
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
      engine.addClassObserver(descriptor -> observed.add(descriptor.toDottedClassName()));
      // lockjaw's detectors scan bytecode with an operand stack and need no dataflow: the
      // minimum effort keeps fewer analyses in memory
      engine.setAnalysisFeatureSettings(FindBugs.MIN_EFFORT);
      engine.setRankThreshold(BugRanker.VISIBLE_RANK_MAX);
      engine.finishSettings();
      engine.execute();
    } finally {
      engine.dispose();
    }
    List<AuditFinding> findings = new ArrayList<>();
    for (BugInstance bug : reporter.getBugCollection()) {
      if (bug.getType().equals("SKIPPED_CLASS_TOO_BIG")) {
        failed.putIfAbsent(
            bug.getPrimaryClass().getClassName(),
            "too big for SpotBugs to analyse (over 1,000,000 bytes or 1,000 methods)");
        continue;
      }
      LockjawBugType type = LockjawBugType.ofBugType(bug.getType()).orElse(null);
      if (type != null) {
        findings.add(toFinding(type, bug, jar));
      }
    }
    return new Outcome(observed, new LinkedHashMap<>(failed), findings);
  }

  private static AuditFinding toFinding(LockjawBugType type, BugInstance bug, Path jar) {
    String className = bug.getPrimaryClass().getClassName();
    MethodAnnotation method = bug.getPrimaryMethod();
    SourceLineAnnotation line = bug.getPrimarySourceLineAnnotation();
    List<String> strings = new ArrayList<>();
    for (BugAnnotation annotation : bug.getAnnotations()) {
      if (annotation instanceof StringAnnotation string) {
        strings.add(string.getValue());
      }
    }
    return new AuditFinding(
        type.check(),
        jar,
        className,
        method == null ? "" : method.getMethodName(),
        method == null ? "" : method.getMethodSignature(),
        line == null || line.getStartLine() <= 0 ? -1 : line.getStartLine(),
        strings.isEmpty() ? "" : strings.get(0),
        strings.size() < 2 ? type.genericAdvice() : strings.get(1),
        JarRegistry.identity(jar, className).display());
  }

  /**
   * Keeps SpotBugs' errors silent, but remembers which class a detector failed on: that class was
   * not analysed (by that detector at least), and the audit says so.
   */
  private static final class FailureRecordingReporter extends BugCollectionBugReporter {
    private final Map<String, String> failed;

    FailureRecordingReporter(Project project, Map<String, String> failed) {
      super(project);
      this.failed = failed;
    }

    @Override
    public void logError(String message, Throwable e) {
      record(message, e);
      super.logError(message, e);
    }

    @Override
    public void reportAnalysisError(AnalysisError error) {
      record(error.getMessage(), error.getException());
      super.reportAnalysisError(error);
    }

    private void record(String message, Throwable e) {
      if (message == null) {
        return;
      }
      String cause = e == null ? "" : ": " + e;
      Matcher detector = DETECTOR_FAILED.matcher(message);
      if (detector.find()) {
        failed.putIfAbsent(detector.group(1), simple(detector.group(2)) + " failed" + cause);
        return;
      }
      Matcher skipped = LOCKJAW_SKIPPED.matcher(message);
      if (skipped.find()) {
        failed.putIfAbsent(skipped.group(2), skipped.group(1) + " failed" + cause);
      }
    }

    private static String simple(String className) {
      return className.substring(className.lastIndexOf('.') + 1);
    }
  }
}
