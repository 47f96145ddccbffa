package io.github.lockjaw.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: {@code java -jar lockjaw-cli.jar check} on a source tree with no {@code pom.xml} and a
 * {@code lib/} of real jars from Maven Central (Apache HttpClient 4.5 and its dependencies): the
 * sample shop's sources and a client of the quote service that logs through SLF4J, whose jar lib/
 * lacks. Findings, SARIF, HTML, the baseline, and {@code --fix} whose result compiles.
 */
class CliCheckIT {
  private static final Pattern FINDING_LINE =
      Pattern.compile("(?m)^(\\S+\\.java):(\\d+):(\\d+): \\[([A-Za-z]+)\\] ");

  /**
   * The sample shop's VirtualThreadPinning finding (and its fix) shows only on JDK 21 to 23: the
   * CLI compiles at the running Java's release, and JDK 24+ does not pin (JEP 491).
   */
  private static final int PINNING = Runtime.version().feature() < 24 ? 1 : 0;

  /** The findings: the sample shop's 11 (12 on JDK 21 to 23), and QuoteClient's one. */
  private static final int FINDINGS = 12 + PINNING;

  @TempDir Path tree;
  Path jar;

  @BeforeEach
  void aSourceTreeWithALibOfJars() throws IOException {
    jar = Path.of(System.getProperty("lockjaw.cli.jar", "target/lockjaw-cli.jar"));
    assertTrue(Files.isRegularFile(jar), "the packaged jar is missing: " + jar);
    copy(Path.of(System.getProperty("lockjaw.it.sampleShop")), tree.resolve("src"));
    Path shop = Files.createDirectories(tree.resolve("src/shop"));
    Files.copy(resource("check-it/shop/QuoteClient.java"), shop.resolve("QuoteClient.java"));
    copy(Path.of(System.getProperty("lockjaw.it.checkJars"), "lib"), tree.resolve("lib"));
    assertFalse(Files.exists(tree.resolve("pom.xml")));
  }

  @Test
  void findsTheAntiPatternsAndNamesTheMissingClassesOnce() throws Exception {
    Run run = check("--classpath", "lib/*", "--output", "report.txt", "src");
    assertEquals(1, run.exit(), run.toString());
    String report = Files.readString(tree.resolve("report.txt"), UTF_8);
    List<String> found = new ArrayList<>();
    FINDING_LINE.matcher(report).results().forEach(m -> found.add(m.group(4) + " " + m.group(1)));
    assertEquals(FINDINGS, found.size(), report);
    assertTrue(
        found.contains(
            "ClassMonitorCache src/io/github/lockjaw/samples/shop/catalog/ClassInfo.java"),
        found.toString());
    // the code that uses the missing SLF4J classes is analysed too
    assertTrue(found.contains("PerRequestHttpClient src/shop/QuoteClient.java"), found.toString());
    assertTrue(report.contains("+    return (ClassInfo) CLASS_INFO_MAP.computeIfAbsent("), report);
    assertTrue(report.contains("    see lockjaw-docs/ClassMonitorCache.md\n"), report);
    assertTrue(Files.isRegularFile(tree.resolve("lockjaw-docs/ClassMonitorCache.md")));
    assertTrue(
        report.contains("lockjaw check: " + FINDINGS + " findings in 13 Java file(s)."), report);
    for (String line : report.lines().toList()) {
      boolean headWithOneWord = line.matches("\\S+\\.java:\\d+:\\d+: \\[[A-Za-z]+\\] \\S+");
      assertTrue(line.length() <= 100 || headWithOneWord || line.startsWith("    "), line);
    }
    String without =
        "analysed without: org.slf4j.Logger, org.slf4j.LoggerFactory (not on the class path";
    assertEquals(1, run.err().split(Pattern.quote(without), -1).length - 1, run.err());
    assertFalse(run.err().contains("Exception"), run.err());
  }

  @Test
  void writesSarifWhoseRulesCarryTheirPages() throws Exception {
    Run run =
        check("--classpath", "lib/*", "--format", "sarif", "--output", "out/lockjaw.sarif", "src");
    assertEquals(1, run.exit(), run.toString());
    JsonObject log =
        JsonParser.parseString(Files.readString(tree.resolve("out/lockjaw.sarif"), UTF_8))
            .getAsJsonObject();
    assertEquals("2.1.0", log.get("version").getAsString());
    JsonObject sarifRun = log.getAsJsonArray("runs").get(0).getAsJsonObject();
    JsonArray results = sarifRun.getAsJsonArray("results");
    assertEquals(FINDINGS, results.size());
    boolean quote = false;
    for (JsonElement r : results) {
      JsonObject location =
          r.getAsJsonObject()
              .getAsJsonArray("locations")
              .get(0)
              .getAsJsonObject()
              .getAsJsonObject("physicalLocation")
              .getAsJsonObject("artifactLocation");
      assertEquals("SRCROOT", location.get("uriBaseId").getAsString());
      quote |= location.get("uri").getAsString().equals("src/shop/QuoteClient.java");
    }
    assertTrue(quote, results.toString());
    for (JsonElement element :
        sarifRun.getAsJsonObject("tool").getAsJsonObject("driver").getAsJsonArray("rules")) {
      JsonObject rule = element.getAsJsonObject();
      String id = rule.get("id").getAsString();
      Path page = Path.of(URI.create(rule.get("helpUri").getAsString()));
      assertEquals(tree.resolve("out/lockjaw-docs/" + id + ".md").toRealPath(), page.toRealPath());
      assertTrue(
          rule.getAsJsonObject("help").get("markdown").getAsString().startsWith("# " + id), id);
    }
  }

  @Test
  void writesAnHtmlPageLinkingTheChecksPages() throws Exception {
    Run run = check("--classpath", "lib/*", "--format", "html", "--output", "report.html", "src");
    assertEquals(1, run.exit(), run.toString());
    String html = Files.readString(tree.resolve("report.html"), UTF_8);
    assertTrue(html.contains("<title>lockjaw check</title>"), html);
    assertTrue(html.contains("<h2 id=\"by-file\">Findings by file</h2>"), html);
    assertTrue(html.contains("<a href=\"lockjaw-docs/SharedMonitorDao.md\">"), html);
    assertTrue(html.contains("<h3 id=\"check-SharedMonitorDao\">SharedMonitorDao (3)</h3>"), html);
    assertTrue(html.contains("analysed without: org.slf4j.Logger"), html);
  }

  @Test
  void theBaselineAcceptsTodaysFindingsAndOnlyNewOnesCount() throws Exception {
    Run write =
        check(
            "--classpath",
            "lib/*",
            "--baseline",
            "lockjaw-baseline.json",
            "--write-baseline",
            "src");
    assertEquals(0, write.exit(), write.toString());
    assertTrue(
        write.out().contains("wrote " + FINDINGS + " finding(s) to the baseline"), write.out());
    Run accepted = check("--classpath", "lib/*", "--baseline", "lockjaw-baseline.json", "src");
    assertEquals(0, accepted.exit(), accepted.toString());
    assertEquals(FINDINGS, accepted.out().split(Pattern.quote("] (baselined)"), -1).length - 1);

    Files.copy(resource("check-it/shop/Poller.java"), tree.resolve("src/shop/Poller.java"));
    Run added = check("--classpath", "lib/*", "--baseline", "lockjaw-baseline.json", "src");
    assertEquals(1, added.exit(), added.toString());
    assertTrue(
        added.out().contains("src/shop/Poller.java:6:5: [ThreadAliveBusyWait] Busy-wait"),
        added.out());
    assertTrue(
        added
            .out()
            .contains(
                "lockjaw check: " + (FINDINGS + 1) + " findings in 14 Java file(s) (1 new)."));
  }

  @Test
  void fixAppliesTheFixesAndTheSourcesStillCompile() throws Exception {
    String quote = Files.readString(tree.resolve("src/shop/QuoteClient.java"), UTF_8);
    Run run = check("--classpath", "lib/*", "--fix", "src");
    assertTrue(
        run.err()
            .contains("lockjaw: fixed " + (6 + PINNING) + " file(s); the sources still compile."),
        run.err());
    assertTrue(
        run.out().contains("  fixed src/io/github/lockjaw/samples/shop/catalog/ClassInfo.java"));
    // what has no automatic fix is left, and reported
    assertEquals(1, run.exit(), run.toString());
    assertTrue(run.out().contains("lockjaw check: 4 findings in 13 Java file(s)."), run.out());
    assertEquals(quote, Files.readString(tree.resolve("src/shop/QuoteClient.java"), UTF_8));
    assertTrue(
        Files.readString(
                tree.resolve("src/io/github/lockjaw/samples/shop/catalog/ClassInfo.java"), UTF_8)
            .contains("computeIfAbsent"));

    // the fixed tree compiles with javac, against lib/ and the SLF4J jar lib/ lacks
    List<String> classpath = new ArrayList<>();
    for (Path dir :
        List.of(
            tree.resolve("lib"), Path.of(System.getProperty("lockjaw.it.checkJars"), "extra"))) {
      try (Stream<Path> jars = Files.list(dir)) {
        jars.map(Path::toString).forEach(classpath::add);
      }
    }
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "-proc:none",
                "-d",
                Files.createDirectories(tree.resolve("classes")).toString(),
                "-classpath",
                String.join(File.pathSeparator, classpath)));
    try (Stream<Path> sources = Files.walk(tree.resolve("src"))) {
      sources
          .filter(p -> p.toString().endsWith(".java"))
          .map(Path::toString)
          .forEach(arguments::add);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int compiled = javac.run(null, null, errors, arguments.toArray(String[]::new));
    assertEquals(0, compiled, "the fixed sources do not compile: " + errors.toString(UTF_8));
  }

  @Test
  void sourcesThatDoNotCompileAreExplainedNotAStackTrace() throws Exception {
    Files.writeString(
        tree.resolve("src/shop/Broken.java"), "package shop;\nclass Broken { int x = ; }\n", UTF_8);
    Run run = check("--classpath", "lib/*", "src");
    assertEquals(3, run.exit(), run.toString());
    assertTrue(
        run.err().contains("lockjaw: lockjaw cannot analyse these sources: they do not compile"),
        run.err());
    assertTrue(run.err().contains("Broken.java:2: illegal start of expression"), run.err());
    assertFalse(run.err().contains("\tat "), run.err());
  }

  record Run(int exit, String out, String err) {}

  private Run check(String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toAbsolutePath().toString(),
                "check"));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("check-out", ".txt");
    Path err = Files.createTempFile("check-err", ".txt");
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(tree.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      assertTrue(process.waitFor(180, TimeUnit.SECONDS), "lockjaw-cli hangs: " + command);
      return new Run(
          process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static Path resource(String name) {
    try {
      return Path.of(CliCheckIT.class.getClassLoader().getResource(name).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
