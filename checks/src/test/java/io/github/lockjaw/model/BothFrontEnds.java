package io.github.lockjaw.model;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import com.sun.tools.javac.api.BasicJavacTask;
import com.sun.tools.javac.code.Types;
import io.github.lockjaw.model.source.SourceFacts;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.ToolProvider;

/**
 * Compiles fixture sources once and reads them with both front-ends: the source front-end on the
 * attributed trees (before javac lowers them), the bytecode front-end on the class files javac then
 * writes.
 */
public final class BothFrontEnds {
  /** The classes each front-end read, by binary name, and the source front-end's units. */
  public record Read(
      Map<String, ClassFacts> fromSource,
      Map<String, ClassFacts> fromBytecode,
      List<SourceFacts.Unit> units) {}

  private BothFrontEnds() {}

  public static Read read(Map<String, String> sources, String release, Path out) throws Exception {
    Files.createDirectories(out);
    StringWriter errors = new StringWriter();
    JavacTask task =
        (JavacTask)
            ToolProvider.getSystemJavaCompiler()
                .getTask(
                    errors,
                    null,
                    null,
                    List.of(
                        "-g",
                        "-proc:none",
                        "--release",
                        release,
                        "-d",
                        out.toString(),
                        "-classpath",
                        System.getProperty("java.class.path")),
                    null,
                    CompiledFixtures.units(sources));
    Iterable<? extends CompilationUnitTree> parsed = task.parse();
    task.analyze();
    if (!errors.toString().isEmpty() && errors.toString().contains("error")) {
      throw new AssertionError("fixtures do not compile:\n" + errors);
    }
    Types types = Types.instance(((BasicJavacTask) task).getContext());
    Map<String, ClassFacts> fromSource = new TreeMap<>();
    List<SourceFacts.Unit> units = new ArrayList<>();
    for (CompilationUnitTree unit : parsed) {
      SourceFacts.Unit read = SourceFacts.read(unit, types);
      units.add(read);
      for (ClassFacts facts : read.classes()) {
        fromSource.put(facts.name(), facts);
      }
    }
    task.generate();
    return new Read(fromSource, CompiledFixtures.readAll(out), units);
  }
}
