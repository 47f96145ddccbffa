package io.github.lockjaw.engine.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.Severity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SarifReporterTest {
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
    return new SarifReporter("0.1.0", Path.of("/repo"))
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
    JsonObject absolute = driver.getAsJsonArray("rules").get(0).getAsJsonObject();
    assertEquals(
        "https://x/docs/checks/ClassMonitorCache.md", absolute.get("helpUri").getAsString());
    JsonObject relative = driver.getAsJsonArray("rules").get(1).getAsJsonObject();
    assertFalse(relative.has("helpUri"), "a repository path is not a URI: " + relative);
    assertTrue(
        relative
            .getAsJsonObject("help")
            .get("text")
            .getAsString()
            .contains("docs/checks/SharedMonitorDao.md"),
        relative.toString());
    assertFalse(driver.has("informationUri"), "lockjaw has no web site to point at");
    JsonObject srcroot = run.getAsJsonObject("originalUriBaseIds").getAsJsonObject("SRCROOT");
    assertFalse(srcroot.has("uri"), "no absolute machine path in a shared report: " + srcroot);
    assertFalse(
        log.toString().contains("/repo"), "the repository root leaks into the report: " + log);
    assertTrue(
        srcroot.getAsJsonObject("description").get("text").getAsString().contains("repository"));
    JsonObject first = run.getAsJsonArray("results").get(0).getAsJsonObject();
    assertEquals(0, first.get("ruleIndex").getAsInt());
    JsonObject location =
        first
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
        "fp1", first.getAsJsonObject("partialFingerprints").get("lockjaw/v1").getAsString());
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
        new SarifReporter("0.1.0", Path.of("/repo"))
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
