package io.github.lockjaw.corpus;

import com.google.errorprone.BugCheckerInfo;
import com.google.errorprone.bugpatterns.BugChecker;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticListener;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Runs the JDK's javac in this JVM, the way a user's build does: {@code -Xplugin:ErrorProne}, with
 * Error Prone and the lockjaw checks loaded from the plugin path (here: this test's own class
 * loader, which holds error_prone_core and the lockjaw-checks jar, so Error Prone is loaded once
 * and stays warm). Class files are generated but thrown away.
 */
final class CorpusCompiler {

  /** What runs inside javac. */
  enum Mode {
    /** plain javac, no plugin */
    PLAIN("javac"),
    /** Error Prone attached, every check disabled */
    EP_NO_CHECKS("EP, no checks"),
    /** Error Prone with only the lockjaw checks */
    LOCKJAW("EP + lockjaw only"),
    /** Error Prone with its default checks (lockjaw's off) */
    EP_DEFAULT("EP defaults");

    final String label;

    Mode(String label) {
      this.label = label;
    }
  }

  /** The names of the lockjaw checks, as registered for Error Prone's plugin discovery. */
  static final List<String> LOCKJAW_CHECKS = lockjawChecks();

  private static final String CRASH = "An unhandled exception was thrown by the Error Prone";
  private static final Pattern CHECK_PREFIX = Pattern.compile("^\\[([A-Za-z0-9_]+)\\] ");

  /** One compilation's outcome. */
  /**
   * What one compilation gave.
   *
   * @param nanos its wall time
   * @param cpuNanos the CPU time of the thread that compiled (javac, Error Prone and the checks all
   *     run in it), which other processes on the machine do not inflate
   */
  record Result(
      List<Finding> findings,
      List<String> errors,
      List<String> crashes,
      int units,
      long nanos,
      long cpuNanos) {}

  /** A lockjaw diagnostic, located at its class and member. */
  record Finding(
      String check,
      String file,
      long line,
      long column,
      String className,
      String member,
      String snippet,
      String message) {}

  private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

  Result compile(
      List<Path> sources, List<Path> classpath, String release, String encoding, Mode mode)
      throws IOException {
    return compile(sources, classpath, release, encoding, mode, LOCKJAW_CHECKS);
  }

  /** As above; in {@link Mode#LOCKJAW}, only {@code checks} are enabled. */
  Result compile(
      List<Path> sources,
      List<Path> classpath,
      String release,
      String encoding,
      Mode mode,
      List<String> checks)
      throws IOException {
    List<String> options = new ArrayList<>();
    options.addAll(List.of("-proc:none", "-implicit:none", "-Xlint:none", "-g"));
    options.addAll(List.of("--release", release, "-encoding", encoding));
    options.addAll(List.of("-Xmaxwarns", "1000000", "-Xmaxerrs", "100000"));
    options.add("-classpath");
    options.add(
        String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()));
    if (mode != Mode.PLAIN) {
      options.addAll(List.of("-XDcompilePolicy=simple", "--should-stop=ifError=FLOW"));
      options.add(errorProneFlags(mode, checks));
    }
    StringWriter out = new StringWriter();
    Map<URI, CompilationUnitTree> units = new HashMap<>();
    List<String> crashes = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    Trees[] trees = {null};
    Elements[] elements = {null};
    // Findings are located while javac reports them: with -XDcompilePolicy=simple every class is
    // attributed and analysed before any is lowered, so the trees are still as written.
    DiagnosticListener<JavaFileObject> diagnostics =
        d -> {
          String message = d.getMessage(Locale.ROOT);
          if (message.contains(CRASH) || message.contains("ErrorProneError")) {
            crashes.add(where(d) + message);
          } else if (d.getKind() == Diagnostic.Kind.ERROR) {
            errors.add(where(d) + message);
          } else if (mode == Mode.LOCKJAW) {
            Matcher check = CHECK_PREFIX.matcher(message);
            if (check.find() && LOCKJAW_CHECKS.contains(check.group(1))) {
              findings.add(finding(check.group(1), d, message, units, trees[0], elements[0]));
            }
          }
        };
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuStart = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    JavacTask task;
    try (StandardJavaFileManager standard =
            javac.getStandardFileManager(diagnostics, Locale.ROOT, Charset.forName(encoding));
        PluginPathFileManager files = new PluginPathFileManager(standard)) {
      task =
          (JavacTask)
              javac.getTask(
                  out,
                  files,
                  diagnostics,
                  options,
                  null,
                  standard.getJavaFileObjectsFromPaths(sources));
      if (mode == Mode.LOCKJAW) {
        task.addTaskListener(
            new TaskListener() {
              @Override
              public void finished(TaskEvent e) {
                if (e.getKind() == TaskEvent.Kind.PARSE) {
                  units.put(e.getSourceFile().toUri(), e.getCompilationUnit());
                }
              }
            });
      }
      trees[0] = Trees.instance(task);
      elements[0] = task.getElements();
      try {
        task.call();
      } catch (RuntimeException | Error e) { // javac wraps a plugin's exception and rethrows it
        crashes.add(stackTrace(e));
      }
    }
    long nanos = System.nanoTime() - start;
    long cpuNanos = threads.getCurrentThreadCpuTime() - cpuStart;

    if (!out.toString().isBlank() && out.toString().contains(CRASH)) {
      crashes.add(out.toString());
    }
    return new Result(findings, errors, crashes, sources.size(), nanos, cpuNanos);
  }

  private static String errorProneFlags(Mode mode, List<String> checks) {
    StringBuilder flags = new StringBuilder("-Xplugin:ErrorProne");
    switch (mode) {
      case EP_NO_CHECKS -> flags.append(" -XepDisableAllChecks");
      case LOCKJAW -> {
        flags.append(" -XepDisableAllChecks");
        checks.forEach(c -> flags.append(" -Xep:").append(c).append(":WARN"));
      }
      case EP_DEFAULT -> {
        // an ERROR-level default check would stop javac before code generation: keep it comparable
        flags.append(" -XepAllErrorsAsWarnings");
        LOCKJAW_CHECKS.forEach(c -> flags.append(" -Xep:").append(c).append(":OFF"));
      }
      default -> throw new IllegalArgumentException(mode.toString());
    }
    return flags.toString();
  }

  private static Finding finding(
      String check,
      Diagnostic<? extends JavaFileObject> d,
      String message,
      Map<URI, CompilationUnitTree> units,
      Trees trees,
      Elements elements) {
    String file = d.getSource() == null ? "?" : d.getSource().getName();
    String className = "?";
    String member = "?";
    String snippet = "";
    CompilationUnitTree unit = d.getSource() == null ? null : units.get(d.getSource().toUri());
    if (unit != null && d.getStartPosition() != Diagnostic.NOPOS) {
      String[] located = locate(unit, d.getStartPosition(), trees, elements);
      className = located[0];
      member = located[1];
      snippet = line(unit, d.getLineNumber());
    }
    String text = CHECK_PREFIX.matcher(message).replaceFirst("");
    int seeAlso = text.indexOf("\n");
    return new Finding(
        check,
        file,
        d.getLineNumber(),
        d.getColumnNumber(),
        className,
        member,
        snippet,
        seeAlso >= 0 ? text.substring(0, seeAlso) : text);
  }

  /** The binary name of the innermost class and the name of the innermost member around pos. */
  private static String[] locate(
      CompilationUnitTree unit, long pos, Trees trees, Elements elements) {
    // End positions are not kept without -Xjcov, so: the deepest tree that starts at pos (the
    // flagged tree itself), else the last tree in source order that starts before it.
    SourcePositions positions = trees.getSourcePositions();
    TreePath[] exact = {null};
    TreePath[] before = {null};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        if (tree == null) {
          return null;
        }
        long start = positions.getStartPosition(unit, tree);
        if (start > pos) {
          return null;
        }
        TreePath here = new TreePath(getCurrentPath(), tree);
        if (start == pos) {
          exact[0] = here;
        } else if (start >= 0) {
          before[0] = here;
        }
        return super.scan(tree, unused);
      }
    }.scan(new TreePath(unit), null);
    TreePath[] deepest = {exact[0] != null ? exact[0] : before[0]};
    String member = "?";
    String className = "?";
    for (TreePath path = deepest[0]; path != null; path = path.getParentPath()) {
      Tree leaf = path.getLeaf();
      Tree parent = path.getParentPath() == null ? null : path.getParentPath().getLeaf();
      if (member.equals("?") && parent instanceof ClassTree) {
        if (leaf instanceof MethodTree m) {
          member = m.getName().contentEquals("<init>") ? "<init>" : m.getName().toString();
        } else if (leaf instanceof VariableTree v) {
          member = v.getName().toString();
        } else if (leaf instanceof BlockTree b) {
          member = b.isStatic() ? "<clinit>" : "<init>";
        }
      }
      if (leaf instanceof ClassTree c && !member.equals("?")) {
        Element element = trees.getElement(path);
        className =
            element instanceof TypeElement type
                ? elements.getBinaryName(type).toString()
                : c.getSimpleName().toString();
        break;
      }
      if (leaf instanceof ClassTree c && member.equals("?")) {
        // the diagnostic is on the class itself
        member = "<class>";
        Element element = trees.getElement(path);
        className =
            element instanceof TypeElement type
                ? elements.getBinaryName(type).toString()
                : c.getSimpleName().toString();
        break;
      }
    }
    return new String[] {className, member};
  }

  private static String line(CompilationUnitTree unit, long lineNumber) {
    try {
      CharSequence content = unit.getSourceFile().getCharContent(true);
      LineMap lines = unit.getLineMap();
      int start = (int) lines.getStartPosition(lineNumber);
      int end = start;
      while (end < content.length() && content.charAt(end) != '\n' && content.charAt(end) != '\r') {
        end++;
      }
      return content.subSequence(start, end).toString().strip();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static String where(Diagnostic<? extends JavaFileObject> d) {
    return d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ";
  }

  private static String stackTrace(Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new java.io.PrintWriter(trace));
    return trace.toString();
  }

  private static List<String> lockjawChecks() {
    List<String> names = new ArrayList<>();
    for (BugChecker checker :
        ServiceLoader.load(BugChecker.class, CorpusCompiler.class.getClassLoader())) {
      if (checker.getClass().getName().startsWith("io.github.lockjaw.")) {
        names.add(BugCheckerInfo.create(checker.getClass()).canonicalName());
      }
    }
    if (names.isEmpty()) {
      throw new IllegalStateException(
          "no lockjaw checks registered (META-INF/services) on the test classpath");
    }
    names.sort(null);
    return List.copyOf(names);
  }

  /**
   * Points javac's plugin path at this test's class loader (Error Prone + lockjaw checks), behind a
   * loader javac cannot close; and throws generated class files away.
   */
  private static final class PluginPathFileManager
      extends ForwardingJavaFileManager<JavaFileManager> {
    private static final ClassLoader PLUGINS =
        new ClassLoader(CorpusCompiler.class.getClassLoader()) {};

    PluginPathFileManager(JavaFileManager delegate) {
      super(delegate);
    }

    @Override
    public ClassLoader getClassLoader(Location location) {
      if (location == StandardLocation.ANNOTATION_PROCESSOR_PATH) {
        return PLUGINS;
      }
      return super.getClassLoader(location);
    }

    @Override
    public boolean hasLocation(Location location) {
      return location == StandardLocation.ANNOTATION_PROCESSOR_PATH || super.hasLocation(location);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(
        Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
      return new SimpleJavaFileObject(
          URI.create("discard:///" + className.replace('.', '/') + kind.extension), kind) {
        @Override
        public OutputStream openOutputStream() {
          return OutputStream.nullOutputStream();
        }
      };
    }
  }
}
