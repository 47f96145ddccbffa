package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.Detector;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.SourceLineAnnotation;
import edu.umd.cs.findbugs.StringAnnotation;
import edu.umd.cs.findbugs.SystemProperties;
import edu.umd.cs.findbugs.ba.ClassContext;
import io.github.lockjaw.checks.cache.ClassMonitorCacheQuery;
import io.github.lockjaw.checks.cache.SynchronizedMapCacheQuery;
import io.github.lockjaw.checks.dao.SharedMonitorQuery;
import io.github.lockjaw.checks.heavyweight.PerRequestHeavyweightQuery;
import io.github.lockjaw.checks.http.PerRequestHttpClientQuery;
import io.github.lockjaw.checks.pinning.VirtualThreadPinningQuery;
import io.github.lockjaw.checks.polling.BusyWaitQuery;
import io.github.lockjaw.checks.readmostly.ReadMostlyQuery;
import io.github.lockjaw.checks.resources.ResourceLookupQuery;
import io.github.lockjaw.checks.statistics.StatisticsQuery;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.bytecode.ClassFileFacts;
import io.github.lockjaw.model.bytecode.UnreadableClassException;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.bcel.classfile.JavaClass;

/**
 * The bytecode engine of the checks that are queries over the model: every analysed class is read
 * by the model's bytecode front-end; when SpotBugs has visited them all, the queries run over the
 * whole program (the same queries the Error Prone checks run) and each finding becomes a bug.
 */
public class ModelDetector implements Detector {
  /** The queries and the bug type each reports as. */
  static final Map<LockjawBugType, ModelQuery> QUERIES =
      Map.of(
          LockjawBugType.RESOURCE_LOOKUP_UNDER_LOCK,
          new ResourceLookupQuery(),
          LockjawBugType.SHARED_MONITOR_DAO,
          new SharedMonitorQuery(),
          LockjawBugType.CLASS_MONITOR_CACHE,
          new ClassMonitorCacheQuery(),
          LockjawBugType.SYNCHRONIZED_MAP_CACHE,
          new SynchronizedMapCacheQuery(),
          LockjawBugType.PER_REQUEST_HTTP_CLIENT,
          new PerRequestHttpClientQuery(),
          LockjawBugType.THREAD_ALIVE_BUSY_WAIT,
          new BusyWaitQuery(),
          LockjawBugType.STATISTICS_UNDER_SHARED_LOCK,
          new StatisticsQuery(),
          LockjawBugType.READ_MOSTLY_STATE_UNDER_LOCK,
          new ReadMostlyQuery(),
          LockjawBugType.PER_REQUEST_HEAVYWEIGHT_OBJECT,
          new PerRequestHeavyweightQuery(),
          LockjawBugType.VIRTUAL_THREAD_PINNING,
          new VirtualThreadPinningQuery(
              () -> SystemProperties.getBoolean(VirtualThreadPinningQuery.SPOTBUGS_PROPERTY)));

  private final BugReporter bugReporter;
  private final List<ClassFacts> classes = new ArrayList<>();
  private final Map<String, JarIdentity> jarOfClass = new HashMap<>();
  private final Map<String, String> sourceFileOfClass = new HashMap<>();
  private final Map<String, Integer> releaseOfClass = new HashMap<>();

  public ModelDetector(BugReporter bugReporter) {
    this.bugReporter = bugReporter;
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    JavaClass javaClass = classContext.getJavaClass();
    try {
      ClassFileFacts.Read read = ClassFileFacts.read(javaClass.getBytes(), javaClass.getFileName());
      classes.add(read.facts());
      sourceFileOfClass.put(read.facts().name(), javaClass.getSourceFileName());
      releaseOfClass.put(read.facts().name(), javaClass.getMajor() - 44); // 65: Java 21
      for (String problem : read.problems()) {
        bugReporter.logError(
            "lockjaw: the model could not read " + javaClass.getClassName() + "." + problem);
      }
    } catch (UnreadableClassException | RuntimeException e) {
      bugReporter.logError("lockjaw: ModelDetector skipped " + javaClass.getClassName(), e);
      if (e instanceof RuntimeException runtime) {
        Resilience.recordIfStrict("ModelDetector on " + javaClass.getClassName(), runtime);
      }
    }
  }

  @Override
  public void report() {
    if (classes.isEmpty()) {
      return;
    }
    SpotBugsModel library = new SpotBugsModel();
    Program program = new Program(library, library).addAll(classes);
    Effects effects = new Effects(program);
    Reachability[] reachability = {null};
    QueryContext context =
        new QueryContext(
            program,
            effects,
            () ->
                reachability[0] == null
                    ? (reachability[0] = new Reachability(program, effects))
                    : reachability[0]);
    context.withTargetRelease(name -> releaseOfClass.getOrDefault(name, 0));
    for (ClassFacts facts : classes) {
      for (MethodFacts method : facts.methods()) {
        for (Map.Entry<LockjawBugType, ModelQuery> query : QUERIES.entrySet()) {
          try {
            for (ModelFinding finding : query.getValue().findIn(context, method)) {
              report(query.getKey(), facts, finding);
            }
          } catch (RuntimeException e) {
            Resilience.recordIfStrict(query.getValue().check() + " on " + method.ref(), e);
            bugReporter.logError(
                "lockjaw: " + query.getValue().check() + " skipped " + method.ref(), e);
          }
        }
      }
    }
    classes.clear();
  }

  private void report(LockjawBugType type, ClassFacts facts, ModelFinding finding) {
    MethodFacts method = finding.method();
    String className = facts.name();
    String methodName = method.ref().name();
    String signature = method.ref().descriptor();
    if (method.enclosing() != null) {
      methodName = method.enclosing().name();
      signature = method.enclosing().descriptor();
    }
    JarIdentity jar = jarOfClass.computeIfAbsent(className, JarRegistry::jarOf);
    BugInstance bug =
        new BugInstance(type.bugType(), Priorities.NORMAL_PRIORITY)
            .addClass(className)
            .addMethod(className, methodName, signature, method.isStatic());
    bug.addString(finding.message()).describe(StringAnnotation.STRING_MESSAGE);
    bug.addString(type.advice(jar, className)).describe(StringAnnotation.STRING_MESSAGE);
    if (finding.line() > 0) {
      bug.addSourceLine(
          new SourceLineAnnotation(
              className,
              sourceFileOfClass.getOrDefault(className, "<unknown>"),
              finding.line(),
              finding.line(),
              -1,
              -1));
    }
    bugReporter.reportBug(bug);
  }
}
