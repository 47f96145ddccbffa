package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextEdit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives the real server through an LSP4J client over JSON-RPC (in-process pipes). */
class LockjawLanguageServerTest {
  private static final String POM =
      """
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <modelVersion>4.0.0</modelVersion>
        <groupId>shop</groupId>
        <artifactId>reports</artifactId>
        <version>1.0</version>
      </project>
      """;

  /** Uses ReportWriter, another source file of the module: it must come from the source path. */
  private static final String EXPORTER =
      """
      package shop;

      public class ReportExporter {
        public void export(ReportWriter writer) throws InterruptedException {
          Thread exporter = new Thread(writer::write);
          exporter.start();
          while (exporter.isAlive()) {}
          System.out.println("exported " + writer.name());
        }
      }
      """;

  private static final String WRITER =
      """
      package shop;

      public class ReportWriter {
        public void write() {}

        public String name() {
          return "daily";
        }
      }
      """;

  @TempDir Path workspace;
  private final List<Integer> exits = new CopyOnWriteArrayList<>();
  private LspSession session;

  @AfterEach
  void close() throws Exception {
    if (session != null) {
      session.server.shutdown().get(120, TimeUnit.SECONDS);
      session.close();
    }
  }

  private Path mavenProject() throws Exception {
    Files.writeString(workspace.resolve("pom.xml"), POM, UTF_8);
    Path pkg = Files.createDirectories(workspace.resolve("src/main/java/shop"));
    Files.writeString(pkg.resolve("ReportWriter.java"), WRITER, UTF_8);
    Path exporter = pkg.resolve("ReportExporter.java");
    Files.writeString(exporter, EXPORTER, UTF_8);
    return exporter;
  }

  private void start() throws Exception {
    session = LspSession.inProcess(exits);
    InitializeResult result = session.initialize(workspace, null);
    assertNotNull(result.getCapabilities().getCodeActionProvider());
  }

  @Test
  void busyWaitIsADiagnosticWhoseQuickFixCompilesAndSavingTheFixClearsIt() throws Exception {
    Path file = mavenProject();
    start();
    session.open(file, EXPORTER);

    PublishDiagnosticsParams published = session.diagnostics(file, 1);
    assertEquals(1, published.getDiagnostics().size(), published.toString());
    Diagnostic diagnostic = published.getDiagnostics().get(0);
    assertEquals("lockjaw", diagnostic.getSource());
    assertEquals("ThreadAliveBusyWait", diagnostic.getCode().getLeft());
    assertEquals(DiagnosticSeverity.Warning, diagnostic.getSeverity());
    assertTrue(diagnostic.getMessage().contains("join()"), diagnostic.getMessage());
    // line 7 of the file, 0-based 6: "    while (exporter.isAlive()) {}"
    assertEquals(6, diagnostic.getRange().getStart().getLine());
    assertEquals(4, diagnostic.getRange().getStart().getCharacter());
    assertEquals(6, diagnostic.getRange().getEnd().getLine());
    String href = diagnostic.getCodeDescription().getHref();
    assertTrue(href.startsWith("file:") && href.endsWith("/ThreadAliveBusyWait.md"), href);
    assertTrue(Files.isRegularFile(Path.of(java.net.URI.create(href))), href);
    session.settle();
    assertTrue(
        session.client.shown.isEmpty(),
        "the classpath of a dependency-free pom resolves: " + session.client.shown);

    List<CodeAction> actions = session.codeActions(file, diagnostic);
    CodeAction fix =
        actions.stream()
            .filter(a -> a.getTitle().startsWith("Apply"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(actions));
    assertEquals("quickfix", fix.getKind());
    List<TextEdit> edits = fix.getEdit().getChanges().get(LspSession.uri(file));
    String fixed = LspSession.apply(EXPORTER, edits);
    assertEquals(EXPORTER.replace("while (exporter.isAlive()) {}", "exporter.join();"), fixed);
    assertCompiles(file, fixed, workspace.resolve("src/main/java"));

    session.change(file, 2, fixed);
    Files.writeString(file, fixed, UTF_8);
    session.save(file, fixed);
    PublishDiagnosticsParams cleared = session.diagnostics(file, 2);
    assertEquals(List.of(), cleared.getDiagnostics());
  }

  @Test
  void suppressActionSilencesTheCheckAndCompiles() throws Exception {
    Path file = mavenProject();
    start();
    session.open(file, EXPORTER);
    Diagnostic diagnostic = session.diagnostics(file, 1).getDiagnostics().get(0);
    CodeAction suppress =
        session.codeActions(file, diagnostic).stream()
            .filter(a -> a.getTitle().startsWith("Suppress"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        "Suppress ThreadAliveBusyWait with @SuppressWarnings(\"ThreadAliveBusyWait\")",
        suppress.getTitle());
    String suppressed =
        LspSession.apply(EXPORTER, suppress.getEdit().getChanges().get(LspSession.uri(file)));
    assertTrue(
        suppressed.contains(
            "  @SuppressWarnings(\"ThreadAliveBusyWait\")\n  public void export(ReportWriter writer)"),
        suppressed);
    assertCompiles(file, suppressed, workspace.resolve("src/main/java"));
    session.change(file, 2, suppressed);
    assertEquals(List.of(), session.diagnostics(file, 2).getDiagnostics());
  }

  @Test
  void realisticCodeWithoutTheAntiPatternGetsAnEmptyList() throws Exception {
    // outside any Maven project: analysed with the JDK alone
    Path file = Files.createDirectories(workspace.resolve("scratch")).resolve("Worker.java");
    String text =
        """
        import java.util.concurrent.ConcurrentHashMap;
        import java.util.concurrent.ExecutorService;
        import java.util.concurrent.TimeUnit;

        public class Worker {
          private final ConcurrentHashMap<String, Integer> sizes = new ConcurrentHashMap<>();

          int size(String key) {
            return sizes.computeIfAbsent(key, String::length);
          }

          void stop(ExecutorService pool, Thread helper) throws InterruptedException {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
            helper.join();
          }
        }
        """;
    Files.writeString(file, text, UTF_8);
    start();
    session.open(file, text);
    assertEquals(List.of(), session.diagnostics(file, 1).getDiagnostics());
    assertTrue(session.client.shown.isEmpty(), session.client.shown.toString());
  }

  @Test
  void brokenCodeGetsNoFindingsInItsBrokenPartsAndTheServerGoesOn() throws Exception {
    Path file = Files.createDirectories(workspace.resolve("scratch")).resolve("Poller.java");
    String halfTyped =
        """
        public class Poller {
          void awaitFirst(Thread first) {
            while (first.isAlive()) {}
          }

          void awaitSecond(Thread second) {
            while (second.isAlive()) {}
            second.interrupt(
          }
        }
        """;
    start();
    session.open(file, halfTyped);
    List<Diagnostic> diagnostics = session.diagnostics(file, 1).getDiagnostics();
    assertEquals(1, diagnostics.size(), diagnostics.toString());
    assertEquals(
        2, diagnostics.get(0).getRange().getStart().getLine(), "only the method that compiles");
    assertEquals(
        List.of("Suppress ThreadAliveBusyWait with @SuppressWarnings(\"ThreadAliveBusyWait\")"),
        session.codeActions(file, diagnostics.get(0)).stream().map(CodeAction::getTitle).toList(),
        "no fix while part of the file is not analysed");

    session.change(file, 2, "public class Poller { void x( { while (((( } class {{");
    assertEquals(List.of(), session.diagnostics(file, 2).getDiagnostics());

    session.change(file, 3, halfTyped.replace("second.interrupt(\n", "second.interrupt();\n"));
    List<Diagnostic> repaired = session.diagnostics(file, 3).getDiagnostics();
    assertEquals(
        List.of(2, 6), repaired.stream().map(d -> d.getRange().getStart().getLine()).toList());
    assertTrue(exits.isEmpty());
    assertTrue(
        session.client.logged.stream().noneMatch(m -> m.getType() == MessageType.Error),
        session.client.logged.toString());
  }

  @Test
  void anUnresolvableClasspathIsReportedOnceAndAnalysisGoesOn() throws Exception {
    Path file = mavenProject();
    Files.writeString(
        workspace.resolve("pom.xml"), "<project><modelVersion>4.0.0</modelVersion>", UTF_8);
    start();
    session.open(file, EXPORTER);
    assertEquals(
        1,
        session.diagnostics(file, 1).getDiagnostics().size(),
        "the JDK and the module's sources suffice");
    session.change(file, 2, EXPORTER.replace("{}", "{ Thread.onSpinWait(); }"));
    assertEquals(1, session.diagnostics(file, 2).getDiagnostics().size());
    MessageParams shown = session.shown(1, 120).get(0);
    session.settle();
    assertEquals(1, session.client.shown.size(), session.client.shown.toString());
    assertEquals(MessageType.Warning, shown.getType());
    String message = shown.getMessage();
    assertTrue(
        message.startsWith(
            "lockjaw could not resolve the class path of " + workspace.resolve("pom.xml") + ": "),
        message);
    // Maven's actual problem, not its framing ("Some problems were encountered ...")
    assertTrue(message.contains("POM " + workspace.resolve("pom.xml")), message);
    assertTrue(message.contains("expected end tag </project>"), message);
    assertFalse(message.contains("Some problems were encountered"), message);
    assertFalse(message.contains("\u001B"), "no terminal escape codes: " + message);
    assertFalse(message.contains("[ERROR]") || message.contains("[Help"), message);
  }

  @Test
  void shutdownThenExitEndsWithStatusZero() throws Exception {
    start();
    session.server.shutdown().get(30, TimeUnit.SECONDS);
    session.server.exit();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (exits.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(List.of(0), exits);
    session.close();
    session = null;
  }

  private static final String INVENTORY =
      """
      package shop;

      import java.io.IOException;
      import org.apache.http.client.methods.CloseableHttpResponse;
      import org.apache.http.client.methods.HttpGet;
      import org.apache.http.impl.client.CloseableHttpClient;
      import org.apache.http.impl.client.HttpClients;
      import org.apache.http.util.EntityUtils;

      public class InventoryClient {
        private final String baseUrl;

        public InventoryClient(String baseUrl) {
          this.baseUrl = baseUrl;
        }

        public String stockLevel(String sku) throws IOException {
          try (CloseableHttpClient client = HttpClients.createDefault();
              CloseableHttpResponse response = client.execute(new HttpGet(baseUrl + "/stock/" + sku))) {
            return EntityUtils.toString(response.getEntity());
          }
        }
      }
      """;

  @Test
  void theClasspathComesFromMavenAndIsResolvedAgainWhenThePomIsFixed() throws Exception {
    // httpclient missing from the pom: the file does not compile, so no finding, and one message
    Files.writeString(
        workspace.resolve("pom.xml"),
        POM.replace("</project>", "<dependencies><dependency></dependencies></project>"),
        UTF_8);
    Path pkg = Files.createDirectories(workspace.resolve("src/main/java/shop"));
    Path file = pkg.resolve("InventoryClient.java");
    Files.writeString(file, INVENTORY, UTF_8);
    start();
    session.open(file, INVENTORY);
    assertEquals(List.of(), session.diagnostics(file, 1).getDiagnostics());
    session.shown(1, 120);
    session.settle();
    assertEquals(1, session.client.shown.size(), session.client.shown.toString());

    Files.writeString(
        workspace.resolve("pom.xml"),
        POM.replace(
            "</project>",
            """
              <dependencies>
                <dependency>
                  <groupId>org.apache.httpcomponents</groupId>
                  <artifactId>httpclient</artifactId>
                  <version>4.5.14</version>
                </dependency>
              </dependencies>
            </project>
            """),
        UTF_8);
    session
        .server
        .getWorkspaceService()
        .didChangeWatchedFiles(
            new DidChangeWatchedFilesParams(
                List.of(
                    new FileEvent(
                        LspSession.uri(workspace.resolve("pom.xml")), FileChangeType.Changed))));
    List<Diagnostic> diagnostics =
        session
            .diagnosticsWhere(
                file, p -> LspSession.codes(p).equals(List.of("PerRequestHttpClient")), 180)
            .getDiagnostics();
    // the resource "CloseableHttpClient client = HttpClients.createDefault()", 0-based line 17
    assertEquals(17, diagnostics.get(0).getRange().getStart().getLine(), diagnostics.toString());
    assertEquals(
        9, diagnostics.get(0).getRange().getStart().getCharacter(), diagnostics.toString());
    session.settle();
    assertEquals(
        1,
        session.client.shown.size(),
        "a resolved classpath brings no message: " + session.client.shown);
  }

  @Test
  void suppressJoinsAnExistingSuppressWarnings() throws Exception {
    Path file = mavenProject();
    String text =
        EXPORTER.replace(
            "  public void export(", "  @SuppressWarnings(\"unchecked\")\n  public void export(");
    start();
    session.open(file, text);
    Diagnostic diagnostic = session.diagnostics(file, 1).getDiagnostics().get(0);
    CodeAction suppress =
        session.codeActions(file, diagnostic).stream()
            .filter(a -> a.getTitle().startsWith("Suppress"))
            .findFirst()
            .orElseThrow();
    String suppressed =
        LspSession.apply(text, suppress.getEdit().getChanges().get(LspSession.uri(file)));
    assertEquals(
        text.replace(
            "@SuppressWarnings(\"unchecked\")",
            "@SuppressWarnings({\"unchecked\", \"ThreadAliveBusyWait\"})"),
        suppressed);
    assertCompiles(file, suppressed, workspace.resolve("src/main/java"));
  }

  @Test
  void quickSuccessiveChangesAreAnalysedOnceForTheLastText() throws Exception {
    Path file = mavenProject();
    start();
    session.open(file, EXPORTER);
    assertEquals(1, session.diagnostics(file, 1).getDiagnostics().size());
    session.settle(); // the class path resolved: nothing else will be published for it
    session.client.diagnostics.clear();
    for (int version = 2; version <= 6; version++) {
      session.change(file, version, EXPORTER.replace("{}", "{ /* " + version + " */ }"));
    }
    PublishDiagnosticsParams published = session.diagnostics(file, 2);
    assertEquals(6, published.getVersion(), "only the last of the quick changes is analysed");
    assertEquals(1, published.getDiagnostics().size());
    Thread.sleep(2 * LockjawLanguageServer.DEFAULT_DEBOUNCE_MILLIS);
    assertEquals(List.of(), List.copyOf(session.client.diagnostics), "nothing else was published");
  }

  /**
   * Compiles the text as the file, with the module's sources on the source path, and fails on any
   * error.
   */
  static void assertCompiles(Path file, String text, Path sourceRoot) throws Exception {
    Path copy = Files.createTempDirectory("lockjaw-fixed").resolve(file.getFileName().toString());
    Files.writeString(copy, text, UTF_8);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> errors = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(errors, null, UTF_8)) {
      Path out = Files.createTempDirectory("lockjaw-classes");
      boolean ok =
          javac
              .getTask(
                  null,
                  files,
                  errors,
                  List.of("-sourcepath", sourceRoot.toString(), "-d", out.toString(), "-proc:none"),
                  null,
                  files.getJavaFileObjects(copy))
              .call();
      assertTrue(
          ok,
          errors.getDiagnostics().stream().map(Object::toString).collect(Collectors.joining("\n")));
    }
    assertFalse(text.isBlank());
  }
}
