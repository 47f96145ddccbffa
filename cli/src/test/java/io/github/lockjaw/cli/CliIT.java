package io.github.lockjaw.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.lockjaw.cli.load.LoadProgram;
import io.github.lockjaw.engine.report.html.HeadlessChromium;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code lockjaw-cli} jar under a real JVM, on the evidence of a real load: {@link
 * LoadProgram} runs for a few seconds under JFR while three thread dumps are taken with {@code jcmd
 * PID Thread.print}; then the tool ranks the contended sites of the recording and of the dumps,
 * ties each to the bytecode finding of the program's classes (an exploded web application) and
 * names who held each lock. The program runs a second time after its Class-locked cache was fixed
 * (the fixed source, {@code src/test/fixed}, compiled here over the first): the tool compares the
 * two runs, judges its gate, and writes the HTML report, which a headless Chromium checks.
 */
class CliIT {
  @TempDir static Path temp;
  static Path jar;
  static Path recording;
  static Path dumps;
  static Path webapp;
  static Path fixedWebapp;
  static Path fixedRecording;
  static String loadOutput;

  @BeforeAll
  static void runTheLoadTest() throws Exception {
    jar = Path.of(System.getProperty("lockjaw.cli.jar", "target/lockjaw-cli.jar"));
    assertTrue(Files.isRegularFile(jar), "the packaged jar is missing: " + jar);
    Path classes =
        Path.of(LoadProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    webapp = temp.resolve("shop");
    Path loadPackage = Path.of("io", "github", "lockjaw", "cli", "load");
    Path into = Files.createDirectories(webapp.resolve("WEB-INF/classes").resolve(loadPackage));
    try (Stream<Path> files = Files.list(classes.resolve(loadPackage))) {
      for (Path file : files.toList()) {
        Files.copy(file, into.resolve(file.getFileName()));
      }
    }
    recording = temp.resolve("load.jfr");
    dumps = Files.createDirectory(temp.resolve("dumps"));
    Process load =
        new ProcessBuilder(
                java().toString(),
                "-XX:StartFlightRecording=filename="
                    + recording
                    + ",settings=profile,"
                    + "jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadPark#threshold=0ms",
                "-cp",
                webapp.resolve("WEB-INF/classes").toString(),
                LoadProgram.class.getName(),
                "6")
            .redirectErrorStream(true)
            .start();
    StringBuilder output = new StringBuilder();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(load.getInputStream(), UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals("ready")) {
        output.append(line).append('\n');
      }
      assertNotNull(line, "the load program did not start: " + output);
      Thread.sleep(500);
      Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
      for (int i = 1; i <= 3; i++) {
        Process dump =
            new ProcessBuilder(jcmd.toString(), String.valueOf(load.pid()), "Thread.print")
                .redirectErrorStream(true)
                .redirectOutput(dumps.resolve("dump-" + i + ".txt").toFile())
                .start();
        assertTrue(dump.waitFor(60, TimeUnit.SECONDS), "jcmd hangs");
        String text = Files.readString(dumps.resolve("dump-" + i + ".txt"), UTF_8);
        assertTrue(
            text.contains("Full thread dump"),
            "jcmd took no dump " + i + " while the load ran: " + text);
        Thread.sleep(300);
      }
      while ((line = out.readLine()) != null) {
        output.append(line).append('\n');
      }
    }
    assertTrue(load.waitFor(60, TimeUnit.SECONDS), "the load program did not end");
    loadOutput = output.toString();
    assertEquals(0, load.exitValue(), loadOutput);
    assertTrue(Files.size(recording) > 0, "no recording");
    runTheFixedProgram();
  }

  /** The same load after the fix: the cache in a ConcurrentHashMap, compiled over the old one. */
  static void runTheFixedProgram() throws Exception {
    fixedWebapp = temp.resolve("shop-fixed");
    Path classes = fixedWebapp.resolve("WEB-INF/classes");
    try (Stream<Path> files = Files.walk(webapp.resolve("WEB-INF/classes"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path target = classes.resolve(webapp.resolve("WEB-INF/classes").relativize(file));
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
    Path fixedSource = Path.of("src/test/fixed/io/github/lockjaw/cli/load/ReflectionCache.java");
    int compiled =
        ToolProvider.getSystemJavaCompiler()
            .run(
                null,
                null,
                null,
                "-d",
                classes.toString(),
                "-cp",
                classes.toString(),
                fixedSource.toString());
    assertEquals(0, compiled, "the fixed cache compiles");
    fixedRecording = temp.resolve("load-fixed.jfr");
    Process load =
        new ProcessBuilder(
                java().toString(),
                "-XX:StartFlightRecording=filename="
                    + fixedRecording
                    + ",settings=profile,"
                    + "jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadPark#threshold=0ms",
                "-cp",
                classes.toString(),
                LoadProgram.class.getName(),
                "6")
            .redirectErrorStream(true)
            .redirectOutput(temp.resolve("load-fixed.out").toFile())
            .start();
    assertTrue(load.waitFor(60, TimeUnit.SECONDS), "the fixed load program did not end");
    assertEquals(0, load.exitValue(), Files.readString(temp.resolve("load-fixed.out"), UTF_8));
  }

  static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  record Run(int exit, String out, String err) {}

  static Run cli(Path javaCommand, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(javaCommand.toString(), "-jar", jar.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(temp, "out", ".txt");
    Path err = Files.createTempFile(temp, "err", ".txt");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "lockjaw-cli hangs: " + command);
    return new Run(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  /** The table row of a site: rank first, finding last. */
  static String row(String out, String site) {
    return out.lines()
        .filter(l -> l.matches("\\s*\\d+\\s.*") && l.contains(site))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row for " + site + " in\n" + out));
  }

  static int rank(String row) {
    return Integer.parseInt(row.trim().split("\\s+")[0]);
  }

  @Test
  void recordingRanksTheDaoThenTheClassLockedCacheAndShowsTheJournalWithoutAFinding()
      throws Exception {
    Run run = cli(java(), "contention", "--recording", recording.toString(), webapp.toString());
    assertEquals(0, run.exit(), run.err() + run.out());
    String out = run.out();
    assertTrue(out.startsWith("lockjaw contention: "), out);
    assertTrue(out.lines().findFirst().orElseThrow().contains("from 1 JFR recording"), out);
    String find = row(out, "OrderDao.findOrder(OrderDao.java:25)");
    String cache = row(out, "ReflectionCache.describe(ReflectionCache.java:19)");
    String save = row(out, "OrderDao.saveOrder(OrderDao.java:29)");
    String journal = row(out, "AuditJournal.append(AuditJournal.java:27)");
    assertEquals(
        1, rank(find), "8 threads queue on the DAO, 6 lookups for each save:\n" + out + loadOutput);
    assertEquals(2, rank(cache), out + loadOutput);
    assertTrue(rank(journal) > rank(cache), out);
    assertTrue(find.endsWith("SharedMonitorDao") && find.contains("monitor enter: OrderDao"), find);
    assertTrue(
        cache.endsWith("ClassMonitorCache")
            && cache.contains("monitor enter: ReflectionCache.class"),
        cache);
    assertTrue(save.endsWith("SharedMonitorDao"), save);
    assertTrue(
        journal.endsWith("no finding") && journal.contains("lock park: ReentrantLock.lock"),
        journal);
    assertTrue(
        out.contains(
            "[ClassMonitorCache] "
                + webapp
                + "/WEB-INF/classes ReflectionCache.describe(String) line 19"),
        out);
    // the holder: the previous owner of the DAO's monitor, sampled while the others waited
    String held = heldBy(out, "OrderDao.findOrder(OrderDao.java:25)");
    assertTrue(
        held.startsWith(
            "socket read (Socket$SocketInputStream.read) in OrderDao.roundTrip(OrderDao.java:"),
        held);
    assertTrue(held.contains("the holder ran the SharedMonitorDao finding's code"), held);
    assertTrue(
        heldBy(out, "ReflectionCache.describe(ReflectionCache.java:19)")
            .contains("in ReflectionCache.introspect("),
        out);
    // the busy-wait: the search thread sleeps in its isAlive() loop, ThreadAliveBusyWait's evidence
    String search = row(out, "SearchService.search(SearchService.java:");
    assertTrue(
        search.contains("sleep in a loop") && search.endsWith("ThreadAliveBusyWait"), search);
  }

  /** The "Held by:" line below a site's heading in the text report. */
  static String heldBy(String out, String site) {
    List<String> lines = out.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).matches("\\d+\\. " + Pattern.quote(site) + ":.*")) {
        for (int j = i + 1; j < lines.size() && lines.get(j).startsWith("   "); j++) {
          if (lines.get(j).startsWith("   Held by: ")) {
            return lines.get(j).substring("   Held by: ".length());
          }
        }
      }
    }
    throw new AssertionError("no holder for " + site + " in\n" + out);
  }

  @Test
  void threadDumpsTakenDuringTheRunTieTheSameSitesToTheSameChecks() throws Exception {
    Run run = cli(java(), "contention", "--recording", dumps.toString(), webapp.toString());
    assertEquals(0, run.exit(), run.err() + run.out());
    String out = run.out();
    assertTrue(
        out.lines().findFirst().orElseThrow().contains("from 3 thread dumps in 3 files"), out);
    String find = row(out, "OrderDao.findOrder(OrderDao.java:25)");
    String cache = row(out, "ReflectionCache.describe(ReflectionCache.java:19)");
    String journal = row(out, "AuditJournal.append(AuditJournal.java:27)");
    assertTrue(find.endsWith("SharedMonitorDao"), find);
    assertTrue(cache.endsWith("ClassMonitorCache"), cache);
    assertTrue(journal.endsWith("no finding"), journal);
    // Three dumps are a sample: the DAO's lookups (8 threads, 6 calls in 7) lead it by far; the
    // cache's
    // 5 threads and the journal's 3 are too close in a sample of three to rank them against each
    // other.
    assertEquals(1, rank(find), out);
    assertTrue(
        find.matches("\\s*\\d+\\s+\\d+\\s+3/3\\s.*"),
        "the DAO's lookups queue in every dump: " + find);
    // the thread that lists "- locked" for the DAO's monitor runs the DAO's code: a dump catches it
    // in the round trip's socket read or write, or setting up the stream's encoder
    assertTrue(
        heldBy(out, "OrderDao.findOrder(OrderDao.java:25)")
            .matches(".*\\bin OrderDao\\.\\w+\\(OrderDao\\.java:\\d+\\).*"),
        out);
  }

  @Test
  void theFixedRunComparedWithTheFirstShowsTheCacheLockGoAndPassesTheRegressionGate()
      throws Exception {
    Run run =
        cli(
            java(),
            "contention",
            "--recording",
            fixedRecording.toString(),
            "--baseline",
            recording.toString(),
            "--fail-on-regression",
            fixedWebapp.toString());
    assertEquals(0, run.exit(), run.err() + run.out());
    String out = run.out();
    assertTrue(out.contains("lockjaw: the contention gate passed."), out);
    String find = row(out, "OrderDao.findOrder(OrderDao.java:25)");
    assertTrue(find.endsWith("SharedMonitorDao"), find);
    assertFalse(find.contains(" new (") || find.contains(" worse ("), find);
    // the Class monitor went: the cache's waits are gone, or a few on a ConcurrentHashMap bin
    boolean gone =
        out.contains(
            "ReflectionCache.describe(ReflectionCache.java:19) [ClassMonitorCache]: gone (");
    String cache =
        out.lines()
            .filter(l -> l.matches("\\s*\\d+\\s.*") && l.contains("ReflectionCache.describe("))
            .findFirst()
            .orElse("");
    assertTrue(
        gone || cache.contains(" better (") && cache.contains("ConcurrentHashMap"),
        "the cache's Class lock is gone or better:\n" + out);
    assertFalse(out.contains("monitor enter: ReflectionCache.class"), out);
  }

  @Test
  void theGateFailsOnALockTiedToAFindingAndOnARegression() throws Exception {
    Run over =
        cli(
            java(),
            "contention",
            "--recording",
            fixedRecording.toString(),
            "--fail-above",
            "50%",
            fixedWebapp.toString());
    assertEquals(1, over.exit(), over.err() + over.out());
    assertTrue(over.out().contains("lockjaw: the contention gate failed:"), over.out());
    assertTrue(
        over.out()
            .matches(
                "(?s).*  OrderDao\\.findOrder\\(OrderDao\\.java:25\\) \\(SharedMonitorDao\\) blocked"
                    + " threads for \\d+% of the recording, above the limit of 50%.*"),
        over.out());

    Run under =
        cli(
            java(),
            "contention",
            "--recording",
            fixedRecording.toString(),
            "--fail-above",
            "100000%",
            fixedWebapp.toString());
    assertEquals(0, under.exit(), under.err() + under.out());

    Run reverse =
        cli(
            java(),
            "contention",
            "--recording",
            recording.toString(),
            "--baseline",
            fixedRecording.toString(),
            "--fail-on-regression",
            webapp.toString());
    assertEquals(1, reverse.exit(), reverse.err() + reverse.out());
    assertTrue(
        reverse
            .out()
            .contains(
                "  ReflectionCache.describe(ReflectionCache.java:19) (ClassMonitorCache) is "),
        "the Class-locked cache is a regression against the fixed run:\n" + reverse.out());

    Run usage =
        cli(java(), "contention", "--recording", recording.toString(), "--fail-on-regression");
    assertEquals(2, usage.exit(), usage.err());
    assertTrue(usage.err().contains("add --baseline FILE"), usage.err());
  }

  @Test
  void theHtmlReportRendersInABrowserAndItsBarsMatchItsTable() throws Exception {
    Path html = temp.resolve("contention.html");
    Run run =
        cli(
            java(),
            "contention",
            "--recording",
            fixedRecording.toString(),
            "--baseline",
            recording.toString(),
            "--format",
            "html",
            "--output",
            html.toString(),
            fixedWebapp.toString());
    assertEquals(0, run.exit(), run.err());
    String page = Files.readString(html, UTF_8);
    assertTrue(page.startsWith("<!DOCTYPE html>"), page);
    assertFalse(page.contains("<script"), "no script");
    assertFalse(page.matches("(?s).*(src|href)=\"(https?:)?//.*"), "nothing fetched");

    HeadlessChromium chromium = HeadlessChromium.forTest();
    assertEquals(
        List.of(),
        chromium.checkChartAgainstTable(html, "blocked", temp.resolve("contention.png")));
    String dom = chromium.dumpDom(html);
    List<HeadlessChromium.ChartBar> bars = HeadlessChromium.bars(dom);
    assertEquals("1. OrderDao.findOrder(OrderDao.java:25)", bars.get(0).label(), dom);
    assertTrue(dom.contains("Compared with the baseline"), "the comparison");
    assertTrue(dom.contains("Who held the lock"), "the holders");
    assertTrue(dom.contains("at java.net.Socket$SocketInputStream.read("), "the holder's frames");
    assertTrue(dom.contains("SharedMonitorDao at "), "the finding");
  }

  @Test
  void sarifCarriesTheObservedFigures() throws Exception {
    Path sarif = temp.resolve("contention.sarif");
    Run run =
        cli(
            java(),
            "contention",
            "--recording",
            recording.toString(),
            "--format",
            "sarif",
            "--output",
            sarif.toString(),
            webapp.toString());
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.err().contains("report written to " + sarif), run.err());
    JsonObject log = JsonParser.parseString(Files.readString(sarif, UTF_8)).getAsJsonObject();
    assertEquals("2.1.0", log.get("version").getAsString());
    JsonArray results =
        log.getAsJsonArray("runs").get(0).getAsJsonObject().getAsJsonArray("results");
    JsonObject cache = null;
    for (JsonElement result : results) {
      JsonObject r = result.getAsJsonObject();
      if (r.get("ruleId").getAsString().equals("ClassMonitorCache")) {
        cache = r;
      }
    }
    assertNotNull(cache, results.toString());
    JsonObject properties = cache.getAsJsonObject("properties");
    assertEquals(2, properties.get("lockjaw/contentionRank").getAsInt(), properties.toString());
    assertTrue(properties.get("lockjaw/blockedMillis").getAsDouble() > 0, properties.toString());
    assertTrue(properties.get("lockjaw/waits").getAsLong() > 0, properties.toString());
    assertEquals(
        "io.github.lockjaw.cli.load.ReflectionCache.describe:19",
        properties.get("lockjaw/contendedSite").getAsString());
  }

  @Test
  void auditOfAWarNamesTheFindingsAndExitsWithOne() throws Exception {
    Path war = temp.resolve("shop.war");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(war));
        Stream<Path> files = Files.walk(webapp)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        zip.putNextEntry(new ZipEntry(webapp.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    }
    Run run = cli(java(), "audit", war.toString());
    assertEquals(1, run.exit(), run.err() + run.out());
    assertTrue(run.out().contains("shop.war!/WEB-INF/classes"), run.out());
    assertTrue(
        run.out().contains("ReflectionCache.describe(String) line 19: [ClassMonitorCache]"),
        run.out());
    assertTrue(
        run.out().contains("OrderDao.findOrder(int) line 25: [SharedMonitorDao]"), run.out());
    assertFalse(
        run.out().contains("AuditJournal"), "no check is about the journal's lock: " + run.out());

    Run markdown = cli(java(), "audit", "--format", "markdown", war.toString());
    assertEquals(1, markdown.exit(), markdown.err());
    assertTrue(
        markdown.out().contains("| jar | method | line | check | what is wrong | fix |"),
        markdown.out());
    assertTrue(
        markdown
            .out()
            .contains(
                "| shop.war!/WEB-INF/classes | `ReflectionCache.describe(String)` | 19 | ClassMonitorCache |"),
        markdown.out());

    Run sarif = cli(java(), "audit", "--format", "sarif", war.toString());
    assertEquals(1, sarif.exit(), sarif.err());
    JsonObject run0 =
        JsonParser.parseString(sarif.out())
            .getAsJsonObject()
            .getAsJsonArray("runs")
            .get(0)
            .getAsJsonObject();
    JsonArray results = run0.getAsJsonArray("results");
    assertEquals(
        run.out().lines().filter(l -> l.contains(": [")).count(),
        results.size(),
        "one result per finding");
    String uri =
        results
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("locations")
            .get(0)
            .getAsJsonObject()
            .getAsJsonObject("physicalLocation")
            .getAsJsonObject("artifactLocation")
            .get("uri")
            .getAsString();
    assertTrue(
        uri.startsWith("file:") && uri.endsWith("/shop.war"),
        "located in the WAR the user gave: " + uri);
  }

  @Test
  void truncatedRecordingIsOneParagraphAndExitCodeThree() throws Exception {
    byte[] bytes = Files.readAllBytes(recording);
    Path cut = temp.resolve("cut.jfr");
    try (OutputStream out = Files.newOutputStream(cut)) {
      out.write(bytes, 0, bytes.length / 2);
    }
    Run run = cli(java(), "contention", "--recording", cut.toString(), webapp.toString());
    assertEquals(3, run.exit(), run.err());
    assertTrue(run.err().startsWith("lockjaw: " + cut + " is truncated"), run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertFalse(run.err().contains("Exception"), run.err());
    assertEquals("", run.out());
  }

  @Test
  void helpAndAnOldJava() throws Exception {
    Run help = cli(java(), "--help");
    assertEquals(0, help.exit());
    assertTrue(help.out().contains("Exit codes:"), help.out());
    Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
    assumeTrue(Files.isExecutable(java17), "no JDK 17 here");
    Run old = cli(java17, "audit", webapp.toString());
    assertEquals(4, old.exit(), old.err());
    assertTrue(
        old.err().startsWith("lockjaw needs Java 21 or newer, but this is Java 17"), old.err());
  }
}
