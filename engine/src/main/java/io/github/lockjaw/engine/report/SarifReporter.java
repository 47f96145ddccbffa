package io.github.lockjaw.engine.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.lockjaw.engine.docs.CheckPages;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.finding.TraceStep;
import io.github.lockjaw.engine.io.AtomicFiles;
import io.github.lockjaw.engine.io.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Writes findings as SARIF 2.1.0: the tool with one rule per check (its page's text as {@code
 * help.markdown}, {@code helpUri} to the copy of the page the user has), results at
 * repository-relative locations (base id {@code SRCROOT}), a stable {@code partialFingerprints}
 * entry, {@code baselineState}, the request path and effect chain as a {@code codeFlow}, and {@code
 * fixes} where lockjaw has one.
 */
public final class SarifReporter {
  public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
  private static final String FINGERPRINT_KEY = "lockjaw/v1";

  private final String toolVersion;
  private final CheckPages pages;

  /**
   * @param repositoryRoot the directory result paths are relative to; it is described, never
   *     written as a machine's absolute path (a report is shared, uploaded, and compared)
   * @param pages the copies of the checks' pages written for this report, which the rules' {@code
   *     helpUri} point to
   */
  public SarifReporter(String toolVersion, Path repositoryRoot, CheckPages pages) {
    this.toolVersion = toolVersion;
    this.pages = pages;
  }

  /**
   * A reporter whose rules link to copies of the pages in the temporary directory (for a report
   * with no directory of its own).
   */
  public SarifReporter(String toolVersion, Path repositoryRoot) {
    this(toolVersion, repositoryRoot, null);
  }

  public JsonObject build(
      List<Rule> rules,
      List<Finding> findings,
      Function<Finding, String> relativePath,
      Map<Finding, String> fingerprints,
      Predicate<Finding> baselined) {
    return build(rules, findings, relativePath, fingerprints, baselined, f -> Map.of());
  }

  /**
   * As {@link #build(List, List, Function, Map, Predicate)}, with a property bag per result: e.g.
   * the contention report's observed figures, so code scanning can sort results by them. Values are
   * numbers, booleans or strings; an empty map adds no bag.
   */
  public JsonObject build(
      List<Rule> rules,
      List<Finding> findings,
      Function<Finding, String> relativePath,
      Map<Finding, String> fingerprints,
      Predicate<Finding> baselined,
      Function<Finding, Map<String, Object>> resultProperties) {
    JsonObject driver = new JsonObject();
    driver.addProperty("name", "lockjaw");
    driver.addProperty("version", toolVersion);
    JsonArray ruleArray = new JsonArray();
    List<String> ruleIds = new ArrayList<>();
    CheckPages linkedPages =
        pages != null
            ? pages
            : CheckPages.inTemporaryDirectory(rules.stream().map(Rule::id).toList(), toolVersion);
    for (Rule rule : rules) {
      ruleIds.add(rule.id());
      JsonObject r = new JsonObject();
      r.addProperty("id", rule.id());
      r.addProperty("name", rule.id());
      r.add("shortDescription", text(rule.summary()));
      r.add("fullDescription", text(rule.summary()));
      Optional<String> copy = linkedPages.uri(rule.id());
      if (copy.isPresent()) {
        r.addProperty("helpUri", copy.get());
      } else if (isAbsoluteUri(rule.helpUri())) {
        r.addProperty("helpUri", rule.helpUri());
      }
      Optional<String> page = CheckPages.helpMarkdown(rule.id());
      JsonObject help = new JsonObject();
      if (page.isPresent()) {
        help.addProperty("text", page.get());
        help.addProperty("markdown", page.get());
      } else {
        help.addProperty("text", rule.summary());
      }
      r.add("help", help);
      JsonObject configuration = new JsonObject();
      configuration.addProperty("level", rule.defaultSeverity().sarifLevel());
      r.add("defaultConfiguration", configuration);
      JsonObject properties = new JsonObject();
      JsonArray tags = new JsonArray();
      tags.add("performance");
      tags.add("concurrency");
      properties.add("tags", tags);
      r.add("properties", properties);
      ruleArray.add(r);
    }
    driver.add("rules", ruleArray);
    JsonObject tool = new JsonObject();
    tool.add("driver", driver);

    JsonArray results = new JsonArray();
    for (Finding finding : findings) {
      JsonObject result = new JsonObject();
      result.addProperty("ruleId", finding.check());
      int index = ruleIds.indexOf(finding.check());
      if (index >= 0) {
        result.addProperty("ruleIndex", index);
      }
      result.addProperty("level", finding.severity().sarifLevel());
      result.add("message", text(finding.message()));
      JsonArray locations = new JsonArray();
      JsonObject location = new JsonObject();
      JsonObject physical = new JsonObject();
      physical.add("artifactLocation", artifact(relativePath.apply(finding)));
      if (finding.line() >= 1) { // a class file without line numbers gives none
        JsonObject region = new JsonObject();
        region.addProperty("startLine", finding.line());
        if (finding.column() >= 1) {
          region.addProperty("startColumn", finding.column());
        }
        physical.add("region", region);
      }
      location.add("physicalLocation", physical);
      if (!finding.enclosingClass().isEmpty()) {
        JsonArray logical = new JsonArray();
        JsonObject member = new JsonObject();
        String name =
            finding.member().isEmpty()
                ? finding.enclosingClass()
                : finding.enclosingClass() + "." + finding.member();
        member.addProperty("fullyQualifiedName", name);
        member.addProperty("kind", finding.member().isEmpty() ? "type" : "member");
        logical.add(member);
        location.add("logicalLocations", logical);
      }
      locations.add(location);
      result.add("locations", locations);
      JsonObject partial = new JsonObject();
      partial.addProperty(FINGERPRINT_KEY, fingerprints.get(finding));
      result.add("partialFingerprints", partial);
      result.addProperty("baselineState", baselined.test(finding) ? "unchanged" : "new");
      if (!finding.requestPath().isEmpty() || !finding.effectChain().isEmpty()) {
        result.add("codeFlows", codeFlows(finding, relativePath, location));
      }
      if (finding.hasFix()) {
        result.add("fixes", fixes(finding, relativePath.apply(finding)));
      }
      Map<String, Object> bag = resultProperties.apply(finding);
      if (bag != null && !bag.isEmpty()) {
        result.add("properties", Json.GSON.toJsonTree(bag));
      }
      results.add(result);
    }

    JsonObject run = new JsonObject();
    run.add("tool", tool);
    JsonObject bases = new JsonObject();
    // No "uri": SARIF allows a base id without one, and consumers (GitHub code scanning) resolve
    // SRCROOT to the checkout themselves; an absolute path would leak the build machine's layout.
    JsonObject srcroot = new JsonObject();
    JsonObject description = new JsonObject();
    description.addProperty(
        "text",
        "The root of the source repository (the directory holding .git), else of the Maven build.");
    srcroot.add("description", description);

    bases.add("SRCROOT", srcroot);
    run.add("originalUriBaseIds", bases);
    // javac counts columns, and lockjaw's fix offsets, in UTF-16 code units
    run.addProperty("columnKind", "utf16CodeUnits");
    run.add("results", results);
    JsonArray runs = new JsonArray();
    runs.add(run);
    JsonObject log = new JsonObject();
    log.addProperty("$schema", SCHEMA);
    log.addProperty("version", "2.1.0");
    log.add("runs", runs);
    return log;
  }

  public void write(Path target, JsonObject log) throws IOException {
    Files.createDirectories(target.toAbsolutePath().getParent());
    AtomicFiles.write(target, Json.GSON.toJson(log) + "\n");
  }

  /**
   * One code flow: the request path's calls, the flagged code, then the calls under the lock that
   * lead to the effect, each with its description.
   */
  private static JsonArray codeFlows(
      Finding finding, Function<Finding, String> relativePath, JsonObject flagged) {
    JsonArray steps = new JsonArray();
    for (TraceStep step : finding.requestPath()) {
      steps.add(flowStep(step, finding, relativePath));
    }
    JsonObject here = flagged.deepCopy();
    here.add("message", text("the flagged code: " + finding.message()));
    JsonObject hereStep = new JsonObject();
    hereStep.add("location", here);
    steps.add(hereStep);
    for (TraceStep step : finding.effectChain()) {
      steps.add(flowStep(step, finding, relativePath));
    }
    JsonObject threadFlow = new JsonObject();
    threadFlow.add("locations", steps);
    JsonArray threadFlows = new JsonArray();
    threadFlows.add(threadFlow);
    JsonObject codeFlow = new JsonObject();
    codeFlow.add(
        "message",
        text(
            finding.requestPath().isEmpty()
                ? "what the code under the lock does"
                : "how requests reach the flagged code"
                    + (finding.effectChain().isEmpty()
                        ? ""
                        : ", and what it does under the lock")));
    codeFlow.add("threadFlows", threadFlows);
    JsonArray codeFlows = new JsonArray();
    codeFlows.add(codeFlow);
    return codeFlows;
  }

  private static JsonObject flowStep(
      TraceStep step, Finding finding, Function<Finding, String> relativePath) {
    JsonObject location = new JsonObject();
    if (!step.file().isEmpty()) {
      JsonObject physical = new JsonObject();
      physical.add("artifactLocation", artifact(stepPath(step, finding, relativePath)));
      if (step.line() >= 1) {
        JsonObject region = new JsonObject();
        region.addProperty("startLine", step.line());
        physical.add("region", region);
      }
      location.add("physicalLocation", physical);
    }
    location.add("message", text(step.description()));
    JsonObject flowLocation = new JsonObject();
    flowLocation.add("location", location);
    return flowLocation;
  }

  /**
   * A step's file relative to the same root as the finding's, when it lies under it; else as it is.
   */
  static String stepPath(TraceStep step, Finding finding, Function<Finding, String> relativePath) {
    String relative = relativePath.apply(finding).replace('\\', '/');
    String file = finding.file().replace('\\', '/');
    String stepFile = step.file().replace('\\', '/');
    if (stepFile.equals(file)) {
      return relative;
    }
    if (file.endsWith("/" + relative)) {
      String root = file.substring(0, file.length() - relative.length());
      if (stepFile.startsWith(root)) {
        return stepFile.substring(root.length());
      }
    }
    return step.file();
  }

  private static JsonArray fixes(Finding finding, String path) {
    JsonArray replacements = new JsonArray();
    for (Edit edit : finding.fix()) {
      JsonObject replacement = new JsonObject();
      JsonObject deleted = new JsonObject();
      deleted.addProperty("charOffset", edit.start());
      deleted.addProperty("charLength", edit.end() - edit.start());
      replacement.add("deletedRegion", deleted);
      JsonObject inserted = new JsonObject();
      inserted.addProperty("text", edit.text());
      replacement.add("insertedContent", inserted);
      replacements.add(replacement);
    }
    JsonObject change = new JsonObject();
    change.add("artifactLocation", artifact(path));
    change.add("replacements", replacements);
    JsonArray changes = new JsonArray();
    changes.add(change);
    JsonObject fix = new JsonObject();
    fix.add("description", text("lockjaw's suggested fix for " + finding.check()));
    fix.add("artifactChanges", changes);
    JsonArray fixes = new JsonArray();
    fixes.add(fix);
    return fixes;
  }

  /** A repository-relative, percent-encoded URI; a file outside the repository gets a file: URI. */
  private static JsonObject artifact(String path) {
    JsonObject artifact = new JsonObject();
    Path asPath = Path.of(path);
    if (asPath.isAbsolute()) {
      artifact.addProperty("uri", asPath.toUri().toASCIIString());
      return artifact;
    }
    try {
      artifact.addProperty(
          "uri", new URI(null, null, path.replace('\\', '/'), null).toASCIIString());
    } catch (URISyntaxException e) {
      artifact.addProperty("uri", path.replace('\\', '/'));
    }
    artifact.addProperty("uriBaseId", "SRCROOT");
    return artifact;
  }

  private static boolean isAbsoluteUri(String uri) {
    try {
      return uri != null && new URI(uri).isAbsolute();
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static JsonObject text(String text) {
    JsonObject message = new JsonObject();
    message.addProperty("text", text);
    return message;
  }
}
