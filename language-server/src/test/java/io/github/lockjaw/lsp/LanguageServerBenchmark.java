package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.gson.JsonObject;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.PublishDiagnosticsParams;

/**
 * How fast do diagnostics come back while editing a 200-file Maven project? Generates the project
 * (200 classes in 10 packages, each using two others, every tenth with a busy-wait), starts the
 * server (this JVM, JSON-RPC over pipes) and prints: the first diagnostics (which do not wait for
 * Maven), when Maven's class path arrived, warm re-analyses after edits to files spread over the
 * project, and the heap after a full GC. Not part of the test suite: {@code
 * scripts/benchmark-language-server.sh [edits]}.
 */
public final class LanguageServerBenchmark {
  private static final int FILES = 200;
  private static final int PACKAGES = 10;

  public static void main(String[] args) throws Exception {
    int edits = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    Path root =
        Path.of(args.length > 1 ? args[1] : "target/benchmark/project-200").toAbsolutePath();
    List<Path> files = generate(root);

    List<Integer> exits = new CopyOnWriteArrayList<>();
    try (LspSession session = LspSession.inProcess(exits)) {
      JsonObject options = new JsonObject();
      options.addProperty("debounceMillis", 0); // measure the analysis; editors add the debounce
      session.initialize(root, options);

      long t0 = System.nanoTime();
      Path first = files.get(0);
      session.open(first, Files.readString(first, UTF_8));
      PublishDiagnosticsParams firstResult = session.diagnostics(first, 1);
      double cold = millis(t0);
      session.settle(); // Maven resolving the class path, on its own thread
      double classpath = millis(t0);

      long t1 = System.nanoTime();
      Path second = files.get(FILES / 2 + 3);
      session.open(second, Files.readString(second, UTF_8));
      session.diagnostics(second, 1);
      double secondOpen = millis(t1);

      List<Double> opened = new ArrayList<>();
      List<Double> warm = new ArrayList<>();
      int findings = 0;
      for (int i = 0; i < edits; i++) {
        Path file = files.get((7 + i * 37) % FILES);
        String text = Files.readString(file, UTF_8);
        long o = System.nanoTime();
        session.open(file, text);
        session.diagnostics(file, 1);
        opened.add(millis(o));
        long t = System.nanoTime();
        session.change(
            file, 2, text.replace("return counts.size();", "return counts.size() + " + i + ";"));
        findings += session.diagnostics(file, 2).getDiagnostics().size();
        warm.add(millis(t));
        session
            .server
            .getTextDocumentService()
            .didClose(
                new org.eclipse.lsp4j.DidCloseTextDocumentParams(
                    new org.eclipse.lsp4j.TextDocumentIdentifier(LspSession.uri(file))));
        drain(session);
      }
      System.gc();
      long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      Collections.sort(warm);
      Collections.sort(opened);
      double median = warm.get(warm.size() / 2);
      double p90 = warm.get((int) Math.ceil(warm.size() * 0.9) - 1);
      double max = warm.get(warm.size() - 1);
      System.out.printf("lockjaw language server, %d-file Maven project (%s)%n", FILES, root);
      System.out.printf(
          "  first diagnostics (cold, Maven still resolving)   %8.0f ms  (%d diagnostics)%n",
          cold, firstResult.getDiagnostics().size());
      System.out.printf(
          "  class path resolved by Maven (background)         %8.0f ms after the open%n",
          classpath);
      System.out.printf(
          "  first analysis of a second file                   %8.0f ms%n", secondOpen);
      System.out.printf(
          "  warm re-analysis after an edit (%d edits)         median %5.0f ms   p90 %5.0f ms   max %5.0f ms%n",
          edits, median, p90, max);
      System.out.printf(
          "  opening another file (%d files)                    median %5.0f ms   p90 %5.0f ms   max %5.0f ms%n",
          edits,
          opened.get(opened.size() / 2),
          opened.get((int) Math.ceil(opened.size() * 0.9) - 1),
          opened.get(opened.size() - 1));
      System.out.printf(
          "  ratio first / warm median                         %8.1f x%n", cold / median);
      System.out.printf("  findings in the edited files                      %8d%n", findings);
      System.out.printf(
          "  heap after full GC                                %8.0f MB  (max heap %d MB)%n",
          heap / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576);
      System.out.printf(
          "  editors wait the debounce (%d ms by default) on top of the warm figure%n",
          LockjawLanguageServer.DEFAULT_DEBOUNCE_MILLIS);
      session.server.shutdown().get(30, TimeUnit.SECONDS);
    }
  }

  private static void drain(LspSession session) throws InterruptedException {
    while (session.client.diagnostics.poll(20, TimeUnit.MILLISECONDS) != null) {
      // the empty list published on close
    }
  }

  private static double millis(long since) {
    return (System.nanoTime() - since) / 1e6;
  }

  /**
   * 200 classes; class i uses classes i+1 and i+7 (other packages too) and every tenth busy-waits.
   */
  static List<Path> generate(Path root) throws Exception {
    Files.createDirectories(root);
    Files.writeString(
        root.resolve("pom.xml"),
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>bench</groupId>
          <artifactId>project-200</artifactId>
          <version>1.0</version>
        </project>
        """,
        UTF_8);
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      String pkg = "bench.p" + (i % PACKAGES);
      Path dir =
          Files.createDirectories(root.resolve("src/main/java").resolve(pkg.replace('.', '/')));
      int a = (i + 1) % FILES;
      int b = (i + 7) % FILES;
      String busyWait =
          i % 10 == 0
              ? """
                  public void awaitWorker(Thread worker) throws InterruptedException {
                    while (worker.isAlive()) {
                      Thread.sleep(5);
                    }
                  }
                """
              : "";
      String source =
          """
          package %1$s;

          import java.util.ArrayList;
          import java.util.List;
          import java.util.Map;
          import java.util.concurrent.ConcurrentHashMap;

          public class Service%2$d {
            private final Map<String, Integer> counts = new ConcurrentHashMap<>();
            private final bench.p%3$d.Service%4$d next = new bench.p%3$d.Service%4$d();
            private final bench.p%5$d.Service%6$d other = new bench.p%5$d.Service%6$d();

            public int handle(String request) {
              int n = counts.merge(request, 1, Integer::sum);
              return n + next.size() + other.size();
            }

            public int size() {
              return counts.size();
            }

            public List<String> keys() {
              List<String> keys = new ArrayList<>(counts.keySet());
              keys.sort(String::compareTo);
              return keys;
            }
          %7$s}
          """
              .formatted(pkg, i, a % PACKAGES, a, b % PACKAGES, b, busyWait);
      Path file = dir.resolve("Service" + i + ".java");
      Files.writeString(file, source, UTF_8);
      files.add(file);
    }
    return files;
  }
}
