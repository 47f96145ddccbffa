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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The editor reads the module's other files from the source path without attributing their method
 * bodies; checks that look into a called method of another file must then say what the build says
 * (which compiles every file), or stay silent, never more.
 */
class SourcePathConsistencyTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Thread.sleep(5);", // a short pause in the helper
        "Thread.sleep(60_000);", // a long one
        "Thread.onSpinWait();",
        "System.out.println(\"waiting\"); Thread.sleep(5);",
        "java.util.concurrent.locks.LockSupport.parkNanos(1_000);",
        "", // nothing at all
        "Later.step();", // two files deep: Later.step() { Last.step(); }, Last.step() { } (three
        // files)
        "Later.sleepy();" // Later.sleepy() { Last.sleepy(); }, Last.sleepy() {
        // Thread.sleep(60_000); }
      })
  void aLoopCallingAHelperInAnotherFileGetsTheBuildsVerdict(String helperBody) throws Exception {
    Path root = Files.createDirectories(dir.resolve("src/main/java"));
    Path pkg = Files.createDirectories(root.resolve("jobs"));
    String helper =
        """
        package jobs;

        final class Pause {
          static void brief() throws InterruptedException {
            %s
          }
        }
        """
            .formatted(helperBody);
    String importer =
        """
        package jobs;

        public class Importer {
          public void runImport(Runnable batch) throws InterruptedException {
            Thread worker = new Thread(batch);
            worker.start();
            while (worker.isAlive()) {
              Pause.brief();
            }
          }
        }
        """;
    Files.writeString(pkg.resolve("Pause.java"), helper, UTF_8);
    Files.writeString(
        pkg.resolve("Later.java"),
        "package jobs; final class Later { static void step() { Last.step(); }"
            + " static void sleepy() throws InterruptedException { Last.sleepy(); } }",
        UTF_8);
    Files.writeString(
        pkg.resolve("Last.java"),
        "package jobs; final class Last { static void step() {}"
            + " static void sleepy() throws InterruptedException { Thread.sleep(60_000); } }",
        UTF_8);
    Path file = pkg.resolve("Importer.java");
    Files.writeString(file, importer, UTF_8);

    // the build: both files compiled together
    LockjawAnalyzer analyzer = new LockjawAnalyzer();
    JavacTool tool = JavacTool.create();
    List<String> build;
    try (StandardJavaFileManager files = tool.getStandardFileManager(null, Locale.ROOT, UTF_8)) {
      Compilation compilation =
          analyzer.compile(
              tool,
              files,
              files.getJavaFileObjects(
                  pkg.resolve("Pause.java"),
                  pkg.resolve("Later.java"),
                  pkg.resolve("Last.java"),
                  file),
              List.of());
      assertEquals(List.of(), compilation.errors());
      build =
          analyzer.scan(compilation, List.of(), false).stream()
              .map(Located::finding)
              .filter(f -> f.file().equals(file.toString()))
              .map(f -> f.check() + "@" + f.line())
              .toList();
    }

    // the editor: the file alone, Pause.java from the source path
    FileAnalyzer.Outcome outcome =
        new FileAnalyzer()
            .analyze(file.toUri(), importer, new Project(null, List.of(), List.of(root), null));
    List<String> editor =
        outcome.findings().stream()
            .map(l -> l.finding().check() + "@" + l.finding().line())
            .toList();
    assertEquals(0, outcome.errorsInFile());
    System.out.println(
        "helper body '" + helperBody + "': the build says " + build + ", the editor " + editor);
    assertEquals(build, editor, "helper body: " + helperBody);
    // and the verdict itself: a helper that only pauses briefly (or does nothing) keeps the loop a
    // busy wait; one that blocks for a minute, however deep, does not
    boolean blocks = helperBody.contains("60_000") || helperBody.contains("sleepy");
    assertEquals(
        blocks ? List.of() : List.of("ThreadAliveBusyWait@7"),
        editor,
        "helper body: " + helperBody);
  }
}
