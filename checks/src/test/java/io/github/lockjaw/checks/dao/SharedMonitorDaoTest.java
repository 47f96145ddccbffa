package io.github.lockjaw.checks.dao;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class SharedMonitorDaoTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SharedMonitorDao.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(SharedMonitorDao.class, getClass());

  private static String[] lines(String text) {
    return text.split("\n", -1);
  }

  // ---------------------------------------------------------------------------------------------
  // Positives
  // ---------------------------------------------------------------------------------------------

  @Test
  void aStreamOrXaBranchLocksPerResourceNotPerRequest() {
    compilation
        .addSourceLines(
            "DatagramOutputStream.java",
            "import java.io.IOException;",
            "import java.io.OutputStream;",
            "import java.net.DatagramPacket;",
            "import java.net.DatagramSocket;",
            "public class DatagramOutputStream extends OutputStream {",
            "  private final DatagramSocket socket;",
            "  private byte[] data = new byte[0];",
            "  public DatagramOutputStream(DatagramSocket socket) { this.socket = socket; }",
            "  @Override public synchronized void write(int b) { data = java.util.Arrays.copyOf(data, data.length + 1); data[data.length - 1] = (byte) b; }",
            "  @Override public synchronized void flush() throws IOException {",
            "    socket.send(new DatagramPacket(data, data.length));",
            "    data = new byte[0];",
            "  }",
            "  @Override public synchronized void close() throws IOException { flush(); socket.close(); }",
            "}")
        .addSourceLines(
            "LocalXaResource.java",
            "import java.sql.Connection;",
            "import java.sql.SQLException;",
            "import javax.transaction.xa.XAException;",
            "import javax.transaction.xa.XAResource;",
            "import javax.transaction.xa.Xid;",
            "public abstract class LocalXaResource implements XAResource {",
            "  private final Connection connection;",
            "  protected LocalXaResource(Connection connection) { this.connection = connection; }",
            "  @Override public synchronized void commit(Xid xid, boolean onePhase) throws XAException {",
            "    try { connection.commit(); } catch (SQLException e) { throw new XAException(e.getMessage()); }",
            "  }",
            "  @Override public synchronized void rollback(Xid xid) throws XAException {",
            "    try { connection.rollback(); } catch (SQLException e) { throw new XAException(e.getMessage()); }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void lifecycleStepsNamedAfterTheirPhaseAreNotRequestPaths() {
    compilation
        .addSourceLines(
            "ContextConfig.java",
            "import java.sql.Connection;",
            "import java.sql.SQLException;",
            "import javax.sql.DataSource;",
            "public class ContextConfig {",
            "  private final DataSource dataSource;",
            "  public ContextConfig(DataSource dataSource) { this.dataSource = dataSource; }",
            "  protected synchronized void configureStart() throws SQLException {",
            "    try (Connection c = dataSource.getConnection()) { c.isValid(1); }",
            "  }",
            "  protected synchronized void stopInternal() throws SQLException {",
            "    try (Connection c = dataSource.getConnection()) { c.isValid(1); }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void openCmsSqlManager() {
    compilation
        .addSourceLines(
            "CmsSqlManager.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                public class CmsSqlManager {
                  private final String poolUrl;
                  public CmsSqlManager(String poolUrl) { this.poolUrl = poolUrl; }
                  // BUG: Diagnostic contains: getConnectionByUrl() holds the monitor of the CmsSqlManager instance while it calls DriverManager.getConnection(): every request queues on that one monitor while connections open and I/O runs, together with getConnection(), getPreparedStatement(), closeAll(), which hold it too
                  public synchronized Connection getConnectionByUrl(String dbPoolUrl) throws SQLException {
                    return DriverManager.getConnection(dbPoolUrl);
                  }
                  // BUG: Diagnostic contains: getConnection() holds the monitor of the CmsSqlManager instance while it calls getConnectionByUrl(), which calls DriverManager.getConnection()
                  public synchronized Connection getConnection() throws SQLException {
                    return getConnectionByUrl(poolUrl);
                  }
                  // BUG: Diagnostic contains: while it calls Connection.prepareStatement()
                  public synchronized PreparedStatement getPreparedStatement(Connection con, String query)
                      throws SQLException {
                    return con.prepareStatement(query);
                  }
                  // BUG: Diagnostic contains: while it calls ResultSet.close()
                  public synchronized void closeAll(Connection con, Statement stmnt, ResultSet res) {
                    try {
                      if (res != null) res.close();
                      if (stmnt != null) stmnt.close();
                      if (con != null) con.close();
                    } catch (SQLException e) {
                      // ignore
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void dataSourceBorrowedUnderInstanceMonitor() {
    compilation
        .addSourceLines(
            "OrderDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.util.Optional;
                import javax.sql.DataSource;
                public class OrderDao {
                  public record Order(long id, String customer, long totalCents) {}
                  private final DataSource dataSource;
                  public OrderDao(DataSource dataSource) { this.dataSource = dataSource; }
                  // BUG: Diagnostic contains: while it calls DataSource.getConnection()
                  public synchronized Optional<Order> findOrder(long id) throws SQLException {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("select customer, total from orders where id = ?")) {
                      ps.setLong(1, id);
                      try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? Optional.of(new Order(id, rs.getString(1), rs.getLong(2))) : Optional.empty();
                      }
                    }
                  }
                  // BUG: Diagnostic contains: together with findOrder(), which hold it too
                  public synchronized void saveOrder(Order order) throws SQLException {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("insert into orders values (?, ?, ?)")) {
                      ps.setLong(1, order.id());
                      ps.setString(2, order.customer());
                      ps.setLong(3, order.totalCents());
                      ps.executeUpdate();
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void staticSynchronizedConnectionFactory() {
    compilation
        .addSourceLines(
            "ConnectionFactory.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.naming.InitialContext;
                import javax.naming.NamingException;
                import javax.sql.DataSource;
                public final class ConnectionFactory {
                  private static final DataSource DS = lookup();
                  private static DataSource lookup() {
                    try {
                      return (DataSource) new InitialContext().lookup("java:comp/env/jdbc/shop");
                    } catch (NamingException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  // BUG: Diagnostic contains: getConnection() holds the ConnectionFactory.class monitor while it calls DataSource.getConnection()
                  public static synchronized Connection getConnection() throws SQLException {
                    return DS.getConnection();
                  }
                  private ConnectionFactory() {}
                }
                """))
        .doTest();
  }

  @Test
  void jndiLookupUnderLockObject() {
    compilation
        .addSourceLines(
            "ServiceLocator.java",
            lines(
                """
                import javax.naming.Context;
                import javax.naming.NamingException;
                import javax.sql.DataSource;
                public class ServiceLocator {
                  private static final Object LOCK = new Object();
                  private final Context context;
                  private int lookups;
                  public ServiceLocator(Context context) { this.context = context; }
                  public DataSource dataSource(String jndiName) throws NamingException {
                    // BUG: Diagnostic contains: The synchronized block in dataSource() holds the monitor of lock field 'LOCK' while it calls Context.lookup(): every request queues
                    synchronized (LOCK) {
                      lookups++;
                      return (DataSource) context.lookup(jndiName);
                    }
                  }
                  public Object ejb(String jndiName) throws NamingException {
                    // BUG: Diagnostic contains: together with the synchronized block in dataSource(), which hold it too
                    synchronized (LOCK) {
                      return context.lookup(jndiName);
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void handRolledConnectionPool() {
    compilation
        .addSourceLines(
            "SimpleConnectionPool.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import java.util.ArrayDeque;
                import java.util.Deque;
                public class SimpleConnectionPool {
                  private final Deque<Connection> idle = new ArrayDeque<>();
                  private final String url;
                  private final int maxIdle;
                  private int borrowed;
                  public SimpleConnectionPool(String url, int maxIdle) { this.url = url; this.maxIdle = maxIdle; }
                  // BUG: Diagnostic contains: borrow() holds the monitor of the SimpleConnectionPool instance while it calls Connection.isValid(): every request queues on that one monitor while connections open and I/O runs, together with release(), borrowedCount(), which hold it too. Drop the lock around the I/O and let the connection pool handle concurrency; keep a lock only around the in-memory state it guards. (No automatic fix: it uses field 'borrowed', state the lock may guard.)
                  public synchronized Connection borrow() throws SQLException {
                    borrowed++;
                    Connection c = idle.pollFirst();
                    if (c == null || !c.isValid(2)) {
                      c = DriverManager.getConnection(url);
                    }
                    return c;
                  }
                  // BUG: Diagnostic contains: release() holds
                  public synchronized void release(Connection c) throws SQLException {
                    borrowed--;
                    if (idle.size() < maxIdle) {
                      idle.addFirst(c);
                    } else {
                      c.close();
                    }
                  }
                  public synchronized int borrowedCount() { return borrowed; }
                }
                """))
        .doTest();
  }

  @Test
  void followsCallsThroughPrivateHelpers() {
    compilation
        .addSourceLines(
            "AuditTrail.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import java.sql.Timestamp;
                import java.time.Instant;
                import javax.sql.DataSource;
                public class AuditTrail {
                  private final DataSource auditDb;
                  public AuditTrail(DataSource auditDb) { this.auditDb = auditDb; }
                  // BUG: Diagnostic contains: recordLogin() holds the monitor of the AuditTrail instance while it calls insert(), which calls openConnection(), which calls DataSource.getConnection()
                  public synchronized void recordLogin(String user) {
                    insert("LOGIN", user);
                  }
                  private void insert(String event, String user) {
                    try (Connection c = openConnection();
                        PreparedStatement ps = c.prepareStatement("insert into audit values (?, ?, ?)")) {
                      ps.setString(1, event);
                      ps.setString(2, user);
                      ps.setTimestamp(3, Timestamp.from(Instant.now()));
                      ps.executeUpdate();
                    } catch (SQLException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  private Connection openConnection() throws SQLException {
                    Connection c = auditDb.getConnection();
                    c.setAutoCommit(true);
                    return c;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void synchronizedThisBlockSharesTheInstanceMonitor() {
    compilation
        .addSourceLines(
            "InventoryDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class InventoryDao {
                  private final DataSource dataSource;
                  private long lastReservation;
                  public InventoryDao(DataSource dataSource) { this.dataSource = dataSource; }
                  public void reserve(String sku, int quantity) throws SQLException {
                    long now = System.currentTimeMillis();
                    // BUG: Diagnostic contains: The synchronized block in reserve() holds the monitor of the InventoryDao instance while it calls DataSource.getConnection(): every request queues on that one monitor while connections open and I/O runs, together with lastReservation()
                    synchronized (this) {
                      lastReservation = now;
                      try (Connection c = dataSource.getConnection();
                          PreparedStatement ps = c.prepareStatement("update stock set qty = qty - ? where sku = ?")) {
                        ps.setInt(1, quantity);
                        ps.setString(2, sku);
                        ps.executeUpdate();
                      }
                    }
                  }
                  public synchronized long lastReservation() { return lastReservation; }
                }
                """))
        .doTest();
  }

  @Test
  void httpExchangeUnderMonitor() {
    compilation
        .addSourceLines(
            "PaymentGatewayClient.java",
            lines(
                """
                import java.io.IOException;
                import java.net.URI;
                import java.net.http.HttpClient;
                import java.net.http.HttpRequest;
                import java.net.http.HttpResponse;
                public class PaymentGatewayClient {
                  private final HttpClient http = HttpClient.newHttpClient();
                  private final URI endpoint;
                  public PaymentGatewayClient(URI endpoint) { this.endpoint = endpoint; }
                  // BUG: Diagnostic contains: while it calls HttpClient.send()
                  public synchronized String charge(String cardToken, long amountCents)
                      throws IOException, InterruptedException {
                    HttpRequest request = HttpRequest.newBuilder(endpoint)
                        .POST(HttpRequest.BodyPublishers.ofString(cardToken + ":" + amountCents))
                        .build();
                    return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
                  }
                }
                """))
        .doTest();
  }

  @Test
  void socketAndUrlConnection() {
    compilation
        .addSourceLines(
            "LegacyInventoryClient.java",
            lines(
                """
                import java.io.BufferedReader;
                import java.io.IOException;
                import java.io.InputStreamReader;
                import java.io.PrintWriter;
                import java.net.HttpURLConnection;
                import java.net.Socket;
                import java.net.URL;
                import java.nio.charset.StandardCharsets;
                public class LegacyInventoryClient {
                  private final String host;
                  private final int port;
                  public LegacyInventoryClient(String host, int port) { this.host = host; this.port = port; }
                  // BUG: Diagnostic contains: while it calls new Socket(...)
                  public synchronized String stockLevel(String sku) throws IOException {
                    try (Socket socket = new Socket(host, port);
                        PrintWriter out = new PrintWriter(socket.getOutputStream(), true);
                        BufferedReader in = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
                      out.println("STOCK " + sku);
                      return in.readLine();
                    }
                  }
                  // BUG: Diagnostic contains: while it calls HttpURLConnection.getResponseCode()
                  public synchronized boolean ping(URL health) throws IOException {
                    HttpURLConnection connection = (HttpURLConnection) health.openConnection();
                    try {
                      return connection.getResponseCode() == 200;
                    } finally {
                      connection.disconnect();
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void ldapAuthenticationUnderClassMonitor() {
    compilation
        .addSourceLines(
            "LdapAuthenticator.java",
            lines(
                """
                import java.util.Hashtable;
                import javax.naming.Context;
                import javax.naming.NamingException;
                import javax.naming.directory.InitialDirContext;
                public class LdapAuthenticator {
                  private static final String URL = "ldap://ldap.shop.example:389";
                  // BUG: Diagnostic contains: authenticate() holds the LdapAuthenticator.class monitor while it calls new InitialDirContext(...)
                  public static synchronized boolean authenticate(String userDn, String password) {
                    Hashtable<String, String> env = new Hashtable<>();
                    env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
                    env.put(Context.PROVIDER_URL, URL);
                    env.put(Context.SECURITY_PRINCIPAL, userDn);
                    env.put(Context.SECURITY_CREDENTIALS, password);
                    try {
                      new InitialDirContext(env).close();
                      return true;
                    } catch (NamingException e) {
                      return false;
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void transactionOfSeveralStatementsGetsNoFix() {
    compilation
        .addSourceLines(
            "AccountDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class AccountDao {
                  private final DataSource ds;
                  public AccountDao(DataSource ds) { this.ds = ds; }
                  // BUG: Diagnostic contains: No automatic fix: transfer() runs several statements under the same monitor
                  public synchronized long balance(String account) throws SQLException {
                    try (Connection c = ds.getConnection();
                        PreparedStatement ps = c.prepareStatement("select balance from account where id = ?")) {
                      ps.setString(1, account);
                      try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? rs.getLong(1) : 0L;
                      }
                    }
                  }
                  // BUG: Diagnostic contains: No automatic fix: transfer() runs several statements
                  public synchronized void transfer(String from, String to, long cents) throws SQLException {
                    try (Connection c = ds.getConnection()) {
                      c.setAutoCommit(false);
                      try (PreparedStatement debit = c.prepareStatement("update account set balance = balance - ? where id = ?");
                          PreparedStatement credit = c.prepareStatement("update account set balance = balance + ? where id = ?")) {
                        debit.setLong(1, cents);
                        debit.setString(2, from);
                        debit.executeUpdate();
                        credit.setLong(1, cents);
                        credit.setString(2, to);
                        credit.executeUpdate();
                        c.commit();
                      } catch (SQLException e) {
                        c.rollback();
                        throw e;
                      }
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void nestedRepositoryWithRawTypesAndLockOnDataSourceField() {
    compilation
        .addSourceLines(
            "CatalogService.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                import java.util.ArrayList;
                import java.util.List;
                import javax.sql.DataSource;
                public class CatalogService {
                  static class ProductRepository {
                    private final DataSource dataSource;
                    ProductRepository(DataSource dataSource) { this.dataSource = dataSource; }
                    @SuppressWarnings({"rawtypes", "unchecked"})
                    // BUG: Diagnostic contains: findAll() holds the monitor of the ProductRepository instance
                    synchronized List findAll() throws SQLException {
                      List names = new ArrayList();
                      try (Connection c = dataSource.getConnection();
                          Statement st = c.createStatement();
                          ResultSet rs = st.executeQuery("select name from product")) {
                        while (rs.next()) {
                          names.add(rs.getString(1));
                        }
                      }
                      return names;
                    }
                    int count() throws SQLException {
                      // BUG: Diagnostic contains: holds the monitor of lock field 'dataSource'
                      synchronized (dataSource) {
                        try (Connection c = dataSource.getConnection();
                            Statement st = c.createStatement();
                            ResultSet rs = st.executeQuery("select count(*) from product")) {
                          rs.next();
                          return rs.getInt(1);
                        }
                      }
                    }
                  }
                  private final ProductRepository products;
                  public CatalogService(DataSource ds) { products = new ProductRepository(ds); }
                  public List<?> listProducts() throws SQLException { return products.findAll(); }
                }
                """))
        .doTest();
  }

  @Test
  void resultSetIterationAndLongChainListsOtherMembers() {
    compilation
        .addSourceLines(
            "ReportDao.java",
            lines(
                """
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.util.ArrayList;
                import java.util.List;
                public class ReportDao {
                  private int a, b, c, d, e, f;
                  // BUG: Diagnostic contains: while it calls ResultSet.next(): every request queues on that one monitor while connections open and I/O runs, together with m1(), m2(), m3(), m4(), m5() and 1 more, which hold it too
                  public synchronized List<String> readSkus(ResultSet rs) throws SQLException {
                    List<String> skus = new ArrayList<>();
                    while (rs.next()) {
                      skus.add(rs.getString("sku"));
                    }
                    return skus;
                  }
                  public synchronized void m1() { a++; }
                  public synchronized void m2() { b++; }
                  public synchronized void m3() { c++; }
                  public synchronized void m4() { d++; }
                  public synchronized void m5() { e++; }
                  public synchronized void m6() { f++; }
                }
                """))
        .doTest();
  }

  @Test
  void anonymousDaoImplementation() {
    compilation
        .addSourceLines(
            "Daos.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import java.util.function.Supplier;
                import javax.sql.DataSource;
                public class Daos {
                  public interface CustomerDao { void touch(long customerId) throws SQLException; }
                  public static CustomerDao customers(DataSource ds) {
                    return new CustomerDao() {
                      @Override
                      // BUG: Diagnostic contains: touch() holds
                      public synchronized void touch(long customerId) throws SQLException {
                        try (Connection c = ds.getConnection();
                            PreparedStatement ps = c.prepareStatement("update customer set seen = now() where id = ?")) {
                          ps.setLong(1, customerId);
                          ps.execute();
                        }
                      }
                    };
                  }
                }
                """))
        .doTest();
  }

  // ---------------------------------------------------------------------------------------------
  // Negatives
  // ---------------------------------------------------------------------------------------------

  @Test
  void inMemoryWorkOnlyIsNotFlagged() {
    compilation
        .addSourceLines(
            "QueryStatistics.java",
            lines(
                """
                import java.util.ArrayList;
                import java.util.List;
                public class QueryStatistics {
                  private long queries;
                  private long totalMillis;
                  private final List<String> slowQueries = new ArrayList<>();
                  public synchronized void record(String sql, long millis) {
                    queries++;
                    totalMillis += millis;
                    if (millis > 1000) slowQueries.add(sql);
                  }
                  public synchronized double averageMillis() { return queries == 0 ? 0 : (double) totalMillis / queries; }
                  public synchronized List<String> slowQueries() { return List.copyOf(slowQueries); }
                }
                """))
        .doTest();
  }

  @Test
  void lazyJndiInitialisationIsNotFlagged() {
    compilation
        .addSourceLines(
            "ShopDataSource.java",
            lines(
                """
                import javax.naming.InitialContext;
                import javax.naming.NamingException;
                import javax.sql.DataSource;
                public class ShopDataSource {
                  private DataSource dataSource;
                  private static ShopDataSource instance;
                  public synchronized DataSource get() throws NamingException {
                    if (dataSource == null) {
                      dataSource = (DataSource) new InitialContext().lookup("java:comp/env/jdbc/shop");
                    }
                    return dataSource;
                  }
                  public static synchronized ShopDataSource getInstance() {
                    if (instance == null) {
                      instance = new ShopDataSource();
                    }
                    return instance;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void oneTimeSchemaSetupAndCachedSingleConnection() {
    compilation
        .addSourceLines(
            "EmbeddedDatabase.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import java.sql.Statement;
                public class EmbeddedDatabase {
                  private boolean schemaCreated;
                  private Connection connection;
                  private final String url;
                  public EmbeddedDatabase(String url) { this.url = url; }
                  public synchronized void ensureSchema(String ddl) throws SQLException {
                    if (!schemaCreated) {
                      try (Statement st = connection().createStatement()) {
                        st.execute(ddl);
                      }
                      schemaCreated = true;
                    }
                  }
                  public synchronized Connection connection() throws SQLException {
                    if (connection == null || connection.isClosed()) {
                      connection = DriverManager.getConnection(url);
                    }
                    return connection;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void daoWithoutSharedLock() {
    compilation
        .addSourceLines(
            "CustomerDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.util.concurrent.atomic.AtomicLong;
                import javax.sql.DataSource;
                public class CustomerDao {
                  private final DataSource dataSource;
                  private final AtomicLong lookups = new AtomicLong();
                  public CustomerDao(DataSource dataSource) { this.dataSource = dataSource; }
                  public String name(long id) throws SQLException {
                    lookups.incrementAndGet();
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("select name from customer where id = ?")) {
                      ps.setLong(1, id);
                      try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                      }
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void lockAroundTheStateOnly() {
    compilation
        .addSourceLines(
            "ShipmentDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import java.util.ArrayDeque;
                import java.util.Deque;
                import javax.sql.DataSource;
                public class ShipmentDao {
                  private final DataSource dataSource;
                  private final Deque<Long> recent = new ArrayDeque<>();
                  public ShipmentDao(DataSource dataSource) { this.dataSource = dataSource; }
                  public void ship(long orderId) throws SQLException {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("update orders set shipped = true where id = ?")) {
                      ps.setLong(1, orderId);
                      ps.executeUpdate();
                    }
                    synchronized (this) {
                      recent.addFirst(orderId);
                      if (recent.size() > 100) recent.removeLast();
                    }
                  }
                  public synchronized Long lastShipped() { return recent.peekFirst(); }
                }
                """))
        .doTest();
  }

  @Test
  void synchronizedJndiLookupCacheBelongsToTheCacheChecks() {
    compilation
        .addSourceLines(
            "CachingServiceLocator.java",
            lines(
                """
                import java.util.HashMap;
                import java.util.Map;
                import javax.naming.InitialContext;
                import javax.naming.NamingException;
                public class CachingServiceLocator {
                  private final Map<String, Object> cache = new HashMap<>();
                  private final InitialContext context;
                  public CachingServiceLocator(InitialContext context) { this.context = context; }
                  public synchronized Object lookup(String name) throws NamingException {
                    Object service = cache.get(name);
                    if (service == null) {
                      service = context.lookup(name);
                      cache.put(name, service);
                    }
                    return service;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void perConnectionWrapperMonitorIsNotShared() {
    compilation
        .addSourceLines(
            "TrackedConnection.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                public abstract class TrackedConnection implements Connection {
                  private final Connection delegate;
                  private boolean closed;
                  protected TrackedConnection(Connection delegate) { this.delegate = delegate; }
                  @Override
                  public synchronized void close() throws SQLException {
                    if (!closed) {
                      closed = true;
                      delegate.close();
                    }
                  }
                  @Override
                  public synchronized void commit() throws SQLException {
                    delegate.commit();
                  }
                }
                """))
        .doTest();
  }

  @Test
  void workHandedToLambdasAndAnonymousClassesRunsLater() {
    compilation
        .addSourceLines(
            "AsyncOrderWriter.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.ArrayList;
                import java.util.List;
                import java.util.concurrent.Callable;
                import java.util.concurrent.ExecutorService;
                import javax.sql.DataSource;
                public class AsyncOrderWriter {
                  private final DataSource dataSource;
                  private final ExecutorService executor;
                  private final List<Callable<Void>> pending = new ArrayList<>();
                  public AsyncOrderWriter(DataSource dataSource, ExecutorService executor) {
                    this.dataSource = dataSource;
                    this.executor = executor;
                  }
                  public synchronized void submit(String sql) {
                    executor.submit(() -> {
                      try (Connection c = dataSource.getConnection()) {
                        c.createStatement().executeUpdate(sql);
                      }
                      return null;
                    });
                  }
                  public synchronized void enqueue(String sql) {
                    pending.add(new Callable<Void>() {
                      @Override
                      public Void call() throws SQLException {
                        try (Connection c = dataSource.getConnection()) {
                          c.createStatement().executeUpdate(sql);
                        }
                        return null;
                      }
                    });
                  }
                  public synchronized void enqueueFlush() {
                    pending.add(this::flushNow);
                  }
                  private Void flushNow() throws SQLException {
                    try (Connection c = dataSource.getConnection()) {
                      c.commit();
                    }
                    return null;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void lifecycleMethodsAndConstructors() {
    compilation
        .addSourceLines(
            "PooledDataSource.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import java.util.ArrayList;
                import java.util.List;
                public class PooledDataSource {
                  private final List<Connection> connections = new ArrayList<>();
                  private final String url;
                  public PooledDataSource(String url, int size) throws SQLException {
                    this.url = url;
                    synchronized (this) {
                      for (int i = 0; i < size; i++) connections.add(DriverManager.getConnection(url));
                    }
                  }
                  public synchronized void shutdown() throws SQLException {
                    for (Connection c : connections) c.close();
                    connections.clear();
                  }
                  public synchronized void init(int extra) throws SQLException {
                    for (int i = 0; i < extra; i++) connections.add(DriverManager.getConnection(url));
                  }
                  public synchronized Connection take() {
                    return connections.isEmpty() ? null : connections.remove(connections.size() - 1);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void loneMaintenanceTaskIsNotFlagged() {
    compilation
        .addSourceLines(
            "SessionPurgeJob.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.sql.Statement;
                import javax.sql.DataSource;
                public class SessionPurgeJob implements Runnable {
                  private final DataSource dataSource;
                  public SessionPurgeJob(DataSource dataSource) { this.dataSource = dataSource; }
                  @Override
                  public synchronized void run() {
                    try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                      st.executeUpdate("delete from session where expires < now()");
                    } catch (SQLException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void locksOnParametersAndLocalsAreNotShared() {
    compilation
        .addSourceLines(
            "BatchImporter.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import java.util.List;
                public class BatchImporter {
                  public void importRows(Connection connection, List<String[]> rows) throws SQLException {
                    synchronized (connection) {
                      try (PreparedStatement ps = connection.prepareStatement("insert into staging values (?, ?)")) {
                        for (String[] row : rows) {
                          ps.setString(1, row[0]);
                          ps.setString(2, row[1]);
                          ps.addBatch();
                        }
                        ps.executeBatch();
                      }
                    }
                  }
                  public void importOne(Connection connection, String[] row) throws SQLException {
                    Object guard = new Object();
                    synchronized (guard) {
                      try (PreparedStatement ps = connection.prepareStatement("insert into staging values (?, ?)")) {
                        ps.setString(1, row[0]);
                        ps.setString(2, row[1]);
                        ps.executeUpdate();
                      }
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void staticInMemoryIdGeneratorBesideUnlockedDao() {
    compilation
        .addSourceLines(
            "InvoiceDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class InvoiceDao {
                  private static long nextNumber = 1000;
                  private final DataSource dataSource;
                  public InvoiceDao(DataSource dataSource) { this.dataSource = dataSource; }
                  private static synchronized long nextInvoiceNumber() { return nextNumber++; }
                  public long create(long orderId) throws SQLException {
                    long number = nextInvoiceNumber();
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("insert into invoice values (?, ?)")) {
                      ps.setLong(1, number);
                      ps.setLong(2, orderId);
                      ps.executeUpdate();
                    }
                    return number;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void recordsSealedTypesAndSwitchPatternsDoNotCrash() {
    compilation
        .addSourceLines(
            "Events.java",
            lines(
                """
                import java.util.ArrayList;
                import java.util.List;
                public class Events {
                  sealed interface Event permits Placed, Cancelled {}
                  record Placed(long orderId) implements Event {}
                  record Cancelled(long orderId, String reason) implements Event {}
                  record Journal(List<Event> events) {
                    synchronized void add(Event e) { events.add(e); }
                  }
                  private final List<String> log = new ArrayList<>();
                  public synchronized String describe(Event event) {
                    String text = switch (event) {
                      case Placed p -> "placed " + p.orderId();
                      case Cancelled c when c.reason().isEmpty() -> "cancelled " + c.orderId();
                      case Cancelled c -> "cancelled " + c.orderId() + ": " + c.reason();
                    };
                    log.add(text);
                    return text;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void suppressWarningsSilencesTheCheck() {
    compilation
        .addSourceLines(
            "SequenceDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                import javax.sql.DataSource;
                public class SequenceDao {
                  private final DataSource dataSource;
                  public SequenceDao(DataSource dataSource) { this.dataSource = dataSource; }
                  @SuppressWarnings("SharedMonitorDao") // the legacy schema has no sequences
                  public synchronized long nextId(String table) throws SQLException {
                    try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("select max(id) + 1 from " + table)) {
                      rs.next();
                      return rs.getLong(1);
                    }
                  }
                  @SuppressWarnings("SharedMonitorDao")
                  public void touch(String table) throws SQLException {
                    synchronized (this) {
                      try (Connection c = dataSource.getConnection()) {
                        c.createStatement().executeUpdate("update " + table + " set touched = now()");
                      }
                    }
                  }
                }
                """))
        .doTest();
  }

  // ---------------------------------------------------------------------------------------------
  // Fixes
  // ---------------------------------------------------------------------------------------------

  @Test
  void fixDropsTheMethodLocksOfCmsSqlManager() {
    refactoring
        .addInputLines(
            "CmsSqlManager.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                public class CmsSqlManager {
                  private static final String DEFAULT_POOL = "jdbc:opencmspool:default";
                  public synchronized Connection getConnection() throws SQLException {
                    return getConnectionByUrl(DEFAULT_POOL);
                  }
                  public synchronized Connection getConnectionByUrl(String dbPoolUrl) throws SQLException {
                    return DriverManager.getConnection(dbPoolUrl);
                  }
                  public synchronized PreparedStatement getPreparedStatement(Connection con, String query)
                      throws SQLException {
                    return con.prepareStatement(query);
                  }
                  public synchronized void closeAll(Connection con, Statement stmnt, ResultSet res) {
                    try {
                      if (res != null) res.close();
                      if (stmnt != null) stmnt.close();
                      if (con != null) con.close();
                    } catch (SQLException e) {
                      // ignore
                    }
                  }
                }
                """))
        .addOutputLines(
            "CmsSqlManager.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                public class CmsSqlManager {
                  private static final String DEFAULT_POOL = "jdbc:opencmspool:default";
                  public Connection getConnection() throws SQLException {
                    return getConnectionByUrl(DEFAULT_POOL);
                  }
                  public Connection getConnectionByUrl(String dbPoolUrl) throws SQLException {
                    return DriverManager.getConnection(dbPoolUrl);
                  }
                  public PreparedStatement getPreparedStatement(Connection con, String query)
                      throws SQLException {
                    return con.prepareStatement(query);
                  }
                  public void closeAll(Connection con, Statement stmnt, ResultSet res) {
                    try {
                      if (res != null) res.close();
                      if (stmnt != null) stmnt.close();
                      if (con != null) con.close();
                    } catch (SQLException e) {
                      // ignore
                    }
                  }
                }
                """))
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixDropsStaticLockAroundPoolWithLogger() {
    refactoring
        .addInputLines(
            "Db.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.logging.Logger;
                import javax.sql.DataSource;
                public final class Db {
                  private static final Logger LOG = Logger.getLogger(Db.class.getName());
                  private static volatile DataSource pool;
                  private static final DataSource FALLBACK = null;
                  private final DataSource dataSource;
                  private Db(DataSource dataSource) { this.dataSource = dataSource; }
                  public synchronized Connection connection() throws SQLException {
                    LOG.fine("borrowing a connection");
                    return dataSource.getConnection();
                  }
                  public synchronized Connection readOnlyConnection(boolean strict) throws SQLException {
                    Connection c = dataSource.getConnection();
                    c.setReadOnly(true);
                    return c;
                  }
                }
                """))
        .addOutputLines(
            "Db.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.logging.Logger;
                import javax.sql.DataSource;
                public final class Db {
                  private static final Logger LOG = Logger.getLogger(Db.class.getName());
                  private static volatile DataSource pool;
                  private static final DataSource FALLBACK = null;
                  private final DataSource dataSource;
                  private Db(DataSource dataSource) { this.dataSource = dataSource; }
                  public Connection connection() throws SQLException {
                    LOG.fine("borrowing a connection");
                    return dataSource.getConnection();
                  }
                  public Connection readOnlyConnection(boolean strict) throws SQLException {
                    Connection c = dataSource.getConnection();
                    c.setReadOnly(true);
                    return c;
                  }
                }
                """))
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixDropsStaticSynchronized() {
    refactoring
        .addInputLines(
            "ConnectionFactory.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public final class ConnectionFactory {
                  private static final DataSource DS = null;
                  public static synchronized Connection getConnection() throws SQLException {
                    return DS.getConnection();
                  }
                  public static synchronized Connection getConnection(boolean autoCommit) throws SQLException {
                    Connection c = getConnection();
                    c.setAutoCommit(autoCommit);
                    return c;
                  }
                }
                """))
        .addOutputLines(
            "ConnectionFactory.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public final class ConnectionFactory {
                  private static final DataSource DS = null;
                  public static Connection getConnection() throws SQLException {
                    return DS.getConnection();
                  }
                  public static Connection getConnection(boolean autoCommit) throws SQLException {
                    Connection c = getConnection();
                    c.setAutoCommit(autoCommit);
                    return c;
                  }
                }
                """))
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixUnwrapsLockBlockThatIsTheWholeBody() {
    refactoring
        .addInputLines(
            "ProductDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class ProductDao {
                  private static final Object LOCK = new Object();
                  private final DataSource dataSource;
                  public ProductDao(DataSource dataSource) { this.dataSource = dataSource; }
                  public String title(long id) throws SQLException {
                    synchronized (LOCK) {
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
                """))
        .addOutputLines(
            "ProductDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class ProductDao {
                  private static final Object LOCK = new Object();
                  private final DataSource dataSource;
                  public ProductDao(DataSource dataSource) { this.dataSource = dataSource; }
                  public String title(long id) throws SQLException {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("select title from product where id = ?")) {
                      ps.setLong(1, id);
                      try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                      }
                    }
                  }
                }
                """))
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void noFixWhenMethodTouchesState() {
    compilation
        .addSourceLines(
            "SimpleConnectionPool.java",
            "import java.sql.Connection;",
            "import java.sql.DriverManager;",
            "import java.sql.SQLException;",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "public class SimpleConnectionPool {",
            "  private final List<Connection> idle = new ArrayList<>();",
            "  private final String url;",
            "  public SimpleConnectionPool(String url) { this.url = url; }",
            "  // BUG: Diagnostic contains: No automatic fix",
            "  public synchronized Connection borrow() throws SQLException {",
            "    return idle.isEmpty() ? DriverManager.getConnection(url) : idle.remove(idle.size() - 1);",
            "  }",
            "  public synchronized void release(Connection c) { idle.add(c); }",
            "}")
        .doTest();
  }

  @Test
  void aLockFieldHoldingOneConnectionLocksPerResource() {
    compilation
        .addSourceLines(
            "TransactionBranch.java",
            "import java.sql.Connection;",
            "import java.sql.SQLException;",
            "public class TransactionBranch {",
            "  private final Connection connection;",
            "  public TransactionBranch(Connection connection) { this.connection = connection; }",
            "  public void commit() throws SQLException {",
            "    synchronized (connection) { connection.commit(); }",
            "  }",
            "  public void rollback() throws SQLException {",
            "    synchronized (connection) { connection.rollback(); }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenAnotherMemberWaitsOnTheMonitor() {
    compilation
        .addSourceLines(
            "ThrottledDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class ThrottledDao {
                  private final DataSource dataSource;
                  public ThrottledDao(DataSource dataSource) { this.dataSource = dataSource; }
                  // BUG: Diagnostic contains: No automatic fix: this file waits on or notifies a monitor
                  public synchronized Connection connection() throws SQLException {
                    return dataSource.getConnection();
                  }
                  public synchronized void pause(long millis) throws InterruptedException {
                    wait(millis);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void noFixForPartOfAMethodOrForClientSideLocking() {
    compilation
        .addSourceLines(
            "UserDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class UserDao {
                  private final DataSource dataSource;
                  public UserDao(DataSource dataSource) { this.dataSource = dataSource; }
                  // BUG: Diagnostic contains: No automatic fix: other code in this file locks a UserDao object as well
                  public synchronized Connection connection() throws SQLException {
                    return dataSource.getConnection();
                  }
                  public Connection audited(String who) throws SQLException {
                    String tag = "user:" + who;
                    // BUG: Diagnostic contains: No automatic fix: the synchronized block is only part of audited()
                    synchronized (this) {
                      return dataSource.getConnection();
                    }
                  }
                  static Connection exclusive(UserDao dao) throws SQLException {
                    synchronized (dao) {
                      return dao.connection();
                    }
                  }
                }
                """))
        .doTest();
  }

  // ---- issue 17, item 21: say what is serialised ------------------------------------------------

  @Test
  void aPoolsCreationSerialisesOnlyTheCreationAndAJndiFactoryIsNotFlagged() {
    compilation
        .addSourceLines(
            "PoolFactory.java",
            "import java.sql.Connection;",
            "import java.sql.DriverManager;",
            "import java.sql.SQLException;",
            "import java.util.Hashtable;",
            "import javax.naming.Context;",
            "import javax.naming.Name;",
            "import javax.naming.spi.ObjectFactory;",
            "import javax.sql.DataSource;",
            "public class PoolFactory implements ObjectFactory {",
            "  private static final Object LOCK = new Object();",
            "  @Override",
            "  public Object getObjectInstance(Object o, Name n, Context c, Hashtable<?, ?> env) throws Exception {",
            "    // runs when a name is looked up, not per request (issue 12): not flagged",
            "    synchronized (LOCK) {",
            "      try (Connection probe = DriverManager.getConnection(\"jdbc:h2:mem:\")) {",
            "        return probe.getMetaData().getURL();",
            "      }",
            "    }",
            "  }",
            "  public DataSource createDataSource(DataSource template) throws SQLException {",
            "    // BUG: Diagnostic contains: threads that need it while it is being created wait",
            "    synchronized (LOCK) {",
            "      try (Connection probe = template.getConnection()) {",
            "        probe.isValid(1);",
            "      }",
            "      return template;",
            "    }",
            "  }",
            "  public String title(DataSource pool) throws SQLException {",
            "    // BUG: Diagnostic contains: every request queues on that one monitor",
            "    synchronized (LOCK) {",
            "      try (Connection c = pool.getConnection()) {",
            "        return c.getCatalog();",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---------------------------------------------------------------------------------------------
  // Pools: every call a pool makes on its object factory or connection factory, by role
  // (pools.txt), whatever the package of the factory type
  // ---------------------------------------------------------------------------------------------

  private static final String[] POOL1_FACTORY =
      lines(
          """
          package org.apache.commons.pool;
          public interface PoolableObjectFactory {
            Object makeObject() throws Exception;
            void destroyObject(Object obj) throws Exception;
            boolean validateObject(Object obj);
            void activateObject(Object obj) throws Exception;
            void passivateObject(Object obj) throws Exception;
          }
          """);

  private static final String[] POOL3_FACTORY =
      lines(
          """
          package org.apache.commons.pool3;
          public interface PooledObjectFactory<T, E extends Exception> {
            T makeObject() throws E;
            void destroyObject(T p) throws E;
            boolean validateObject(T p);
            void activateObject(T p) throws E;
            void passivateObject(T p) throws E;
          }
          """);

  @Test
  void commonsPool13RunsEveryFactoryLifecycleCallUnderThePoolMonitor() {
    compilation
        .addSourceLines("PoolableObjectFactory.java", POOL1_FACTORY)
        .addSourceLines(
            "GenericObjectPool.java",
            lines(
                """
                import java.util.Iterator;
                import java.util.LinkedList;
                import java.util.NoSuchElementException;
                import org.apache.commons.pool.PoolableObjectFactory;
                public class GenericObjectPool {
                  private final PoolableObjectFactory _factory;
                  private final LinkedList<Object> _pool = new LinkedList<>();
                  private final boolean _testOnBorrow;
                  private final boolean _testOnReturn;
                  private int _numActive;
                  public GenericObjectPool(PoolableObjectFactory factory, boolean testOnBorrow, boolean testOnReturn) {
                    _factory = factory;
                    _testOnBorrow = testOnBorrow;
                    _testOnReturn = testOnReturn;
                  }
                  // BUG: Diagnostic contains: borrowObject() holds the monitor of the GenericObjectPool instance while it calls PoolableObjectFactory.makeObject() (for a connection pool: opens a connection)
                  public synchronized Object borrowObject() throws Exception {
                    Object obj = _pool.isEmpty() ? _factory.makeObject() : _pool.removeFirst();
                    _factory.activateObject(obj);
                    if (_testOnBorrow && !_factory.validateObject(obj)) {
                      throw new NoSuchElementException("Could not validate object");
                    }
                    _numActive++;
                    return obj;
                  }
                  // BUG: Diagnostic contains: invalidateObject() holds the monitor of the GenericObjectPool instance while it calls PoolableObjectFactory.destroyObject() (for a connection pool: closes the connection)
                  public synchronized void invalidateObject(Object obj) throws Exception {
                    try {
                      _factory.destroyObject(obj);
                    } finally {
                      _numActive--;
                      notifyAll();
                    }
                  }
                  // BUG: Diagnostic contains: returnObject() holds the monitor of the GenericObjectPool instance while it calls addObjectToPool(), which calls PoolableObjectFactory.validateObject() (for a connection pool: runs the validation query)
                  public synchronized void returnObject(Object obj) throws Exception {
                    addObjectToPool(obj, true);
                  }
                  private void addObjectToPool(Object obj, boolean decrementNumActive) throws Exception {
                    boolean success = true;
                    if (_testOnReturn && !_factory.validateObject(obj)) {
                      success = false;
                    } else {
                      _factory.passivateObject(obj);
                    }
                    if (decrementNumActive) {
                      _numActive--;
                    }
                    if (success) {
                      _pool.addFirst(obj);
                    } else {
                      _factory.destroyObject(obj);
                    }
                    notifyAll();
                  }
                  // BUG: Diagnostic contains: evict() holds the monitor of the GenericObjectPool instance while it calls PoolableObjectFactory.validateObject() (for a connection pool: runs the validation query)
                  public synchronized void evict() throws Exception {
                    for (Iterator<Object> it = _pool.iterator(); it.hasNext(); ) {
                      Object idle = it.next();
                      if (!_factory.validateObject(idle)) {
                        it.remove();
                        _factory.destroyObject(idle);
                      }
                    }
                  }
                  public synchronized int getNumActive() {
                    return _numActive;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void pool3FactoryKnownByItsRoleNotItsPackage() {
    compilation
        .addSourceLines("PooledObjectFactory.java", POOL3_FACTORY)
        .addSourceLines(
            "SoftReferencePool.java",
            lines(
                """
                import java.util.ArrayDeque;
                import org.apache.commons.pool3.PooledObjectFactory;
                public class SoftReferencePool<T> {
                  private final PooledObjectFactory<T, RuntimeException> factory;
                  private final ArrayDeque<T> idle = new ArrayDeque<>();
                  public SoftReferencePool(PooledObjectFactory<T, RuntimeException> factory) {
                    this.factory = factory;
                  }
                  // BUG: Diagnostic contains: while it calls PooledObjectFactory.makeObject() (for a connection pool: opens a connection)
                  public synchronized T borrowObject() {
                    T obj = idle.poll();
                    if (obj == null) {
                      obj = factory.makeObject();
                    }
                    factory.activateObject(obj);
                    return obj;
                  }
                  // BUG: Diagnostic contains: while it calls PooledObjectFactory.destroyObject() (for a connection pool: closes the connection)
                  public synchronized void invalidateObject(T obj) {
                    factory.destroyObject(obj);
                  }
                  public synchronized void returnObject(T obj) {
                    idle.push(obj);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aPoolThatCallsItsFactoryOutsideItsLockIsNotFlagged() {
    compilation
        .addSourceLines("PooledObjectFactory.java", POOL3_FACTORY)
        .addSourceLines(
            "LeanPool.java",
            lines(
                """
                import java.util.ArrayDeque;
                import org.apache.commons.pool3.PooledObjectFactory;
                public class LeanPool<T> {
                  private final PooledObjectFactory<T, RuntimeException> factory;
                  private final ArrayDeque<T> idle = new ArrayDeque<>();
                  public LeanPool(PooledObjectFactory<T, RuntimeException> factory) {
                    this.factory = factory;
                  }
                  public T borrowObject() {
                    T obj;
                    synchronized (idle) {
                      obj = idle.poll();
                    }
                    if (obj == null) {
                      obj = factory.makeObject();
                    }
                    factory.activateObject(obj);
                    return obj;
                  }
                  public void invalidateObject(T obj) {
                    factory.destroyObject(obj);
                  }
                  public void returnObject(T obj) {
                    factory.passivateObject(obj);
                    synchronized (idle) {
                      idle.push(obj);
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void connectionFactoryOfDbcp2UnderTheDataSourceMonitor() {
    compilation
        .addSourceLines(
            "ConnectionFactory.java",
            "package org.apache.commons.dbcp2;",
            "public interface ConnectionFactory {",
            "  java.sql.Connection createConnection() throws java.sql.SQLException;",
            "}")
        .addSourceLines(
            "UnpooledDataSource.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import org.apache.commons.dbcp2.ConnectionFactory;
                public class UnpooledDataSource {
                  private final ConnectionFactory connectionFactory;
                  private int opened;
                  public UnpooledDataSource(ConnectionFactory connectionFactory) {
                    this.connectionFactory = connectionFactory;
                  }
                  // BUG: Diagnostic contains: getConnection() holds the monitor of the UnpooledDataSource instance while it calls ConnectionFactory.createConnection() (for a connection pool: opens a connection)
                  public synchronized Connection getConnection() throws SQLException {
                    opened++;
                    return connectionFactory.createConnection();
                  }
                  public synchronized int opened() {
                    return opened;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aPoolsCloseAndPropertySettersRunAtConfigurationNotPerRequest() {
    compilation
        .addSourceLines("PoolableObjectFactory.java", POOL1_FACTORY)
        .addSourceLines(
            "StackPool.java",
            lines(
                """
                import java.util.ArrayDeque;
                import org.apache.commons.pool.PoolableObjectFactory;
                public class StackPool {
                  private PoolableObjectFactory factory;
                  private final ArrayDeque<Object> idle = new ArrayDeque<>();
                  private int maxIdle = 8;
                  public synchronized void setFactory(PoolableObjectFactory factory) throws Exception {
                    for (Object obj : idle) {
                      this.factory.destroyObject(obj);
                    }
                    idle.clear();
                    this.factory = factory;
                  }
                  public synchronized void setMaxIdle(int maxIdle) throws Exception {
                    this.maxIdle = maxIdle;
                    while (idle.size() > maxIdle) {
                      factory.destroyObject(idle.pop());
                    }
                  }
                  public synchronized void close() throws Exception {
                    for (Object obj : idle) {
                      factory.destroyObject(obj);
                    }
                    idle.clear();
                  }
                  // BUG: Diagnostic contains: borrowObject() holds the monitor of the StackPool instance while it calls PoolableObjectFactory.makeObject()
                  public synchronized Object borrowObject() throws Exception {
                    return idle.isEmpty() ? factory.makeObject() : idle.pop();
                  }
                  // BUG: Diagnostic contains: close() holds the monitor of the StackPool instance while it calls PoolableObjectFactory.destroyObject()
                  public synchronized void close(Object borrowed) throws Exception {
                    factory.destroyObject(borrowed);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aGetThenPutThatNoCacheCheckReportsStillCountsAsIoUnderTheMonitor() {
    compilation
        .addSourceLines("PoolableObjectFactory.java", POOL1_FACTORY)
        .addSourceLines(
            "KeyedPool.java",
            lines(
                """
                import java.util.ArrayDeque;
                import java.util.Map;
                import org.apache.commons.pool.PoolableObjectFactory;
                public class KeyedPool<K> {
                  private final Map<K, ArrayDeque<Object>> poolMap;
                  private final PoolableObjectFactory factory;
                  private final int minIdle;
                  public KeyedPool(Map<K, ArrayDeque<Object>> poolMap, PoolableObjectFactory factory, int minIdle) {
                    this.poolMap = poolMap;
                    this.factory = factory;
                    this.minIdle = minIdle;
                  }
                  // BUG: Diagnostic contains: preparePool() holds the monitor of the KeyedPool instance while it calls PoolableObjectFactory.makeObject()
                  public synchronized void preparePool(K key, boolean populateImmediately) throws Exception {
                    ArrayDeque<Object> pool = poolMap.get(key);
                    if (pool == null) {
                      pool = new ArrayDeque<>();
                      poolMap.put(key, pool);
                    }
                    if (populateImmediately) {
                      while (pool.size() < minIdle) {
                        pool.push(factory.makeObject());
                      }
                    }
                  }
                  public synchronized int idle(K key) {
                    ArrayDeque<Object> pool = poolMap.get(key);
                    return pool == null ? 0 : pool.size();
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aLockTakenOnlyInACatchClauseIsAFailurePath() {
    compilation
        .addSourceLines("PoolableObjectFactory.java", POOL1_FACTORY)
        .addSourceLines(
            "WaitingPool.java",
            lines(
                """
                import java.util.ArrayDeque;
                import org.apache.commons.pool.PoolableObjectFactory;
                public class WaitingPool {
                  private final PoolableObjectFactory factory;
                  private final ArrayDeque<Object> idle = new ArrayDeque<>();
                  public WaitingPool(PoolableObjectFactory factory) { this.factory = factory; }
                  public Object borrowObject(long maxWait) throws Exception {
                    Object obj;
                    synchronized (this) {
                      obj = idle.poll();
                    }
                    try {
                      Thread.sleep(maxWait);
                    } catch (InterruptedException e) {
                      synchronized (this) {
                        if (obj != null) {
                          returnObject(obj);
                        }
                      }
                      throw e;
                    }
                    return obj == null ? factory.makeObject() : obj;
                  }
                  // BUG: Diagnostic contains: returnObject() holds the monitor of the WaitingPool instance while it calls PoolableObjectFactory.validateObject()
                  public synchronized void returnObject(Object obj) throws Exception {
                    if (factory.validateObject(obj)) {
                      idle.push(obj);
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aLockFieldOfAStatementProxyIsPerStatement() {
    compilation
        .addSourceLines(
            "ProxyStatement.java",
            lines(
                """
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                import java.util.HashSet;
                import java.util.Set;
                public abstract class ProxyStatement implements Statement {
                  private final Statement inner;
                  private final Set<ResultSet> myProxyResultSets = new HashSet<>();
                  protected ProxyStatement(Statement inner) { this.inner = inner; }
                  @Override public ResultSet executeQuery(String sql) throws SQLException {
                    synchronized (myProxyResultSets) {
                      ResultSet rs = inner.executeQuery(sql);
                      myProxyResultSets.add(rs);
                      return rs;
                    }
                  }
                  public void closeResultSets() throws SQLException {
                    synchronized (myProxyResultSets) {
                      for (ResultSet rs : myProxyResultSets) {
                        rs.close();
                      }
                      myProxyResultSets.clear();
                    }
                  }
                }
                """))
        .doTest();
  }

  /**
   * The factory's own lookup runs when JNDI resolves a name, not per request; so does a public
   * method that only the factory calls (issue 21: one-time lookups in factories). The same method
   * called from a method requests reach is reported.
   */
  @Test
  void aJndiObjectFactoryRunsOnLookupNotPerRequest() {
    compilation
        .addSourceLines(
            "PoolJndiFactory.java",
            lines(
                """
                import java.util.Hashtable;
                import javax.naming.Context;
                import javax.naming.InitialContext;
                import javax.naming.Name;
                import javax.naming.NamingException;
                import javax.naming.Reference;
                import javax.naming.spi.ObjectFactory;
                import javax.sql.DataSource;
                public class PoolJndiFactory implements ObjectFactory {
                  @Override
                  public synchronized Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment)
                      throws NamingException {
                    Reference ref = (Reference) obj;
                    String jndiName = (String) ref.get("dataSourceJNDI").getContent();
                    return lookup(jndiName);
                  }
                  public synchronized DataSource lookup(String jndiName) throws NamingException {
                    return (DataSource) new InitialContext().lookup(jndiName);
                  }
                }
                """))
        .addSourceLines(
            "LocatorJndiFactory.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.Hashtable;
                import javax.naming.Context;
                import javax.naming.InitialContext;
                import javax.naming.Name;
                import javax.naming.NamingException;
                import javax.naming.spi.ObjectFactory;
                import javax.sql.DataSource;
                public class LocatorJndiFactory implements ObjectFactory {
                  @Override
                  public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment)
                      throws NamingException {
                    return lookup(String.valueOf(obj));
                  }
                  public Connection connect(String jndiName) throws NamingException, SQLException {
                    return lookup(jndiName).getConnection();
                  }
                  // BUG: Diagnostic contains: lookup() holds the monitor of the LocatorJndiFactory instance while it calls InitialContext.lookup()
                  public synchronized DataSource lookup(String jndiName) throws NamingException {
                    return (DataSource) new InitialContext().lookup(jndiName);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void ioOncePerKeyOrOnceInAnElseAndPerConnectionHandlersAreNotPerRequest() {
    compilation
        .addSourceLines(
            "PoolManager.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.HashMap;
                import java.util.Map;
                import javax.naming.InitialContext;
                import javax.naming.NamingException;
                import javax.sql.ConnectionPoolDataSource;
                import javax.sql.DataSource;
                public class PoolManager {
                  private final ConnectionPoolDataSource cpds;
                  private final Map<String, Object> authsToPools = new HashMap<>();
                  private final Map<String, Integer> borrowed = new HashMap<>();
                  private DataSource cachedInner;
                  public PoolManager(ConnectionPoolDataSource cpds) { this.cpds = cpds; }
                  public synchronized Object getPool(String user) throws SQLException {
                    Object out = authsToPools.get(user);
                    if (out == null) {
                      cpds.getPooledConnection().close(); // tests the pool's first connection
                      out = new Object();
                      authsToPools.put(user, out);
                      borrowed.put(user, 0);
                    }
                    return out;
                  }
                  public synchronized DataSource inner() throws NamingException {
                    if (cachedInner != null) {
                      return cachedInner;
                    } else {
                      DataSource out = (DataSource) new InitialContext().lookup("java:comp/env/jdbc/shop");
                      cachedInner = out;
                      return out;
                    }
                  }
                  // BUG: Diagnostic contains: holds the monitor of the PoolManager instance while it calls ConnectionPoolDataSource.getPooledConnection()
                  public synchronized Object pooledConnection(String user) throws SQLException {
                    Object out = authsToPools.get(user);
                    if (out == null) {
                      out = cpds.getPooledConnection();
                    }
                    return out;
                  }
                }
                """))
        .addSourceLines(
            "PooledConnectionImpl.java",
            lines(
                """
                import java.lang.reflect.InvocationHandler;
                import java.lang.reflect.Method;
                import java.sql.Connection;
                public abstract class PooledConnectionImpl implements javax.sql.PooledConnection {
                  private final Connection physical;
                  protected PooledConnectionImpl(Connection physical) { this.physical = physical; }
                  final class ProxyConnectionInvocationHandler implements InvocationHandler {
                    @Override
                    public synchronized Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
                      if (method.getName().equals("close")) {
                        physical.rollback();
                        return null;
                      }
                      return method.invoke(physical, args);
                    }
                  }
                }
                """))
        .doTest();
  }

  private static final String SCHEMA_REGISTRY =
      """
      import java.sql.Connection;
      import java.sql.PreparedStatement;
      import java.sql.ResultSet;
      import java.sql.SQLException;
      import java.util.HashMap;
      import java.util.Map;
      import javax.sql.DataSource;
      public class SchemaRegistry {
        private final DataSource dataSource;
        private final Map<String, String> columns = new HashMap<>();
        public SchemaRegistry(DataSource dataSource) {
          this.dataSource = dataSource;
        }
        public void start() throws SQLException {
          loadColumns("orders");
        }
        %s
        %s
        private synchronized void loadColumns(String table) throws SQLException {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps = c.prepareStatement("select column_name from columns where table_name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                columns.put(rs.getString(1), table);
              }
            }
          }
        }
        public synchronized String tableOf(String column) {
          return columns.get(column);
        }
      }
      """;

  @Test
  void aSynchronizedHelperThatOnlyStartReachesIsSilent() {
    compilation
        .addSourceLines("SchemaRegistry.java", lines(SCHEMA_REGISTRY.formatted("", "")))
        .doTest();
  }

  @Test
  void theSameHelperAlsoCalledPerRequestIsReported() {
    compilation
        .addSourceLines(
            "SchemaRegistry.java",
            lines(
                SCHEMA_REGISTRY.formatted(
                    """
                    public String columnOf(String table, String column) throws SQLException {
                          loadColumns(table);
                          return tableOf(column);
                        }""",
                    "// BUG: Diagnostic contains: loadColumns() holds the monitor")))
        .doTest();
  }
}
