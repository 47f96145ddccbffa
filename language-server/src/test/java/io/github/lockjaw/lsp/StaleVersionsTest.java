package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An edit storm: changes arrive faster than the file is analysed. Each analysis is right for its
 * own version, but diagnostics for a version must never reach the editor once the server has
 * received a newer one.
 */
class StaleVersionsTest {
  private static final int EDITS = 36;

  @TempDir Path workspace;
  private LspSession session;

  @AfterEach
  void close() throws Exception {
    if (session != null) {
      session.server.shutdown().get(30, TimeUnit.SECONDS);
      session.close();
    }
  }

  /** A file big enough that analysing it takes longer than the pause between two edits. */
  static String source(int edit) {
    StringBuilder text = new StringBuilder();
    text.append("import java.util.*;\nimport java.util.concurrent.*;\n\n");
    text.append("public class Orders {\n");
    text.append("  // edit ").append(edit).append('\n');
    text.append("  private final Map<String, List<Integer>> lines = new ConcurrentHashMap<>();\n");
    for (int i = 0; i < 60; i++) {
      String wait =
          i % 20 == 0
              ? """
                  while (loader.isAlive()) {
                    Thread.sleep(1);
                  }
              """
              : "";
      text.append(
          """
            int total%1$d(String order, Thread loader) throws InterruptedException {
              List<Integer> amounts = lines.computeIfAbsent(order, k -> new ArrayList<>());
              int sum = 0;
              for (int amount : amounts) {
                sum += amount * %1$d;
              }
          %2$s    return sum + String.valueOf(order).length();
            }
          """
              .formatted(i, wait));
    }
    return text.append("}\n").toString();
  }

  @Test
  void noDiagnosticsArePublishedForAVersionOnceANewerOneWasReceived() throws Exception {
    Path file = workspace.resolve("Orders.java");
    Files.writeString(file, source(1), UTF_8);
    session = LspSession.inProcess(new CopyOnWriteArrayList<>());
    JsonObject options = new JsonObject();
    options.addProperty("debounceMillis", 0); // every change analysed at once: the worst case
    session.initialize(workspace, options);
    session.open(file, source(1));
    assertEquals(3, session.diagnostics(file, 1).getDiagnostics().size());

    Random pauses = new Random(24);
    for (int version = 2; version <= EDITS; version++) {
      session.change(file, version, source(version));
      fence(file, version);
      Thread.sleep(pauses.nextInt(80));
    }
    PublishDiagnosticsParams last =
        session.diagnosticsWhere(file, p -> p.getVersion() == EDITS, 120);
    assertEquals(3, last.getDiagnostics().size());
    session.settle();

    // "fence V": the server had handled the change to version V (it answered a request sent after
    // it)
    List<String> stale = new ArrayList<>();
    int received = 1;
    List<Integer> published = new ArrayList<>();
    for (String event : session.client.events) {
      String[] parts = event.split(" ");
      if (parts[0].equals("fence")) {
        received = Math.max(received, Integer.parseInt(parts[1]));
      } else if (parts[0].equals("publish") && parts[1].equals(LspSession.uri(file))) {
        int version = Integer.parseInt(parts[2]);
        published.add(version);
        if (version < received) {
          stale.add("version " + version + " published after version " + received + " arrived");
        }
      }
    }
    assertEquals(List.of(), stale, "published versions, in order: " + published);
    assertEquals(EDITS, (int) published.get(published.size() - 1));
    System.out.println("edit storm: " + (EDITS - 1) + " changes, versions published: " + published);
  }

  /**
   * A request sent after the change: its answer comes back after the server handled the change, and
   * after whatever it published before.
   */
  private void fence(Path file, int version) throws Exception {
    CodeActionParams params =
        new CodeActionParams(
            new TextDocumentIdentifier(LspSession.uri(file)),
            new Range(new Position(0, 0), new Position(0, 0)),
            new CodeActionContext(List.of()));
    session
        .server
        .getTextDocumentService()
        .codeAction(params)
        .thenRun(() -> session.client.events.add("fence " + version))
        .get(30, TimeUnit.SECONDS);
  }
}
