package io.github.lockjaw.contention;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence from real programs on the JDK the tests run on, compiled with {@code --release 21} (the
 * release virtual threads came with): {@code programs/Contended.java}, 200 virtual threads and 4
 * platform threads under load, recorded with JFR while {@code jcmd PID Thread.dump_to_file} takes
 * its text and JSON dumps; and {@code programs/Shop.java}, virtual threads pinned to their carrier
 * while they block, recorded with {@code jdk.VirtualThreadPinned}. On JDK 24+ a synchronized method
 * no longer pins (JEP 491); a blocking class initializer still does, on every JDK.
 */
class ProgramEvidenceTest {
  @TempDir static Path temp;
  static Path contendedRecording;
  static Path textDump;
  static Path jsonDump;
  static Path shopRecording;
  static final int JDK = Runtime.version().feature();

  @BeforeAll
  static void runThePrograms() throws Exception {
    Path classes = Files.createDirectory(temp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int compiled =
        javac.run(
            null,
            null,
            null,
            "--release",
            "21",
            "-d",
            classes.toString(),
            program("Contended.java").toString(),
            program("Shop.java").toString());
    assertEquals(0, compiled, "the programs compile with --release 21");

    contendedRecording = temp.resolve("contended.jfr");
    textDump = temp.resolve("threads.txt");
    jsonDump = temp.resolve("threads.json");
    Process contended =
        new ProcessBuilder(
                java(),
                "-XX:StartFlightRecording=filename="
                    + contendedRecording
                    + ",settings=profile,jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadPark#threshold=0ms",
                "-cp",
                classes.toString(),
                "Contended",
                "4")
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(contended.getInputStream(), UTF_8))) {
      String line;
      StringBuilder seen = new StringBuilder();
      while ((line = out.readLine()) != null && !line.equals("ready")) {
        seen.append(line).append('\n');
      }
      assertNotNull(line, "Contended did not start: " + seen);
      Thread.sleep(1000);
      jcmd(contended.pid(), "Thread.dump_to_file", "-format=text", textDump.toString());
      jcmd(contended.pid(), "Thread.dump_to_file", "-format=json", jsonDump.toString());
      while (out.readLine() != null) {
        // drain until the program ends
      }
    }
    assertTrue(contended.waitFor(60, TimeUnit.SECONDS), "Contended did not end");

    shopRecording = temp.resolve("shop.jfr");
    Process shop =
        new ProcessBuilder(
                java(),
                "-XX:StartFlightRecording=filename="
                    + shopRecording
                    + ",jdk.VirtualThreadPinned#threshold=0ms",
                "-cp",
                classes.toString(),
                "Shop")
            .redirectErrorStream(true)
            .redirectOutput(temp.resolve("shop.out").toFile())
            .start();
    assertTrue(shop.waitFor(60, TimeUnit.SECONDS), "Shop did not end");
    assertEquals(0, shop.exitValue(), Files.readString(temp.resolve("shop.out"), UTF_8));
  }

  static Path program(String name) throws URISyntaxException {
    return Path.of(ProgramEvidenceTest.class.getResource("programs/" + name).toURI());
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  static void jcmd(long pid, String... command) throws Exception {
    List<String> line =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                String.valueOf(pid)));
    line.addAll(List.of(command));
    Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).start();
    String output = new String(jcmd.getInputStream().readAllBytes(), UTF_8);
    assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS), "jcmd hangs");
    assertTrue(output.contains("Created"), "jcmd " + String.join(" ", command) + ": " + output);
  }

  static ObservedSite site(Observations seen, WaitKind kind, String className, String method) {
    return seen.sites().stream()
        .filter(
            s ->
                s.kind() == kind
                    && s.frame().className().equals(className)
                    && s.frame().methodName().equals(method))
        .findFirst()
        .orElse(null);
  }

  /** The 200 virtual threads a jcmd Thread.print dump misses, in both formats of dump_to_file. */
  @Test
  void virtualThreadDumpsShowTheContendedSitesAndTheHolder() throws Exception {
    for (Path dump : List.of(textDump, jsonDump)) {
      Observations seen = Evidence.read(List.of(dump));
      assertEquals(1, seen.dumps(), dump.toString());
      ObservedSite journal = site(seen, WaitKind.LOCK_PARK, "Contended", "append");
      assertNotNull(journal, dump + ": " + seen.sites());
      assertTrue(journal.dumpThreads() >= 40, dump + ": 49 of 50 park, " + journal);
      ObservedSite prices = site(seen, WaitKind.MONITOR_ENTER, "Contended", "price");
      if (JDK >= 25) {
        assertNotNull(prices, dump + " has states and locks on JDK 25: " + seen.sites());
        assertTrue(prices.dumpThreads() >= 100, dump + ": 149 of 150 are blocked, " + prices);
        HolderTally.Group holder = prices.holders().top();
        assertNotNull(holder, dump + ": the thread that owns the class monitor");
        assertTrue(
            holder.holder().summary().startsWith("sleep (Thread.sleep) in Contended.pause("),
            holder.holder().summary());
        assertEquals(prices.dumpThreads(), holder.weight(), "one holder for all of them");
      } else {
        assertNull(
            prices, "JDK 21 to 24 print no states: a blocked thread looks like a running one");
      }
    }
  }

  @Test
  void pinnedVirtualThreadsAreRankedByPinnedTimeWithWhatPinnedThem() throws Exception {
    Observations seen = Evidence.read(List.of(shopRecording));
    assertEquals(JDK, seen.recordingJdk(), "jdk.JVMInformation names the recording JDK");
    ContentionReport report = ContentionReport.correlate(seen, List.of());
    List<ContentionReport.Row> pinned =
        report.rows().stream().filter(r -> r.site().kind() == WaitKind.PINNED).toList();
    assertTrue(!pinned.isEmpty(), String.valueOf(report.rows()));
    ObservedSite initializer = site(seen, WaitKind.PINNED, "Shop$Settings", "<clinit>");
    assertNotNull(
        initializer,
        "a blocking class initializer pins on every JDK; the site is the pinning frame, not the"
            + " sleep it calls: "
            + seen.sites());
    assertTrue(initializer.totalNanos() >= 250_000_000L, "pinned ~300 ms: " + initializer);
    ObservedSite audit = site(seen, WaitKind.PINNED, "Shop", "audit");
    String notes = String.join(" ", new ReportWriter(report).notes());
    if (JDK >= 24) {
      assertTrue(initializer.pinnedBy().contains("Shop$Settings.<clinit>"), initializer.pinnedBy());
      assertNull(audit, "JDK 24+ does not pin in a synchronized method (JEP 491)");
      assertTrue(notes.contains("no longer pins on synchronized (JEP 491)"), notes);
    } else {
      assertNotNull(audit, "JDK 21 to 23 pin in a synchronized method");
      assertEquals("synchronized method Shop.audit", audit.pinnedBy());
      assertTrue(notes.contains("JDK 24 and newer no longer pin"), notes);
    }
    for (int i = 1; i < pinned.size(); i++) {
      assertTrue(
          pinned.get(i - 1).site().totalNanos() >= pinned.get(i).site().totalNanos(),
          "ranked by pinned time");
    }
    String table = String.join("\n", new ReportWriter(report).text());
    assertTrue(table.contains("pinned: " + initializer.pinnedBy()), table);
  }

  /** Two recordings of two programs joined with cat: each is read on its own, nothing invented. */
  @Test
  void recordingsJoinedWithCatAreReadOneByOne() throws Exception {
    Path joined = temp.resolve("joined.jfr");
    Files.write(joined, Files.readAllBytes(shopRecording));
    Files.write(joined, Files.readAllBytes(contendedRecording), StandardOpenOption.APPEND);
    Observations shop = Evidence.read(List.of(shopRecording));
    Observations contended = Evidence.read(List.of(contendedRecording));
    Observations both = Evidence.read(List.of(joined));
    Set<String> expected = new TreeSet<>();
    expected.addAll(sites(shop));
    expected.addAll(sites(contended));
    assertEquals(expected, sites(both));
    assertEquals(shop.lockEvents() + contended.lockEvents(), both.lockEvents());
    assertEquals(
        shop.recordingSeconds() + contended.recordingSeconds(), both.recordingSeconds(), 0.01);
    assertTrue(
        both.notes().stream().anyMatch(n -> n.contains("holds 2 recordings joined")),
        String.valueOf(both.notes()));
    ObservedSite ledger = site(both, WaitKind.MONITOR_ENTER, "Contended$Ledger", "post");
    assertNotNull(ledger, "the platform threads' monitor in the second recording");
    assertEquals(
        site(contended, WaitKind.MONITOR_ENTER, "Contended$Ledger", "post").totalNanos(),
        ledger.totalNanos());
  }

  static Set<String> sites(Observations seen) {
    return seen.sites().stream()
        .map(s -> s.kind() + " " + s.frame().qualified() + " " + s.totalNanos())
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
