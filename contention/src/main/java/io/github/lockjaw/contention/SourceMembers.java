package io.github.lockjaw.contention;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The line range of the method that holds a source line, from the file's syntax tree (javac's
 * parser only: no classpath, no attribution). A source finding names its member, not where the
 * member ends; the correlation needs both so a frame at line 40 of an overload is not tied to the
 * other overload's finding.
 */
public final class SourceMembers {
  private record Range(int first, int last) {}

  private final Charset charset;
  private final Map<Path, List<Range>> methods = new HashMap<>();

  public SourceMembers(Charset charset) {
    this.charset = charset;
  }

  /**
   * {@code {first, last}} lines of the innermost method (or constructor) of {@code file} that holds
   * {@code line}; null when there is none or the file cannot be parsed.
   */
  public int[] methodAround(Path file, int line) {
    List<Range> ranges = methods.computeIfAbsent(file.toAbsolutePath().normalize(), this::parse);
    Range best = null;
    for (Range range : ranges) {
      if (range.first() <= line
          && line <= range.last()
          && (best == null || range.last() - range.first() < best.last() - best.first())) {
        best = range;
      }
    }
    return best == null ? null : new int[] {best.first(), best.last()};
  }

  private List<Range> parse(Path file) {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    if (compiler == null) {
      return List
          .of(); // a JRE without javac: ranges unknown, matching falls back to class and method
    }
    List<Range> ranges = new ArrayList<>();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(d -> {}, null, charset)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(file.toFile());
      JavacTask task =
          (JavacTask) compiler.getTask(null, files, d -> {}, List.of("-proc:none"), null, units);
      SourcePositions positions = Trees.instance(task).getSourcePositions();
      for (CompilationUnitTree unit : task.parse()) {
        LineMap lines = unit.getLineMap();
        new TreePathScanner<Void, Void>() {
          @Override
          public Void visitMethod(MethodTree method, Void unused) {
            long start = positions.getStartPosition(unit, method);
            long end = positions.getEndPosition(unit, method);
            if (start >= 0 && end >= start) {
              ranges.add(
                  new Range((int) lines.getLineNumber(start), (int) lines.getLineNumber(end)));
            }
            return super.visitMethod(method, unused);
          }
        }.scan(unit, null);
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return ranges;
  }
}
