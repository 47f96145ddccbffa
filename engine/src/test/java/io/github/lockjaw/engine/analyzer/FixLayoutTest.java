package io.github.lockjaw.engine.analyzer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.SourceEdits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, item 9: fixed code looks hand-written in the file's own style. Unlike Error Prone's
 * refactoring helper, which formats both sides before comparing, this runs the analyzer that {@code
 * lockjaw:fix} runs, applies the edits it returns, and compares the text exactly; the fixed file
 * must then compile without findings.
 */
class FixLayoutTest {
  @TempDir Path dir;

  @Test
  void aHoistedClientFollowsFourSpaceBlankLineStyleAndKeepsItsComment() throws Exception {
    String fixed =
        fixOnce(
            "Stock.java",
            """
        package shop;

        import java.io.IOException;
        import java.net.URI;
        import java.net.http.HttpClient;
        import java.net.http.HttpRequest;
        import java.net.http.HttpResponse;
        import java.time.Duration;

        public class Stock {

            /** Levels per SKU. */
            public String level(String sku) throws IOException, InterruptedException {
                HttpClient client = HttpClient.newBuilder()
                        // the inventory service is slow at night
                        .connectTimeout(Duration.ofSeconds(3))
                        .build();
                return client.send(HttpRequest.newBuilder(URI.create("http://inventory/" + sku)).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
            }

            public String name() {
                return "stock";
            }
        }
        """);
    assertEquals(
        """
        package shop;

        import java.io.IOException;
        import java.net.URI;
        import java.net.http.HttpClient;
        import java.net.http.HttpRequest;
        import java.net.http.HttpResponse;
        import java.time.Duration;

        public class Stock {

            private static final HttpClient HTTP_CLIENT = HttpClient.newBuilder()
                    // the inventory service is slow at night
                    .connectTimeout(Duration.ofSeconds(3))
                    .build();

            /** Levels per SKU. */
            public String level(String sku) throws IOException, InterruptedException {
                return HTTP_CLIENT.send(HttpRequest.newBuilder(URI.create("http://inventory/" + sku)).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
            }

            public String name() {
                return "stock";
            }
        }
        """,
        fixed);
  }

  @Test
  void hoistedClientsFollowTheConstantsInTheOrderOfTheirMethods() throws Exception {
    String source =
        """
        package shop;

        import java.io.IOException;
        import java.net.URI;
        import java.net.http.HttpClient;
        import java.net.http.HttpRequest;
        import java.net.http.HttpResponse;

        public class Prices {
          private static final String BASE = "http://prices/";

          public String price(String sku) throws IOException, InterruptedException {
            HttpClient client = HttpClient.newHttpClient();
            return client.send(HttpRequest.newBuilder(URI.create(BASE + sku)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
          }

          public String tax(String sku) throws IOException, InterruptedException {
            HttpClient client = HttpClient.newHttpClient();
            return client.send(HttpRequest.newBuilder(URI.create(BASE + "tax/" + sku)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
          }
        }
        """;
    String once = fixFirst("Prices.java", source);
    String twice = fixFirst("Prices.java", once);
    assertEquals(
        """
        package shop;

        import java.io.IOException;
        import java.net.URI;
        import java.net.http.HttpClient;
        import java.net.http.HttpRequest;
        import java.net.http.HttpResponse;

        public class Prices {
          private static final String BASE = "http://prices/";
          private static final HttpClient HTTP_CLIENT = HttpClient.newHttpClient();
          private static final HttpClient HTTP_CLIENT_2 = HttpClient.newHttpClient();

          public String price(String sku) throws IOException, InterruptedException {
            return HTTP_CLIENT.send(HttpRequest.newBuilder(URI.create(BASE + sku)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
          }

          public String tax(String sku) throws IOException, InterruptedException {
            return HTTP_CLIENT_2.send(HttpRequest.newBuilder(URI.create(BASE + "tax/" + sku)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
          }
        }
        """,
        twice);
    assertEquals(AnalysisResult.OK, analyse(dir.resolve("Prices.java")).status());
  }

  /** Applies the first finding's fix, as one lockjaw:fix pass does when fixes overlap. */
  private String fixFirst(String name, String source) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, source, UTF_8);
    AnalysisResult result = analyse(file);
    assertEquals(AnalysisResult.OK, result.status(), String.valueOf(result.errors()));
    Finding first = result.findings().stream().filter(Finding::hasFix).findFirst().orElseThrow();
    String fixed = SourceEdits.apply(source, new ArrayList<Edit>(first.fix()));
    Files.writeString(file, fixed, UTF_8);
    return fixed;
  }

  @Test
  void aJoinReplacesTheLoopAtItsColumnAndKeepsItsComment() throws Exception {
    String fixed =
        fixOnce(
            "Exporter.java",
            """
        package shop;

        public class Exporter {
            public void export(Runnable writer) throws InterruptedException {
                Thread t = new Thread(writer);
                t.start();
                while (t.isAlive()) {
                    // the writer flushes the report file
                    Thread.sleep(10);
                }
                System.out.println("exported");
            }
        }
        """);
    assertEquals(
        """
        package shop;

        public class Exporter {
            public void export(Runnable writer) throws InterruptedException {
                Thread t = new Thread(writer);
                t.start();
                // the writer flushes the report file
                t.join();
                System.out.println("exported");
            }
        }
        """,
        fixed);
  }

  @Test
  void aLoopThatIgnoresInterruptsBecomesAnIndentedBlock() throws Exception {
    String fixed =
        fixOnce(
            "Waiter.java",
            """
        package shop;

        public class Waiter {
          public void await(Thread t) {
            while (t.isAlive()) {
              Thread.onSpinWait();
            }
            System.out.println("done");
          }
        }
        """);
    assertEquals(
        """
        package shop;

        public class Waiter {
          public void await(Thread t) {
            boolean interrupted = false;
            while (t.isAlive()) {
              try {
                t.join();
              } catch (InterruptedException e) {
                interrupted = true;
              }
            }
            if (interrupted) {
              Thread.currentThread().interrupt();
            }
            System.out.println("done");
          }
        }
        """,
        fixed);
  }

  @Test
  void anUnwrappedSynchronizedBodyMovesOneLevelOut() throws Exception {
    String fixed =
        fixOnce(
            "ProductDao.java",
            """
        package shop;

        import java.sql.Connection;
        import java.sql.PreparedStatement;
        import java.sql.ResultSet;
        import java.sql.SQLException;
        import javax.sql.DataSource;

        public class ProductDao {
            private static final Object LOCK = new Object();
            private final DataSource dataSource;

            public ProductDao(DataSource dataSource) {
                this.dataSource = dataSource;
            }

            public String title(long id) throws SQLException {
                synchronized (LOCK) {
                    // one query per title
                    try (Connection c = dataSource.getConnection();
                            PreparedStatement ps = c.prepareStatement("select title from product where id = ?")) {
                        ps.setLong(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? rs.getString(1) : null;
                        }
                    }
                }
            }
        }
        """);
    assertEquals(
        """
        package shop;

        import java.sql.Connection;
        import java.sql.PreparedStatement;
        import java.sql.ResultSet;
        import java.sql.SQLException;
        import javax.sql.DataSource;

        public class ProductDao {
            private static final Object LOCK = new Object();
            private final DataSource dataSource;

            public ProductDao(DataSource dataSource) {
                this.dataSource = dataSource;
            }

            public String title(long id) throws SQLException {
                // one query per title
                try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("select title from product where id = ?")) {
                    ps.setLong(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                    }
                }
            }
        }
        """,
        fixed);
  }

  @Test
  void aCrlfFileStaysCrlfImportsIncluded() throws Exception {
    String source =
        """
        package shop;

        import java.util.HashMap;
        import java.util.Map;

        public class Infos {
          private static final Map<Class<?>, Infos> INFOS = new HashMap<>();

          private Infos(Class<?> type) {}

          public static Infos of(Class<?> type) {
            synchronized (type) {
              Infos info = INFOS.get(type);
              if (info == null) {
                info = new Infos(type);
                INFOS.put(type, info);
              }
              return info;
            }
          }
        }
        """
            .replace("\n", "\r\n");
    String fixed = fixOnce("Infos.java", source);
    assertFalse(
        Pattern.compile("[^\r]\n").matcher(fixed).find(), "a line ends in a bare LF:\n" + fixed);
    assertTrue(fixed.contains("import java.util.concurrent.ConcurrentHashMap;\r\n"), fixed);
    assertTrue(fixed.contains("    return INFOS.computeIfAbsent(type, Infos::new);\r\n"), fixed);
  }

  /**
   * Runs the analyzer on one file, applies the first finding's fix, and checks the result compiles
   * cleanly.
   */
  /**
   * Issue 26: an Eclipse-ordered import block (java, javax, org, each group sorted, blank lines
   * between, a comment inside) gets the new import in its sorted place in the java group; the
   * import the fix leaves unused loses its line; no other line moves.
   */
  @Test
  void aNewImportTakesItsPlaceInTheFilesOwnOrderAndNoOtherImportMoves() throws Exception {
    String fixed =
        fixOnce(
            "Registry.java",
            """
        package shop;

        import java.util.HashMap;
        import java.util.List;
        import java.util.Map;

        // the catalogue types
        import javax.annotation.processing.Generated;

        import org.w3c.dom.Node;

        public class Registry {
          private final Map<String, Product> products = new HashMap<>();

          public synchronized Product product(String sku) {
            Product found = products.get(sku);
            if (found == null) {
              found = new Product(sku.trim());
              products.put(sku, found);
            }
            return found;
          }

          public List<Node> nodes() {
            return List.of();
          }

          @Generated("x")
          static final class Product {
            Product(String sku) {}
          }
        }
        """);
    assertEquals(
        """
        package shop;

        import java.util.List;
        import java.util.Map;
        import java.util.concurrent.ConcurrentHashMap;

        // the catalogue types
        import javax.annotation.processing.Generated;

        import org.w3c.dom.Node;

        public class Registry {
          private final Map<String, Product> products = new ConcurrentHashMap<>();

          public Product product(String sku) {
            return products.computeIfAbsent(sku, k -> new Product(k.trim()));
          }

          public List<Node> nodes() {
            return List.of();
          }

          @Generated("x")
          static final class Product {
            Product(String sku) {}
          }
        }
        """,
        fixed);
  }

  /** An unsorted block: the new import follows the import nearest to it, and nothing else moves. */
  @Test
  void inAnUnsortedBlockTheNewImportFollowsItsNearestNeighbour() throws Exception {
    String fixed =
        fixOnce(
            "Prices.java",
            """
        package shop;

        import java.util.Map;
        import java.math.BigDecimal;
        import java.util.HashMap;

        public class Prices {
          private final Map<String, BigDecimal> bySku = new HashMap<>();

          public synchronized BigDecimal price(String sku) {
            BigDecimal price = bySku.get(sku);
            if (price == null) {
              price = new BigDecimal(sku.length());
              bySku.put(sku, price);
            }
            return price;
          }
        }
        """);
    assertEquals(
        """
        package shop;

        import java.util.Map;
        import java.util.concurrent.ConcurrentHashMap;
        import java.math.BigDecimal;

        public class Prices {
          private final Map<String, BigDecimal> bySku = new ConcurrentHashMap<>();

          public BigDecimal price(String sku) {
            return bySku.computeIfAbsent(sku, k -> new BigDecimal(k.length()));
          }
        }
        """,
        fixed);
  }

  /**
   * Issue 26: the comments of the replaced synchronized block stay, above the computeIfAbsent call;
   * a call too wide for the file breaks after its opening parenthesis, one continuation step in, as
   * the file breaks its own calls.
   */
  @Test
  void aReplacedBlockKeepsItsCommentsAndTheNewCallKeepsToTheFilesWidth() throws Exception {
    String fixed =
        fixOnce(
            "Templates.java",
            """
        package shop;

        import java.util.HashMap;
        import java.util.Map;

        public class Templates {
          private final Map<String, CompiledTemplate> compiledTemplatesByName = new HashMap<>();

          public CompiledTemplate template(String templateName) {
            synchronized (compiledTemplatesByName) {
              // compiled once per name, then shared by every request
              CompiledTemplate compiled = compiledTemplatesByName.get(templateName);
              if (compiled == null) {
                compiled = new CompiledTemplate(templateName.strip(), templateName.length());
                compiledTemplatesByName.put(templateName, compiled);
              }
              return compiled;
            }
          }

          static final class CompiledTemplate {
            CompiledTemplate(String source, int size) {}
          }
        }
        """);
    assertEquals(
        """
        package shop;

        import java.util.Map;
        import java.util.concurrent.ConcurrentHashMap;

        public class Templates {
          private final Map<String, CompiledTemplate> compiledTemplatesByName = new ConcurrentHashMap<>();

          public CompiledTemplate template(String templateName) {
            // compiled once per name, then shared by every request
            return compiledTemplatesByName.computeIfAbsent(
                templateName, k -> new CompiledTemplate(k.strip(), k.length()));
          }

          static final class CompiledTemplate {
            CompiledTemplate(String source, int size) {}
          }
        }
        """,
        fixed);
  }

  /**
   * Issue 26: a hoisted field that would be wider than the file's widest line breaks after its
   * {@code =}, one continuation step in, instead of running past the file's width.
   */
  @Test
  void aHoistedFieldWiderThanTheFileBreaksAfterItsEquals() throws Exception {
    String fixed =
        fixOnce(
            "InventoryReportHandler.java",
            """
        package shop;

        import com.sun.net.httpserver.HttpExchange;
        import com.sun.net.httpserver.HttpHandler;
        import java.io.IOException;
        import java.util.logging.Logger;

        public class InventoryReportHandler implements HttpHandler {
          @Override
          public void handle(HttpExchange exchange) throws IOException {
            Logger log = Logger.getLogger("shop.inventory.reports.InventoryReportHandler.requests");
            log.fine("report requested");
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
          }
        }
        """);
    int widest = 0;
    for (String line : fixed.split("\n")) {
      widest = Math.max(widest, line.length());
    }
    assertTrue(widest <= 91, "a line wider than the file's 91 columns:\n" + fixed);
    assertTrue(
        fixed.contains(
            """
              private static final Logger LOGGER =
                  Logger.getLogger("shop.inventory.reports.InventoryReportHandler.requests");
            """),
        fixed);
  }

  private String fixOnce(String name, String source) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, source, UTF_8);
    AnalysisResult result = analyse(file);
    assertEquals(AnalysisResult.OK, result.status(), String.valueOf(result.errors()));
    List<Finding> withFix = result.findings().stream().filter(Finding::hasFix).toList();
    assertEquals(1, withFix.size(), "findings: " + result.findings());
    String fixed = SourceEdits.apply(source, new ArrayList<Edit>(withFix.get(0).fix()));
    Files.writeString(file, fixed, UTF_8);
    AnalysisResult again = analyse(file);
    assertEquals(
        AnalysisResult.OK, again.status(), "the fixed code does not compile: " + again.errors());
    assertEquals(
        List.of(),
        again.findings().stream().filter(f -> f.check().equals(withFix.get(0).check())).toList());
    return fixed;
  }

  private AnalysisResult analyse(Path file) throws Exception {
    AnalysisRequest request =
        new AnalysisRequest(
            List.of(file.toString()),
            List.of(),
            List.of("-encoding", "UTF-8"),
            List.of(),
            true,
            dir.resolve("result.json").toString(),
            List.of());
    return new LockjawAnalyzer().run(request);
  }
}
