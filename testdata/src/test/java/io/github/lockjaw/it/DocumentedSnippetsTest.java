package io.github.lockjaw.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 19: every documented set-up enables every check. The getting-started compiler
 * snippet names each check lockjaw ships, sets no Java release, and is exactly what the sample-shop
 * integration test builds (whose verify.groovy counts the findings of all checks).
 */
class DocumentedSnippetsTest {
  private static final Path ROOT =
      Path.of(System.getProperty("user.dir")).getParent(); // testdata/..
  private static final Pattern PLUGIN_ARG =
      Pattern.compile("<arg>(-Xplugin:ErrorProne[^<]*)</arg>");

  @Test
  void theCompilerSnippetEnablesEveryCheckAndIsWhatSampleShopBuilds() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/getting-started.md"), UTF_8);
    List<String> documented = pluginArgs(doc);
    assertTrue(
        documented.size() >= 2,
        "the getting-started page shows the compiler and the patch snippet");
    Set<String> checks = lockjawChecks();
    assertEquals(
        10,
        checks.size(),
        "lockjaw's checks, from the checks jar's service registration: " + checks);
    for (String arg : documented) {
      if (!arg.contains("-XepDisableAllChecks")
          && !arg.contains("-XepPatchChecks")
          && !arg.contains(":OFF")) {
        continue; // '-Xplugin:ErrorProne' alone: every check on, at its default level
      }
      for (String check : checks) {
        assertTrue(arg.contains(check), "the documented '" + arg + "' leaves " + check + " off");
      }
    }
    String setup = documented.get(0);
    for (String check : checks) {
      assertTrue(setup.contains("-Xep:" + check + ":WARN"), setup);
    }
    String samplePom = Files.readString(ROOT.resolve("testdata/sample-shop/pom.xml"), UTF_8);
    assertEquals(
        List.of(setup), pluginArgs(samplePom), "sample-shop must build the documented snippet");
    String sampleVerify =
        Files.readString(ROOT.resolve("testdata/sample-shop/verify.groovy"), UTF_8);
    for (String check : checks) {
      assertTrue(
          sampleVerify.contains("check: '" + check + "'"),
          "sample-shop expects no finding of " + check);
    }
  }

  @Test
  void theGradleSnippetsEnableEveryCheck() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/getting-started.md"), UTF_8);
    Matcher warn = Pattern.compile("\\bwarn\\(([^)]*)\\)").matcher(doc);
    int snippets = 0;
    while (warn.find()) {
      if (!warn.group(1).contains(",")) {
        continue; // the one-to-one table row and the prose, not a set-up
      }
      snippets++;
      for (String check : lockjawChecks()) {
        assertTrue(
            warn.group(1).contains(check),
            "the Gradle set-up warn(" + warn.group(1) + ") leaves " + check + " off");
      }
    }
    assertEquals(2, snippets, "the Kotlin and the Groovy DSL set-up");
  }

  @Test
  void theCompilerSnippetDoesNotRetargetTheProject() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/getting-started.md"), UTF_8);
    int start = doc.indexOf("<artifactId>maven-compiler-plugin</artifactId>");
    int end = doc.indexOf("</plugin>", start);
    String snippet = doc.substring(start, end);
    assertFalse(
        snippet.contains("<release>"),
        "a hard-coded release would retarget a Java 8 project:\n" + snippet);
    assertFalse(snippet.contains("<source>") || snippet.contains("<target>"), snippet);
  }

  private static List<String> pluginArgs(String text) {
    List<String> args = new ArrayList<>();
    Matcher m = PLUGIN_ARG.matcher(text);
    while (m.find()) {
      args.add(m.group(1).trim());
    }
    return args;
  }

  private static Set<String> lockjawChecks() throws Exception {
    Set<String> names = new TreeSet<>();
    Enumeration<URL> services =
        DocumentedSnippetsTest.class
            .getClassLoader()
            .getResources("META-INF/services/com.google.errorprone.bugpatterns.BugChecker");
    while (services.hasMoreElements()) {
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(services.nextElement().openStream(), UTF_8))) {
        in.lines()
            .map(String::trim)
            .filter(l -> l.startsWith("io.github.lockjaw."))
            .forEach(l -> names.add(l.substring(l.lastIndexOf('.') + 1)));
      }
    }
    return names;
  }
}
