package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.lockjaw.checks.cache.CacheShapes;
import io.github.lockjaw.common.Resilience;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit on the cache shapes of issue 21 ({@link CacheShapes}), the same sources the source
 * check is tested on: the engines run one query, so each positive is reported at the line of its
 * first read (marked {@code // read}) and every look-alike is silent.
 */
class CacheShapesBytecodeTest {
  @TempDir Path dir;

  @Test
  void theAuditFindsWhatTheSourceCheckFinds() throws Exception {
    Map<String, String> sources = CacheShapes.sources();
    BytecodeFixtures.compile(sources, dir);

    List<AuditFinding> findings = new JarAuditor().audit(List.of(dir), List.of());

    assertEquals(List.of(), Resilience.swallowed(), "a detector threw");
    TreeSet<String> expected = new TreeSet<>();
    sources.forEach(
        (name, text) -> {
          String[] lines = text.split("\n");
          for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("// read")) {
              expected.add("SynchronizedMapCache " + name + ":" + (i + 1));
            }
          }
        });
    String found =
        findings.stream()
            .filter(f -> f.check().endsWith("Cache"))
            .map(f -> f.check() + " " + f.className().replaceAll("\\$.*", "") + ":" + f.line())
            .sorted()
            .collect(Collectors.joining("\n"));
    assertEquals(String.join("\n", expected), found);
  }
}
