package io.github.lockjaw.engine.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.finding.TraceStep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleReporterTest {
  @TempDir Path dir;

  @Test
  void printsLocationCheckMessageDiffAndASummaryPerCheck() throws Exception {
    Path source = dir.resolve("Waiter.java");
    String text =
        "class Waiter {\n  void await(Thread t) throws InterruptedException {\n    while (t.isAlive()) {}\n  }\n}\n";
    Files.writeString(source, text, UTF_8);
    int start = text.indexOf("while");
    Finding spin =
        new Finding(
            "ThreadAliveBusyWait",
            Severity.WARNING,
            source.toString(),
            3,
            5,
            "Block in t.join() instead.",
            "https://x/ThreadAliveBusyWait.md",
            "Waiter",
            "await(Thread)",
            "while(t.isAlive()){}",
            List.of(new Edit(start, text.indexOf("{}") + 2, "t.join();")));
    Finding old =
        new Finding(
            "ThreadAliveBusyWait",
            Severity.WARNING,
            source.toString(),
            3,
            5,
            "again",
            "u",
            "Waiter",
            "",
            "",
            List.of());

    List<String> lines =
        new ConsoleReporter(f -> "src/Waiter.java", f -> f == old, UTF_8)
            .render(List.of(spin, old));

    assertEquals(
        "src/Waiter.java:3:5: [ThreadAliveBusyWait] Block in t.join() instead.", lines.get(0));
    assertEquals("    see https://x/ThreadAliveBusyWait.md", lines.get(1));
    assertTrue(lines.contains("    -    while (t.isAlive()) {}"), lines.toString());
    assertTrue(lines.contains("    +    t.join();"), lines.toString());
    assertTrue(
        lines.contains("src/Waiter.java:3:5: [ThreadAliveBusyWait] (baselined) again"),
        lines.toString());
    assertEquals(
        "lockjaw: ThreadAliveBusyWait: 2 findings (1 baselined, 1 new)",
        lines.get(lines.size() - 1));
  }

  @Test
  void wrapsLongMessagesAtAReadableWidthWithTheDetailIndented() {
    String message =
        "ClassInfo.getInstance(Class) fills a lookup cache under the monitor of a Class object, so"
            + " every request thread that asks for any class queues on one lock; use"
            + " ConcurrentHashMap.computeIfAbsent, which locks only the bin of the key being filled.";
    Finding finding =
        new Finding(
                "ClassMonitorCache",
                Severity.WARNING,
                dir.resolve("ClassInfo.java").toString(),
                40,
                9,
                message,
                "docs/checks/ClassMonitorCache.md",
                "ClassInfo",
                "getInstance(Class)",
                "synchronized(clazz)",
                List.of())
            .withTrace(
                List.of(
                    new TraceStep(
                        "OrderServlet.doGet(HttpServletRequest,HttpServletResponse) calls"
                            + " ClassInfo.getInstance(Class)",
                        dir.resolve("OrderServlet.java").toString(),
                        21)),
                List.of());

    List<String> lines =
        new ConsoleReporter(
                f -> "src/main/java/shop/ClassInfo.java",
                f -> false,
                UTF_8,
                f -> "target/lockjaw/docs/" + f.check() + ".md")
            .render(List.of(finding));

    assertTrue(
        lines
            .get(0)
            .startsWith("src/main/java/shop/ClassInfo.java:40:9: [ClassMonitorCache] ClassInfo"),
        lines.get(0));
    for (String line : lines) {
      assertTrue(line.length() <= ConsoleReporter.WIDTH, line.length() + ": " + line);
    }
    String joined =
        String.join(" ", lines.subList(0, lines.indexOf("    request path:")))
            .replaceAll(" +", " ");
    assertTrue(joined.endsWith(message), joined);
    assertTrue(lines.get(1).startsWith("    "), lines.get(1));
    assertTrue(lines.contains("    request path:"), lines.toString());
    assertTrue(
        lines.stream().anyMatch(l -> l.startsWith("      OrderServlet.doGet(")), lines.toString());
    assertTrue(
        lines.stream().anyMatch(l -> l.contains("(OrderServlet.java:21)")), lines.toString());
    assertTrue(
        lines.contains("    see target/lockjaw/docs/ClassMonitorCache.md"), lines.toString());
  }
}
