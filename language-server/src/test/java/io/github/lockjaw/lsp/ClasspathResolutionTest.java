package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.github.lockjaw.lsp.MavenFixtures.SilentRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class paths resolve on their own thread: with a Maven repository that accepts connections and
 * never answers, diagnostics still come from the JDK at once, and again when the class path arrives
 * or the resolution is given up, with a message.
 */
class ClasspathResolutionTest {
  /** The promise: the first diagnostics of a file, from the JDK alone, within this time. */
  private static final long FIRST_DIAGNOSTICS_SECONDS = 5;

  /**
   * Maven's time for the silent repository: enough for its offline run to fail on a busy 2-core
   * machine (Maven's start alone takes seconds), so that the online run is the one stopped.
   */
  private static final int TIMEOUT_SECONDS = 30;

  /** One busy-wait needs only the JDK; the other is in a method that uses gson. */
  private static final String EXPORTER =
      """
      package shop;

      import com.google.gson.Gson;

      public class Exporter {
        public void awaitWriter(Thread writer) {
          while (writer.isAlive()) {}
        }

        public String exportWhenDone(Gson gson, Thread writer) {
          while (writer.isAlive()) {}
          return gson.toJson(writer.getName());
        }
      }
      """;

  private static final String SCRATCH =
      """
      public class Scratch {
        void await(Thread helper) {
          while (helper.isAlive()) {}
        }
      }
      """;

  @TempDir Path workspace;
  private LspSession session;

  @BeforeAll
  static void localRepositoryHoldsGson(@TempDir Path dir) throws Exception {
    MavenFixtures.primeLocalRepository(dir);
  }

  @AfterEach
  void close() throws Exception {
    if (session != null) {
      session.server.shutdown().get(30, TimeUnit.SECONDS);
      session.close();
    }
  }

  private Path project(String dependency, SilentRepository repository) throws Exception {
    Files.writeString(
        workspace.resolve("pom.xml"),
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>shop</groupId>
          <artifactId>exporter</artifactId>
          <version>1.0</version>
          <dependencies>
            %s
          </dependencies>
        </project>
        """
            .formatted(dependency),
        UTF_8);
    MavenFixtures.useSettings(workspace, repository.url());
    Path file =
        Files.createDirectories(workspace.resolve("src/main/java/shop")).resolve("Exporter.java");
    Files.writeString(file, EXPORTER, UTF_8);
    return file;
  }

  private void start(int classpathTimeoutSeconds) throws Exception {
    session = LspSession.inProcess(new CopyOnWriteArrayList<>());
    JsonObject options = new JsonObject();
    options.addProperty("classpathTimeoutSeconds", classpathTimeoutSeconds);
    session.initialize(workspace, options);
  }

  private static List<Integer> lines(PublishDiagnosticsParams params) {
    return params.getDiagnostics().stream().map(d -> d.getRange().getStart().getLine()).toList();
  }

  @Test
  void aRepositoryThatNeverAnswersDelaysNoDiagnosticsAndEndsInAMessageNamingIt() throws Exception {
    try (SilentRepository repository = new SilentRepository()) {
      Path file =
          project(
              """
              <dependency>
                <groupId>org.example.lockjaw</groupId>
                <artifactId>never-published</artifactId>
                <version>1.0</version>
              </dependency>
              """,
              repository);
      Path scratch = Files.createDirectories(workspace.resolve("scratch")).resolve("Scratch.java");
      Files.writeString(scratch, SCRATCH, UTF_8);
      start(TIMEOUT_SECONDS);

      long opened = System.nanoTime();
      session.open(file, EXPORTER);
      PublishDiagnosticsParams first = session.diagnostics(file, 1);
      long firstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
      assertTrue(
          firstMillis < FIRST_DIAGNOSTICS_SECONDS * 1000,
          "the first diagnostics took " + firstMillis + " ms");
      System.out.println("first diagnostics, repository silent: " + firstMillis + " ms");
      assertEquals(List.of("ThreadAliveBusyWait"), LspSession.codes(first));
      assertEquals(List.of(6), lines(first), "the method that needs only the JDK");

      // a file outside any project waits for nothing either
      long scratchOpened = System.nanoTime();
      session.open(scratch, SCRATCH);
      assertEquals(
          List.of("ThreadAliveBusyWait"), LspSession.codes(session.diagnostics(scratch, 1)));
      long scratchMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - scratchOpened);
      assertTrue(scratchMillis < FIRST_DIAGNOSTICS_SECONDS * 1000, scratchMillis + " ms");

      MessageParams message = session.shown(1, TIMEOUT_SECONDS + 60).get(0);
      long messageMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
      assertEquals(MessageType.Warning, message.getType());
      String text = message.getMessage();
      assertTrue(
          text.startsWith(
              "lockjaw could not resolve the class path of "
                  + workspace.resolve("pom.xml")
                  + ": Maven did not finish within "
                  + TIMEOUT_SECONDS
                  + " s; it was still downloading "
                  + repository.url()
                  + "/org/example/lockjaw/never-published/1.0/"),
          text);
      assertTrue(text.contains("classpathTimeoutSeconds"), text);
      assertFalse(text.contains("\u001B"), text);
      assertTrue(repository.connections() > 0, "Maven asked the silent repository");
      assertTrue(messageMillis >= TIMEOUT_SECONDS * 1000L, messageMillis + " ms");

      // the server goes on: an edit is analysed as before
      session.change(file, 2, EXPORTER.replace("{}", "{ Thread.onSpinWait(); }"));
      assertEquals(List.of(6), lines(session.diagnostics(file, 2)));
      session.settle();
      assertEquals(1, session.client.shown.size(), session.client.shown.toString());
    }
  }

  @Test
  void theJdkAloneAnswersFirstThenTheClassPathFromTheLocalRepositoryAddsTheRest() throws Exception {
    try (SilentRepository repository = new SilentRepository()) {
      Path file =
          project(
              """
              <dependency>
                <groupId>com.google.code.gson</groupId>
                <artifactId>gson</artifactId>
                <version>%s</version>
              </dependency>
              """
                  .formatted(MavenFixtures.gsonVersion()),
              repository);
      start((int) Projects.DEFAULT_TIMEOUT_SECONDS);

      long opened = System.nanoTime();
      session.open(file, EXPORTER);
      PublishDiagnosticsParams first = session.diagnostics(file, 1);
      long firstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
      assertTrue(
          firstMillis < FIRST_DIAGNOSTICS_SECONDS * 1000,
          "the first diagnostics took " + firstMillis + " ms");
      System.out.println("first diagnostics, class path from ~/.m2: " + firstMillis + " ms");
      assertEquals(List.of(6), lines(first), "before the class path: the JDK's part");

      PublishDiagnosticsParams withClasspath =
          session.diagnosticsWhere(file, p -> p.getDiagnostics().size() == 2, 120);
      assertEquals(List.of(6), lines(first));
      assertEquals(List.of(6, 10), lines(withClasspath), "with gson: both methods");
      assertEquals(1, withClasspath.getVersion());
      for (Diagnostic diagnostic : withClasspath.getDiagnostics()) {
        assertEquals("ThreadAliveBusyWait", diagnostic.getCode().getLeft());
      }
      session.settle();
      assertEquals(List.of(), session.client.shown, "offline resolution needs no repository");
      assertEquals(
          0, repository.connections(), "offline first: the silent repository was not asked");
    }
  }
}
