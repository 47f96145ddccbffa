package io.github.lockjaw.engine.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.contention.ContentionGate;
import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.Evidence;
import io.github.lockjaw.contention.StaticFinding;
import io.github.lockjaw.engine.report.html.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contention page from two thread dumps of a shop (a Class-locked catalogue whose holder
 * reflects under the lock, a journal lock whose holder the ownable synchronizers name), rendered by
 * a real headless Chromium: the page renders, its bars match its table in the DOM and in the
 * pixels, and it shows the holder's frames and the finding's fix diff.
 */
class ContentionHtmlReportTest {
  @TempDir Path temp;

  static String thread(String name, String state, String... lines) {
    StringBuilder text = new StringBuilder();
    text.append('"')
        .append(name)
        .append(
            "\" #31 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x1 nid=0x2 waiting\n");
    text.append("   java.lang.Thread.State: ").append(state).append('\n');
    for (String line : lines) {
      text.append('\t').append(line).append('\n');
    }
    return text.append('\n').toString();
  }

  static String dump(int catalogWaiters) {
    StringBuilder dump =
        new StringBuilder("Full thread dump OpenJDK 64-Bit Server VM (21.0.5+11):\n\n");
    dump.append(
        thread(
            "http-exec-1",
            "RUNNABLE",
            "at java.lang.Class.getMethods(java.base@21.0.5/Class.java:2180)",
            "at shop.ProductCatalog.load(ProductCatalog.java:22)",
            "at shop.ProductCatalog.describe(ProductCatalog.java:15)",
            "- locked <0x00000000c0de0001> (a java.lang.Class for shop.ProductCatalog)",
            "at shop.web.ProductServlet.doGet(ProductServlet.java:41)"));
    for (int i = 0; i < catalogWaiters; i++) {
      dump.append(
          thread(
              "http-exec-" + (10 + i),
              "BLOCKED (on object monitor)",
              "at shop.ProductCatalog.describe(ProductCatalog.java:13)",
              "- waiting to lock <0x00000000c0de0001> (a java.lang.Class for shop.ProductCatalog)",
              "at shop.web.ProductServlet.doGet(ProductServlet.java:41)"));
    }
    dump.append(
        thread(
            "http-exec-2",
            "WAITING (parking)",
            "at jdk.internal.misc.Unsafe.park(java.base@21.0.5/Native Method)",
            "- parking to wait for  <0x00000000c0de0002> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)",
            "at java.util.concurrent.locks.LockSupport.park(java.base@21.0.5/LockSupport.java:221)",
            "at java.util.concurrent.locks.ReentrantLock.lock(java.base@21.0.5/ReentrantLock.java:322)",
            "at shop.Journal.append(Journal.java:13)",
            "at shop.web.OrderServlet.doPost(OrderServlet.java:52)"));
    dump.append(
        "\"journal-writer\" #40 prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x3 nid=0x4 runnable\n"
            + "   java.lang.Thread.State: RUNNABLE\n"
            + "\tat java.io.FileOutputStream.writeBytes(java.base@21.0.5/Native Method)\n"
            + "\tat java.io.FileOutputStream.write(java.base@21.0.5/FileOutputStream.java:367)\n"
            + "\tat shop.Journal.append(Journal.java:16)\n"
            + "\tat shop.web.OrderServlet.doPost(OrderServlet.java:52)\n"
            + "\n"
            + "   Locked ownable synchronizers:\n"
            + "\t- <0x00000000c0de0002> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)\n"
            + "\n");
    return dump.toString();
  }

  @Test
  void thePageRendersInABrowserAndItsBarsMatchItsTable() throws Exception {
    Path dumps = Files.createDirectory(temp.resolve("dumps"));
    Files.writeString(dumps.resolve("dump-1.txt"), dump(5), UTF_8);
    Files.writeString(dumps.resolve("dump-2.txt"), dump(3), UTF_8);
    String diff =
        "--- src/main/java/shop/ProductCatalog.java\n+++ src/main/java/shop/ProductCatalog.java\n"
            + "@@ -12,3 +12,1 @@\n-  public static synchronized String describe(String sku) {\n"
            + "+  public static String describe(String sku) {\n";
    StaticFinding cache =
        new StaticFinding(
            "ClassMonitorCache",
            "",
            "/repo/src/main/java/shop/ProductCatalog.java",
            "ProductCatalog",
            "describe",
            "",
            -1,
            -1,
            12,
            "src/main/java/shop/ProductCatalog.java:12",
            "ProductCatalog.describe() fills a cache under the class monitor <ProductCatalog.class>.",
            "mvn lockjaw:fix applies the suggested fix.",
            "",
            0,
            diff);
    ContentionReport report =
        ContentionReport.correlate(Evidence.read(List.of(dumps)), List.of(cache));
    ContentionGate.Verdict verdict = new ContentionGate(0.5, false).judge(report, null);
    Path html = temp.resolve("contention.html");
    Files.writeString(html, new ContentionHtmlReport(report, null, verdict).render(), UTF_8);
    String page = Files.readString(html, UTF_8);
    assertFalse(page.contains("<script"), "no script");
    assertFalse(page.matches("(?s).*(src|href)=\"(https?:)?//.*"), "nothing fetched");
    assertTrue(page.contains("&lt;ProductCatalog.class&gt;"), "text is escaped");
    assertTrue(verdict.failed(), verdict.reasons().toString());

    HeadlessChromium chromium = HeadlessChromium.forTest();
    List<String> problems =
        chromium.checkChartAgainstTable(html, "waiting threads", temp.resolve("page.png"));
    assertEquals(List.of(), problems);
    String dom = chromium.dumpDom(html);
    List<HeadlessChromium.ChartBar> bars = HeadlessChromium.bars(dom);
    assertEquals(2, bars.size(), dom);
    assertEquals("1. ProductCatalog.describe(ProductCatalog.java:13)", bars.get(0).label());
    assertEquals(8, bars.get(0).value(), 1e-9, "5 + 3 threads waited on the catalogue");
    assertEquals("2. Journal.append(Journal.java:13)", bars.get(1).label());
    assertTrue(
        dom.contains(
            "reflection (Class.getMethods) in ProductCatalog.load(ProductCatalog.java:22) &lt;"
                + " ProductCatalog.describe(ProductCatalog.java:15)"),
        "the holder and what it did under the lock");
    assertTrue(
        dom.contains("file write (FileOutputStream.write) in Journal.append(Journal.java:16)"),
        "the journal's holder, named by its ownable synchronizers");
    assertTrue(
        dom.contains(
            "<span class=\"del\">-  public static synchronized String describe(String sku) {</span>"),
        "the fix diff");
    assertTrue(dom.contains("The gate failed"), "the gate's verdict");
  }
}
