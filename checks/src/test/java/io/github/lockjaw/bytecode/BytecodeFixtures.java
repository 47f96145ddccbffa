package io.github.lockjaw.bytecode;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/** Compiles fixture sources with javax.tools (with line numbers) and audits the classes. */
final class BytecodeFixtures {
  private BytecodeFixtures() {}

  /** Compiles {@code sources} (class name → source) into {@code out}; fails on any error. */
  static void compile(Map<String, String> sources, Path out) throws IOException {
    compile(sources, out, List.of());
  }

  /**
   * Compiles {@code sources} against the test class path and {@code classpath} into {@code out}.
   */
  static void compile(Map<String, String> sources, Path out, List<Path> classpath)
      throws IOException {
    compile(sources, out, classpath, 21);
  }

  /** As above, for {@code --release release} (class files of that version). */
  static void compile(Map<String, String> sources, Path out, List<Path> classpath, int release)
      throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
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
                    String.valueOf(release),
                    "-d",
                    out.toString(),
                    "-classpath",
                    classpath.stream()
                        .map(Path::toString)
                        .reduce(
                            System.getProperty("java.class.path"),
                            (a, b) -> a + File.pathSeparator + b)),
                null,
                units)
            .call();
    if (!ok) {
      throw new AssertionError("fixtures do not compile:\n" + errors);
    }
  }

  /** The test class path entries whose file name contains one of {@code names}. */
  static List<Path> classpathJars(String... names) {
    List<Path> jars = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String file = Path.of(entry).getFileName().toString();
      for (String name : names) {
        if (file.startsWith(name)) {
          jars.add(Path.of(entry));
        }
      }
    }
    return jars;
  }

  static String text(Path file) throws IOException {
    return Files.readString(file, UTF_8);
  }
}
