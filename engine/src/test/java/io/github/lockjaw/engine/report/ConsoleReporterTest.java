package io.github.lockjaw.engine.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Severity;
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
}
