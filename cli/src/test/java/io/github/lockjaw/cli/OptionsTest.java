package io.github.lockjaw.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class OptionsTest {
  @Test
  void auditWithFormatAndOutput() throws CliException {
    Options options =
        Options.parse(
            new String[] {"audit", "--format=MARKDOWN", "--output", "r.md", "a.jar", "b.war"});
    assertEquals("audit", options.command());
    assertEquals("markdown", options.format());
    assertEquals(Path.of("r.md"), options.output());
    assertEquals(List.of(Path.of("a.jar"), Path.of("b.war")), options.paths());
  }

  @Test
  void contentionTakesSeveralRecordingsAndNoPath() throws CliException {
    Options options =
        Options.parse(
            new String[] {
              "contention", "--recording", "a.jfr", "--recording=dumps", "--", "--odd.jar"
            });
    assertEquals(List.of(Path.of("a.jfr"), Path.of("dumps")), options.recordings());
    assertEquals(List.of(Path.of("--odd.jar")), options.paths());
    assertEquals("text", options.format());
    assertNull(options.output());
  }

  @Test
  void usageErrorsSayWhatToDo() {
    assertUsage("No command given", new String[] {});
    assertUsage("Unknown command 'scan'", new String[] {"scan", "a.jar"});
    assertUsage("audit needs at least one PATH", new String[] {"audit"});
    assertUsage(
        "contention needs the evidence: --recording FILE", new String[] {"contention", "a.jar"});
    assertUsage(
        "--format is 'xml'; use text, markdown, sarif or html",
        new String[] {"audit", "--format", "xml", "a.jar"});
    assertUsage("--recording needs a value", new String[] {"contention", "--recording"});
    assertUsage("Unknown option '--verbose'", new String[] {"audit", "--verbose", "a.jar"});
    assertUsage(
        "--recording, --baseline, --fail-above and --fail-on-regression belong to",
        new String[] {"audit", "--recording", "x", "a.jar"});
    assertUsage(
        "--fail-on-regression compares with an earlier run: add --baseline FILE",
        new String[] {"contention", "--recording", "a.jfr", "--fail-on-regression"});
    assertUsage(
        "--fail-above: 'ten' is not a share of the recording",
        new String[] {"contention", "--recording", "a.jfr", "--fail-above", "ten"});
  }

  @Test
  void contentionTakesABaselineAndTheGate() throws CliException {
    Options options =
        Options.parse(
            new String[] {
              "contention",
              "--recording",
              "after.jfr",
              "--baseline=before.jfr",
              "--fail-above",
              "25%",
              "--fail-on-regression",
              "--format",
              "html",
              "shop.war"
            });
    assertEquals(List.of(Path.of("before.jfr")), options.baselines());
    assertEquals(0.25, options.gate().failAbove(), 1e-9);
    assertTrue(options.gate().failOnRegression());
    assertEquals("html", options.format());
    assertFalse(Options.parse(new String[] {"contention", "--recording", "a.jfr"}).gate().isOn());
  }

  private static void assertUsage(String message, String[] args) {
    CliException e = assertThrows(CliException.class, () -> Options.parse(args));
    assertEquals(Main.USAGE_ERROR, e.exitCode());
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }

  @Test
  void mainPrintsHelpAndOneLineErrorsWithTheirExitCodes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(Main.OK, Main.run(new String[] {"audit", "--help"}, o, e));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("Exit codes:"));
    assertEquals(Main.USAGE_ERROR, Main.run(new String[] {"audit"}, o, e));
    assertEquals(Main.INPUT_ERROR, Main.run(new String[] {"audit", "no/such/app.war"}, o, e));
    String errors = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, errors.lines().count(), errors);
    assertTrue(
        errors.contains("lockjaw: no/such/app.war does not exist")
            || errors.contains("app.war does not exist"),
        errors);
  }
}
