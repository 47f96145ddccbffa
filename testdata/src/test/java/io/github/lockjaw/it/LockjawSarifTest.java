package io.github.lockjaw.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verify scripts trust LockjawSarif; these show it accepts valid SARIF and rejects the rest.
 */
class LockjawSarifTest {
  @TempDir Path dir;

  private static final String VALID =
      """
      {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
       "runs": [{"tool": {"driver": {"name": "lockjaw", "rules": [
           {"id": "ClassMonitorCache", "shortDescription": {"text": "s"}, "helpUri": "https://x/ClassMonitorCache.md"}]}},
         "results": [{"ruleId": "ClassMonitorCache", "ruleIndex": 0, "level": "warning", "message": {"text": "m"},
           "baselineState": "new",
           "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/A.java", "uriBaseId": "SRCROOT"},
                                              "region": {"startLine": 3, "startColumn": 5}}}],
           "fixes": [{"artifactChanges": [{"artifactLocation": {"uri": "src/A.java", "uriBaseId": "SRCROOT"},
              "replacements": [{"deletedRegion": {"charOffset": 1, "charLength": 2}, "insertedContent": {"text": "x"}}]}]}]}]}]}
      """;

  private File write(String json) throws Exception {
    Path file = dir.resolve("report.sarif");
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return file.toFile();
  }

  @Test
  void acceptsAValidReport() throws Exception {
    assertEquals(List.of(), LockjawSarif.problems(write(VALID)));
  }

  @Test
  void theSchemaRejectsWrongTypesAndUnknownProperties() throws Exception {
    List<String> problems =
        LockjawSarif.problems(
            write(
                VALID
                    .replace("\"startLine\": 3", "\"startLine\": 0")
                    .replace("\"version\": \"2.1.0\",", "\"version\": \"2.1.0\", \"extra\": 1,")));
    assertTrue(
        problems.stream().anyMatch(p -> p.startsWith("SARIF schema:") && p.contains("startLine")),
        problems.toString());
    assertTrue(
        problems.stream().anyMatch(p -> p.startsWith("SARIF schema:") && p.contains("extra")),
        problems.toString());
  }

  @Test
  void lockjawsOwnRulesCatchAbsolutePathsAndUnknownRules() throws Exception {
    List<String> problems =
        LockjawSarif.problems(
            write(
                VALID
                    .replace(
                        "\"uri\": \"src/A.java\", \"uriBaseId\": \"SRCROOT\"},\n",
                        "\"uri\": \"/abs/A.java\"},\n")
                    .replace("\"ruleId\": \"ClassMonitorCache\"", "\"ruleId\": \"Nope\"")));
    assertTrue(problems.stream().anyMatch(p -> p.contains("not relative")), problems.toString());
    assertTrue(
        problems.stream().anyMatch(p -> p.contains("unknown rule Nope")), problems.toString());
  }
}
