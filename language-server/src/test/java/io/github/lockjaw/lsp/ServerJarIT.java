package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.Diagnostic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as editors start it: {@code java -jar}, LSP over the process's standard streams.
 */
class ServerJarIT {
  @TempDir Path workspace;

  static Path jar() {
    Path jar = Path.of(System.getProperty("lockjaw.lsp.jar", "target/lockjaw-language-server.jar"));
    assertTrue(Files.isRegularFile(jar), "no server jar at " + jar + "; run mvn package first");
    return jar.toAbsolutePath();
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  @Test
  void javaDashJarServesDiagnosticsAndEndsOnShutdownThenExit() throws Exception {
    Path file = workspace.resolve("Downloader.java");
    String text =
        """
        import java.util.concurrent.Future;

        public class Downloader {
          String await(Future<String> download) throws Exception {
            while (!download.isDone()) {
              Thread.onSpinWait();
            }
            return download.get();
          }
        }
        """;
    Files.writeString(file, text, UTF_8);
    Process process =
        new ProcessBuilder(java(), "-jar", jar().toString())
            .redirectError(workspace.resolve("server.log").toFile())
            .start();
    try (LspSession session = LspSession.overStreams(process)) {
      assertEquals("lockjaw", session.initialize(workspace, null).getServerInfo().getName());
      session.open(file, text);
      List<Diagnostic> diagnostics = session.diagnostics(file, 1).getDiagnostics();
      assertEquals(
          1,
          diagnostics.size(),
          diagnostics + "\n" + Files.readString(workspace.resolve("server.log")));
      assertEquals("ThreadAliveBusyWait", diagnostics.get(0).getCode().getLeft());
      assertEquals(4, diagnostics.get(0).getRange().getStart().getLine());

      session.server.shutdown().get(30, TimeUnit.SECONDS);
      session.server.exit();
      assertTrue(
          process.waitFor(20, TimeUnit.SECONDS), "the server did not end after shutdown and exit");
      assertEquals(0, process.exitValue());
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void anArgumentGetsAClearMessageNotAStackTrace() throws Exception {
    Process process =
        new ProcessBuilder(java(), "-jar", jar().toString(), "--port", "5007")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, process.exitValue());
    assertTrue(output.contains("takes no arguments") && output.contains("docs/ide.md"), output);
    assertTrue(!output.contains("Exception"), output);
  }
}
