package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.checks.pinning.VirtualThreadPinningQuery;
import io.github.lockjaw.common.Resilience;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PerRequestHeavyweightObject and VirtualThreadPinning in class files: the same queries as the
 * Error Prone checks, run by {@code ModelDetector} over realistic code compiled for Java 21 (and
 * 24, where virtual threads no longer pin inside synchronized).
 */
class HeavyweightAndPinningBytecodeTest {
  @TempDir static Path classes;

  private static List<AuditFinding> findings;
  private static List<AuditFinding> findingsOn24;
  private static List<AuditFinding> findingsWithVirtualRequests;

  private static final Map<String, String> SOURCES = new LinkedHashMap<>();

  static {
    SOURCES.put(
        "shop.web.OrderController",
        """
        package shop.web;

        import com.fasterxml.jackson.databind.ObjectMapper;
        import java.util.List;
        import org.springframework.web.bind.annotation.GetMapping;
        import org.springframework.web.bind.annotation.RestController;

        @RestController
        public class OrderController {
          private static final ObjectMapper SHARED = new ObjectMapper();
          private final OrderStore store = new OrderStore(null);

          @GetMapping("/orders")
          public String orders() throws Exception {
            return new ObjectMapper().writeValueAsString(List.of("a"));
          }

          @GetMapping("/order")
          public String order(String id) throws Exception {
            store.save(id);
            return JsonUtil.toJson(id) + SHARED.writeValueAsString(id);
          }
        }
        """);
    SOURCES.put(
        "shop.web.JsonUtil",
        """
        package shop.web;

        import com.fasterxml.jackson.databind.DeserializationFeature;
        import com.fasterxml.jackson.databind.ObjectMapper;

        final class JsonUtil {
          private JsonUtil() {}

          static String toJson(Object value) throws Exception {
            ObjectMapper mapper = new ObjectMapper();
            mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
            return mapper.writeValueAsString(value);
          }
        }
        """);
    SOURCES.put(
        "shop.web.ReportRenderer",
        """
        package shop.web;

        import com.sun.net.httpserver.HttpExchange;
        import com.sun.net.httpserver.HttpHandler;
        import javax.xml.transform.TransformerFactory;

        public class ReportRenderer implements HttpHandler {
          static class Renderer {
            private final TransformerFactory factory = TransformerFactory.newInstance();

            String render() {
              return factory.toString();
            }
          }

          @Override
          public void handle(HttpExchange exchange) {
            new Renderer().render();
          }
        }
        """);
    SOURCES.put(
        "shop.web.Startup",
        """
        package shop.web;

        import com.fasterxml.jackson.databind.ObjectMapper;
        import javax.xml.parsers.DocumentBuilder;
        import javax.xml.parsers.DocumentBuilderFactory;

        public class Startup {
          private static final ThreadLocal<DocumentBuilder> BUILDER =
              ThreadLocal.withInitial(
                  () -> {
                    try {
                      return DocumentBuilderFactory.newInstance().newDocumentBuilder();
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  });
          private final ObjectMapper own;

          public Startup() {
            own = new ObjectMapper();
          }

          public static void main(String[] args) throws Exception {
            System.out.println(new ObjectMapper().writeValueAsString(args));
          }
        }
        """);
    SOURCES.put(
        "shop.web.OrderStore",
        """
        package shop.web;

        import java.sql.Connection;
        import java.sql.PreparedStatement;
        import java.sql.SQLException;
        import javax.sql.DataSource;

        public class OrderStore {
          private final DataSource dataSource;

          public OrderStore(DataSource dataSource) {
            this.dataSource = dataSource;
          }

          public synchronized void save(String order) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("insert into o values (?)")) {
              insert.setString(1, order);
              insert.executeUpdate();
            }
          }

          public synchronized int count() {
            return 0;
          }
        }
        """);
    SOURCES.put(
        "shop.batch.Importer",
        """
        package shop.batch;

        import java.util.List;
        import java.util.concurrent.ExecutorService;
        import java.util.concurrent.Executors;
        import java.util.concurrent.locks.ReentrantLock;

        public class Importer {
          private final ExecutorService platform = Executors.newFixedThreadPool(2);
          private final ReentrantLock reporterLock = new ReentrantLock();
          private long imported;

          public void importAll(List<String> orders) {
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
              for (String order : orders) {
                executor.submit(() -> store(order));
              }
              executor.submit(this::count);
            }
            platform.submit(() -> store("platform"));
          }

          synchronized void store(String order) {
            reporterLock.lock();
            try {
              imported++;
            } finally {
              reporterLock.unlock();
            }
          }

          synchronized void count() {
            imported++;
          }
        }
        """);
    SOURCES.put(
        "shop.web.UploadController",
        """
        package shop.web;

        import java.util.logging.Logger;
        import org.springframework.web.bind.annotation.PostMapping;
        import org.springframework.web.bind.annotation.RestController;

        @RestController
        public class UploadController {
          @PostMapping("/attachments")
          public String upload(String fileName, byte[] content) {
            String name = validate(fileName);
            Logger.getLogger(UploadController.class.getName()).fine("upload " + name);
            if (content.length == 0) {
              Logger.getLogger(UploadController.class.getName()).info("empty upload");
              return "empty";
            }
            return name;
          }

          static String validate(String fileName) {
            if (fileName == null || fileName.trim().isEmpty()) {
              Logger.getLogger(UploadController.class.getName()).severe("empty file name");
              throw new IllegalArgumentException("attach.empty.file");
            }
            String name = fileName.trim();
            if (name.toLowerCase().endsWith(".jsp")) {
              Logger log = Logger.getLogger(UploadController.class.getName());
              if (log.isLoggable(java.util.logging.Level.INFO)) {
                log.info("refused a .jsp upload");
              }
              throw new IllegalArgumentException("attach.unwanted.file");
            }
            return name;
          }
        }
        """);
  }

  @BeforeAll
  static void audit() throws Exception {
    List<Path> jackson =
        BytecodeFixtures.classpathJars("jackson-databind", "jackson-core", "jackson-annotations");
    Path on21 = classes.resolve("release21");
    BytecodeFixtures.compile(SOURCES, on21, List.of(), 21);
    Path on24 = classes.resolve("release24");
    BytecodeFixtures.compile(SOURCES, on24, List.of(), 24);
    JarAuditor auditor = new JarAuditor();
    findings = auditor.audit(List.of(on21), jackson);
    findingsOn24 = auditor.audit(List.of(on24), jackson);
    System.setProperty(VirtualThreadPinningQuery.SPOTBUGS_PROPERTY, "true");
    try {
      findingsWithVirtualRequests = auditor.audit(List.of(on21), jackson);
    } finally {
      System.clearProperty(VirtualThreadPinningQuery.SPOTBUGS_PROPERTY);
    }
  }

  private static String summary(List<AuditFinding> found, String check) {
    return found.stream()
        .filter(f -> f.check().equals(check))
        .map(
            f ->
                f.className().substring(f.className().lastIndexOf('.') + 1)
                    + "."
                    + f.methodName()
                    + ":"
                    + f.line())
        .sorted()
        .collect(Collectors.joining(", "));
  }

  @Test
  void heavyweightObjectsBuiltPerRequestInHandlersHelpersAndPerRequestObjects() {
    assertEquals(
        "JsonUtil.toJson:10, OrderController.orders:15, ReportRenderer$Renderer.<init>:9",
        summary(
            findings.stream().filter(f -> !f.className().endsWith("UploadController")).toList(),
            "PerRequestHeavyweightObject"));
    String messages =
        findings.stream()
            .filter(f -> f.check().equals("PerRequestHeavyweightObject"))
            .map(AuditFinding::message)
            .collect(Collectors.joining("\n"));
    assertTrue(
        messages.contains(
            "each ReportRenderer.Renderer keeps its own, and ReportRenderer.handle() creates a new"
                + " ReportRenderer.Renderer every time it runs"),
        messages);
    assertTrue(messages.contains("requests reach it from OrderController.order()"), messages);
  }

  @Test
  void aLookupInABranchThatEndsByThrowingRunsPerFailedRequestOnly() {
    // the logger lookups on the way to rejecting an upload run per failed request, not per request
    assertEquals(
        "UploadController.upload:12, UploadController.upload:14",
        summary(
            findings.stream().filter(f -> f.className().endsWith("UploadController")).toList(),
            "PerRequestHeavyweightObject"));
  }

  @Test
  void blockingUnderAMonitorOnVirtualThreadsOnlyWhenTheCodeTargetsJdk21To23() {
    assertEquals("Importer.store:24", summary(findings, "VirtualThreadPinning"));
    AuditFinding store =
        findings.stream().filter(f -> f.check().equals("VirtualThreadPinning")).findFirst().get();
    assertTrue(
        store.message().contains("ReentrantLock.lock() (a blocking wait) on a virtual thread"),
        store.message());
    assertTrue(store.advice().contains("JEP 491"), store.advice());
    assertEquals("", summary(findingsOn24, "VirtualThreadPinning"));
    assertEquals(
        summary(findings, "PerRequestHeavyweightObject"),
        summary(findingsOn24, "PerRequestHeavyweightObject"));
  }

  @Test
  void requestHandlersOnVirtualThreadsWhenSpotBugsIsToldSo() {
    assertEquals(
        "Importer.store:24, OrderStore.save:16",
        summary(findingsWithVirtualRequests, "VirtualThreadPinning"));
  }

  @AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(List.of(), Resilience.swallowed(), "a detector threw; SpotBugs logged it");
  }
}
