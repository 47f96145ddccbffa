package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lockjaw's SpotBugs detectors on classes compiled from small fixtures, written the way server code
 * is written: each positive names the method and line it must be reported at, each negative asserts
 * silence. One audit runs over all fixtures; every test reads its classes' findings.
 */
class BytecodeDetectorsTest {
  @TempDir static Path classes;

  private static List<AuditFinding> findings;

  @BeforeAll
  static void auditFixtures() throws Exception {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "shop.meta.ClassInfo",
        """
        package shop.meta;
        import java.util.*;
        public class ClassInfo {
          private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());
          private final Class type;
          private ClassInfo(Class type) { this.type = type; }
          public static ClassInfo getInstance(Class clazz) {
            synchronized (clazz) {
              ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);   // line 9
              if (cached == null) {
                cached = new ClassInfo(clazz);
                CLASS_INFO_MAP.put(clazz, cached);
              }
              return cached;
            }
          }
        }
        """);
    sources.put(
        "shop.meta.ConverterRegistry",
        """
        package shop.meta;
        import java.util.*;
        import java.util.function.Function;
        public final class ConverterRegistry {
          private static final Map<Class<?>, Function<String, ?>> CONVERTERS = new HashMap<>();
          public static synchronized Function<String, ?> converterFor(Class<?> type) {
            Function<String, ?> converter = CONVERTERS.get(type);             // line 7
            if (converter == null) {
              converter = value -> value;
              CONVERTERS.put(type, converter);
            }
            return converter;
          }
          public static Function<String, ?> lookup(String name) {
            synchronized (ConverterRegistry.class) {
              return CONVERTERS.get(String.class);
            }
          }
        }
        """);
    sources.put(
        "shop.meta.ConcurrentTypeCache",
        """
        package shop.meta;
        import java.util.concurrent.*;
        public final class ConcurrentTypeCache {
          private static final ConcurrentMap<Class<?>, String> NAMES = new ConcurrentHashMap<>();
          public static String nameOf(Class<?> type) {
            synchronized (type) {
              String name = NAMES.get(type);
              if (name == null) {
                name = type.getSimpleName();
                NAMES.put(type, name);
              }
              return name;
            }
          }
          public static String viaComputeIfAbsent(Class<?> type) {
            return NAMES.computeIfAbsent(type, Class::getSimpleName);
          }
        }
        """);
    sources.put(
        "shop.catalog.ProductCatalog",
        """
        package shop.catalog;
        import java.util.*;
        public class ProductCatalog {
          public record Product(long id, String name) {}
          private final Map<Long, Product> products = new HashMap<>();
          private final Map<String, Product> bySku = Collections.synchronizedMap(new HashMap<>());
          private final Hashtable<String, Integer> stock = new Hashtable<>();
          public synchronized Product product(long id) {
            Product product = products.get(id);                               // line 9
            if (product == null) {
              product = new Product(id, "#" + id);
              products.put(id, product);
            }
            return product;
          }
          public Product bySku(String sku) {
            Product product = bySku.get(sku);                                 // line 17
            if (product == null) {
              product = new Product(sku.hashCode(), sku);
              bySku.put(sku, product);
            }
            return product;
          }
          public int stockOf(String sku) {
            if (!stock.containsKey(sku)) {                                    // line 25
              stock.put(sku, 0);
            }
            return stock.get(sku);
          }
        }
        """);
    sources.put(
        "shop.catalog.PriceBook",
        """
        package shop.catalog;
        import java.util.*;
        import java.util.concurrent.ConcurrentHashMap;
        public class PriceBook {
          private final Map<String, Long> prices = new ConcurrentHashMap<>();
          private final Map<String, Long> drafts = new HashMap<>();
          public long price(String sku) {
            Long price = prices.get(sku);
            if (price == null) {
              price = (long) sku.length();
              prices.put(sku, price);
            }
            return price;
          }
          public long draft(String sku) {
            Long price = drafts.get(sku);
            if (price == null) {
              price = 0L;
              drafts.put(sku, price);
            }
            return price;
          }
          public synchronized Long peek(String sku) {
            return drafts.get(sku);
          }
        }
        """);
    sources.put(
        "shop.load.LoadClient",
        """
        package shop.load;
        import java.util.List;
        import java.util.concurrent.*;
        public class LoadClient {
          private final ExecutorService pool = Executors.newFixedThreadPool(4);
          private int polls;
          public void awaitWorker(Thread worker) throws InterruptedException {
            while (worker.isAlive()) {                                        // line 8
              Thread.sleep(10);
            }
          }
          public Object awaitResult(Future<?> result) throws Exception {
            while (!result.isDone()) {                                        // line 13
              Thread.onSpinWait();
            }
            return result.get();
          }
          public void awaitLoadTest(Thread client) {
            while (true) {
              if (!client.isAlive()) {                                        // line 20
                break;
              }
              Thread.yield();
            }
          }
          public void awaitStart(CountDownLatch ready) {
            while (ready.getCount() > 0) {                                    // line 27
              polls++;
              System.out.println("waiting for " + ready.getCount() + " workers");
            }
          }
          public void awaitPool() {
            pool.shutdown();
            do {
              Thread.onSpinWait();
            } while (!pool.isTerminated());                                   // line 36
          }
        }
        """);
    sources.put(
        "shop.load.PatientClient",
        """
        package shop.load;
        import java.util.*;
        import java.util.concurrent.*;
        public class PatientClient {
          public void join(Thread worker) throws InterruptedException {
            worker.join();
          }
          public void watchdog(Thread worker) throws InterruptedException {
            while (worker.isAlive()) {
              Thread.sleep(5000);
            }
          }
          public void drain(Thread worker, BlockingQueue<String> results) throws InterruptedException {
            while (worker.isAlive()) {
              String result = results.poll(1, TimeUnit.SECONDS);
              if (result != null) {
                System.out.println(result);
              }
            }
          }
          public int countAlive(List<Thread> workers) {
            int alive = 0;
            for (Thread worker : workers) {
              if (worker.isAlive()) {
                alive++;
              }
            }
            return alive;
          }
          public void awaitAll(Iterator<Future<?>> futures) {
            Future<?> next = futures.next();
            while (!next.isDone()) {
              next = futures.next();
            }
          }
        }
        """);
    sources.put(
        "shop.dao.OrderDao",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.*;
        import javax.sql.DataSource;
        public class OrderDao {
          private final DataSource dataSource;
          private long lastOrder;
          public OrderDao(DataSource dataSource) { this.dataSource = dataSource; }
          public synchronized List<String> findOrders(String customer) throws SQLException {
            List<String> orders = new ArrayList<>();
            try (Connection connection = dataSource.getConnection();          // line 11
                 PreparedStatement statement = connection.prepareStatement("select id from orders where customer = ?")) {
              statement.setString(1, customer);
              try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                  orders.add(rows.getString(1));
                }
              }
            }
            return orders;
          }
          public synchronized void save(String order) throws SQLException {
            try (Connection connection = open()) {                            // line 23
              connection.createStatement().executeUpdate("insert into orders values ('" + order + "')");
            }
          }
          private Connection open() throws SQLException {
            return dataSource.getConnection();
          }
          public synchronized long lastOrder() { return lastOrder; }
        }
        """);
    sources.put(
        "shop.dao.LegacyConnectionManager",
        """
        package shop.dao;
        import java.sql.*;
        public class LegacyConnectionManager {
          private static final Object LOCK = new Object();
          private static String url = "jdbc:h2:mem:shop";
          private static int opened;
          public static Connection connect() throws SQLException {
            synchronized (LOCK) {                                             // line 8
              opened++;
              return DriverManager.getConnection(url);
            }
          }
          public static int opened() {
            synchronized (LOCK) {
              return opened;
            }
          }
        }
        """);
    sources.put(
        "shop.dao.CarefulDao",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.*;
        import javax.sql.DataSource;
        public class CarefulDao {
          private final DataSource dataSource;
          private volatile DataSource validated;
          private final Map<String, Integer> hits = new HashMap<>();
          public CarefulDao(DataSource dataSource) { this.dataSource = dataSource; }
          public int count(String table) throws SQLException {
            synchronized (this) {
              hits.merge(table, 1, Integer::sum);
            }
            try (Connection connection = dataSource.getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("select count(*) from " + table)) {
              rows.next();
              return rows.getInt(1);
            }
          }
          public DataSource validated() throws SQLException {
            if (validated == null) {
              synchronized (this) {
                if (validated == null) {
                  try (Connection probe = dataSource.getConnection()) {
                    probe.isValid(1);
                  }
                  validated = dataSource;
                }
              }
            }
            return validated;
          }
          public void update(Connection connection, String sql) throws SQLException {
            synchronized (connection) {
              connection.createStatement().executeUpdate(sql);
            }
          }
          private Long nextId;
          public synchronized long nextId() throws SQLException {
            if (nextId == null) {
              loadNextId();
            }
            return nextId++;
          }
          private void loadNextId() throws SQLException {
            try (Connection connection = dataSource.getConnection();
                 ResultSet rows = connection.createStatement().executeQuery("select max(id) from orders")) {
              rows.next();
              nextId = rows.getLong(1) + 1;
            }
          }
          public synchronized void init() throws SQLException {
            try (Connection connection = dataSource.getConnection()) {
              connection.createStatement().execute("create table if not exists sessions(id int)");
            }
          }
        }
        """);
    sources.put(
        "shop.dao.SessionJanitor",
        """
        package shop.dao;
        import java.sql.*;
        import javax.sql.DataSource;
        public class SessionJanitor {
          private final DataSource dataSource;
          public SessionJanitor(DataSource dataSource) { this.dataSource = dataSource; }
          public synchronized void purgeExpired() throws SQLException {
            try (Connection connection = dataSource.getConnection()) {
              connection.createStatement().executeUpdate("delete from sessions where expired");
            }
          }
        }
        """);
    sources.put(
        "shop.http.PriceFeedClient",
        """
        package shop.http;
        import java.io.IOException;
        import java.net.*;
        import java.net.http.*;
        import org.apache.http.client.methods.*;
        import org.apache.http.impl.client.*;
        import org.apache.http.util.EntityUtils;
        public class PriceFeedClient {
          public String fetchPrice(String sku) throws IOException, InterruptedException {
            HttpClient client = HttpClient.newHttpClient();                   // line 10
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://prices.example.com/" + sku)).build();
            return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
          }
          public String fetchStock(String sku) throws IOException {
            try (CloseableHttpClient http = HttpClients.createDefault()) {     // line 15
              try (CloseableHttpResponse response = http.execute(new HttpGet("https://stock.example.com/" + sku))) {
                return EntityUtils.toString(response.getEntity());
              }
            }
          }
          public int ping(String endpoint) throws IOException {
            HttpURLConnection connection = (HttpURLConnection) new URL(endpoint).openConnection();
            connection.setRequestProperty("Connection", "close");             // line 23
            return connection.getResponseCode();
          }
          public static void disableKeepAlive() {
            System.setProperty("http.keepAlive", "false");                    // line 27
          }
          public String rates(String currency) {
            org.springframework.web.client.RestTemplate rest =                // line 30
                new org.springframework.web.client.RestTemplate();
            return rest.getForObject("https://rates.example.com/" + currency, String.class);
          }
        }
        """);
    sources.put(
        "shop.http.SharedFeedClient",
        """
        package shop.http;
        import java.io.IOException;
        import java.net.URI;
        import java.net.http.*;
        import org.apache.http.impl.client.*;
        public class SharedFeedClient {
          private final HttpClient client;
          private final CloseableHttpClient apache = HttpClients.createDefault();
          public SharedFeedClient() { this.client = HttpClient.newHttpClient(); }
          public String fetch(String path) throws IOException, InterruptedException {
            return client.send(HttpRequest.newBuilder(URI.create(path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
          }
          public static HttpClient newClient() {
            return HttpClient.newBuilder().build();
          }
          public Worker worker() {
            HttpClient perWorker = HttpClient.newHttpClient();
            return new Worker(perWorker);
          }
          public record Worker(HttpClient client) {}
          public int converterCount() {
            return new org.springframework.web.client.RestTemplate().getMessageConverters().size();
          }
          public static void main(String[] args) throws Exception {
            HttpClient once = HttpClient.newHttpClient();
            System.out.println(once.send(HttpRequest.newBuilder(URI.create(args[0])).build(),
                HttpResponse.BodyHandlers.ofString()).body());
          }
        }
        """);
    Path out = classes.resolve("fixtures");
    BytecodeFixtures.compile(sources, out);
    findings =
        new JarAuditor()
            .audit(
                List.of(out),
                BytecodeFixtures.classpathJars(
                    "httpclient-4", "httpcore-4", "spring-web-", "spring-core-"));
  }

  private static List<AuditFinding> in(String className) {
    return findings.stream().filter(f -> f.className().equals(className)).toList();
  }

  private static String summary(List<AuditFinding> found) {
    return found.stream()
        .map(f -> f.check() + " " + f.methodName() + ":" + f.line())
        .sorted()
        .collect(Collectors.joining(", "));
  }

  @Test
  void classMonitorCacheOnSynchronizedClassParameter() {
    List<AuditFinding> found = in("shop.meta.ClassInfo");
    assertEquals("ClassMonitorCache getInstance:9", summary(found));
    AuditFinding finding = found.get(0);
    assertEquals("(Ljava/lang/Class;)Lshop/meta/ClassInfo;", finding.methodDescriptor());
    assertEquals("ClassInfo.getInstance(Class)", finding.readableMethod());
    assertTrue(finding.message().contains("'CLASS_INFO_MAP'"), finding.message());
    assertTrue(finding.message().contains("computeIfAbsent"), finding.message());
    assertTrue(finding.advice().contains("In your own code"), finding.advice());
  }

  @Test
  void classMonitorCacheOnStaticSynchronizedMethod() {
    assertEquals("ClassMonitorCache converterFor:7", summary(in("shop.meta.ConverterRegistry")));
  }

  @Test
  void concurrentMapUnderClassLockAndComputeIfAbsentAreNotClassMonitorCaches() {
    assertEquals("", summary(in("shop.meta.ConcurrentTypeCache")));
  }

  @Test
  void synchronizedMapCacheUnderObjectMonitorAndOnCoarseMaps() {
    assertEquals(
        "SynchronizedMapCache bySku:17, SynchronizedMapCache product:9, SynchronizedMapCache stockOf:25",
        summary(in("shop.catalog.ProductCatalog")));
    AuditFinding product =
        in("shop.catalog.ProductCatalog").stream()
            .filter(f -> f.methodName().equals("product"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        product.message().contains("under the monitor of the ProductCatalog instance"),
        product.message());
  }

  @Test
  void concurrentAndUnlockedPlainMapsAreNotSynchronizedMapCaches() {
    assertEquals("", summary(in("shop.catalog.PriceBook")));
  }

  @Test
  void busyWaitLoops() {
    assertEquals(
        "ThreadAliveBusyWait awaitLoadTest:20, ThreadAliveBusyWait awaitPool:36,"
            + " ThreadAliveBusyWait awaitResult:13, ThreadAliveBusyWait awaitStart:27,"
            + " ThreadAliveBusyWait awaitWorker:8",
        summary(in("shop.load.LoadClient")));
    AuditFinding worker =
        in("shop.load.LoadClient").stream()
            .filter(f -> f.methodName().equals("awaitWorker"))
            .findFirst()
            .orElseThrow();
    assertTrue(worker.message().contains("Thread.isAlive()"), worker.message());
    assertTrue(worker.message().contains("join()"), worker.message());
    AuditFinding start =
        in("shop.load.LoadClient").stream()
            .filter(f -> f.methodName().equals("awaitStart"))
            .findFirst()
            .orElseThrow();
    assertTrue(start.message().contains("also does other work"), start.message());
  }

  @Test
  void blockingWatchdogAndChangingPollsAreNotBusyWaits() {
    assertEquals("", summary(in("shop.load.PatientClient")));
  }

  @Test
  void sharedMonitorDaoOnSynchronizedJdbcMethodsAndLockFields() {
    assertEquals(
        "SharedMonitorDao findOrders:11, SharedMonitorDao save:23",
        summary(in("shop.dao.OrderDao")));
    AuditFinding save =
        in("shop.dao.OrderDao").stream()
            .filter(f -> f.methodName().equals("save"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        save.message().contains("calls open(), which calls DataSource.getConnection()"),
        save.message());
    assertTrue(
        save.message().contains("findOrders(), lastOrder(), which hold it too"), save.message());
    assertEquals("SharedMonitorDao connect:8", summary(in("shop.dao.LegacyConnectionManager")));
  }

  @Test
  void lazyInitPerConnectionLoneTaskAndLifecycleAreNotSharedMonitorDaos() {
    assertEquals("", summary(in("shop.dao.CarefulDao")));
    assertEquals("", summary(in("shop.dao.SessionJanitor")));
  }

  @Test
  void perRequestHttpClientsAndConnectionClose() {
    assertEquals(
        "PerRequestHttpClient disableKeepAlive:27, PerRequestHttpClient fetchPrice:10,"
            + " PerRequestHttpClient fetchStock:15, PerRequestHttpClient ping:23,"
            + " PerRequestHttpClient rates:30",
        summary(in("shop.http.PriceFeedClient")));
    AuditFinding stock =
        in("shop.http.PriceFeedClient").stream()
            .filter(f -> f.methodName().equals("fetchStock"))
            .findFirst()
            .orElseThrow();
    assertTrue(stock.message().contains("HttpClients.createDefault(...)"), stock.message());
  }

  @Test
  void sharedReturnedHandedOnAndMainClientsAreNotPerRequest() {
    assertEquals("", summary(in("shop.http.SharedFeedClient")));
  }

  @Test
  void findingsCarryTheDirectoryTheyCameFrom() {
    assertFalse(findings.isEmpty(), "the fixtures produce findings");
    assertTrue(
        findings.stream().allMatch(f -> f.jar() != null && f.jar().endsWith("fixtures")),
        findings.toString());
  }

  @org.junit.jupiter.api.AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(
        java.util.List.of(),
        io.github.lockjaw.common.Resilience.swallowed(),
        "a detector threw; SpotBugs logged it and went on");
  }
}
