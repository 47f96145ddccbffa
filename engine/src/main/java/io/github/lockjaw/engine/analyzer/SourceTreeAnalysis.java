package io.github.lockjaw.engine.analyzer;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.errorprone.bugpatterns.BugChecker;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.tools.javac.api.ClientCodeWrapper.DiagnosticSourceUnwrapper;
import com.sun.tools.javac.api.JavacTool;
import com.sun.tools.javac.util.JCDiagnostic;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;

/**
 * lockjaw's checks over a source tree without a build (the command-line tool's {@code check}), in
 * this JVM: javac with the given class path and options, then the same checks as {@code
 * lockjaw:check}. A class the class path lacks does not stop it: javac's errors about missing
 * classes, and the errors that only follow from them (an {@code @Override} of a method of a missing
 * superclass, a call of a method it declares), are gathered as the classes the analysis went
 * without, and the checks run over everything that resolves. Any other error is the code's own.
 */
public final class SourceTreeAnalysis {
  /** javac's codes for a class or package that is not on the class path. */
  private static final Set<String> MISSING =
      Set.of(
          "compiler.err.doesnt.exist",
          "compiler.err.cant.access",
          "compiler.err.cant.resolve",
          "compiler.err.cant.resolve.location",
          "compiler.err.cant.resolve.args",
          "compiler.err.cant.resolve.location.args",
          "compiler.err.cant.resolve.location.args.params");

  /** Errors that follow from a missing class when one is missing. */
  private static final Set<String> CONSEQUENCES =
      Set.of(
          "compiler.err.method.does.not.override.superclass",
          "compiler.err.does.not.override.abstract",
          "compiler.err.cant.apply.symbol",
          "compiler.err.cant.apply.symbols",
          "compiler.err.cant.deref",
          "compiler.err.prob.found.req",
          "compiler.err.not.encl.class",
          "compiler.err.cant.inherit.from.final",
          "compiler.err.non-static.cant.be.ref");

  private static final int MAX_ERRORS_SHOWN = 20;

  private final LockjawAnalyzer analyzer = new LockjawAnalyzer();

  /**
   * What one analysis of the tree found.
   *
   * @param rules every lockjaw check
   * @param findings what the enabled checks reported (empty when only compiled)
   * @param missing the classes (or packages, {@code org.acme.*}) the analysis went without
   * @param errors javac's other errors, as {@code /path/File.java:12: message}; when there are
   *     some, the code does not compile and there are no findings
   * @param unanalysed files the checks failed on, with the reason
   */
  public record Result(
      List<Rule> rules,
      List<Finding> findings,
      Set<String> missing,
      List<String> errors,
      List<String> unanalysed) {
    public boolean compiles() {
      return errors.isEmpty();
    }
  }

  /**
   * Compiles {@code sources} against {@code classpath} with {@code javacOptions} (e.g. {@code
   * --release 11}) and, when {@code runChecks}, runs the checks with the {@code -Xep} flags.
   */
  public Result analyse(
      List<Path> sources,
      List<String> classpath,
      List<String> javacOptions,
      Charset charset,
      List<String> errorProneFlags,
      boolean runChecks)
      throws IOException {
    List<Class<? extends BugChecker>> checks = LockjawAnalyzer.lockjawChecks();
    List<Rule> rules = LockjawAnalyzer.rules(checks);
    JavacTool tool = JavacTool.create();
    StandardJavaFileManager files =
        tool.getStandardFileManager(null, Locale.ROOT, charset == null ? UTF_8 : charset);
    List<String> options = new ArrayList<>(javacOptions);
    options.add("-encoding");
    options.add((charset == null ? UTF_8 : charset).name());
    if (!classpath.isEmpty()) {
      options.add("-classpath");
      options.add(String.join(File.pathSeparator, classpath));
    }
    LockjawAnalyzer.Compilation compilation =
        analyzer.compile(tool, files, files.getJavaFileObjectsFromPaths(sources), options);

    Map<JavaFileObject, CompilationUnitTree> unitOf = new HashMap<>();
    compilation.units().forEach(u -> unitOf.put(u.getSourceFile(), u));
    Set<String> missing = new TreeSet<>();
    List<Diagnostic<? extends JavaFileObject>> others = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      String name = missingName(error, unitOf.get(error.getSource()));
      if (name != null) {
        missing.add(name);
      } else {
        others.add(error);
      }
    }
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> error : others) {
      if (missing.isEmpty() || !isConsequence(error)) {
        errors.add(LockjawAnalyzer.format(error));
      }
    }
    missing = withoutExplainedPackages(missing);
    if (!errors.isEmpty() || !runChecks) {
      return new Result(
          rules, List.of(), missing, errors.stream().limit(MAX_ERRORS_SHOWN).toList(), List.of());
    }
    List<Finding> findings = new ArrayList<>();
    List<String> unanalysed = new ArrayList<>();
    for (CompilationUnitTree unit : compilation.units()) {
      // one unit at a time: a check that trips over code javac could not resolve loses that file
      // only
      try {
        LockjawAnalyzer.Compilation one =
            new LockjawAnalyzer.Compilation(compilation.task(), List.of(unit), List.of());
        analyzer.scan(one, errorProneFlags, false).forEach(l -> findings.add(l.finding()));
      } catch (RuntimeException | LinkageError e) {
        unanalysed.add(Path.of(unit.getSourceFile().toUri()) + ": " + e);
      }
    }
    return new Result(rules, findings, missing, List.of(), unanalysed);
  }

  /**
   * The class (or {@code package.*}) an error says is missing, qualified through the file's imports
   * where it can be; null when the error is about something else.
   */
  static String missingName(Diagnostic<? extends JavaFileObject> error, CompilationUnitTree unit) {
    if (!MISSING.contains(error.getCode())) {
      return null;
    }
    Object[] args = arguments(error);
    if (error.getCode().equals("compiler.err.doesnt.exist")) {
      String pkg = args.length > 0 ? String.valueOf(args[0]) : "";
      return pkg.isEmpty() ? null : pkg + ".*";
    }
    if (error.getCode().equals("compiler.err.cant.access")) {
      return args.length > 0 ? String.valueOf(args[0]) : null;
    }
    if (args.length < 2) {
      return null;
    }
    String kind = String.valueOf(args[0]);
    String name = String.valueOf(args[1]);
    boolean aClass =
        kind.endsWith("class")
            || kind.endsWith("interface")
            || (kind.endsWith("variable")
                && !name.isEmpty()
                && Character.isUpperCase(name.charAt(0)))
            || kind.endsWith("package");
    if (!aClass) {
      return null; // a method or field: the consequence of a missing class, or the code's own
    }
    if (unit != null) {
      for (ImportTree imported : unit.getImports()) {
        String qualified = imported.getQualifiedIdentifier().toString();
        if (!imported.isStatic() && qualified.endsWith("." + name)) {
          return qualified;
        }
      }
    }
    return name;
  }

  /** Drops {@code p.*} when a class of package {@code p} is named. */
  private static Set<String> withoutExplainedPackages(Set<String> missing) {
    Set<String> kept = new LinkedHashSet<>();
    for (String name : missing) {
      if (name.endsWith(".*")) {
        String pkg = name.substring(0, name.length() - 1);
        boolean explained =
            missing.stream()
                .anyMatch(
                    other ->
                        !other.endsWith(".*")
                            && other.startsWith(pkg)
                            && other.indexOf('.', pkg.length()) < 0);
        if (explained) {
          continue;
        }
      }
      kept.add(name);
    }
    return new TreeSet<>(kept);
  }

  private static boolean isConsequence(Diagnostic<? extends JavaFileObject> error) {
    return CONSEQUENCES.contains(error.getCode()) || MISSING.contains(error.getCode());
  }

  private static Object[] arguments(Diagnostic<? extends JavaFileObject> error) {
    Diagnostic<?> unwrapped = error;
    if (error instanceof DiagnosticSourceUnwrapper wrapper) {
      unwrapped = wrapper.d;
    }
    return unwrapped instanceof JCDiagnostic d ? d.getArgs() : new Object[0];
  }
}
