package io.github.lockjaw.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.lockjaw.cli.load.LoadProgram;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: the packaged {@code lockjaw-cli} jar on applications as they are deployed, built from
 * real jars of Maven Central (target/audit-jars): a Spring Boot executable jar in the layout
 * spring-boot-maven-plugin writes (the launcher of spring-boot-loader 3.4.1 at the root, the
 * classes under BOOT-INF/classes, commons-pool 1.3 and commons-dbcp 1.2.2 stored under
 * BOOT-INF/lib), a shaded uber-jar of the same two libraries, a zip bomb; and the command line's
 * edges.
 */
class DeployedLayoutsIT {
  private static final Path JARS = Path.of("target", "audit-jars");

  @TempDir static Path temp;
  static Path jar;
  static Path bootJar;
  static int bootClasses;

  @BeforeAll
  static void assemble() throws Exception {
    jar = Path.of(System.getProperty("lockjaw.cli.jar", "target/lockjaw-cli.jar"));
    assertTrue(Files.isRegularFile(jar), "the packaged jar is missing: " + jar);
    Path classes =
        Path.of(LoadProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path load = classes.resolve("io/github/lockjaw/cli/load");
    bootJar = temp.resolve("shop-boot.jar");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(bootJar))) {
      put(
          out,
          "META-INF/MANIFEST.MF",
          ("Manifest-Version: 1.0\nMain-Class: org.springframework.boot.loader.launch.JarLauncher\n"
                  + "Start-Class: io.github.lockjaw.cli.load.LoadProgram\n")
              .getBytes(UTF_8),
          false);
      try (ZipFile loader = new ZipFile(JARS.resolve("spring-boot-loader-3.4.1.jar").toFile())) {
        for (ZipEntry entry : Collections.list(loader.entries())) {
          if (!entry.isDirectory() && entry.getName().endsWith(".class")) {
            try (InputStream in = loader.getInputStream(entry)) {
              put(out, entry.getName(), in.readAllBytes(), false);
              bootClasses++;
            }
          }
        }
      }
      try (Stream<Path> files = Files.list(load)) {
        for (Path file : files.sorted().toList()) {
          put(
              out,
              "BOOT-INF/classes/io/github/lockjaw/cli/load/" + file.getFileName(),
              Files.readAllBytes(file),
              false);
          bootClasses++;
        }
      }
      // nested jars are stored, not deflated, as Spring Boot writes them; pool2 under a name that
      // says nothing, so that its coordinates must come from its pom.properties
      for (String[] lib :
          List.of(
              new String[] {"commons-pool-1.3.jar", "commons-pool-1.3.jar"},
              new String[] {"commons-dbcp-1.2.2.jar", "commons-dbcp-1.2.2.jar"},
              new String[] {"commons-pool2-2.12.0.jar", "pool.jar"})) {
        put(out, "BOOT-INF/lib/" + lib[1], Files.readAllBytes(JARS.resolve(lib[0])), true);
        bootClasses += classCount(JARS.resolve(lib[0]));
      }
    }
  }

  private static int classCount(Path jarFile) throws IOException {
    try (ZipFile zip = new ZipFile(jarFile.toFile())) {
      // as the audit counts them: module-info holds no code, META-INF/ holds no application class
      return (int)
          zip.stream()
              .map(ZipEntry::getName)
              .filter(
                  n ->
                      n.endsWith(".class")
                          && !n.endsWith("module-info.class")
                          && !n.startsWith("META-INF/"))
              .count();
    }
  }

  private static void put(ZipOutputStream out, String name, byte[] bytes, boolean stored)
      throws IOException {
    ZipEntry entry = new ZipEntry(name);
    if (stored) {
      CRC32 crc = new CRC32();
      crc.update(bytes);
      entry.setMethod(ZipEntry.STORED);
      entry.setSize(bytes.length);
      entry.setCompressedSize(bytes.length);
      entry.setCrc(crc.getValue());
    }
    out.putNextEntry(entry);
    out.write(bytes);
    out.closeEntry();
  }

  record Run(int exit, String out, String err) {}

  static Run cli(Map<String, String> env, List<String> jvm, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(CliIT.java().toString()));
    command.addAll(jvm);
    command.addAll(List.of("-jar", jar.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(temp, "out", ".txt");
    Path err = Files.createTempFile(temp, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().putAll(env);
    if (env.containsKey("LANG")) {
      builder.environment().remove("LC_ALL");
      builder.environment().remove("LC_CTYPE");
    }
    Process process = builder.start();
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "lockjaw-cli hangs: " + command);
    return new Run(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  static Run cli(String... args) throws IOException, InterruptedException {
    return cli(Map.of(), List.of(), args);
  }

  @Test
  void aSpringBootJarIsAuditedAsTheApplicationItHolds() throws Exception {
    Path cache = temp.resolve("cache");
    Run run = cli("audit", "--cache", cache.toString(), bootJar.toString());
    assertEquals(1, run.exit(), run.err() + run.out());
    String out = run.out();
    assertTrue(out.contains("shop-boot.jar!/BOOT-INF/classes\n"), out);
    assertTrue(out.contains("ReflectionCache.describe(String) line 19: [ClassMonitorCache]"), out);
    // these 2006 jars carry no pom.properties: named by their file names
    assertTrue(
        out.contains("commons-pool 1.3 (shop-boot.jar!/BOOT-INF/lib/commons-pool-1.3.jar)"), out);
    assertTrue(
        out.contains("commons-dbcp 1.2.2 (shop-boot.jar!/BOOT-INF/lib/commons-dbcp-1.2.2.jar)"),
        out);
    assertTrue(
        out.contains(
            "org.apache.commons:commons-pool2 2.12.0 (shop-boot.jar!/BOOT-INF/lib/pool.jar)"),
        "a nested jar is named by its own pom.properties: " + out);
    assertTrue(out.contains("replace it with org.apache.commons:commons-pool2 2.0+"), out);
    assertFalse(out.contains("unknown jar"), out);
    String first = out.lines().findFirst().orElseThrow();
    assertTrue(
        first.contains(
            "in 5 jar(s) and class directories; "
                + String.format(java.util.Locale.ROOT, "%,d", bootClasses)
                + " of "
                + String.format(java.util.Locale.ROOT, "%,d", bootClasses)
                + " classes analysed"),
        "every class of the Boot jar is analysed (" + bootClasses + "): " + first);

    // a second audit of the unchanged jar reads every entry from the cache, with the same report
    Run again = cli("audit", "--cache", cache.toString(), bootJar.toString());
    assertEquals(out, again.out());
    assertTrue(again.err().contains("5 of 5 read from the cache"), again.err());
  }

  @Test
  void aShadedJarNamesEachBundledLibrary() throws Exception {
    Path uber = temp.resolve("shop-all-1.0.jar");
    Set<String> seen = new HashSet<>();
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(uber))) {
      for (String lib : List.of("commons-pool2-2.12.0.jar", "log4j-api-2.24.3.jar")) {
        try (ZipFile zip = new ZipFile(JARS.resolve(lib).toFile())) {
          for (ZipEntry entry : Collections.list(zip.entries())) {
            if (!entry.isDirectory() && seen.add(entry.getName())) {
              try (InputStream in = zip.getInputStream(entry)) {
                put(out, entry.getName(), in.readAllBytes(), false);
              }
            }
          }
        }
      }
    }
    Run run = cli("audit", "--no-cache", uber.toString());
    assertEquals(1, run.exit(), run.err() + run.out());
    // two pom.properties: each class is named by the bundled artifact its package belongs to
    assertTrue(
        run.out()
            .contains(
                "org.apache.commons:commons-pool2 2.12.0 (shop-all-1.0.jar)\n  SoftReferenceObjectPool."),
        run.out());
    assertFalse(
        run.out().contains("shop-all 1.0"),
        "no class left under the uber jar's name: " + run.out());
  }

  @Test
  void aZipBombStopsWithExitThreeAndOneParagraph() throws Exception {
    Path war = temp.resolve("bomb.war");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(war))) {
      zip.putNextEntry(new ZipEntry("WEB-INF/lib/huge.jar"));
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 300; i++) {
        zip.write(zeros);
      }
      zip.closeEntry();
    }
    assertTrue(Files.size(war) < 1 << 20);
    Path tmp = Files.createDirectories(temp.resolve("tmp-bomb"));
    Run run = cli(Map.of(), List.of("-Djava.io.tmpdir=" + tmp), "audit", war.toString());
    assertEquals(3, run.exit(), run.err());
    assertTrue(
        run.err()
            .startsWith("lockjaw: bomb.war!/WEB-INF/lib/huge.jar inflates to more than 100 times"),
        run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    try (Stream<Path> left = Files.list(tmp)) {
      assertTrue(
          left.noneMatch(p -> p.getFileName().toString().startsWith("lockjaw-audit-input-")),
          "the partial unpacking is removed");
    }
  }

  @Test
  void temporaryFilesGoOnSigterm() throws Exception {
    Path tmp = Files.createDirectories(temp.resolve("tmp-term"));
    List<String> command =
        List.of(
            CliIT.java().toString(),
            "-Djava.io.tmpdir=" + tmp,
            "-jar",
            jar.toString(),
            "audit",
            "--no-cache",
            bootJar.toString());
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(temp.resolve("term.txt").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    boolean unpacked = false;
    while (!unpacked && System.nanoTime() < deadline && process.isAlive()) {
      try (Stream<Path> files = Files.list(tmp)) {
        unpacked =
            files.anyMatch(p -> p.getFileName().toString().startsWith("lockjaw-audit-input-"));
      }
      Thread.sleep(50);
    }
    assertTrue(
        unpacked, "the Boot jar was never unpacked: " + Files.readString(temp.resolve("term.txt")));
    process.destroy(); // SIGTERM
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    try (Stream<Path> left = Files.list(tmp)) {
      List<Path> kept =
          left.filter(p -> p.getFileName().toString().startsWith("lockjaw-audit")).toList();
      assertEquals(List.of(), kept, "temporary files left after SIGTERM");
    }
  }

  @Test
  void aNonAsciiPathUnderLangC() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("déploiement"));
    Path copy = Files.copy(JARS.resolve("commons-pool-1.3.jar"), dir.resolve("pool-café.jar"));
    Run run = cli(Map.of("LANG", "C"), List.of(), "audit", "--no-cache", copy.toString());
    assertEquals(1, run.exit(), run.err() + run.out());
    assertTrue(run.out().contains("GenericObjectPool.borrowObject()"), run.out());
    assertFalse(run.err().contains("report"), run.err());
  }

  @Test
  void pathsAndOutputAreCheckedBeforeAnythingIsRead() throws Exception {
    Run empty = cli("audit", "");
    assertEquals(2, empty.exit(), empty.err());
    assertTrue(empty.err().contains("A PATH is empty"), empty.err());

    Path file = Files.writeString(temp.resolve("a-file.txt"), "x");
    Run output =
        cli("audit", "--output", file.resolve("report.txt").toString(), bootJar.toString());
    assertEquals(3, output.exit(), output.err());
    assertTrue(
        output
            .err()
            .startsWith("lockjaw: lockjaw cannot write --output " + file.resolve("report.txt")),
        output.err());
    assertFalse(output.err().contains("auditing"), "nothing was audited first: " + output.err());

    Path recording = Files.write(temp.resolve("big.jfr"), new byte[1 << 20]);
    Run missing =
        cli("contention", "--recording", recording.toString(), temp.resolve("shop.wat").toString());
    assertEquals(3, missing.exit(), missing.err());
    assertTrue(missing.err().contains("shop.wat does not exist"), missing.err());

    Path app = Files.createDirectories(temp.resolve("empty-app/WEB-INF/lib"));
    Run nothing = cli("audit", app.getParent().getParent().toString());
    assertEquals(3, nothing.exit(), nothing.err());
    assertTrue(nothing.err().contains("holds nothing to audit"), nothing.err());
  }

  @Test
  void aClassThatCannotBeAnalysedIsNamedAndStrictFails() throws Exception {
    Path classes = Files.createDirectories(temp.resolve("broken/com/acme"));
    Files.write(
        classes.resolve("Broken.class"),
        new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0});
    Path root = temp.resolve("broken");
    Run lenient = cli("audit", "--no-cache", root.toString());
    assertEquals(0, lenient.exit(), lenient.err() + lenient.out());
    assertTrue(
        lenient.err().contains("1 class of 1 could not be analysed: com.acme.Broken ("),
        lenient.err());
    assertTrue(lenient.out().contains("0 of 1 classes analysed, 1 could not be"), lenient.out());
    Run sarif = cli("audit", "--no-cache", "--format", "sarif", root.toString());
    JsonObject run0 =
        JsonParser.parseString(sarif.out())
            .getAsJsonObject()
            .getAsJsonArray("runs")
            .get(0)
            .getAsJsonObject();
    String note =
        run0.getAsJsonArray("invocations")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("toolExecutionNotifications")
            .get(0)
            .getAsJsonObject()
            .getAsJsonObject("message")
            .get("text")
            .getAsString();
    assertTrue(note.startsWith("lockjaw could not analyse com.acme.Broken"), note);
    Run strict = cli("audit", "--no-cache", "--strict", root.toString());
    assertEquals(3, strict.exit(), strict.err());
    assertTrue(strict.err().contains("--strict (or -Dlockjaw.strict=true) fails"), strict.err());
  }
}
