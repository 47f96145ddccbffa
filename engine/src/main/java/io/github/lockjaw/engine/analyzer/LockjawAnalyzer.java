package io.github.lockjaw.engine.analyzer;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.errorprone.BugPattern;
import com.google.errorprone.DescriptionListener;
import com.google.errorprone.ErrorProneOptions;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.fixes.ErrorProneEndPosTable;
import com.google.errorprone.fixes.Fix;
import com.google.errorprone.fixes.Replacement;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.scanner.Scanner;
import com.google.errorprone.scanner.ScannerSupplier;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.api.JavacTaskImpl;
import com.sun.tools.javac.api.JavacTool;
import com.sun.tools.javac.main.JavaCompiler;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.util.Context;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.finding.TraceStep;
import io.github.lockjaw.engine.io.Json;
import io.github.lockjaw.model.source.CompilationModel;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;

/**
 * The analyzer the plugin forks: javac with lockjaw's Error Prone checks, in a JVM started with the
 * {@code --add-exports} flags Error Prone needs, so the JVM Maven runs in needs none. It compiles
 * (parse, attribute, flow; no class files), runs the same BugCheckers the compiler integration
 * runs, and writes structured findings with their fixes as JSON.
 *
 * <p>Usage: {@code java --add-exports=... -cp <plugin classpath> LockjawAnalyzer request.json}
 *
 * <p>The language server runs the same analysis in its own JVM, one edited file at a time, through
 * {@link #compile} and {@link #scan}.
 */
public final class LockjawAnalyzer {
  private static final String LOCKJAW_PACKAGE = "io.github.lockjaw.";
  private static final int MAX_ERRORS_SHOWN = 20;

  private final List<Class<? extends BugChecker>> checks = lockjawChecks();

  public static void main(String[] args) throws IOException {
    ParentWatch.start(); // ends this JVM when Maven is killed
    AnalysisRequest request =
        Json.GSON.fromJson(Files.readString(Path.of(args[0]), UTF_8), AnalysisRequest.class);
    AnalysisResult result;
    try {
      result = new LockjawAnalyzer().run(request);
    } catch (RuntimeException | LinkageError e) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      result =
          new AnalysisResult(
              AnalysisResult.FAILURE, List.of(trace.toString()), List.of(), List.of(), List.of());
    }
    Files.writeString(Path.of(request.output()), Json.GSON.toJson(result), UTF_8);
  }

  /** Every lockjaw BugChecker on the classpath, found through the AutoService registration. */
  static List<Class<? extends BugChecker>> lockjawChecks() {
    List<Class<? extends BugChecker>> checks = new ArrayList<>();
    for (BugChecker checker :
        ServiceLoader.load(BugChecker.class, LockjawAnalyzer.class.getClassLoader())) {
      if (checker.getClass().getName().startsWith(LOCKJAW_PACKAGE)) {
        checks.add(checker.getClass());
      }
    }
    checks.sort(Comparator.comparing(Class::getSimpleName));
    return checks;
  }

  static List<Rule> rules(List<Class<? extends BugChecker>> checks) {
    List<Rule> rules = new ArrayList<>();
    for (Class<? extends BugChecker> check : checks) {
      BugPattern pattern = check.getAnnotation(BugPattern.class);
      String name = pattern.name().isEmpty() ? check.getSimpleName() : pattern.name();
      rules.add(
          new Rule(
              name,
              pattern.summary(),
              pattern.link(),
              Severity.valueOf(pattern.severity().name())));
    }
    return rules;
  }

  AnalysisResult run(AnalysisRequest request) throws IOException {
    List<Rule> rules = rules(checks);
    JavacTool tool = JavacTool.create();
    Charset charset = charsetOf(request.javacOptions());
    StandardJavaFileManager files = tool.getStandardFileManager(null, Locale.ROOT, charset);
    List<String> options = new ArrayList<>(request.javacOptions());
    if (!request.classpath().isEmpty()) {
      options.add("-classpath");
      options.add(String.join(File.pathSeparator, request.classpath()));
    }
    Iterable<? extends JavaFileObject> units =
        files.getJavaFileObjectsFromPaths(request.sources().stream().map(Path::of).toList());
    Compilation compilation = compile(tool, files, units, options);

    List<String> errors = compilation.errors().stream().map(LockjawAnalyzer::format).toList();
    if (!errors.isEmpty()) {
      return new AnalysisResult(
          AnalysisResult.COMPILE_ERROR,
          errors.stream().limit(MAX_ERRORS_SHOWN).collect(Collectors.toList()),
          rules,
          List.of(),
          List.of());
    }
    if (!request.analyze()) {
      return new AnalysisResult(AnalysisResult.OK, List.of(), rules, List.of(), List.of());
    }
    List<String> flags = new ArrayList<>(request.errorProneFlags());
    List<String> notes = new ArrayList<>();
    List<Path> resources =
        request.resourceDirectories() == null
            ? List.of()
            : request.resourceDirectories().stream().map(Path::of).toList();
    VirtualThreadsSetting.find(resources)
        .ifPresent(
            found -> {
              flags.add(VirtualThreadsSetting.ERROR_PRONE_FLAG);
              notes.add(
                  found.describe(Path.of("").toAbsolutePath())
                      + ": request handlers run on virtual threads, and VirtualThreadPinning"
                      + " checks the code they reach.");
            });
    List<Finding> findings =
        scan(compilation, flags, false).stream().map(Located::finding).toList();
    return new AnalysisResult(AnalysisResult.OK, List.of(), rules, findings, notes);
  }

  /**
   * One javac run up to flow analysis, no class files: the parsed units and javac's errors.
   *
   * @param errors javac's errors, in any of the compiled files or the sources it loaded
   */
  public record Compilation(
      JavacTaskImpl task,
      List<CompilationUnitTree> units,
      List<Diagnostic<? extends JavaFileObject>> errors) {}

  /**
   * A finding with where its flagged code lies in its file: characters [start, end), and the extent
   * [memberStart, memberEnd) of the innermost method, field or class declaring it, and the edits
   * that add {@code @SuppressWarnings("<check>")} to the declaration around it (Error Prone's own
   * suppression fix; empty when none applies).
   */
  public record Located(
      Finding finding, int start, int end, int memberStart, int memberEnd, List<Edit> suppress) {}

  /**
   * Compiles {@code units} (files on disk, or an editor's unsaved text) with {@code options} (e.g.
   * {@code -classpath}, {@code -sourcepath}, {@code --release}); javac goes on to attribution and
   * flow analysis even after errors, so that callers may still scan what did compile. With a {@code
   * -sourcepath}, {@code units} are attributed, and of the source path's classes only those the
   * checks may look into ({@link SourcePathAttribution}).
   */
  public Compilation compile(
      JavacTool tool,
      StandardJavaFileManager files,
      Iterable<? extends JavaFileObject> units,
      List<String> options) {
    return compile(tool, files, units, options, null);
  }

  /**
   * {@link #compile(JavacTool, StandardJavaFileManager, Iterable, List)}, telling {@code listener}
   * (when not null) of javac's progress; an exception the listener throws ends the compilation and
   * reaches the caller as the cause of a {@link RuntimeException} (the language server stops an
   * analysis whose file changed meanwhile).
   */
  public Compilation compile(
      JavacTool tool,
      StandardJavaFileManager files,
      Iterable<? extends JavaFileObject> units,
      List<String> options,
      TaskListener listener) {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<String> all = new ArrayList<>(options);
    all.addAll(
        List.of(
            "-proc:none",
            "-implicit:none",
            "-Xlint:none",
            "-nowarn",
            "-XDshould-stop.ifError=FLOW"));
    JavacTaskImpl task = (JavacTaskImpl) tool.getTask(null, files, diagnostics, all, null, units);
    JavaCompiler.instance(task.getContext()).genEndPos = true; // fixes need end positions
    if (listener != null) {
      task.addTaskListener(listener);
    }
    List<CompilationUnitTree> parsed = new ArrayList<>();
    task.parse().forEach(parsed::add);
    if (options.contains("-sourcepath")) {
      // The given files, then only the source-path classes the checks may look into.
      List<Element> entered = new ArrayList<>();
      task.enter()
          .forEach(
              e -> {
                if (e instanceof TypeElement) entered.add(e);
              });
      task.analyze(entered);
      SourcePathAttribution.attributeCallees(task, parsed);
    } else {
      task.analyze();
    }
    List<Diagnostic<? extends JavaFileObject>> errors =
        diagnostics.getDiagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .toList();
    return new Compilation(task, parsed, errors);
  }

  /**
   * Runs the lockjaw checks, with {@code -Xep:Name:LEVEL} overrides, over the compiled units;
   * {@code suppressions}: also compute each finding's {@code @SuppressWarnings} edits (an editor's
   * suppress action).
   */
  public List<Located> scan(
      Compilation compilation, List<String> errorProneFlags, boolean suppressions)
      throws IOException {
    ErrorProneOptions errorProneOptions = ErrorProneOptions.processArgs(errorProneFlags);
    Scanner scanner =
        ScannerSupplier.fromBugCheckerClasses(checks).applyOverrides(errorProneOptions).get();
    Map<String, BugPattern.SeverityLevel> severities = scanner.severityMap();
    List<Located> findings = new ArrayList<>();
    for (CompilationUnitTree unit : compilation.units()) {
      List<Description> described = new ArrayList<>();
      DescriptionListener listener = described::add;
      VisitorState state =
          VisitorState.createConfiguredForCompilation(
              compilation.task().getContext(), listener, severities, errorProneOptions);
      scanner.scan(new TreePath(unit), state);
      String source = unit.getSourceFile().getCharContent(true).toString();
      for (Description description : described) {
        Located located =
            withTrace(
                toFinding(description, unit, source, severities),
                description,
                compilation.task().getContext());
        findings.add(
            new Located(
                located.finding(),
                located.start(),
                located.end(),
                located.memberStart(),
                located.memberEnd(),
                suppressions ? suppression(description, unit, state, source) : List.of()));
      }
    }
    return findings;
  }

  /**
   * The finding with its request path and effect chain, when a check that is a query over the model
   * reported it.
   */
  private static Located withTrace(Located located, Description description, Context context) {
    Optional<CompilationModel.Trace> trace =
        CompilationModel.traceAt(context, description.position.getTree(), description.checkName);
    if (trace.isEmpty()) {
      return located;
    }
    Finding finding =
        located
            .finding()
            .withTrace(steps(trace.get().requestPath()), steps(trace.get().effectChain()));
    return new Located(
        finding,
        located.start(),
        located.end(),
        located.memberStart(),
        located.memberEnd(),
        located.suppress());
  }

  private static List<TraceStep> steps(List<CompilationModel.TraceLine> lines) {
    List<TraceStep> steps = new ArrayList<>();
    for (CompilationModel.TraceLine line : lines) {
      steps.add(new TraceStep(line.text(), line.file(), line.line()));
    }
    return steps;
  }

  private static Located toFinding(
      Description description,
      CompilationUnitTree unit,
      String source,
      Map<String, BugPattern.SeverityLevel> severities) {
    int position = description.position.getPreferredPosition();
    if (position < 0) {
      position = Math.max(0, description.position.getStartPosition());
    }
    LineMap lines = unit.getLineMap();
    Tree tree = description.position.getTree();
    TreePath path = tree == null ? null : TreePath.getPath(unit, tree);
    ErrorProneEndPosTable endPositions = ErrorProneEndPosTable.create(unit);
    // What the fingerprint remembers of the flagged code: its first line from the diagnostic's
    // position up to a '{' ("synchronized (clazz)", "getInstance(Class clazz)"), so that edits
    // inside a flagged method or block, or anywhere else, keep a baselined finding baselined.
    String flagged = "";
    if (position < source.length()) {
      int lineEnd = source.indexOf('\n', position);
      String line = source.substring(position, lineEnd < 0 ? source.length() : lineEnd);
      int brace = line.indexOf('{');
      flagged = (brace < 0 ? line : line.substring(0, brace)).replaceAll("\\s+", "");
    }
    List<Edit> edits = new ArrayList<>();
    if (!description.fixes.isEmpty()) {
      Fix fix = description.fixes.get(0);
      for (Replacement replacement : fix.getReplacements(endPositions)) {
        edits.add(
            new Edit(
                replacement.startPosition(),
                replacement.endPosition(),
                inFileLineSeparators(replacement.replaceWith(), source)));
      }
      // Imports are not among a fix's replacements: the smallest edit of the block adds them.
      ImportEdits.edit(unit, source, fix.getImportsToAdd(), fix.getImportsToRemove())
          .ifPresent(edits::add);
      edits.sort(Comparator.comparingInt(Edit::start));
    }
    BugPattern.SeverityLevel level =
        severities.getOrDefault(description.checkName, description.severity());
    int start = Math.max(0, description.position.getStartPosition());
    int end = Math.max(start, description.position.getEndPosition(endPositions));
    Tree member = enclosingDeclaration(path);
    int memberStart = start;
    int memberEnd = end;
    if (member != null) {
      memberStart = Math.max(0, (int) ((JCTree) member).getStartPosition());
      memberEnd = Math.max(memberStart, endPositions.getEndPosition((JCTree) member));
    }
    Finding finding =
        new Finding(
            description.checkName,
            Severity.valueOf(level.name()),
            Path.of(unit.getSourceFile().toUri()).toString(),
            (int) lines.getLineNumber(position),
            (int) lines.getColumnNumber(position),
            description.getRawMessage(),
            description.getLink(),
            enclosingClass(path),
            enclosingMember(path),
            flagged,
            edits);
    return new Located(finding, start, end, memberStart, memberEnd, List.of());
  }

  /**
   * Error Prone inserts a new annotation before the modifiers on the same line; where the
   * declaration starts its line, the annotation gets a line of its own at the same indentation.
   */
  private static String ownLine(Replacement replacement, String source) {
    String text = replacement.replaceWith();
    int start = replacement.startPosition();
    if (start != replacement.endPosition() || !text.startsWith("@") || !text.endsWith(" ")) {
      return text;
    }
    int lineStart = start;
    while (lineStart > 0
        && source.charAt(lineStart - 1) != '\n'
        && source.charAt(lineStart - 1) != '\r') {
      lineStart--;
    }
    String indentation = source.substring(lineStart, start);
    if (!indentation.isBlank()) {
      return text;
    }
    String lineBreak = source.indexOf("\r\n") >= 0 ? "\r\n" : "\n";
    return text.stripTrailing() + lineBreak + indentation;
  }

  private static List<Edit> suppression(
      Description description, CompilationUnitTree unit, VisitorState state, String source) {
    Tree tree = description.position.getTree();
    TreePath path = tree == null ? null : TreePath.getPath(unit, tree);
    if (path == null) {
      return List.of();
    }
    try {
      Fix fix = SuggestedFixes.addSuppressWarnings(state.withPath(path), description.checkName);
      if (fix == null || fix.isEmpty()) {
        return List.of();
      }
      List<Edit> edits = new ArrayList<>();
      for (Replacement replacement : fix.getReplacements(ErrorProneEndPosTable.create(unit))) {
        edits.add(
            new Edit(
                replacement.startPosition(),
                replacement.endPosition(),
                ownLine(replacement, source)));
      }
      edits.sort(Comparator.comparingInt(Edit::start));
      return edits;
    } catch (RuntimeException e) {
      return List.of(); // no suppress action rather than no finding
    }
  }

  /** The innermost method, field or class around the flagged tree. */
  private static Tree enclosingDeclaration(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof MethodTree || leaf instanceof ClassTree) {
        return leaf;
      }
      if (leaf instanceof VariableTree
          && p.getParentPath() != null
          && p.getParentPath().getLeaf() instanceof ClassTree) {
        return leaf;
      }
    }
    return null;
  }

  /** Fix text with the file's line separator: in a CRLF file, inserted lines end in CRLF too. */
  static String inFileLineSeparators(String text, String source) {
    if (!source.contains("\r\n") || text.indexOf('\n') < 0) {
      return text;
    }
    return text.replace("\r\n", "\n").replace("\n", "\r\n");
  }

  /**
   * The classes around a finding, outermost first: {@code Outer.Inner}. An anonymous or local class
   * is named after the member it is declared in as well, {@code Outer.start().<anonymous>}, so that
   * the same code in an anonymous class of another method is another finding.
   */
  static String enclosingClass(TreePath path) {
    List<String> names = new ArrayList<>();
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof ClassTree c) {
        String name =
            c.getSimpleName().length() == 0 ? "<anonymous>" : c.getSimpleName().toString();
        TreePath parent = p.getParentPath();
        boolean member =
            parent == null
                || parent.getLeaf() instanceof ClassTree
                || parent.getLeaf() instanceof CompilationUnitTree;
        if (!member) {
          String declaredIn = enclosingMember(parent);
          name = (declaredIn.isEmpty() ? "<initializer>" : declaredIn) + "." + name;
        }
        names.add(0, name);
      }
    }
    return String.join(".", names);
  }

  static String enclosingMember(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof MethodTree m) {
        String parameters =
            m.getParameters().stream()
                .map(v -> v.getType().toString())
                .collect(Collectors.joining(","));
        return m.getName() + "(" + parameters + ")";
      }
      if (leaf instanceof VariableTree v
          && p.getParentPath() != null
          && p.getParentPath().getLeaf() instanceof ClassTree) {
        return v.getName().toString();
      }
      if (leaf instanceof ClassTree) {
        return "";
      }
    }
    return "";
  }

  static String format(Diagnostic<? extends JavaFileObject> d) {
    String file = d.getSource() == null ? "" : Path.of(d.getSource().toUri()).toString();
    return file
        + (d.getLineNumber() > 0 ? ":" + d.getLineNumber() : "")
        + ": "
        + d.getMessage(Locale.ROOT);
  }

  private static Charset charsetOf(List<String> javacOptions) {
    int i = javacOptions.indexOf("-encoding");
    if (i >= 0 && i + 1 < javacOptions.size()) {
      try {
        return Charset.forName(javacOptions.get(i + 1));
      } catch (RuntimeException e) {
        return UTF_8;
      }
    }
    return UTF_8;
  }
}
