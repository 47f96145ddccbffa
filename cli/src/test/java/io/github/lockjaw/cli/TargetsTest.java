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
    assertTrue(none.getMessage().contains("holds nothing to audit"), none.getMessage());
  }

  @Test
  void anEmptyWebInfIsNothingToAudit() throws Exception {
    Path app = temp.resolve("empty-app");
    Files.createDirectories(app.resolve("WEB-INF/lib"));
    Files.createDirectories(app.resolve("WEB-INF/classes"));
    CliException none = assertThrows(CliException.class, () -> Targets.expand(List.of(app)));
    assertEquals(Main.INPUT_ERROR, none.exitCode());
    assertTrue(none.getMessage().contains("holds nothing to audit"), none.getMessage());
  }

  @Test
  void springBootJarGivesItsClassesNestedJarsAndLauncher() throws Exception {
    Path boot =
        Files.write(
            temp.resolve("app.jar"),
            zip(
                Map.of(
                    "META-INF/MANIFEST.MF",
                    "Main-Class: org.springframework.boot.loader.launch.JarLauncher\n".getBytes(),
                    "org/springframework/boot/loader/launch/JarLauncher.class",
                    CLASS,
                    "BOOT-INF/classes/com/acme/Shop.class",
                    CLASS,
                    "BOOT-INF/classes/application.properties",
                    "x=1".getBytes(),
                    "BOOT-INF/lib/commons-pool-1.3.jar",
                    zip(Map.of("org/apache/commons/pool/Pool.class", CLASS)))));
    try (Targets targets = Targets.expand(List.of(boot))) {
      assertEquals(
          List.of(
              "app.jar!/BOOT-INF/classes",
              "app.jar!/BOOT-INF/lib/commons-pool-1.3.jar",
              "app.jar!/org/springframework/boot/loader (Spring Boot launcher)"),
          targets.labels());
      Path nested = targets.entries().get(1);
      assertEquals("commons-pool-1.3.jar", nested.getFileName().toString());
      assertTrue(Files.isRegularFile(nested));
    }
  }

  @Test
  void springBootWarReadsLibProvidedToo() throws Exception {
    Path war =
        Files.write(
            temp.resolve("shop.war"),
            zip(
                Map.of(
                    "WEB-INF/classes/com/acme/Shop.class", CLASS,
                    "WEB-INF/lib/a.jar", zip(Map.of("a/A.class", CLASS)),
                    "WEB-INF/lib-provided/tomcat.jar", zip(Map.of("t/T.class", CLASS)))));
    try (Targets targets = Targets.expand(List.of(war))) {
      assertEquals(
          List.of(
              "shop.war!/WEB-INF/classes",
              "shop.war!/WEB-INF/lib/a.jar",
              "shop.war!/WEB-INF/lib-provided/tomcat.jar"),
          targets.labels());
    }
  }

  @Test
  void quarkusAppAndWebappsDirectoriesKeepEveryApplicationApart() throws Exception {
    Path quarkus = temp.resolve("quarkus-app");
    Files.createDirectories(quarkus.resolve("lib/main"));
    Files.createDirectories(quarkus.resolve("lib/boot"));
    Files.createDirectories(quarkus.resolve("app"));
    Files.write(
        quarkus.resolve("quarkus-run.jar"), zip(Map.of("META-INF/MANIFEST.MF", new byte[0])));
    Files.write(quarkus.resolve("app/shop-1.0.jar"), zip(Map.of("com/acme/Shop.class", CLASS)));
    Files.write(
        quarkus.resolve("lib/main/commons-pool.commons-pool-1.3.jar"),
        zip(Map.of("org/apache/commons/pool/Pool.class", CLASS)));
    try (Targets targets = Targets.expand(List.of(Path.of(quarkus.toString())))) {
      assertEquals(
          List.of(
              quarkus + "/app/shop-1.0.jar",
              quarkus + "/lib/main/commons-pool.commons-pool-1.3.jar"),
          targets.labels());
    }

    Path webapps = temp.resolve("webapps");
    for (String app : List.of("shop", "admin")) {
      Files.createDirectories(webapps.resolve(app + "/WEB-INF/classes/com/acme"));
      Files.write(webapps.resolve(app + "/WEB-INF/classes/com/acme/Cache.class"), CLASS);
      Files.createDirectories(webapps.resolve(app + "/WEB-INF/lib"));
      Files.write(webapps.resolve(app + "/WEB-INF/lib/dbcp.jar"), zip(Map.of("a/B.class", CLASS)));
    }
    try (Targets targets = Targets.expand(List.of(webapps))) {
      assertEquals(
          List.of(
              webapps + "/admin/WEB-INF/classes",
              webapps + "/admin/WEB-INF/lib/dbcp.jar",
              webapps + "/shop/WEB-INF/classes",
              webapps + "/shop/WEB-INF/lib/dbcp.jar"),
          targets.labels());
    }
  }

  /** A zip of one entry of {@code size} zero bytes: a few kilobytes that inflate hugely. */
  private Path bomb(String name, String entry, long size) throws IOException {
    Path file = temp.resolve(name);
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
      zip.putNextEntry(new ZipEntry(entry));
      byte[] zeros = new byte[1 << 20];
      for (long written = 0; written < size; written += zeros.length) {
        zip.write(zeros);
      }
      zip.closeEntry();
    }
    return file;
  }

  @Test
  void zipBombsStopAtALimitWithAMessageThatNamesTheEntry() throws Exception {
    // 200 MB of zeros in a WAR of about 200 KB: past the inflate ratio long before it is written
    Path war = bomb("bomb.war", "WEB-INF/lib/huge.jar", 200L << 20);
    assertTrue(Files.size(war) < 1 << 20, "the bomb is small: " + Files.size(war));
    CliException ratio = assertThrows(CliException.class, () -> Targets.expand(List.of(war)));
    assertEquals(Main.INPUT_ERROR, ratio.exitCode());
    assertTrue(
        ratio
            .getMessage()
            .startsWith("bomb.war!/WEB-INF/lib/huge.jar inflates to more than 100 times"),
        ratio.getMessage());
    assertTrue(ratio.getMessage().contains("-Dlockjaw.maxInflateRatio="), ratio.getMessage());
    assertEquals(1, ratio.getMessage().lines().count());

    // the entry-size and total limits hold too, without trusting the zip's directory
    ArchiveLimits small = new ArchiveLimits(8 << 20, 1L << 40, 1_000_000, 4, 1000);
    Path jar = bomb("big.jar", "a/Big.class", 20L << 20);
    CliException entry =
        assertThrows(CliException.class, () -> Targets.expand(List.of(jar), small));
    assertTrue(
        entry.getMessage().startsWith("big.jar!/a/Big.class inflates to more than 8 MB"),
        entry.getMessage());
    ArchiveLimits total = new ArchiveLimits(1L << 40, 8 << 20, 1_000_000, 4, 1000);
    CliException all = assertThrows(CliException.class, () -> Targets.expand(List.of(jar), total));
    assertTrue(all.getMessage().contains("past 8 MB inflated in all"), all.getMessage());

    // nesting: an EAR in an EAR in an EAR ... past the depth limit
    byte[] nested = zip(Map.of("a/A.class", CLASS));
    for (int i = 0; i < 5; i++) {
      nested = zip(Map.of("inner" + i + ".ear", nested));
    }
    Path deep = Files.write(temp.resolve("deep.ear"), nested);
    CliException depth = assertThrows(CliException.class, () -> Targets.expand(List.of(deep)));
    assertTrue(
        depth.getMessage().contains("archives deep, more than the limit of 4"), depth.getMessage());

    // entry count
    ArchiveLimits few = new ArchiveLimits(1L << 40, 1L << 40, 1_000_000, 4, 2);
    Path many =
        Files.write(
            temp.resolve("many.jar"),
            zip(Map.of("a/A.class", CLASS, "a/B.class", CLASS, "a/C.class", CLASS)));
    CliException count = assertThrows(CliException.class, () -> Targets.expand(List.of(many), few));
    assertTrue(
        count.getMessage().startsWith("many.jar holds more than 2 entries"), count.getMessage());
    try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      // no half-written temporary file of this test is left (the directories are removed on close)
      assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith(".lockjaw-")));
    }
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
