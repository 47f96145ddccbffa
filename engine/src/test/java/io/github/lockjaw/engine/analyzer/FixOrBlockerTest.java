package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Finding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26: every finding either comes with a fix or names the blocker, "(No automatic fix: …)",
 * never both and never neither. The corpus test counts fix coverage on this rule; here it is held
 * on the bundled sample shop, where every check of the five seed anti-patterns fires.
 */
class FixOrBlockerTest {
  @TempDir Path dir;

  @Test
  void everyFindingOfTheSampleShopHasAFixOrNamesItsBlocker() throws Exception {
    Path sources = Path.of("..", "testdata", "sample-shop", "src", "main", "java");
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(sources)) {
      walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> files.add(p.toString()));
    }
    AnalysisRequest request =
        new AnalysisRequest(
            files,
            List.of(),
            List.of("-encoding", "UTF-8"),
            List.of(),
            true,
            dir.resolve("result.json").toString(),
            List.of());
    AnalysisResult result = new LockjawAnalyzer().run(request);
    assertEquals(AnalysisResult.OK, result.status(), String.valueOf(result.errors()));
    assertTrue(result.findings().size() >= 5, "findings: " + result.findings());
    List<String> broken = new ArrayList<>();
    for (Finding f : result.findings()) {
      boolean namesBlocker = f.message().contains("(No automatic fix");
      if (f.hasFix() == namesBlocker) {
        broken.add(f.check() + " at " + f.file() + ":" + f.line() + " " + f.message());
      }
    }
    assertEquals(List.of(), broken, "a finding with both a fix and a blocker, or neither");
    assertTrue(result.findings().stream().anyMatch(Finding::hasFix), "no finding with a fix");
    assertTrue(result.findings().stream().anyMatch(f -> !f.hasFix()), "no finding without a fix");
  }
}
