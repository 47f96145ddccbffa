package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.tools.javac.api.JavacTool;
import com.sun.tools.javac.tree.EndPosTable;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.JCTree.JCClassDecl;
import com.sun.tools.javac.tree.JCTree.JCCompilationUnit;
import com.sun.tools.javac.tree.TreeInfo;
import com.sun.tools.javac.util.ListBuffer;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Compilation;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Located;
import io.github.lockjaw.engine.finding.Finding;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;

/**
 * Analyses one file's current text, in this JVM, with the plugin's analyzer: javac (its project's
 * classpath, its module's other sources on the source path, read only as far as the file uses them)
 * and lockjaw's checks, nothing else. Not thread-safe: the server calls it from one thread.
 */
final class FileAnalyzer {
  /**
   * What one analysis found.
   *
   * @param findings the findings outside any declaration javac reported an error in; while the file
   *     has errors, without fixes
   * @param errorsInFile how many javac errors the file has (its broken parts get no findings)
   */
  record Outcome(List<Located> findings, int errorsInFile) {}

  private static final int MAX_FILE_MANAGERS = 8;

  private final LockjawAnalyzer analyzer = new LockjawAnalyzer();
  private final JavacTool tool = JavacTool.create();

  /**
   * One file manager per classpath and source path: it keeps the JDK's and the jars' indexes open.
   */
  private final Map<List<String>, StandardJavaFileManager> fileManagers = new HashMap<>();

  /**
   * Thrown when the analysed text went stale (a newer version of the document arrived) before the
   * analysis finished.
   */
  static final class Stale extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stale() {
      super("a newer version of the document arrived", null, false, false);
    }
  }

  Outcome analyze(URI uri, String text, Project project) throws IOException {
    return analyze(uri, text, project, () -> false);
  }

  /**
   * Analyses the text; stops with {@link Stale} as soon as {@code stale} says so, at the next step
   * javac reports (parsing, entering, attributing each class) or before the checks run.
   */
  Outcome analyze(URI uri, String text, Project project, BooleanSupplier stale) throws IOException {
    List<String> options = new ArrayList<>(List.of("-encoding", "UTF-8"));
    if (!project.classpath().isEmpty()) {
      options.add("-classpath");
      options.add(String.join(File.pathSeparator, project.classpath()));
    } else {
      // never the server's own classpath (Error Prone, Guava, LSP4J), which javac would default to
      options.add("-classpath");
      options.add(emptyDirectory().toString());
    }
    options.add("-sourcepath");
    options.add(
        project.sourceRoots().stream()
            .map(Path::toString)
            .collect(Collectors.joining(File.pathSeparator)));
    if (!fileManagers.containsKey(options) && fileManagers.size() >= MAX_FILE_MANAGERS) {
      reset(); // e.g. classpaths left behind by pom.xml changes
    }
    StandardJavaFileManager files =
        fileManagers.computeIfAbsent(
            List.copyOf(options), k -> tool.getStandardFileManager(null, Locale.ROOT, UTF_8));
    JavaFileObject unit = new EditorText(uri, text);
    TaskListener stopWhenStale =
        new TaskListener() {
          @Override
          public void started(TaskEvent event) {
            if (stale.getAsBoolean()) {
              throw new Stale();
            }
          }
        };
    Compilation compilation;
    try {
      compilation = analyzer.compile(tool, files, List.of(unit), options, stopWhenStale);
    } catch (RuntimeException e) {
      if (e instanceof Stale || e.getCause() instanceof Stale) {
        throw new Stale();
      }
      throw e;
    }
    if (stale.getAsBoolean()) {
      throw new Stale();
    }

    List<Long> errorPositions = new ArrayList<>();
    boolean unplacedError = false;
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      if (error.getSource() != null && uri.equals(error.getSource().toUri())) {
        if (error.getPosition() == Diagnostic.NOPOS) {
          unplacedError = true;
        } else {
          errorPositions.add(error.getPosition());
        }
      }
    }
    int errorsInFile = errorPositions.size() + (unplacedError ? 1 : 0);
    if (unplacedError) {
      return new Outcome(List.of(), errorsInFile);
    }
    if (errorsInFile > 0) {
      for (CompilationUnitTree parsed : compilation.units()) {
        JCCompilationUnit tree = (JCCompilationUnit) parsed;
        for (JCTree def : tree.defs) {
          if (def instanceof JCClassDecl type) {
            pruneBroken(type, errorPositions, tree.endPositions);
          }
        }
      }
    }
    List<Located> found;
    try {
      found = analyzer.scan(compilation, List.of(), true);
    } catch (RuntimeException e) {
      if (errorsInFile > 0) {
        return new Outcome(List.of(), errorsInFile); // a check tripped over the broken code
      }
      throw e;
    }
    List<Located> kept = new ArrayList<>();
    for (Located candidate : found) {
      Located located = candidate;
      if (!located.finding().file().equals(Path.of(uri).toString())) {
        continue;
      }
      boolean broken =
          errorPositions.stream()
              .anyMatch(p -> p >= candidate.memberStart() && p <= candidate.memberEnd());
      if (broken) {
        continue;
      }
      if (errorsInFile > 0 && located.finding().hasFix()) {
        // The broken parts were not seen: the fix may rest on partial evidence. The finding stays.
        Finding f = located.finding();
        Finding withoutFix =
            new Finding(
                f.check(),
                f.severity(),
                f.file(),
                f.line(),
                f.column(),
                f.message(),
                f.helpUri(),
                f.enclosingClass(),
                f.member(),
                f.flaggedCode(),
                List.of(),
                f.requestPath(),
                f.effectChain());
        located =
            new Located(
                withoutFix,
                located.start(),
                located.end(),
                located.memberStart(),
                located.memberEnd(),
                located.suppress());
      }
      kept.add(located);
    }
    return new Outcome(kept, errorsInFile);
  }

  private Path emptyDirectory;

  private Path emptyDirectory() throws IOException {
    if (emptyDirectory == null) {
      emptyDirectory = Files.createTempDirectory("lockjaw-no-classpath");
      emptyDirectory.toFile().deleteOnExit();
    }
    return emptyDirectory;
  }

  /**
   * Takes the members that hold a javac error out of the class trees (nested classes are pruned
   * member by member), so that no check is shown half-attributed code. Their symbols stay; only the
   * trees the checks scan lose them.
   */
  private static void pruneBroken(JCClassDecl type, List<Long> errors, EndPosTable endPositions) {
    ListBuffer<JCTree> kept = new ListBuffer<>();
    for (JCTree member : type.defs) {
      int start = TreeInfo.getStartPos(member);
      int end = TreeInfo.getEndPos(member, endPositions);
      boolean broken = errors.stream().anyMatch(p -> p >= start && p <= end);
      if (!broken) {
        kept.append(member);
      } else if (member instanceof JCClassDecl nested) {
        pruneBroken(nested, errors, endPositions);
        kept.append(nested);
      }
    }
    type.defs = kept.toList();
  }

  /** Forgets the file managers, e.g. when a classpath changed and its jars are no longer needed. */
  void reset() {
    for (StandardJavaFileManager files : fileManagers.values()) {
      try {
        files.close();
      } catch (IOException e) {
        // nothing to do
      }
    }
    fileManagers.clear();
  }

  /** The editor's text of a file, which may differ from what is on disk. */
  private static final class EditorText extends SimpleJavaFileObject {
    private final String text;

    EditorText(URI uri, String text) {
      super(uri, Kind.SOURCE);
      this.text = text;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }
}
