package io.github.lockjaw.engine.fix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Severity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, items 3 and 7, and issue 24: which files the fixes leave alone, which file's fixes are
 * dropped, for lockjaw:fix and check --fix alike.
 */
class FixApplierTest {
  @TempDir Path dir;

  @Test
  void aFileWithoutWritePermissionIsReadOnlyEvenForRoot() throws Exception {
    Path file = Files.writeString(dir.resolve("A.java"), "class A {}");
    assertFalse(FixApplier.isReadOnly(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
    assertTrue(FixApplier.isReadOnly(file), "root may write it, but the file says read-only");
  }

  @Test
  void onlyTheFileThatJavacNamesLosesItsFixes() {
    Path inner = Path.of("/repo/src/main/java/shop/Poller.java");
    Path other = Path.of("/repo/src/main/java/shop/PollerTest.java");
    String errors =
        "lockjaw cannot analyse shop: its sources do not compile against the module's classpath (javac --release 17)."
            + " javac's first errors:\n  /repo/src/main/java/shop/Poller.java:9: cannot find symbol\n"
            + "  symbol: variable T\nFix these errors (mvn compile shows them too)";
    assertEquals(
        List.of("/repo/src/main/java/shop/Poller.java:9: cannot find symbol"),
        FixApplier.errorsIn(errors, inner));
    assertEquals(
        List.of(),
        FixApplier.errorsIn(errors, other),
        "a file whose name only starts the same is not named");
  }

  @Test
  void aFileWhoseFixDoesNotCompileIsRestoredAndTheOthersKeepTheirs() throws Exception {
    Path good = Files.writeString(dir.resolve("Good.java"), "class Good { int x = 1; }\n");
    Path bad = Files.writeString(dir.resolve("Bad.java"), "class Bad { int y = 2; }\n");
    Path locked = Files.writeString(dir.resolve("Locked.java"), "class Locked { int z = 3; }\n");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r--r--r--"));
    List<String> warnings = new ArrayList<>();
    int[] analyses = {0};
    FixApplier.Analyzer analyzer =
        runChecks -> {
          analyses[0]++;
          if (!runChecks) {
            // the compile check after the fixes: Bad's fix does not compile until it is dropped
            return read(bad).contains("broken")
                ? FixApplier.Analysis.failed(bad + ":1: cannot find symbol", null)
                : FixApplier.Analysis.of(List.of());
          }
          List<Finding> findings = new ArrayList<>();
          if (read(good).contains("int x")) {
            findings.add(finding(good, "int x", "final int x"));
          }
          if (read(bad).contains("int y")) {
            findings.add(finding(bad, "int y", "broken y"));
          }
          findings.add(finding(locked, "int z", "final int z"));
          return FixApplier.Analysis.of(findings);
        };
    FixApplier.Result result =
        new FixApplier(UTF_8, f -> Path.of(f.file()).getFileName().toString(), log(warnings))
            .apply(List.of(good, bad, locked), f -> true, analyzer, "shop");

    assertEquals("class Good { final int x = 1; }\n", read(good));
    assertEquals("class Bad { int y = 2; }\n", read(bad), "the fix that broke the build is undone");
    assertEquals("class Locked { int z = 3; }\n", read(locked));
    assertEquals(List.of(good), List.copyOf(result.fixed().keySet()));
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("Locked.java is read-only")),
        warnings.toString());
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("dropped its fixes in " + bad)),
        warnings.toString());
    assertTrue(
        result.report().get(good).contains("  fixed Good.java:1 [Demo]"),
        result.report().toString());
  }

  @Test
  void aFirstAnalysisThatFailsChangesNothingAndCarriesItsCause() throws Exception {
    Path file = Files.writeString(dir.resolve("A.java"), "class A {}");
    Exception cause = new Exception("sources do not compile");
    FixApplier.FixFailure failure =
        assertThrows(
            FixApplier.FixFailure.class,
            () ->
                new FixApplier(UTF_8, f -> f.file(), log(new ArrayList<>()))
                    .apply(
                        List.of(file),
                        f -> true,
                        runChecks -> FixApplier.Analysis.failed("sources do not compile", cause),
                        "shop"));
    assertSame(cause, failure.getCause());
    assertEquals("class A {}", read(file));
  }

  private static Finding finding(Path file, String from, String to) {
    String text = read(file);
    int start = text.indexOf(from);
    return new Finding(
        "Demo",
        Severity.WARNING,
        file.toString(),
        1,
        start + 1,
        "demo",
        "",
        "",
        "",
        from,
        List.of(new Edit(start, start + from.length(), to)));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static FixApplier.Log log(List<String> warnings) {
    return new FixApplier.Log() {
      @Override
      public void warn(String message) {
        warnings.add(message);
      }

      @Override
      public void error(String message) {
        warnings.add(message);
      }
    };
  }
}
