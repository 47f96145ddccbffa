package io.github.lockjaw.contention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Before and after: two sets of thread dumps of a shop, before and after its catalogue's Class lock
 * was replaced by a ConcurrentHashMap (so its waits went) while the DAO kept its monitor; compared
 * per dump, marked, and judged by the gate.
 */
class ContentionComparisonTest {
  @TempDir Path temp;

  static String waiter(String name, String site, String monitor) {
    return "\""
        + name
        + "\" #31 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x1 nid=0x2 waiting for monitor entry\n"
        + "   java.lang.Thread.State: BLOCKED (on object monitor)\n"
        + "\tat "
        + site
        + "\n\t- waiting to lock <0x00000000c0de0001> (a "
        + monitor
        + ")\n\tat shop.web.Servlet.doGet(Servlet.java:41)\n\n";
  }

  static Path dumps(Path dir, int catalog, int dao, int journal) throws Exception {
    Files.createDirectories(dir);
    for (int d = 1; d <= 2; d++) {
      StringBuilder dump =
          new StringBuilder("Full thread dump OpenJDK 64-Bit Server VM (21.0.5):\n\n");
      for (int i = 0; i < catalog; i++) {
        dump.append(
            waiter(
                "c" + i,
                "shop.ProductCatalog.describe(ProductCatalog.java:13)",
                "java.lang.Class for shop.ProductCatalog"));
      }
      for (int i = 0; i < dao; i++) {
        dump.append(waiter("d" + i, "shop.OrderDao.find(OrderDao.java:25)", "shop.OrderDao"));
      }
      for (int i = 0; i < journal; i++) {
        dump.append(waiter("j" + i, "shop.Journal.append(Journal.java:9)", "shop.Journal"));
      }
      Files.writeString(dir.resolve("dump-" + d + ".txt"), dump.toString());
    }
    return dir;
  }

  static final StaticFinding DAO =
      new StaticFinding(
          "SharedMonitorDao",
          "shop.OrderDao",
          "",
          "",
          "find",
          "",
          -1,
          -1,
          25,
          "shop.jar",
          "m",
          "",
          "shop.jar",
          0);

  @Test
  void eachSiteIsMarkedPerDump() throws Exception {
    ContentionReport before =
        ContentionReport.correlate(
            Evidence.read(List.of(dumps(temp.resolve("before"), 6, 4, 1))), List.of(DAO));
    ContentionReport after =
        ContentionReport.correlate(
            Evidence.read(List.of(dumps(temp.resolve("after"), 0, 4, 3))), List.of(DAO));
    ContentionComparison comparison = ContentionComparison.compare(after, before);
    assertEquals(ContentionComparison.Measure.DUMPS, comparison.measure());
    ContentionComparison.Entry dao = entry(comparison, "OrderDao");
    assertEquals(ContentionComparison.Mark.UNCHANGED, dao.mark());
    assertEquals(4.0, dao.rate(), 1e-9, "4 waiting threads per dump");
    ContentionComparison.Entry journal = entry(comparison, "Journal");
    assertEquals(ContentionComparison.Mark.WORSE, journal.mark(), "1 -> 3 per dump");
    assertEquals(
        List.of("ProductCatalog"),
        comparison.gone().stream().map(e -> e.site().frame().className().substring(5)).toList());
    assertEquals("gone (6.0 threads/dump before)", comparison.describe(comparison.gone().get(0)));
    String text = String.join("\n", new ReportWriter(after, comparison).text());
    assertTrue(text.contains("vs baseline"), text);
    assertTrue(text.contains("worse (1.0 -> 3.0 threads/dump)"), text);
    assertTrue(text.contains("Gone since the baseline (1):"), text);

    ContentionGate.Verdict regressions = new ContentionGate(-1, true).judge(after, comparison);
    assertTrue(regressions.failed());
    assertEquals(1, regressions.reasons().size(), regressions.reasons().toString());
    assertTrue(regressions.reasons().get(0).startsWith("Journal.append(Journal.java:9) is worse"));

    ContentionComparison reverse = ContentionComparison.compare(before, after);
    assertEquals(ContentionComparison.Mark.NEW, entry(reverse, "ProductCatalog").mark());
    assertEquals(ContentionComparison.Mark.BETTER, entry(reverse, "Journal").mark());
  }

  /** Two call sites of one DAO monitor, {@code find} and {@code save} threads waiting per dump. */
  static Path daoDumps(Path dir, int find, int save) throws Exception {
    Files.createDirectories(dir);
    StringBuilder dump =
        new StringBuilder("Full thread dump OpenJDK 64-Bit Server VM (21.0.5):\n\n");
    for (int i = 0; i < find; i++) {
      dump.append(waiter("f" + i, "shop.OrderDao.find(OrderDao.java:25)", "shop.OrderDao"));
    }
    for (int i = 0; i < save; i++) {
      dump.append(waiter("s" + i, "shop.OrderDao.save(OrderDao.java:29)", "shop.OrderDao"));
    }
    Files.writeString(dir.resolve("dump-1.txt"), dump.toString());
    return dir;
  }

  @Test
  void aSiteIsWorseOnlyWhenItsMonitorIsWaitedOnMoreInAll() throws Exception {
    ContentionReport before =
        ContentionReport.correlate(
            Evidence.read(List.of(daoDumps(temp.resolve("before"), 4, 1))), List.of(DAO));
    ContentionReport shifted =
        ContentionReport.correlate(
            Evidence.read(List.of(daoDumps(temp.resolve("shifted"), 2, 3))), List.of(DAO));
    ContentionComparison comparison = ContentionComparison.compare(shifted, before);
    assertEquals(
        ContentionComparison.Mark.UNCHANGED,
        saveOf(comparison).mark(),
        "1 -> 3 per dump, but the monitor's 5 waiters stayed 5");
    ContentionReport grown =
        ContentionReport.correlate(
            Evidence.read(List.of(daoDumps(temp.resolve("grown"), 4, 7))), List.of(DAO));
    assertEquals(
        ContentionComparison.Mark.WORSE,
        saveOf(ContentionComparison.compare(grown, before)).mark(),
        "1 -> 7 per dump, and the monitor's 5 waiters became 11");
  }

  @Test
  void theGateFailsOnASiteTiedToAFindingAboveTheShare() throws Exception {
    ContentionReport report =
        ContentionReport.correlate(
            Evidence.read(List.of(dumps(temp.resolve("run"), 0, 4, 9))), List.of(DAO));
    ContentionGate.Verdict over =
        new ContentionGate(ContentionGate.parseShare("300%"), false).judge(report, null);
    assertTrue(over.failed());
    assertEquals(
        List.of(
            "OrderDao.find(OrderDao.java:25) (SharedMonitorDao) blocked threads for 400% of the dumps,"
                + " above the limit of 300%"),
        over.reasons(),
        "the journal waits more, but no finding covers it");
    assertFalse(
        new ContentionGate(ContentionGate.parseShare("400"), false).judge(report, null).failed());
    assertFalse(ContentionGate.OFF.isOn());
    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> ContentionGate.parseShare("a lot"));
    assertTrue(bad.getMessage().contains("write a percentage such as 10%"), bad.getMessage());
  }

  @Test
  void aRecordingIsNotComparedWithDumps() throws Exception {
    ContentionReport dumps =
        ContentionReport.correlate(
            Evidence.read(List.of(dumps(temp.resolve("d"), 1, 1, 1))), List.of());
    Observations recorded = new Observations();
    recorded.readRecording(temp.resolve("load.jfr"));
    ContentionReport recording = ContentionReport.correlate(recorded, List.of());
    EvidenceException e =
        assertThrows(EvidenceException.class, () -> ContentionComparison.compare(recording, dumps));
    assertTrue(e.getMessage().contains("Record both runs the same way"), e.getMessage());
  }

  static ContentionComparison.Entry saveOf(ContentionComparison comparison) {
    return comparison.entries().stream()
        .filter(e -> e.site().frame().method().equals("shop.OrderDao.save"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("OrderDao.save in " + comparison.entries()));
  }

  static ContentionComparison.Entry entry(ContentionComparison comparison, String simpleClass) {
    return comparison.entries().stream()
        .filter(e -> e.site().frame().className().equals("shop." + simpleClass))
        .findFirst()
        .orElseThrow(() -> new AssertionError(simpleClass + " in " + comparison.entries()));
  }
}
