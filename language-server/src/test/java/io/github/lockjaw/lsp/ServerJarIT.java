package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.lsp4j.Diagnostic;
import org.junit.jupiter.api.Assumptions;
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

  @Test
  void anOldJavaGetsOneLineNotAClassVersionError() throws Exception {
    Path oldJava = javaOlderThan21();
    Assumptions.assumeTrue(
        oldJava != null,
        "no Java older than 21 under /usr/lib/jvm, /opt/java or /usr/java: install one (e.g. apt-get"
            + " install openjdk-17-jre-headless) to run this test");
    Process process =
        new ProcessBuilder(oldJava.toString(), "-jar", jar().toString())
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, process.exitValue(), output);
    List<String> lines = output.lines().toList();
    assertEquals(1, lines.size(), output);
    assertTrue(
        output.startsWith(
            "lockjaw-language-server needs Java 21 or newer, but was started with Java "),
        output);
    assertTrue(output.contains("lockjaw.java"), output);
    assertFalse(output.contains("UnsupportedClassVersionError"), output);
    assertFalse(output.contains("Exception") || output.contains("\tat "), output);
  }

  @Test
  void plainTextOnStandardInputGetsAParagraphNotAStackTrace() throws Exception {
    Path log = workspace.resolve("server.log");
    Process process =
        new ProcessBuilder(java(), "-jar", jar().toString()).redirectError(log.toFile()).start();
    try (OutputStream in = process.getOutputStream()) {
      in.write("hello\n\n".getBytes(UTF_8)); // typed at a terminal
      in.write("Content-Length: 5\r\n\r\nhello".getBytes(UTF_8)); // a header, then no JSON
      in.flush();
      Thread.sleep(1000);
    }
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server ends when its input ends");
    String output = Files.readString(log, UTF_8);
    List<String> paragraphs = output.lines().filter(l -> !l.isBlank()).toList();
    assertEquals(2, paragraphs.size(), output);
    for (String paragraph : paragraphs) {
      assertTrue(
          paragraph.startsWith(
              "lockjaw-language-server: ignored input that is not a Language Server Protocol message ("),
          paragraph);
      assertTrue(paragraph.contains("docs/ide.md"), paragraph);
    }
    assertTrue(paragraphs.get(0).contains("Missing header Content-Length"), output);
    assertFalse(output.contains("\tat ") || output.contains("Exception"), output);
  }

  /** The java of a JDK or JRE older than 21 in the usual places, or null. */
  static Path javaOlderThan21() throws IOException {
    for (String root : List.of("/usr/lib/jvm", "/opt/java", "/usr/java")) {
      Path dir = Path.of(root);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> homes = Files.list(dir)) {
        for (Path home : homes.sorted().toList()) {
          Path java = home.resolve("bin/java");
          Path release = home.resolve("release");
          if (Files.isExecutable(java) && Files.isRegularFile(release)) {
            String version =
                Files.readAllLines(release, UTF_8).stream()
                    .filter(l -> l.startsWith("JAVA_VERSION="))
                    .map(l -> l.substring("JAVA_VERSION=".length()).replace("\"", ""))
                    .findFirst()
                    .orElse("");
            String feature = version.startsWith("1.") ? version.substring(2) : version;
            feature = feature.replaceFirst("[^0-9].*$", "");
            if (!feature.isEmpty() && Integer.parseInt(feature) < 21) {
              return java;
            }
          }
        }
      }
    }
    return null;
  }
}
