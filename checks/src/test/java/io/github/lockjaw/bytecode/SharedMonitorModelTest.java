package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * SharedMonitorDao in bytecode as the same query as the source check (issue 21): JDBC reached
 * through a superclass method in a library jar that is not audited, I/O behind the program's own
 * interface, and the false alarms the model removes (I/O that runs once with its field set in a
 * helper, one-time lookups in a singleton, the monitor of one connection, a scheduled purge).
 */
class SharedMonitorModelTest {
  @TempDir static Path dir;
  private static List<AuditFinding> findings;

  @BeforeAll
  static void compileAndAudit() throws Exception {
    Path library = dir.resolve("library");
    BytecodeFixtures.compile(
        Map.of(
            "org.shopkit.BaseDao",
            """
            package org.shopkit;
            import java.sql.*;
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
            """),
        library);
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "shop.dao.StockDao",
        """
        package shop.dao;
        import java.sql.SQLException;
        import java.util.*;
        import javax.sql.DataSource;
        public class StockDao extends org.shopkit.BaseDao {
          private final Map<String, Integer> reserved = new HashMap<>();
          public StockDao(DataSource dataSource) {
            super(dataSource);
          }
          public synchronized void reserve(String sku, int quantity) throws SQLException {
            reserved.merge(sku, quantity, Integer::sum);
            update("update stock set qty = qty - ? where sku = ?", quantity, sku);   // line 12
          }
          public synchronized int reserved(String sku) {
            return reserved.getOrDefault(sku, 0);
          }
        }
        """);
    sources.put(
        "shop.audit.AuditSink",
        """
        package shop.audit;
        public interface AuditSink {
          void write(String event) throws Exception;
        }
        """);
    sources.put(
        "shop.audit.JdbcAuditSink",
        """
        package shop.audit;
        import java.sql.*;
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
        """);
    sources.put(
        "shop.audit.LoginService",
        """
        package shop.audit;
        public class LoginService {
          private final AuditSink audit;
          private int logins;
          public LoginService(AuditSink audit) { this.audit = audit; }
          public synchronized void login(String user) throws Exception {
            logins++;
            audit.write("login " + user);                                     // line 8
          }
          public synchronized int logins() { return logins; }
        }
        """);
    sources.put(
        "shop.tax.TaxRates",
        """
        package shop.tax;
        import java.math.BigDecimal;
        import java.sql.*;
        import java.util.*;
        import javax.sql.DataSource;
        public class TaxRates {
          private final DataSource dataSource;
          private Map<String, BigDecimal> rates;
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
        }
        """);
    sources.put(
        "shop.tax.ServiceLocator",
        """
        package shop.tax;
        import javax.naming.*;
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
        """);
    sources.put(
        "shop.net.ClientSession",
        """
        package shop.net;
        import java.io.IOException;
        import java.nio.ByteBuffer;
        import java.nio.channels.SocketChannel;
        public class ClientSession {
          private final SocketChannel channel;
          private long delivered;
          public ClientSession(SocketChannel channel) { this.channel = channel; }
          public synchronized void deliver(ByteBuffer packet) throws IOException {
            delivered++;
            while (packet.hasRemaining()) {
              channel.write(packet);
            }
          }
          public synchronized long delivered() { return delivered; }
        }
        """);
    sources.put(
        "shop.net.SessionStore",
        """
        package shop.net;
        import java.sql.*;
        import java.util.*;
        import javax.sql.DataSource;
        public class SessionStore {
          private final DataSource dataSource;
          private final Timer timer = new Timer(true);
          public SessionStore(DataSource dataSource) { this.dataSource = dataSource; }
          public void start() {
            timer.schedule(new TimerTask() {
              @Override public void run() {
                purge();
              }
            }, 60_000L, 60_000L);
          }
          private synchronized void purge() {
            try (Connection c = dataSource.getConnection()) {
              c.createStatement().executeUpdate("delete from session where expired");
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          }
          public synchronized void touch(String id) throws SQLException {
            try (Connection c = dataSource.getConnection()) {                    // line 24
              c.createStatement().executeUpdate("update session set seen = 1 where id = '" + id + "'");
            }
          }
        }
        """);
    sources.put(
        "shop.cart.OrderDraft",
        """
        package shop.cart;
        import java.sql.*;
        import java.util.*;
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
        """);
    sources.put(
        "shop.cart.CartStore",
        """
        package shop.cart;
        import java.sql.*;
        import javax.sql.DataSource;
        public class CartStore {
          private final DataSource dataSource;
          public CartStore(DataSource dataSource) { this.dataSource = dataSource; }
          public synchronized void save(String cart) throws SQLException {
            try (Connection c = dataSource.getConnection()) {                    // line 8
              c.createStatement().executeUpdate("insert into cart values ('" + cart + "')");
            }
          }
        }
        """);
    sources.put(
        "shop.cart.Checkout",
        """
        package shop.cart;
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
        """);
    Path app = dir.resolve("app");
    BytecodeFixtures.compile(sources, app, List.of(library));
    // only the application is audited; the base DAO is a jar on its class path
    findings = new JarAuditor().audit(List.of(app), List.of(library));
  }

  private static String summary(String className) {
    return findings.stream()
        .filter(f -> f.className().equals(className) && f.check().equals("SharedMonitorDao"))
        .map(f -> f.methodName() + ":" + f.line())
        .sorted()
        .collect(Collectors.joining(", "));
  }

  private static AuditFinding only(String className) {
    List<AuditFinding> in =
        findings.stream()
            .filter(f -> f.className().equals(className) && f.check().equals("SharedMonitorDao"))
            .toList();
    assertEquals(1, in.size(), in.toString());
    return in.get(0);
  }

  @Test
  void jdbcThroughASuperclassMethodInALibraryJar() {
    assertEquals("reserve:12", summary("shop.dao.StockDao"));
    String message = only("shop.dao.StockDao").message();
    assertTrue(
        message.contains("while it calls BaseDao.update(), which calls DataSource.getConnection()"),
        message);
  }

  @Test
  void ioBehindAnInterfaceOfTheProgram() {
    assertEquals("login:8", summary("shop.audit.LoginService"));
    String message = only("shop.audit.LoginService").message();
    assertTrue(
        message.contains(
            "while it calls JdbcAuditSink.write(), which calls DataSource.getConnection()"),
        message);
  }

  @Test
  void ioThatRunsOnceOrOnTheObjectsOwnConnectionIsSilent() {
    assertEquals("", summary("shop.tax.TaxRates"));
    assertEquals("", summary("shop.tax.ServiceLocator"));
    assertEquals("", summary("shop.net.ClientSession"));
  }

  @Test
  void aScheduledPurgeIsReportedWhenRequestsTakeItsMonitorToo() {
    assertEquals("purge:17, touch:24", summary("shop.net.SessionStore"));
    String purge =
        findings.stream()
            .filter(f -> f.methodName().equals("purge"))
            .findFirst()
            .orElseThrow()
            .message();
    assertTrue(purge.contains("a background task runs it"), purge);
  }

  @Test
  void aLockOfAnObjectMadeForOneRequestIsSilentAndAnObjectKeptInAFieldIsNot() {
    assertEquals("", summary("shop.cart.OrderDraft"));
    assertEquals("save:8", summary("shop.cart.CartStore"));
  }

  @AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(List.of(), io.github.lockjaw.common.Resilience.swallowed(), "a detector threw");
  }
}
