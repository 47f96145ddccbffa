package io.github.lockjaw.it;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Checks a SARIF report written by lockjaw against what SARIF 2.1.0 requires of the parts lockjaw
 * writes, for the integration tests' verify scripts.
 */
public final class LockjawSarif {
  private static final Set<String> LEVELS = Set.of("none", "note", "warning", "error");
  private static final Set<String> BASELINE_STATES =
      Set.of("new", "unchanged", "updated", "absent");

  private LockjawSarif() {}

  /** The problems found in the report; empty when it is valid. */
  public static List<String> problems(File report) throws IOException {
    List<String> problems = new ArrayList<>();
    String json = Files.readString(report.toPath(), StandardCharsets.UTF_8);
    JsonObject log;
    try {
      log = JsonParser.parseString(json).getAsJsonObject();
    } catch (RuntimeException e) {
      problems.add("not a JSON object: " + e.getMessage());
      return problems;
    }
    problems.addAll(SarifSchema.validate(json));
    expect(problems, "2.1.0".equals(string(log, "version")), "version must be \"2.1.0\"");
    expect(problems, log.has("$schema"), "$schema is missing");
    JsonArray runs = array(log, "runs");
    expect(problems, runs != null && runs.size() == 1, "exactly one run expected");
    if (runs == null || runs.isEmpty()) {
      return problems;
    }
    JsonObject run = runs.get(0).getAsJsonObject();
    JsonObject driver = object(object(run, "tool"), "driver");
    expect(
        problems,
        driver != null && "lockjaw".equals(string(driver, "name")),
        "tool.driver.name must be lockjaw");
    List<String> ruleIds = new ArrayList<>();
    JsonArray rules = driver == null ? null : array(driver, "rules");
    if (rules != null) {
      for (JsonElement rule : rules) {
        JsonObject r = rule.getAsJsonObject();
        ruleIds.add(string(r, "id"));
        expect(
            problems, string(r, "helpUri") != null, "rule " + string(r, "id") + " has no helpUri");
        expect(
            problems,
            object(r, "shortDescription") != null,
            "rule " + string(r, "id") + " has no shortDescription");
      }
    }
    JsonArray results = array(run, "results");
    expect(problems, results != null, "run.results is missing");
    if (results == null) {
      return problems;
    }
    for (JsonElement element : results) {
      JsonObject result = element.getAsJsonObject();
      String ruleId = string(result, "ruleId");
      expect(problems, ruleIds.contains(ruleId), "result names unknown rule " + ruleId);
      if (result.has("ruleIndex")) {
        expect(
            problems,
            ruleIds.indexOf(ruleId) == result.get("ruleIndex").getAsInt(),
            "ruleIndex of " + ruleId + " is wrong");
      }
      expect(problems, LEVELS.contains(string(result, "level")), "bad level in " + ruleId);
      expect(
          problems,
          string(object(result, "message"), "text") != null,
          "result without message.text");
      expect(
          problems,
          BASELINE_STATES.contains(string(result, "baselineState")),
          "bad baselineState in " + ruleId);
      JsonArray locations = array(result, "locations");
      expect(problems, locations != null && !locations.isEmpty(), "result without locations");
      if (locations != null && !locations.isEmpty()) {
        JsonObject physical = object(locations.get(0).getAsJsonObject(), "physicalLocation");
        String uri = string(object(physical, "artifactLocation"), "uri");
        expect(
            problems,
            uri != null && !uri.startsWith("/") && !uri.contains(":"),
            "location uri is not relative: " + uri);
        JsonObject region = object(physical, "region");
        expect(
            problems,
            region != null && region.get("startLine").getAsInt() >= 1,
            "region.startLine must be >= 1");
      }
      JsonArray fixes = array(result, "fixes");
      if (fixes != null) {
        for (JsonElement fix : fixes) {
          JsonArray changes = array(fix.getAsJsonObject(), "artifactChanges");
          expect(problems, changes != null && !changes.isEmpty(), "fix without artifactChanges");
          if (changes != null) {
            for (JsonElement change : changes) {
              JsonArray replacements = array(change.getAsJsonObject(), "replacements");
              expect(
                  problems,
                  replacements != null && !replacements.isEmpty(),
                  "artifactChange without replacements");
              if (replacements != null) {
                for (JsonElement replacement : replacements) {
                  JsonObject deleted = object(replacement.getAsJsonObject(), "deletedRegion");
                  expect(
                      problems,
                      deleted != null && deleted.has("charOffset") && deleted.has("charLength"),
                      "replacement without deletedRegion charOffset/charLength");
                }
              }
            }
          }
        }
      }
    }
    return problems;
  }

  private static void expect(List<String> problems, boolean condition, String problem) {
    if (!condition) {
      problems.add(problem);
    }
  }

  private static JsonObject object(JsonObject parent, String name) {
    return parent != null && parent.has(name) && parent.get(name).isJsonObject()
        ? parent.getAsJsonObject(name)
        : null;
  }

  private static JsonArray array(JsonObject parent, String name) {
    return parent != null && parent.has(name) && parent.get(name).isJsonArray()
        ? parent.getAsJsonArray(name)
        : null;
  }

  private static String string(JsonObject parent, String name) {
    return parent != null && parent.has(name) && parent.get(name).isJsonPrimitive()
        ? parent.get(name).getAsString()
        : null;
  }
}
