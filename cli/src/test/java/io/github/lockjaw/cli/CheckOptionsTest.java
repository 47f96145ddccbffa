package io.github.lockjaw.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 24: check's command line, its class path globs and its source files. */
class CheckOptionsTest {
  @TempDir Path dir;

  @Test
  void readsCheckOptions() throws Exception {
    Options options =
        Options.parse(
            new String[] {
              "check",
              "--classpath",
              "lib/*" + File.pathSeparator + "classes",
              "--classpath=extra.jar",
              "--release",
              "11",
              "--encoding=ISO-8859-1",
              "--baseline",
              "base.json",
              "--fix",
              "--format",
              "html",
              "src"
            });
    assertEquals("check", options.command());
    assertEquals("html", options.format());
    assertEquals(List.of("lib/*", "classes", "extra.jar"), options.check().classpath());
    assertEquals("11", options.check().release());
    assertEquals(StandardCharsets.ISO_8859_1, options.check().encoding());
    assertEquals(Path.of("base.json"), options.check().baseline());
    assertTrue(options.check().fix());
    assertEquals(List.of(Path.of("src")), options.paths());
  }

  @Test
  void wrongUseIsExplained() {
    assertEquals(
        "check needs at least one PATH: a Java source file or a directory of them (e.g."
            + " src/main/java).",
        usage("check", "--release", "17"));
    assertTrue(usage("check", "--release", "1.8", "src").contains("8 or newer"));
    assertTrue(usage("check", "--release", "99", "src").contains("newer than the Java"));
    assertTrue(usage("audit", "--fix", "app.jar").contains("belongs to the check command"));
    assertTrue(
        usage("audit", "--format", "html", "app.jar").contains("use text, markdown or sarif"));
    assertTrue(usage("check", "--write-baseline", "src").contains("needs --baseline FILE"));
    assertTrue(usage("check", "--fix=yes", "src").contains("takes no value"));
  }

  @Test
  void classPathGlobsAreTheJarsTheyMatch() throws Exception {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.createFile(lib.resolve("b.jar"));
    Files.createFile(lib.resolve("a.JAR"));
    Files.createFile(lib.resolve("notes.txt"));
    Files.createDirectories(lib.resolve("nested"));
    Files.createFile(lib.resolve("nested/c.jar"));
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(progress, true, StandardCharsets.UTF_8);
    String base = lib.toString();
    assertEquals(
        List.of(lib.resolve("a.JAR").toString(), lib.resolve("b.jar").toString()),
        CheckInputs.classpath(List.of(base + "/*"), out));
    assertEquals(
        List.of(
            lib.resolve("a.JAR").toString(),
            lib.resolve("b.jar").toString(),
            lib.resolve("nested/c.jar").toString()),
        CheckInputs.classpath(List.of(base + "/**"), out));
    assertEquals(List.of(), CheckInputs.classpath(List.of(base + "/*.war"), out));
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("matches no jar"));
    CliException missing =
        assertThrows(
            CliException.class,
            () -> CheckInputs.classpath(List.of(dir.resolve("nope.jar").toString()), out));
    assertEquals(Main.INPUT_ERROR, missing.exitCode());
  }

  @Test
  void sourcesAreTheJavaFilesUnderThePathsOutsideHiddenDirectories() throws Exception {
    Path src = Files.createDirectories(dir.resolve("src/shop"));
    Files.writeString(src.resolve("A.java"), "class A {}");
    Files.writeString(src.resolve("module-info.java"), "module shop {}");
    Files.createDirectories(dir.resolve("src/.git"));
    Files.writeString(dir.resolve("src/.git/B.java"), "class B {}");
    assertEquals(
        List.of(src.resolve("A.java").toAbsolutePath()),
        CheckInputs.sources(List.of(dir.resolve("src"))));
    CliException none =
        assertThrows(
            CliException.class,
            () -> CheckInputs.sources(List.of(Files.createDirectories(dir.resolve("empty")))));
    assertEquals(Main.INPUT_ERROR, none.exitCode());
  }

  private static String usage(String... args) {
    CliException e = assertThrows(CliException.class, () -> Options.parse(args));
    assertEquals(Main.USAGE_ERROR, e.exitCode(), e.getMessage());
    return e.getMessage();
  }
}
