package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.tools.javac.api.JavacTool;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Compilation;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Located;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.tools.StandardJavaFileManager;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SharedMonitorDao on an override that runs under a superclass's {@code synchronized} template
 * method, with the superclass in another file of the module: the editor, which reads that file from
 * the source path, says what the build (every file compiled together) says.
 */
class InheritedTemplateSourcePathTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // the template calls the hook under the instance monitor: reported in both
        "public synchronized void handle(String event) throws Exception { handled++;"
            + " doHandle(event); }|SharedMonitorDao@9",
        // this.doHandle(...), the same
        "public synchronized void handle(String event) throws Exception { handled++;"
            + " this.doHandle(event); }|SharedMonitorDao@9",
        // not synchronized: the override runs outside the lock
        "public void handle(String event) throws Exception { synchronized (EventHandler.class) {"
            + " handled++; } doHandle(event); }|",
        // synchronized, but the hook runs later, on another thread
        "public synchronized void handle(String event) { handled++; new Thread(() -> { try {"
            + " doHandle(event); } catch (Exception e) { } }).start(); }|",
      })
  void anOverrideUnderASourcePathSuperclassesTemplateGetsTheBuildsVerdict(
      String template, String expected) throws Exception {
    Path root = Files.createDirectories(dir.resolve("src/main/java"));
    Path framework = Files.createDirectories(root.resolve("events/framework"));
    Path app = Files.createDirectories(root.resolve("events/app"));
    Files.writeString(
        framework.resolve("EventHandler.java"),
        """
        package events.framework;

        public abstract class EventHandler {
          private long handled;

          %s

          protected abstract void doHandle(String event) throws Exception;
        }
        """
            .formatted(template),
        UTF_8);
    String handler =
        """
        package events.app;

        import java.sql.Connection;
        import javax.sql.DataSource;

        public class OrderEventHandler extends events.framework.EventHandler {
          private DataSource dataSource;

          protected void doHandle(String orderId) throws Exception {
            try (Connection c = dataSource.getConnection()) {
              c.createStatement().executeUpdate("delete from orders where id = " + orderId.length());
            }
          }
        }
        """;
    Path file = app.resolve("OrderEventHandler.java");
    Files.writeString(file, handler, UTF_8);

    LockjawAnalyzer analyzer = new LockjawAnalyzer();
    JavacTool tool = JavacTool.create();
    List<String> build;
    try (StandardJavaFileManager files = tool.getStandardFileManager(null, Locale.ROOT, UTF_8)) {
      Compilation compilation =
          analyzer.compile(
              tool,
              files,
              files.getJavaFileObjects(framework.resolve("EventHandler.java"), file),
              List.of());
      assertEquals(List.of(), compilation.errors());
      build =
          analyzer.scan(compilation, List.of(), false).stream()
              .map(Located::finding)
              .filter(f -> f.file().equals(file.toString()))
              .map(f -> f.check() + "@" + f.line())
              .toList();
    }

    FileAnalyzer.Outcome outcome =
        new FileAnalyzer()
            .analyze(file.toUri(), handler, new Project(null, List.of(), List.of(root), null));
    List<String> editor =
        outcome.findings().stream()
            .map(l -> l.finding().check() + "@" + l.finding().line())
            .toList();
    assertEquals(0, outcome.errorsInFile());
    List<String> verdict = expected == null ? List.of() : List.of(expected);
    assertEquals(verdict, build, "the build");
    assertEquals(verdict, editor, "the editor");
  }
}
