package io.github.lockjaw.maven.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Item 5 of issue 17: a corrupt dependency jar is named, not a javac crash or "no findings". */
class UnreadableJarsTest {
  @TempDir Path dir;

  @Test
  void aTruncatedJarIsNamedAGoodOneAndADirectoryAreNot() throws Exception {
    Path good = dir.resolve("good.jar");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(good))) {
      zip.putNextEntry(new ZipEntry("a/B.class"));
      zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
    }
    Path broken = dir.resolve("broken-1.0.jar");
    byte[] bytes = Files.readAllBytes(good);
    Files.write(broken, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Path html = dir.resolve("page.jar");
    Files.writeString(html, "<html>502 Bad Gateway</html>");

    List<String> problems =
        UnreadableJars.among(List.of(good, broken, html, dir, dir.resolve("missing.jar")));
    assertEquals(2, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith(broken.toString()), problems.get(0));
    assertTrue(problems.get(1).startsWith(html.toString()), problems.get(1));
    String message = UnreadableJars.message("analyse shop", problems);
    assertTrue(message.contains("these jars cannot be read"), message);
    assertTrue(message.contains("Delete it from the local repository"), message);
  }
}
