package io.github.lockjaw.engine.docs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckPagesTest {
  @TempDir Path dir;

  @Test
  void everyCheckPageShipsInTheJar() throws Exception {
    try (var pages = Files.list(Path.of("../docs/checks"))) {
      for (Path page : pages.toList()) {
        String check = page.getFileName().toString().replace(".md", "");
        assertEquals(
            Files.readString(page, UTF_8), CheckPages.markdown(check).orElseThrow(), check);
      }
    }
    assertTrue(CheckPages.markdown("NoSuchCheck").isEmpty());
    assertTrue(CheckPages.markdown("../pom").isEmpty());
  }

  @Test
  void writesThePagesAndThePagesTheyLinkToKeepingOnlyLinksThatLeadSomewhere() throws Exception {
    CheckPages pages = CheckPages.writeTo(dir.resolve("docs"), List.of("SynchronizedMapCache"));
    Path map = pages.page("SynchronizedMapCache").orElseThrow();
    Path linked = pages.page("ClassMonitorCache").orElseThrow(); // SynchronizedMapCache links it
    assertEquals(dir.resolve("docs/ClassMonitorCache.md"), linked);
    String text = Files.readString(map, UTF_8);
    assertTrue(text.contains("](ClassMonitorCache.md"), "a link to a written page stays");
    assertFalse(text.contains("](../audit.md)"), "a link out of the copies becomes text");
    assertTrue(text.contains("lockjaw:audit"), text.substring(0, 300));
    long modified = Files.getLastModifiedTime(map).toMillis();
    Thread.sleep(20);
    CheckPages.writeTo(dir.resolve("docs"), List.of("SynchronizedMapCache"));
    assertEquals(modified, Files.getLastModifiedTime(map).toMillis(), "an unchanged page is kept");
    assertTrue(pages.page("ThreadAliveBusyWait").isEmpty());
  }

  @Test
  void relinkKeepsWebLinksAnchorsAndKeptPages() {
    String md =
        "[a](https://x.org/p) [b](#here) [c](Kept.md#s) [d](Gone.md) [e](../audit.md) ![f](i.png)";
    assertEquals(
        "[a](https://x.org/p) [b](#here) [c](Kept.md#s) d e f",
        CheckPages.relink(md, Set.of("Kept")));
  }
}
