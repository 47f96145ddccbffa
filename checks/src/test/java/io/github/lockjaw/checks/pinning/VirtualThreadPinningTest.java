package io.github.lockjaw.checks.pinning;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class VirtualThreadPinningTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(VirtualThreadPinning.class, getClass());

  /** The store, its save() expected to be flagged with {@code expectation} (or not, when null). */
  private static String[] store(String expectation) {
    String[] lines = ORDER_STORE.clone();
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains("BUG: Diagnostic")) {
        lines[i] = expectation == null ? "" : "  // BUG: Diagnostic contains: " + expectation;
      }
    }
    return lines;
  }

  private static final String[] ORDER_STORE = {
    "import java.sql.Connection;",
    "import java.sql.PreparedStatement;",
    "import java.sql.SQLException;",
    "import javax.sql.DataSource;",
    "public class OrderStore {",
    "  private final DataSource dataSource;",
    "  public OrderStore(DataSource dataSource) {",
    "    this.dataSource = dataSource;",
    "  }",
    "  // BUG: Diagnostic contains: save() holds the monitor of the OrderStore instance while it"
        + " calls DataSource.getConnection() (blocking I/O) on a virtual thread (Importer.importAll()"
        + " hands a lambda to Executors.newVirtualThreadPerTaskExecutor(), and Importer.lambda in"
        + " importAll() calls OrderStore.save())",
    "  public synchronized void save(String order) throws SQLException {",
    "    try (Connection connection = dataSource.getConnection();",
    "        PreparedStatement insert = connection.prepareStatement(\"insert into orders values (?)\")) {",
    "      insert.setString(1, order);",
    "      insert.executeUpdate();",
    "    }",
    "  }",
    "  public synchronized int count() {",
    "    return 0;",
    "  }",
    "}"
  };

  private static final String[] IMPORTER = {
    "import java.util.List;",
    "import java.util.concurrent.ExecutorService;",
    "import java.util.concurrent.Executors;",
    "public class Importer {",
    "  private final OrderStore store;",
    "  public Importer(OrderStore store) {",
    "    this.store = store;",
    "  }",
    "  public void importAll(List<String> orders) {",
    "    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {",
    "      for (String order : orders) {",
    "        executor.submit(() -> {",
    "          store.save(order);",
    "          return store.count();",
    "        });",
    "      }",
    "    }",
    "  }",
    "}"
  };

  @Test
  void jdbcUnderAMonitorReachedFromAVirtualThreadPerTaskExecutor() {
    compilation
        .addSourceLines("OrderStore.java", ORDER_STORE)
        .addSourceLines("Importer.java", IMPORTER)
        .setArgs("--release", "21")
        .doTest();
  }

  @Test
  void silentWhenTheCodeTargetsJdk24OrLater() {
    compilation
        .addSourceLines("OrderStore.java", store(null))
        .addSourceLines("Importer.java", IMPORTER)
        .setArgs("--release", "24")
        .doTest();
  }

  @Test
  void fieldExecutorsBuildersFactoriesAndStartVirtualThread() {
    compilation
        .addSourceLines(
            "Notifier.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.concurrent.BlockingQueue;",
            "import java.util.concurrent.ExecutorService;",
            "import java.util.concurrent.Executors;",
            "import java.util.concurrent.LinkedBlockingQueue;",
            "import java.util.concurrent.ThreadFactory;",
            "import java.util.concurrent.locks.ReentrantLock;",
            "public class Notifier {",
            "  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();",
            "  private final ThreadFactory factory = Thread.ofVirtual().name(\"notify-\", 0).factory();",
            "  private final ExecutorService perTask = Executors.newThreadPerTaskExecutor(factory);",
            "  private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>();",
            "  private final HttpClient http = HttpClient.newHttpClient();",
            "  private final Object sendLock = new Object();",
            "  private final ReentrantLock reporterLock = new ReentrantLock();",
            "  public void start() {",
            "    workers.submit(this::drain);",
            "    perTask.execute(() -> send(\"hello\"));",
            "    Thread.ofVirtual().start(this::report);",
            "    Thread.startVirtualThread(new Flusher());",
            "  }",
            "  void drain() {",
            "    // BUG: Diagnostic contains: BlockingQueue.take() (a blocking wait)",
            "    synchronized (outbox) {",
            "      try {",
            "        outbox.take();",
            "      } catch (InterruptedException e) {",
            "        Thread.currentThread().interrupt();",
            "      }",
            "    }",
            "  }",
            "  void send(String message) {",
            "    // BUG: Diagnostic contains: Notifier.start() hands a lambda to"
                + " Executors.newThreadPerTaskExecutor() over Thread.ofVirtual()",
            "    synchronized (sendLock) {",
            "      try {",
            "        http.send(HttpRequest.newBuilder(URI.create(\"http://x\")).build(),",
            "            HttpResponse.BodyHandlers.discarding());",
            "      } catch (Exception e) {",
            "        throw new IllegalStateException(e);",
            "      }",
            "    }",
            "  }",
            "  // BUG: Diagnostic contains: ReentrantLock.lock() (a blocking wait)",
            "  synchronized void report() {",
            "    reporterLock.lock();",
            "    try {",
            "      outbox.clear();",
            "    } finally {",
            "      reporterLock.unlock();",
            "    }",
            "  }",
            "  static final class Flusher implements Runnable {",
            "    @Override",
            "    public void run() {",
            "      // BUG: Diagnostic contains: Thread.sleep() (a sleep)",
            "      synchronized (this) {",
            "        try {",
            "          Thread.sleep(100);",
            "        } catch (InterruptedException e) {",
            "          Thread.currentThread().interrupt();",
            "        }",
            "      }",
            "    }",
            "  }",
            "}")
        .setArgs("--release", "21")
        .doTest();
  }

  @Test
  void requestHandlersOnVirtualThreadsWhenTheBuildSaysSo() {
    CompilationTestHelper.newInstance(VirtualThreadPinning.class, getClass())
        .addSourceLines(
            "OrderStore.java",
            store(
                "save() holds the monitor of the OrderStore instance while it calls"
                    + " DataSource.getConnection() (blocking I/O) on a virtual thread (the build runs"
                    + " request handlers, @Async and @Scheduled tasks on virtual threads"
                    + " (spring.threads.virtual.enabled=true)). On JDK 21 to 23, which this code"
                    + " targets (release 21)"))
        .addSourceLines(
            "OrderController.java",
            "import org.springframework.web.bind.annotation.PostMapping;",
            "public class OrderController {",
            "  private final OrderStore store = new OrderStore(null);",
            "  @PostMapping(\"/orders\")",
            "  public void save(String order) throws Exception {",
            "    store.save(order);",
            "    // BUG: Diagnostic contains: (spring.threads.virtual.enabled=true)",
            "    synchronized (this) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "}")
        .setArgs("--release", "21", "-XepOpt:Lockjaw:VirtualThreads=true")
        .doTest();
  }

  @Test
  void requestHandlersOnPlatformThreadsByDefault() {
    compilation
        .addSourceLines("OrderStore.java", store(null))
        .addSourceLines(
            "OrderController.java",
            "import org.springframework.web.bind.annotation.PostMapping;",
            "public class OrderController {",
            "  private final OrderStore store = new OrderStore(null);",
            "  @PostMapping(\"/orders\")",
            "  public void save(String order) throws Exception {",
            "    store.save(order);",
            "  }",
            "}")
        .setArgs("--release", "21")
        .doTest();
  }

  @Test
  void aTomcatProtocolHandlerGivenAVirtualThreadExecutorServesRequestsOnVirtualThreads() {
    compilation
        .addSourceLines(
            "org/apache/coyote/ProtocolHandler.java",
            "package org.apache.coyote;",
            "public interface ProtocolHandler {",
            "  void setExecutor(java.util.concurrent.Executor executor);",
            "}")
        .addSourceLines(
            "VirtualThreadsConfig.java",
            "import java.util.concurrent.Executors;",
            "import org.apache.coyote.ProtocolHandler;",
            "public class VirtualThreadsConfig {",
            "  void customize(ProtocolHandler handler) {",
            "    handler.setExecutor(Executors.newVirtualThreadPerTaskExecutor());",
            "  }",
            "}")
        .addSourceLines(
            "TokenController.java",
            "import java.util.concurrent.TimeUnit;",
            "import org.springframework.web.bind.annotation.GetMapping;",
            "public class TokenController {",
            "  @GetMapping(\"/token\")",
            "  // BUG: Diagnostic contains: request handlers run on virtual threads:"
                + " VirtualThreadsConfig.customize() gives the server"
                + " Executors.newVirtualThreadPerTaskExecutor()",
            "  public synchronized String token() throws InterruptedException {",
            "    TimeUnit.MILLISECONDS.sleep(5);",
            "    return \"t\";",
            "  }",
            "}")
        .setArgs("--release", "21")
        .doTest();
  }

  @Test
  void silentWithoutABlockingEffectOnPlatformExecutorsAndOnMemoryStreams() {
    compilation
        .addSourceLines(
            "Counters.java",
            "import java.io.ByteArrayInputStream;",
            "import java.sql.Connection;",
            "import java.util.concurrent.ExecutorService;",
            "import java.util.concurrent.Executors;",
            "public class Counters {",
            "  private final ExecutorService platform = Executors.newFixedThreadPool(4);",
            "  private final ExecutorService mixed;",
            "  private final ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();",
            "  private final Connection connection;",
            "  private long hits;",
            "  public Counters(Connection connection, boolean loom) {",
            "    this.connection = connection;",
            "    this.mixed = loom ? Executors.newVirtualThreadPerTaskExecutor() : null;",
            "  }",
            "  public void run() {",
            "    virtual.submit(this::count);",
            "    virtual.submit(this::parse);",
            "    virtual.submit(() -> platform.submit(this::query));",
            "    platform.submit(this::query);",
            "    mixed.submit(this::query);",
            "  }",
            "  synchronized void count() {",
            "    hits++;",
            "  }",
            "  synchronized int parse() throws Exception {",
            "    return new ByteArrayInputStream(new byte[] {1}).read();",
            "  }",
            "  synchronized void query() {",
            "    try {",
            "      connection.createStatement().execute(\"select 1\");",
            "    } catch (java.sql.SQLException e) {",
            "      throw new IllegalStateException(e);",
            "    }",
            "  }",
            "}")
        .setArgs("--release", "21")
        .doTest();
  }
}
