package io.github.lockjaw.engine.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.finding.TraceStep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML and markdown reports show the same findings, grouped by check, by file and by jar. */
class FindingsReportersTest {
  @TempDir Path dir;
  private FindingsReport report;

  @BeforeEach
  void findings() throws Exception {
    Path waiter = dir.resolve("Waiter.java");
    String text =
        "class Waiter {\n  void await(Thread t) throws InterruptedException {\n"
            + "    while (t.isAlive()) {}\n  }\n}\n";
    Files.writeString(waiter, text, UTF_8);
    int start = text.indexOf("while");
    Finding spin =
        new Finding(
                "ThreadAliveBusyWait",
                Severity.WARNING,
                waiter.toString(),
                3,
                5,
                "Block in t.join() <instead>.",
                "docs/checks/ThreadAliveBusyWait.md",
                "Waiter",
                "await(Thread)",
                "while(t.isAlive()){}",
                List.of(new Edit(start, text.indexOf("{}") + 2, "t.join();")))
            .withTrace(
                List.of(new TraceStep("Jobs.run() calls Waiter.await(Thread)", "/x/Jobs.java", 9)),
                List.of());
    Finding dao =
        new Finding(
            "SharedMonitorDao",
            Severity.WARNING,
            dir.resolve("Dao.java").toString(),
            7,
            3,
            "Every request queues on this monitor.",
            "docs/checks/SharedMonitorDao.md",
            "Dao",
            "load()",
            "x",
            List.of());
    Finding pool =
        new Finding(
            "SharedMonitorDao",
            Severity.WARNING,
            "/m2/commons-dbcp-1.2.2.jar",
            0,
            0,
            "getConnection() serialises every caller; move to commons-dbcp2.",
            "docs/checks/SharedMonitorDao.md",
            "org.apache.commons.dbcp.PoolingDataSource",
            "getConnection()",
            "",
            List.of());
    report =
        new FindingsReport(
            "lockjaw findings: shop",
            List.of(
                new Rule("ThreadAliveBusyWait", "Busy-wait on isAlive()", "", Severity.WARNING),
                new Rule("SharedMonitorDao", "DAO on one monitor", "", Severity.WARNING)),
            List.of(dao, spin),
            f -> "src/" + Path.of(f.file()).getFileName(),
            f -> f == dao,
            UTF_8,
            check -> "docs/" + check + ".md",
            Map.of("commons-dbcp:commons-dbcp:1.2.2", List.of(pool)),
            List.of("Analysed without: javax.servlet.http.HttpServlet"));
  }

  @Test
  void htmlListsByCheckByFileAndByArtifactWithASummary() {
    String html = HtmlReporter.page(report);
    assertTrue(html.contains("<title>lockjaw findings: shop</title>"), html);
    assertTrue(html.contains("<h2 id=\"summary\">Summary</h2>"), html);
    assertTrue(
        html.contains(
            "<td><a href=\"docs/SharedMonitorDao.md\">SharedMonitorDao</a></td><td>DAO on one"
                + " monitor</td><td class=\"num\">2</td><td class=\"num\">1</td>"),
        html);
    assertTrue(html.contains("<h3 id=\"check-ThreadAliveBusyWait\">ThreadAliveBusyWait (1)</h3>"));
    assertTrue(html.contains("Block in t.join() &lt;instead&gt;."), "messages are escaped");
    assertTrue(html.contains("<span class=\"add\">+    t.join();</span>"), html);
    assertTrue(
        html.contains(
            "<li>Jobs.run() calls Waiter.await(Thread) <span class=\"note\">(Jobs.java:9)"));
    assertTrue(
        html.contains(
            "<h4 id=\"F1\"><code>src/Dao.java:7:3</code> <span class=\"note\">(baselined)"));
    assertTrue(
        html.contains("<a href=\"#F2\">ThreadAliveBusyWait</a>"), "by file links to the finding");
    assertTrue(html.contains("<h3>commons-dbcp:commons-dbcp:1.2.2 (1)</h3>"), html);
    assertTrue(html.contains("move to commons-dbcp2."), html);
    assertTrue(html.contains("Analysed without: javax.servlet.http.HttpServlet"), html);
    String fragment = HtmlReporter.fragment(report);
    assertFalse(fragment.contains("<html") || fragment.contains("<h1"), fragment);
    assertTrue(fragment.startsWith("<div class=\"lockjaw\">"), fragment);
  }

  @Test
  void markdownHasTheSameSectionsAndTheFixAsADiffBlock() {
    String md = MarkdownReporter.render(report);
    assertTrue(md.startsWith("# lockjaw findings: shop\n"), md);
    assertTrue(
        md.contains(
            "| [SharedMonitorDao](docs/SharedMonitorDao.md) | DAO on one monitor | 2 | 1 | 0 |"),
        md);
    assertTrue(md.contains("```diff\n--- a/src/Waiter.java\n+++ b/src/Waiter.java\n"), md);
    assertTrue(md.contains("+    t.join();"), md);
    assertTrue(md.contains("- Jobs.run() calls Waiter.await(Thread) (`Jobs.java:9`)"), md);
    assertTrue(md.contains("| `src/Waiter.java` | 3 | ThreadAliveBusyWait | new | yes |"), md);
    assertTrue(md.contains("### commons-dbcp:commons-dbcp:1.2.2"), md);
    assertEquals(1, md.split("## Findings by file", -1).length - 1);
  }
}
