package io.github.lockjaw.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetsTest {
  @TempDir Path temp;

  /** A zip with the given entries; each value is the entry's bytes. */
  static byte[] zip(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
        zip.putNextEntry(new ZipEntry(entry.getKey()));
        zip.write(entry.getValue());
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  static final byte[] CLASS = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE};

  @Test
  void warGivesItsLibJarsAndClassesAndIsCleanedUp() throws Exception {
    byte[] lib = zip(Map.of("org/acme/Pool.class", CLASS));
    Path war =
        Files.write(
            temp.resolve("shop.war"),
            zip(
                Map.of(
                    "WEB-INF/lib/commons-pool-1.3.jar",
                    lib,
                    "WEB-INF/classes/com/acme/Cache.class",
                    CLASS,
                    "index.jsp",
                    "<html/>".getBytes(),
                    "WEB-INF/web.xml",
                    "<web-app/>".getBytes())));
    Path unpacked;
    try (Targets targets = Targets.expand(List.of(war))) {
      assertEquals(
          List.of("shop.war!/WEB-INF/classes", "shop.war!/WEB-INF/lib/commons-pool-1.3.jar"),
          targets.labels());
      Path classes = targets.entries().get(0);
      assertTrue(Files.isRegularFile(classes.resolve("com/acme/Cache.class")));
      assertFalse(
          Files.exists(classes.getParent().getParent().resolve("index.jsp")),
          "only classes and jars are unpacked");
      assertEquals(war.toAbsolutePath(), targets.origin(targets.entries().get(1)));
      unpacked = classes.getParent().getParent().getParent();
    }
    assertFalse(Files.exists(unpacked), "the temporary directory is deleted");
  }

  @Test
  void earGivesItsJarsAndItsWarsContents() throws Exception {
    byte[] war = zip(Map.of("WEB-INF/classes/com/acme/Web.class", CLASS));
    Path ear =
        Files.write(
            temp.resolve("app.ear"),
            zip(
                Map.of(
                    "lib/shared.jar",
                    zip(Map.of("com/acme/Shared.class", CLASS)),
                    "web.war",
                    war)));
    try (Targets targets = Targets.expand(List.of(ear))) {
      assertEquals(
          List.of("app.ear!/lib/shared.jar", "app.ear!/web.war!/WEB-INF/classes"),
          targets.labels());
    }
  }

  @Test
  void explodedApplicationAndPlainDirectories() throws Exception {
    Path app = temp.resolve("ROOT");
    Files.createDirectories(app.resolve("WEB-INF/classes/com/acme"));
    Files.write(app.resolve("WEB-INF/classes/com/acme/Cache.class"), CLASS);
    Files.createDirectories(app.resolve("WEB-INF/lib"));
    Files.write(app.resolve("WEB-INF/lib/dbcp.jar"), zip(Map.of("a/B.class", CLASS)));
    Files.write(app.resolve("WEB-INF/lib/readme.txt"), "not a jar".getBytes());
    try (Targets targets = Targets.expand(List.of(app, app.resolve("WEB-INF/lib")))) {
      List<String> labels = targets.labels();
      assertEquals(2, labels.size(), "the jar given twice is audited once: " + labels);
      assertTrue(labels.get(0).endsWith("ROOT/WEB-INF/classes"), labels.toString());
      assertTrue(labels.get(1).endsWith("ROOT/WEB-INF/lib/dbcp.jar"), labels.toString());
    }
  }

  @Test
  void inputErrors() throws Exception {
    Path notAJar = Files.writeString(temp.resolve("broken.jar"), "truncated");
    CliException broken = assertThrows(CliException.class, () -> Targets.expand(List.of(notAJar)));
    assertEquals(Main.INPUT_ERROR, broken.exitCode());
    assertTrue(broken.getMessage().contains("is not a readable jar/zip file"), broken.getMessage());
    Path text = Files.writeString(temp.resolve("notes.txt"), "x");
    CliException other = assertThrows(CliException.class, () -> Targets.expand(List.of(text)));
    assertTrue(other.getMessage().contains("is not a jar, WAR or EAR file"), other.getMessage());
    Path empty = Files.createDirectory(temp.resolve("empty"));
    CliException none = assertThrows(CliException.class, () -> Targets.expand(List.of(empty)));
    assertTrue(
        none.getMessage().contains("holds no jar, WAR, EAR or class file"), none.getMessage());
  }

  @Test
  void zipSlipEntriesAreNotWrittenOutside() throws Exception {
    Path war =
        Files.write(
            temp.resolve("evil.war"),
            zip(
                Map.of(
                    "WEB-INF/classes/../../../../escaped.class", CLASS,
                    "WEB-INF/classes/com/acme/Ok.class", CLASS)));
    try (Targets targets = Targets.expand(List.of(war))) {
      assertEquals(1, targets.entries().size());
    }
    assertFalse(Files.exists(temp.resolve("escaped.class")));
  }
}
