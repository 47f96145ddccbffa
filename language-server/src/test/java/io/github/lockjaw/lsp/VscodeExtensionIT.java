package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The VS Code extension as users install it: {@code editors/vscode/package.sh} packages the .vsix
 * with {@code @vscode/vsce} from npm and the server jar of this build; the test reads its manifest
 * and contents and runs its JDK finder with node. Needs Node.js and npm on the PATH (CI has them);
 * without them, or with {@code -Dlockjaw.skipVscode=true}, it is skipped and says why.
 */
class VscodeExtensionIT {
  private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
  private static final Path VSIX = Path.of("target/vscode/lockjaw-vscode.vsix").toAbsolutePath();
  private static String packagingOutput;

  @BeforeAll
  static void packageTheExtension() throws Exception {
    Assumptions.assumeFalse(Boolean.getBoolean("lockjaw.skipVscode"), "-Dlockjaw.skipVscode=true");
    Assumptions.assumeTrue(
        NeovimIT.onPath("npm") != null && NeovimIT.onPath("node") != null,
        "npm and node are not on the PATH, so the VS Code extension (.vsix) is not packaged or"
            + " tested here: install Node.js 18+ with npm to run this test (CI has them)");
    Path script = REPOSITORY.resolve("editors/vscode/package.sh");
    assertTrue(Files.isExecutable(script), script + " is missing or not executable");
    Files.deleteIfExists(VSIX);
    Path log = Files.createDirectories(VSIX.getParent()).resolve("package.log");
    Process process =
        new ProcessBuilder("bash", script.toString(), ServerJarIT.jar().toString(), VSIX.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean ended = process.waitFor(10, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly();
    }
    packagingOutput = Files.readString(log, UTF_8);
    assertTrue(ended && process.exitValue() == 0, "package.sh failed:\n" + packagingOutput);
    assertTrue(Files.isRegularFile(VSIX), "no .vsix written:\n" + packagingOutput);
    System.out.println("packaged " + VSIX + " (" + Files.size(VSIX) / 1024 + " KB)");
  }

  @Test
  void theManifestNamesTheExtensionAndItsPackageJson() throws Exception {
    try (ZipFile vsix = new ZipFile(VSIX.toFile())) {
      String manifest = text(vsix, "extension.vsixmanifest");
      assertTrue(
          manifest.contains(
              "<Identity Language=\"en-US\" Id=\"lockjaw\" Version=\"0.1.0\""
                  + " Publisher=\"lockjaw\""),
          manifest);
      assertTrue(manifest.contains("<DisplayName>lockjaw</DisplayName>"), manifest);
      assertTrue(
          manifest.contains(
              "<Asset Type=\"Microsoft.VisualStudio.Code.Manifest\" Path=\"extension/package.json\""),
          manifest);
      assertTrue(
          manifest.contains("Microsoft.VisualStudio.Code.Engine\" Value=\"^1.82.0\""), manifest);
      assertTrue(vsix.getEntry("[Content_Types].xml") != null);

      JsonObject packageJson =
          JsonParser.parseString(text(vsix, "extension/package.json")).getAsJsonObject();
      assertEquals("./extension.js", packageJson.get("main").getAsString());
      assertEquals(
          "onLanguage:java", packageJson.getAsJsonArray("activationEvents").get(0).getAsString());
      JsonObject settings =
          packageJson
              .getAsJsonObject("contributes")
              .getAsJsonObject("configuration")
              .getAsJsonObject("properties");
      assertEquals(
          List.of(
              "lockjaw.java",
              "lockjaw.server.jar",
              "lockjaw.mavenExecutable",
              "lockjaw.debounceMillis",
              "lockjaw.classpathTimeoutSeconds"),
          List.copyOf(settings.keySet()));
    }
  }

  @Test
  void itHoldsTheServerJarOfThisBuildAndTheRuntimeDependenciesOnly() throws Exception {
    try (ZipFile vsix = new ZipFile(VSIX.toFile())) {
      ZipEntry jar = vsix.getEntry("extension/server/lockjaw-language-server.jar");
      assertTrue(jar != null, "no server jar in the .vsix");
      try (InputStream in = vsix.getInputStream(jar)) {
        assertEquals(sha256(Files.readAllBytes(ServerJarIT.jar())), sha256(in.readAllBytes()));
      }
      for (String file :
          List.of(
              "extension/extension.js",
              "extension/jdk.js",
              "extension/readme.md",
              "extension/node_modules/vscode-languageclient/package.json",
              "extension/node_modules/vscode-languageclient/node.js")) {
        assertTrue(vsix.getEntry(file) != null, file + " is missing");
      }
      List<String> unwanted = new ArrayList<>();
      vsix.stream()
          .map(ZipEntry::getName)
          .filter(
              n ->
                  n.contains("node_modules/@vscode/vsce")
                      || n.endsWith("package.sh")
                      || n.endsWith(".vsix")
                      || n.contains("/.bin/"))
          .forEach(unwanted::add);
      assertEquals(List.of(), unwanted, "build tools do not ship");
    }
  }

  @Test
  void itFindsAJdk21ByItselfAndRejectsAnOlderOne() throws Exception {
    Path jdkJs = Files.createTempDirectory("lockjaw-vscode").resolve("jdk.js");
    try (ZipFile vsix = new ZipFile(VSIX.toFile())) {
      Files.writeString(jdkJs, text(vsix, "extension/jdk.js"), UTF_8);
    }
    Path thisJava = Path.of(System.getProperty("java.home"), "bin", "java");
    int thisVersion = Runtime.version().feature();
    Path older = ServerJarIT.javaOlderThan21();

    // JAVA_HOME is an old Java (when the machine has one): passed over for the 21+ on the PATH
    Map<String, String> env =
        Map.of(
            "JAVA_HOME",
            older == null ? "" : older.getParent().getParent().toString(),
            "PATH",
            thisJava.getParent().toString(),
            "HOME",
            jdkJs.getParent().toString());
    JsonObject found = findJava(jdkJs, "", env);
    assertFalse(found.has("error"), found.toString());
    assertEquals(thisVersion, found.get("version").getAsInt(), found.toString());
    assertEquals(thisJava.toRealPath(), Path.of(found.get("java").getAsString()).toRealPath());

    JsonObject configured = findJava(jdkJs, thisJava.toString(), env);
    assertEquals(thisJava.toString(), configured.get("java").getAsString(), configured.toString());

    if (older != null) {
      JsonObject rejected = findJava(jdkJs, older.toString(), env);
      String error = rejected.get("error").getAsString();
      assertTrue(
          error.contains("needs Java 21 or newer") && error.contains(older.toString()), error);
    }
    JsonObject missing = findJava(jdkJs, "/no/such/java", env);
    assertTrue(missing.get("error").getAsString().contains("does not exist"), missing.toString());
  }

  /** Runs the extension's findJava(configured, {env}) with node; its result as JSON. */
  private static JsonObject findJava(Path jdkJs, String configured, Map<String, String> env)
      throws IOException, InterruptedException {
    JsonObject environment = new JsonObject();
    env.forEach(environment::addProperty);
    String script =
        "const { findJava } = require(process.argv[1]);"
            + "console.log(JSON.stringify(findJava(process.argv[2], { env: JSON.parse(process.argv[3]) })));";
    Process process =
        new ProcessBuilder(
                NeovimIT.onPath("node"),
                "-e",
                script,
                jdkJs.toString(),
                configured,
                environment.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8).strip();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);
    return JsonParser.parseString(output).getAsJsonObject();
  }

  private static String text(ZipFile zip, String name) throws IOException {
    ZipEntry entry = zip.getEntry(name);
    assertTrue(entry != null, name + " is missing from the .vsix");
    try (InputStream in = zip.getInputStream(entry)) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
