package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real editor: Neovim, headless, starts the server jar through its own LSP client, opens a file
 * and prints the diagnostics it received. Needs {@code nvim} (0.7+) on the PATH ({@code .ci/run}
 * installs Debian's {@code neovim}); {@code -Dlockjaw.skipNeovim=true} skips this test.
 */
class NeovimIT {
  @TempDir Path workspace;

  @Test
  void neovimShowsTheBusyWaitDiagnostic() throws Exception {
    Assumptions.assumeFalse(Boolean.getBoolean("lockjaw.skipNeovim"), "-Dlockjaw.skipNeovim=true");
    String nvim = onPath("nvim");
    assertTrue(
        nvim != null,
        "this test needs Neovim 0.7 or newer on the PATH: install it (apt-get install -y neovim) or run with"
            + " -Dlockjaw.skipNeovim=true");
    Path file =
        Files.createDirectories(workspace.resolve("src/main/java/jobs")).resolve("Importer.java");
    Files.writeString(
        file,
        """
        package jobs;

        public class Importer {
          public void runImport(Runnable batch) throws InterruptedException {
            Thread worker = new Thread(batch, "import");
            worker.start();
            while (worker.isAlive()) {
              Thread.sleep(10);
            }
          }

          public void runQuietly(Thread other) throws InterruptedException {
            other.join();
          }
        }
        """,
        UTF_8);
    Path script = workspace.resolve("diagnostics.lua");
    try (var in = NeovimIT.class.getResourceAsStream("/nvim/diagnostics.lua")) {
      Files.copy(in, script);
    }
    Path out = workspace.resolve("diagnostics.txt");
    ProcessBuilder builder =
        new ProcessBuilder(
                nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile " + script)
            .directory(workspace.toFile())
            .redirectErrorStream(true)
            .redirectOutput(workspace.resolve("nvim.log").toFile());
    builder.environment().put("LOCKJAW_LSP_JAR", ServerJarIT.jar().toString());
    builder.environment().put("LOCKJAW_JAVA", ServerJarIT.java());
    builder.environment().put("LOCKJAW_FILE", file.toString());
    builder.environment().put("LOCKJAW_OUT", out.toString());
    builder.environment().put("HOME", workspace.toString()); // no user configuration, no shada
    Process process = builder.start();
    boolean ended = process.waitFor(180, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly();
    }
    String log = Files.readString(workspace.resolve("nvim.log"), UTF_8);
    assertTrue(ended, "Neovim did not quit; its output:\n" + log);
    assertTrue(Files.exists(out), "Neovim wrote no diagnostics; its output:\n" + log);
    List<String> lines = Files.readAllLines(out, UTF_8);
    System.out.println("Neovim received:\n  " + String.join("\n  ", lines));
    assertEquals(2, lines.size(), lines + "\n" + log);
    // severity 2 is vim.diagnostic.severity.WARN
    assertTrue(lines.get(0).startsWith("7:5:2:lockjaw:ThreadAliveBusyWait:"), lines.get(0));
    assertTrue(lines.get(0).contains("join()"), lines.get(0));
    assertEquals("stopped=true", lines.get(1));
    assertEquals(0, process.exitValue(), log);
  }

  static String onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
