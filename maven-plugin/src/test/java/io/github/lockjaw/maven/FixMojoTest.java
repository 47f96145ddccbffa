package io.github.lockjaw.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17, items 3 and 7: which files fix leaves alone, and which file's fixes it drops. */
class FixMojoTest {
  @TempDir Path dir;

  @Test
  void aFileWithoutWritePermissionIsReadOnlyEvenForRoot() throws Exception {
    Path file = Files.writeString(dir.resolve("A.java"), "class A {}");
    assertFalse(FixMojo.isReadOnly(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
    assertTrue(FixMojo.isReadOnly(file), "root may write it, but the file says read-only");
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
        FixMojo.errorsIn(errors, inner));
    assertEquals(
        List.of(),
        FixMojo.errorsIn(errors, other),
        "a file whose name only starts the same is not named");
  }
}
