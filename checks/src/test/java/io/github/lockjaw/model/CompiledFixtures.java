package io.github.lockjaw.model;

import io.github.lockjaw.model.bytecode.ClassFileFacts;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/** Compiles fixture sources with javac and reads the class files with the bytecode front-end. */
public final class CompiledFixtures {
  private CompiledFixtures() {}

  /** Source units for javac: class name → source text. */
  public static List<JavaFileObject> units(Map<String, String> sources) {
    List<JavaFileObject> units = new ArrayList<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      URI uri = URI.create("string:///" + source.getKey().replace('.', '/') + ".java");
      units.add(
          new SimpleJavaFileObject(uri, JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return source.getValue();
            }
          });
    }
    return units;
  }

  /** Compiles the sources with {@code --release} into a new directory and reads every class. */
  public static Map<String, ClassFacts> compileAndRead(
      Map<String, String> sources, String release, Path out) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Files.createDirectories(out);
    StringWriter errors = new StringWriter();
    boolean ok =
        javac
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
                units(sources))
            .call();
    if (!ok) {
      throw new AssertionError("fixtures do not compile:\n" + errors);
    }
    return readAll(out);
  }

  /** Every class file under {@code dir}, by binary name. */
  public static Map<String, ClassFacts> readAll(Path dir) throws IOException {
    Map<String, ClassFacts> classes = new TreeMap<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        try {
          ClassFileFacts.Read read = ClassFileFacts.read(Files.readAllBytes(file), file.toString());
          if (!read.problems().isEmpty()) {
            throw new AssertionError(file + ": " + read.problems());
          }
          classes.put(read.facts().name(), read.facts());
        } catch (io.github.lockjaw.model.bytecode.UnreadableClassException e) {
          throw new AssertionError(e);
        }
      }
    }
    return classes;
  }

  static String classpath() {
    return System.getProperty("java.class.path") + File.pathSeparator;
  }
}
