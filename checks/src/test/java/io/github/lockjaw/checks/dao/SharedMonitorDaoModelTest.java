package io.github.lockjaw.checks.dao;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * SharedMonitorDao as a query over the model (issue 21): blocking work reached through code in
 * other files (a superclass, the implementations behind an interface), and the false alarms the
 * model removes: I/O that runs once (its field set in a helper, or tested outside the lock),
 * one-time lookups in singletons, the monitor of one connection, and locks only background, admin
 * or start-up code takes.
 */
class SharedMonitorDaoModelTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SharedMonitorDao.class, getClass());

  private static String[] lines(String text) {
    return text.split("\n", -1);
  }

  /** A base DAO in another file, whose helper borrows a connection and runs a statement. */
  static final String BASE_DAO =
      """
      package shop.dao;
      import java.sql.Connection;
      import java.sql.PreparedStatement;
      import java.sql.SQLException;
      import javax.sql.DataSource;
      public abstract class BaseDao {
        private final DataSource dataSource;
        protected BaseDao(DataSource dataSource) {
          this.dataSource = dataSource;
        }
        protected int update(String sql, Object... args) throws SQLException {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
              ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
          }
        }
      }
      """;

  @Test
  void jdbcReachedThroughASuperclassMethodInAnotherFile() {
    compilation
        .addSourceLines("shop/dao/BaseDao.java", lines(BASE_DAO))
        .addSourceLines(
            "shop/dao/StockDao.java",
            lines(
                """
                package shop.dao;
                import java.sql.SQLException;
                import java.util.HashMap;
                import java.util.Map;
                import javax.sql.DataSource;
                public class StockDao extends BaseDao {
                  private final Map<String, Integer> reserved = new HashMap<>();
                  public StockDao(DataSource dataSource) {
                    super(dataSource);
                  }
                  // BUG: Diagnostic contains: reserve() holds the monitor of the StockDao instance while it calls BaseDao.update(), which calls DataSource.getConnection(): every request queues
                  public synchronized void reserve(String sku, int quantity) throws SQLException {
                    reserved.merge(sku, quantity, Integer::sum);
                    update("update stock set qty = qty - ? where sku = ?", quantity, sku);
                  }
                  public synchronized int reserved(String sku) {
                    return reserved.getOrDefault(sku, 0);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void ioBehindAnInterfaceOfTheProgram() {
    compilation
        .addSourceLines(
            "shop/audit/AuditSink.java",
            "package shop.audit;",
            "public interface AuditSink {",
            "  void write(String event) throws Exception;",
            "}")
        .addSourceLines(
            "shop/audit/JdbcAuditSink.java",
            lines(
                """
                package shop.audit;
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import javax.sql.DataSource;
                public class JdbcAuditSink implements AuditSink {
                  private final DataSource dataSource;
                  public JdbcAuditSink(DataSource dataSource) { this.dataSource = dataSource; }
                  @Override
                  public void write(String event) throws Exception {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("insert into audit values (?)")) {
                      ps.setString(1, event);
                      ps.executeUpdate();
                    }
                  }
                }
                """))
        .addSourceLines(
            "shop/audit/LoginService.java",
            lines(
                """
                package shop.audit;
                public class LoginService {
                  private final AuditSink audit;
                  private int logins;
                  public LoginService(AuditSink audit) { this.audit = audit; }
                  // BUG: Diagnostic contains: login() holds the monitor of the LoginService instance while it calls JdbcAuditSink.write(), which calls DataSource.getConnection()
                  public synchronized void login(String user) throws Exception {
                    logins++;
                    audit.write("login " + user);
                  }
                  public synchronized int logins() { return logins; }
                }
                """))
        .doTest();
  }

  @Test
  void lazilyRunOnceIoWhoseFieldIsSetInAHelperOrTestedOutsideTheLock() {
    compilation
        .addSourceLines(
            "TaxRates.java",
            lines(
                """
                import java.math.BigDecimal;
                import java.sql.Connection;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import java.sql.Statement;
                import java.util.HashMap;
                import java.util.Map;
                import javax.sql.DataSource;
                public class TaxRates {
                  private final DataSource dataSource;
                  private Map<String, BigDecimal> rates;
                  private volatile String currency;
                  public TaxRates(DataSource dataSource) { this.dataSource = dataSource; }
                  public synchronized BigDecimal rate(String region) throws SQLException {
                    if (rates == null) {
                      loadRates();
                    }
                    return rates.get(region);
                  }
                  private void loadRates() throws SQLException {
                    Map<String, BigDecimal> loaded = new HashMap<>();
                    try (Connection c = dataSource.getConnection();
                        Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("select region, rate from tax")) {
                      while (rs.next()) {
                        loaded.put(rs.getString(1), rs.getBigDecimal(2));
                      }
                    }
                    rates = loaded;
                  }
                  public String currency() throws SQLException {
                    if (currency == null) {
                      synchronized (this) {
                        try (Connection c = dataSource.getConnection();
                            Statement st = c.createStatement();
                            ResultSet rs = st.executeQuery("select code from currency")) {
                          rs.next();
                          currency = rs.getString(1);
                        }
                      }
                    }
                    return currency;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void oneTimeLookupsInSingletonsAndFactories() {
    compilation
        .addSourceLines(
            "ServiceLocator.java",
            lines(
                """
                import javax.naming.InitialContext;
                import javax.naming.NamingException;
                import javax.sql.DataSource;
                public final class ServiceLocator {
                  private static ServiceLocator instance;
                  private final DataSource orders;
                  private ServiceLocator() throws NamingException {
                    orders = (DataSource) new InitialContext().lookup("java:comp/env/jdbc/orders");
                  }
                  public static synchronized ServiceLocator getInstance() throws NamingException {
                    if (instance == null) {
                      instance = new ServiceLocator();
                    }
                    return instance;
                  }
                  public DataSource orders() {
                    return orders;
                  }
                }
                """))
        .addSourceLines(
            "MailSessions.java",
            lines(
                """
                import javax.naming.InitialContext;
                import javax.naming.NamingException;
                public final class MailSessions {
                  private static Object session;
                  public static Object session() throws NamingException {
                    synchronized (MailSessions.class) {
                      if (session != null) {
                        return session;
                      }
                      session = lookup();
                      return session;
                    }
                  }
                  private static Object lookup() throws NamingException {
                    return new InitialContext().lookup("java:comp/env/mail/Session");
                  }
                }
                """))
        .doTest();
  }

  @Test
  void theMonitorOfOneConnectionSerialisesThatConnectionByDesign() {
    compilation
        .addSourceLines(
            "ClientSession.java",
            lines(
                """
                import java.io.IOException;
                import java.nio.ByteBuffer;
                import java.nio.channels.SocketChannel;
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.sql.Statement;
                public class ClientSession {
                  private final SocketChannel channel;
                  private final Connection connection;
                  private long delivered;
                  public ClientSession(SocketChannel channel, Connection connection) {
                    this.channel = channel;
                    this.connection = connection;
                  }
                  public synchronized void deliver(ByteBuffer packet) throws IOException {
                    delivered++;
                    while (packet.hasRemaining()) {
                      channel.write(packet);
                    }
                  }
                  public synchronized void store(String sql) throws SQLException {
                    try (Statement st = connection.createStatement()) {
                      st.executeUpdate(sql);
                    }
                  }
                  public synchronized long delivered() {
                    return delivered;
                  }
                }
                """))
        .doTest();
  }

  /** Issue 21: a lock that belongs to an object made for one request queues no other request. */
  @Test
  void aLockOfAnObjectMadeForOneRequestIsSilentAndAnObjectKeptInAFieldIsNot() {
    compilation
        .addSourceLines(
            "OrderDraft.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;
                import java.util.ArrayList;
                import java.util.List;
                import javax.sql.DataSource;
                public class OrderDraft {
                  private final DataSource dataSource;
                  private final List<String> lines = new ArrayList<>();
                  public OrderDraft(DataSource dataSource) { this.dataSource = dataSource; }
                  public synchronized void line(String sku) { lines.add(sku); }
                  public synchronized void save() throws SQLException {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("insert into order_line values (?)")) {
                      for (String sku : lines) {
                        ps.setString(1, sku);
                        ps.addBatch();
                      }
                      ps.executeBatch();
                    }
                  }
                }
                """))
        .addSourceLines(
            "CartStore.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class CartStore {
                  private final DataSource dataSource;
                  public CartStore(DataSource dataSource) { this.dataSource = dataSource; }
                  // BUG: Diagnostic contains: save() holds the monitor of the CartStore instance while it calls DataSource.getConnection()
                  public synchronized void save(String cart) throws SQLException {
                    try (Connection c = dataSource.getConnection()) {
                      c.createStatement().executeUpdate("insert into cart values ('" + cart + "')");
                    }
                  }
                }
                """))
        .addSourceLines(
            "Checkout.java",
            lines(
                """
                import java.sql.SQLException;
                import java.util.List;
                import javax.sql.DataSource;
                public class Checkout {
                  private final DataSource dataSource;
                  private final CartStore carts;
                  public Checkout(DataSource dataSource) {
                    this.dataSource = dataSource;
                    this.carts = new CartStore(dataSource);
                  }
                  public void checkout(String cart, List<String> skus) throws SQLException {
                    OrderDraft draft = new OrderDraft(dataSource);
                    for (String sku : skus) {
                      draft.line(sku);
                    }
                    draft.save();
                    carts.save(cart);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void locksOnlyBackgroundAdminOrStartUpCodeTakesAreSilentUnlessRequestsShareThem() {
    compilation
        .addSourceLines(
            "SessionJanitor.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.TimerTask;
                import javax.sql.DataSource;
                public class SessionJanitor extends TimerTask {
                  private final DataSource dataSource;
                  public SessionJanitor(DataSource dataSource) { this.dataSource = dataSource; }
                  @Override public void run() {
                    purgeOlderThan(86_400_000L);
                  }
                  private synchronized void purgeOlderThan(long millis) {
                    try (Connection c = dataSource.getConnection()) {
                      c.createStatement().executeUpdate("delete from session where age > " + millis);
                    } catch (SQLException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                }
                """))
        .addSourceLines(
            "SessionStore.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.Timer;
                import java.util.TimerTask;
                import javax.sql.DataSource;
                public class SessionStore {
                  private final DataSource dataSource;
                  private final Timer timer = new Timer(true);
                  public SessionStore(DataSource dataSource) { this.dataSource = dataSource; }
                  public void start() {
                    loadPlugins();
                    timer.schedule(new TimerTask() {
                      @Override public void run() {
                        purge();
                      }
                    }, 60_000L, 60_000L);
                  }
                  // BUG: Diagnostic contains: purge() holds the monitor of the SessionStore instance while it calls DataSource.getConnection(): a background task runs it, and every request that needs the same monitor waits
                  private synchronized void purge() {
                    try (Connection c = dataSource.getConnection()) {
                      c.createStatement().executeUpdate("delete from session where expired");
                    } catch (SQLException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  private synchronized void loadPlugins() {
                    try (Connection c = dataSource.getConnection()) {
                      c.createStatement().executeQuery("select name from plugin");
                    } catch (SQLException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  // BUG: Diagnostic contains: touch() holds the monitor of the SessionStore instance while it calls DataSource.getConnection()
                  public synchronized void touch(String id) throws SQLException {
                    try (Connection c = dataSource.getConnection()) {
                      c.createStatement().executeUpdate("update session set seen = now() where id = '" + id + "'");
                    }
                  }
                }
                """))
        .addSourceLines(
            "CacheAdminMBean.java",
            "public interface CacheAdminMBean {",
            "  void purgeOrphans(int days) throws Exception;",
            "}")
        .addSourceLines(
            "CacheAdmin.java",
            lines(
                """
                import java.sql.Connection;
                import javax.sql.DataSource;
                public class CacheAdmin implements CacheAdminMBean {
                  private final DataSource dataSource;
                  public CacheAdmin(DataSource dataSource) { this.dataSource = dataSource; }
                  @Override
                  public synchronized void purgeOrphans(int days) throws Exception {
                    try (Connection c = dataSource.getConnection()) {
                      c.createStatement().executeUpdate("delete from cache where age > " + days);
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aFieldOfTheSameNameSetOnAnotherObjectDoesNotMakeTheIoRunOnce() {
    compilation
        .addSourceLines(
            "shop/report/ConnectionSource.java",
            lines(
                """
                package shop.report;
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class ConnectionSource {
                  private final DataSource dataSource;
                  private boolean closed;
                  public ConnectionSource(DataSource dataSource) {
                    this.dataSource = dataSource;
                  }
                  public Connection borrow() throws SQLException {
                    try {
                      return dataSource.getConnection();
                    } catch (SQLException e) {
                      closed = true;
                      throw e;
                    }
                  }
                  public boolean isClosed() {
                    return closed;
                  }
                }
                """))
        .addSourceLines(
            "shop/report/ReportStore.java",
            lines(
                """
                package shop.report;
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                public class ReportStore {
                  private final ConnectionSource connections;
                  private boolean closed;
                  public ReportStore(ConnectionSource connections) {
                    this.connections = connections;
                  }
                  // BUG: Diagnostic contains: load() holds the monitor of the ReportStore instance
                  public synchronized String load(String id) throws SQLException {
                    if (closed) {
                      throw new IllegalStateException("report store closed");
                    }
                    // 'closed' of the ConnectionSource, not of this store: load() runs on every call
                    try (Connection c = connections.borrow();
                        PreparedStatement ps = c.prepareStatement("select body from report where id = ?")) {
                      ps.setString(1, id);
                      try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                      }
                    }
                  }
                  public synchronized void close() {
                    closed = true;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aPackagePrivateAddMethodNothingCallsIsNotAPerCallOperation() {
    // Tomcat 7's WebappClassLoaderBase.addJar: only the loader in its package calls it, at
    // start-up;
    // compiled alone against its jar its caller is unseen, and a request path through it a guess.
    // A public add... method nothing calls is a pool's or a DAO's operation of every call.
    compilation
        .addSourceLines(
            "loader/JarRegistry.java",
            lines(
                """
                package loader;
                import javax.naming.NamingException;
                import javax.naming.directory.Attributes;
                import javax.naming.directory.DirContext;
                public class JarRegistry {
                  private final DirContext resources;
                  private String[] paths = new String[0];
                  public JarRegistry(DirContext resources) {
                    this.resources = resources;
                  }
                  synchronized void addJar(String jar) throws NamingException {
                    Attributes attributes = resources.getAttributes(jar);
                    paths = append(paths, jar + attributes.size());
                  }
                  // BUG: Diagnostic contains: addLibrary() holds the monitor of the JarRegistry instance
                  public synchronized void addLibrary(String jar) throws NamingException {
                    Attributes attributes = resources.getAttributes(jar);
                    paths = append(paths, jar + attributes.size());
                  }
                  public synchronized String[] paths() {
                    return paths.clone();
                  }
                  private static String[] append(String[] all, String one) {
                    String[] longer = java.util.Arrays.copyOf(all, all.length + 1);
                    longer[all.length] = one;
                    return longer;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aLibraryInAJdkLookingPackageIsAnalysedAsCode() {
    // com.sun.jersey, com.sun.faces, javax.mail: analysed, such classes are the program's code,
    // not the JDK's, and calls between them are followed
    compilation
        .addSourceLines(
            "com/sun/shop/OrderQueries.java",
            lines(
                """
                package com.sun.shop;
                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class OrderQueries {
                  private final DataSource dataSource;
                  public OrderQueries(DataSource dataSource) {
                    this.dataSource = dataSource;
                  }
                  String title(long id) throws SQLException {
                    try (Connection c = dataSource.getConnection();
                        PreparedStatement ps = c.prepareStatement("select title from orders where id = ?")) {
                      ps.setLong(1, id);
                      try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                      }
                    }
                  }
                }
                """))
        .addSourceLines(
            "com/sun/shop/OrderService.java",
            lines(
                """
                package com.sun.shop;
                import java.sql.SQLException;
                public class OrderService {
                  private final OrderQueries queries;
                  public OrderService(OrderQueries queries) {
                    this.queries = queries;
                  }
                  // BUG: Diagnostic contains: while it calls OrderQueries.title()
                  public synchronized String title(long id) throws SQLException {
                    return queries.title(id);
                  }
                }
                """))
        .doTest();
  }

  /**
   * A security service template calls the abstract {@code getGroups()} on {@code this}: on the
   * in-memory service that runs its own override, never the directory-backed sibling's LDAP bind.
   */
  @Test
  void inheritedCodeCallsTheOverrideOfTheLockedObjectsClassNotASiblings() {
    compilation
        .addSourceLines(
            "auth/BaseSecurityService.java",
            lines(
                """
                package auth;
                import java.util.List;
                public abstract class BaseSecurityService {
                  protected abstract List<String> getGroups(String filter);
                  public List<String> getAllGroups() {
                    return getGroups("*");
                  }
                }
                """))
        .addSourceLines(
            "auth/MemorySecurityService.java",
            lines(
                """
                package auth;
                import java.util.ArrayList;
                import java.util.List;
                public class MemorySecurityService extends BaseSecurityService {
                  private final List<String> groups = new ArrayList<>();
                  @Override
                  protected synchronized List<String> getGroups(String filter) {
                    return new ArrayList<>(groups);
                  }
                  public synchronized void addGroup(String group) {
                    if (!getAllGroups().contains(group)) {
                      groups.add(group);
                    }
                  }
                }
                """))
        .addSourceLines(
            "auth/DirectorySecurityService.java",
            lines(
                """
                package auth;
                import java.util.ArrayList;
                import java.util.Hashtable;
                import java.util.List;
                import javax.naming.NamingException;
                import javax.naming.directory.InitialDirContext;
                public class DirectorySecurityService extends BaseSecurityService {
                  private final Hashtable<String, String> environment = new Hashtable<>();
                  private final List<String> added = new ArrayList<>();
                  @Override
                  protected List<String> getGroups(String filter) {
                    try {
                      new InitialDirContext(environment).close();
                      return new ArrayList<>();
                    } catch (NamingException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  // BUG: Diagnostic contains: BaseSecurityService.getAllGroups(), which calls getGroups(), which calls new InitialDirContext(...)
                  public synchronized void addGroup(String group) {
                    if (!getAllGroups().contains(group)) {
                      added.add(group);
                    }
                  }
                  public synchronized List<String> added() {
                    return new ArrayList<>(added);
                  }
                }
                """))
        .doTest();
  }

  /**
   * A path cache whose put may evict an entry and call the generic cache's eviction listener: one
   * listener class of the program saves a session to the database, six calls away. The cache of
   * paths never holds a session; a chain that long through a guessed override is no evidence.
   */
  @Test
  void aChainLongerThanTheModelFollowsIsNoEvidence() {
    compilation
        .addSourceLines(
            "vfs/CacheListener.java",
            lines(
                """
                package vfs;
                public interface CacheListener {
                  void removeEvent();
                }
                """))
        .addSourceLines(
            "vfs/LruCache.java",
            lines(
                """
                package vfs;
                import java.util.LinkedHashMap;
                import java.util.Map;
                public class LruCache<K, V> {
                  private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);
                  private final int capacity;
                  public LruCache(int capacity) {
                    this.capacity = capacity;
                  }
                  public synchronized V get(K key) {
                    return entries.get(key);
                  }
                  public void put(K key, V value) {
                    V evicted = null;
                    synchronized (this) {
                      entries.put(key, value);
                      if (entries.size() > capacity) {
                        K eldest = entries.keySet().iterator().next();
                        evicted = entries.remove(eldest);
                      }
                    }
                    if (evicted instanceof CacheListener) {
                      removed(evicted);
                    }
                  }
                  private void removed(V value) {
                    ((CacheListener) value).removeEvent();
                  }
                }
                """))
        .addSourceLines(
            "vfs/SessionStore.java",
            lines(
                """
                package vfs;
                import java.sql.Connection;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public class SessionStore {
                  private final DataSource dataSource;
                  public SessionStore(DataSource dataSource) {
                    this.dataSource = dataSource;
                  }
                  void save(String id) {
                    try (Connection c = open()) {
                      c.prepareStatement("update sessions set saved = 1 where id = '" + id + "'").executeUpdate();
                    } catch (SQLException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  private Connection open() throws SQLException {
                    return dataSource.getConnection();
                  }
                }
                """))
        .addSourceLines(
            "vfs/Session.java",
            lines(
                """
                package vfs;
                public class Session implements CacheListener {
                  private final String id;
                  private final SessionStore store;
                  public Session(String id, SessionStore store) {
                    this.id = id;
                    this.store = store;
                  }
                  @Override
                  public void removeEvent() {
                    persist();
                  }
                  private void persist() {
                    store.save(id);
                  }
                }
                """))
        .addSourceLines(
            "vfs/PathLookup.java",
            lines(
                """
                package vfs;
                import java.io.File;
                public class PathLookup {
                  private static final LruCache<String, File> PATHS = new LruCache<>(1024);
                  private static final Object LOCK = new Object();
                  public static File lookup(String name) {
                    synchronized (LOCK) {
                      File path = PATHS.get(name);
                      if (path == null) {
                        path = new File(name).getAbsoluteFile();
                        PATHS.put(name, path);
                      }
                      return path;
                    }
                  }
                }
                """))
        .doTest();
  }
}
