package io.github.lockjaw.engine.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.lockjaw.engine.docs.CheckPages;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.finding.TraceStep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SarifReporterTest {
  @TempDir Path docs;
  private CheckPages pages;

  private final Finding withFix =
      new Finding(
          "ClassMonitorCache",
          Severity.WARNING,
          "/repo/src/A.java",
          7,
          5,
          "Use computeIfAbsent",
          "https://x/docs/checks/ClassMonitorCache.md",
          "A",
          "get(Class)",
          "code",
          List.of(new Edit(10, 20, "return x;")));
  private final Finding baselined =
      new Finding(
          "SharedMonitorDao",
          Severity.ERROR,
          "/repo/src/B.java",
          3,
          1,
          "Drop the lock",
          "https://x/docs/checks/SharedMonitorDao.md",
          "B",
          "",
          "code2",
          List.of());

  private JsonObject build() {
    List<Rule> rules =
        List.of(
            new Rule(
                "ClassMonitorCache",
                "Lookup cache guarded by a Class monitor",
                "https://x/docs/checks/ClassMonitorCache.md",
                Severity.WARNING),
            new Rule(
                "SharedMonitorDao",
                "DAO on one monitor",
                "docs/checks/SharedMonitorDao.md",
                Severity.WARNING));
    try {
      pages = CheckPages.writeTo(docs, List.of("ClassMonitorCache", "SharedMonitorDao"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new SarifReporter("0.1.0", Path.of("/repo"), pages)
        .build(
            rules,
            List.of(withFix, baselined),
            f -> f.file().substring("/repo/".length()),
            Map.of(withFix, "fp1", baselined, "fp2"),
            f -> f == baselined);
  }

  @Test
  void describesToolRulesAndResults() {
    JsonObject log = build();
    assertEquals("2.1.0", log.get("version").getAsString());
    JsonObject run = log.getAsJsonArray("runs").get(0).getAsJsonObject();
    JsonObject driver = run.getAsJsonObject("tool").getAsJsonObject("driver");
    assertEquals("lockjaw", driver.get("name").getAsString());
    JsonObject first = driver.getAsJsonArray("rules").get(0).getAsJsonObject();
    // issue 24: the rule links to the copy of the page the user has, and carries its text
    assertEquals(
        docs.resolve("ClassMonitorCache.md").toUri().toString(),
        first.get("helpUri").getAsString());
    assertTrue(Files.isRegularFile(docs.resolve("ClassMonitorCache.md")));
    JsonObject dao = driver.getAsJsonArray("rules").get(1).getAsJsonObject();
    String markdown = dao.getAsJsonObject("help").get("markdown").getAsString();
    assertTrue(markdown.startsWith("# SharedMonitorDao"), markdown);
    assertFalse(markdown.contains("](../"), "a link that leads nowhere in a code-scanning UI");
    assertEquals(markdown, dao.getAsJsonObject("help").get("text").getAsString());
    assertFalse(driver.has("informationUri"), "lockjaw has no web site to point at");
    JsonObject srcroot = run.getAsJsonObject("originalUriBaseIds").getAsJsonObject("SRCROOT");
    assertFalse(srcroot.has("uri"), "no absolute machine path in a shared report: " + srcroot);
    assertFalse(
        log.toString().contains("/repo"), "the repository root leaks into the report: " + log);
    assertTrue(
        srcroot.getAsJsonObject("description").get("text").getAsString().contains("repository"));
    JsonObject result = run.getAsJsonArray("results").get(0).getAsJsonObject();
    assertEquals(0, result.get("ruleIndex").getAsInt());
    JsonObject location =
        result
            .getAsJsonArray("locations")
            .get(0)
            .getAsJsonObject()
            .getAsJsonObject("physicalLocation");
    assertEquals(
        "src/A.java", location.getAsJsonObject("artifactLocation").get("uri").getAsString());
    assertEquals(
        "SRCROOT", location.getAsJsonObject("artifactLocation").get("uriBaseId").getAsString());
    assertEquals(7, location.getAsJsonObject("region").get("startLine").getAsInt());
    assertEquals(
        "fp1", result.getAsJsonObject("partialFingerprints").get("lockjaw/v1").getAsString());
  }

  @Test
  void theRequestPathAndEffectChainAreACodeFlow() {
    Finding traced =
        withFix.withTrace(
            List.of(
                new TraceStep("OrderServlet.doGet() calls A.get(Class)", "/repo/src/O.java", 12)),
            List.of(new TraceStep("A.load() runs DriverManager.getConnection()", "", 0)));
    JsonObject log =
        new SarifReporter("0.1.0", Path.of("/repo"), CheckPages.none())
            .build(
                List.of(),
                List.of(traced),
                f -> f.file().substring("/repo/".length()),
                Map.of(traced, "fp"),
                f -> false);
    JsonArray steps =
        log.getAsJsonArray("runs")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("results")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("codeFlows")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("threadFlows")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("locations");
    assertEquals(3, steps.size());
    JsonObject entry = steps.get(0).getAsJsonObject().getAsJsonObject("location");
    assertEquals(
        "src/O.java",
        entry
            .getAsJsonObject("physicalLocation")
            .getAsJsonObject("artifactLocation")
            .get("uri")
            .getAsString());
    assertEquals(
        "OrderServlet.doGet() calls A.get(Class)",
        entry.getAsJsonObject("message").get("text").getAsString());
    JsonObject effect = steps.get(2).getAsJsonObject().getAsJsonObject("location");
    assertFalse(effect.has("physicalLocation"));
    assertEquals(
        "A.load() runs DriverManager.getConnection()",
        effect.getAsJsonObject("message").get("text").getAsString());
  }

  @Test
  void marksBaselinedResultsAndCarriesFixesAsReplacements() {
    JsonObject run = build().getAsJsonArray("runs").get(0).getAsJsonObject();
    JsonObject first = run.getAsJsonArray("results").get(0).getAsJsonObject();
    JsonObject second = run.getAsJsonArray("results").get(1).getAsJsonObject();
    assertEquals("new", first.get("baselineState").getAsString());
    assertEquals("unchanged", second.get("baselineState").getAsString());
    assertEquals("error", second.get("level").getAsString());
    JsonObject replacement =
        first
            .getAsJsonArray("fixes")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("artifactChanges")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("replacements")
            .get(0)
            .getAsJsonObject();
    assertEquals(10, replacement.getAsJsonObject("deletedRegion").get("charOffset").getAsInt());
    assertEquals(10, replacement.getAsJsonObject("deletedRegion").get("charLength").getAsInt());
    assertEquals(
        "return x;", replacement.getAsJsonObject("insertedContent").get("text").getAsString());
    assertFalse(second.has("fixes"));
    assertTrue(first.getAsJsonArray("locations").get(0).getAsJsonObject().has("logicalLocations"));
  }

  @Test
  void carriesPropertiesPerResultOnlyWhereGiven() {
    List<Rule> rules =
        List.of(
            new Rule(
                "ClassMonitorCache",
                "Lookup cache guarded by a Class monitor",
                "https://x/docs/checks/ClassMonitorCache.md",
                Severity.WARNING));
    Map<String, Object> observed = new java.util.LinkedHashMap<>();
    observed.put("lockjaw/contentionRank", 1);
    observed.put("lockjaw/blockedMillis", 812.5);
    observed.put("lockjaw/observed", true);
    JsonObject log =
        new SarifReporter("0.1.0", Path.of("/repo"), CheckPages.none())
            .build(
                rules,
                List.of(withFix, baselined),
                f -> f.file().substring("/repo/".length()),
                Map.of(withFix, "fp1", baselined, "fp2"),
                f -> false,
                f -> f == withFix ? observed : Map.of());
    JsonObject run = log.getAsJsonArray("runs").get(0).getAsJsonObject();
    JsonObject properties =
        run.getAsJsonArray("results").get(0).getAsJsonObject().getAsJsonObject("properties");
    assertEquals(1, properties.get("lockjaw/contentionRank").getAsInt());
    assertEquals(812.5, properties.get("lockjaw/blockedMillis").getAsDouble());
    assertTrue(properties.get("lockjaw/observed").getAsBoolean());
    assertFalse(run.getAsJsonArray("results").get(1).getAsJsonObject().has("properties"));
  }
}
