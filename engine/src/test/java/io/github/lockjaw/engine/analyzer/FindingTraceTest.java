package io.github.lockjaw.engine.analyzer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.TraceStep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, "What a finding says": a finding of a check that is a query over the model names how
 * requests reach the flagged code and which call under the lock has the effect, through which
 * helpers in which files.
 */
class FindingTraceTest {
  @TempDir Path dir;

  @Test
  void aFindingCarriesItsRequestPathAndEffectChain() throws Exception {
    Path servlet =
        Files.writeString(
            dir.resolve("AssetServlet.java"),
            """
            package shop;

            public class AssetServlet {
              private final AssetIndex index = new AssetIndex();

              public byte[] serve(String name) {
                return index.find(name);
              }
            }
            """,
            UTF_8);
    Path index =
        Files.writeString(
            dir.resolve("AssetIndex.java"),
            """
            package shop;

            class AssetIndex {
              synchronized byte[] find(String name) {
                return Resources.read(name);
              }
            }
            """,
            UTF_8);
    Path resources =
        Files.writeString(
            dir.resolve("Resources.java"),
            """
            package shop;

            final class Resources {
              static byte[] read(String name) {
                return Resources.class.getResource("/assets/" + name) == null ? null : new byte[0];
              }
            }
            """,
            UTF_8);

    SourceTreeAnalysis.Result result =
        new SourceTreeAnalysis()
            .analyse(
                List.of(servlet, index, resources), List.of(), List.of(), UTF_8, List.of(), true);

    assertTrue(result.compiles(), result.errors().toString());
    Finding finding =
        result.findings().stream()
            .filter(f -> f.check().equals("ResourceLookupUnderLock"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(result.findings().toString()));
    assertEquals(
        List.of("public API: AssetServlet.serve()", "AssetServlet.serve() calls AssetIndex.find()"),
        finding.requestPath().stream().map(TraceStep::description).toList());
    List<TraceStep> chain = finding.effectChain();
    assertEquals(2, chain.size(), chain.toString());
    assertEquals("AssetIndex.find() calls Resources.read()", chain.get(0).description());
    assertTrue(chain.get(0).file().endsWith("AssetIndex.java"), chain.toString());
    assertEquals(5, chain.get(0).line());
    assertEquals("Resources.read() calls Class.getResource()", chain.get(1).description());
    assertTrue(chain.get(1).file().endsWith("Resources.java"), chain.toString());
    assertEquals(5, chain.get(1).line());
  }
}
