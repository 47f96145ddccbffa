package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SharedMonitorDao in bytecode on a lazy pool creation that holds the data source's monitor for its
 * whole body and that {@code getConnection()} calls on every call (commons-dbcp 1.x {@code
 * BasicDataSource}), and the twins of LockedLazyCreationTest (the source side): double-checked,
 * reached from {@code init()} only, checked by the caller first, without I/O.
 */
class LazyCreationOnRequestPathTest {
  @TempDir static Path dir;
  private static List<AuditFinding> findings;

  @BeforeAll
  static void compileAndAudit() throws Exception {
    Path classes = dir.resolve("classes");
    BytecodeFixtures.compile(
        Map.of(
            "shop.pool.LegacyDataSource",
            """
            package shop.pool;
            import java.sql.Connection;
            import java.sql.DriverManager;
            import java.sql.SQLException;
            import javax.sql.DataSource;
            public abstract class LegacyDataSource implements DataSource {
              protected volatile DataSource dataSource;
              private boolean closed;
              private String url;
              public Connection getConnection() throws SQLException {
                return createDataSource().getConnection();
              }
              protected synchronized DataSource createDataSource() throws SQLException {
                if (closed) {
                  throw new SQLException("Data source is closed");
                }
                if (dataSource != null) {
                  return dataSource;
                }
                validate();
                createDataSourceInstance();
                return dataSource;
              }
              private void validate() throws SQLException {
                DriverManager.getConnection(url).close();
              }
              protected abstract DataSource newPool(String url);
              protected void createDataSourceInstance() {
                dataSource = newPool(url);
              }
            }
            """,
            "shop.pool.BlockDataSource",
            """
            package shop.pool;
            import java.sql.Connection;
            import java.sql.DriverManager;
            import java.sql.SQLException;
            import javax.sql.DataSource;
            public abstract class BlockDataSource implements DataSource {
              private DataSource pool;
              private String url;
              public Connection getConnection() throws SQLException {
                return pool().getConnection();
              }
              private DataSource pool() throws SQLException {
                synchronized (this) {
                  if (pool == null) {
                    DriverManager.getConnection(url).close();
                    pool = newPool(url);
                  }
                  return pool;
                }
              }
              protected abstract DataSource newPool(String url);
            }
            """,
            "shop.pool.DoubleCheckedDataSource",
            """
            package shop.pool;
            import java.sql.Connection;
            import java.sql.DriverManager;
            import java.sql.SQLException;
            import javax.sql.DataSource;
            public abstract class DoubleCheckedDataSource implements DataSource {
              private volatile DataSource dataSource;
              private String url;
              public Connection getConnection() throws SQLException {
                return createDataSource().getConnection();
              }
              protected DataSource createDataSource() throws SQLException {
                if (dataSource != null) {
                  return dataSource;
                }
                synchronized (this) {
                  if (dataSource != null) {
                    return dataSource;
                  }
                  DriverManager.getConnection(url).close();
                  dataSource = newPool(url);
                  return dataSource;
                }
              }
              protected abstract DataSource newPool(String url);
            }
            """,
            "shop.pool.EagerDataSource",
            """
            package shop.pool;
            import java.sql.Connection;
            import java.sql.DriverManager;
            import java.sql.SQLException;
            import javax.sql.DataSource;
            public abstract class EagerDataSource implements DataSource {
              private volatile DataSource dataSource;
              private String url;
              public void init() throws SQLException {
                createDataSource();
              }
              public Connection getConnection() throws SQLException {
                return dataSource.getConnection();
              }
              public Connection getConnection(String user, String password) throws SQLException {
                DataSource ready = dataSource;
                if (ready != null) {
                  return ready.getConnection(user, password);
                }
                return createDataSource().getConnection(user, password);
              }
              protected synchronized DataSource createDataSource() throws SQLException {
                if (dataSource != null) {
                  return dataSource;
                }
                DriverManager.getConnection(url).close();
                dataSource = newPool(url);
                return dataSource;
              }
              protected abstract DataSource newPool(String url);
            }
            """,
            "shop.pool.ConfiguredDataSource",
            """
            package shop.pool;
            import java.sql.Connection;
            import java.sql.SQLException;
            import java.util.Properties;
            import javax.sql.DataSource;
            public abstract class ConfiguredDataSource implements DataSource {
              private DataSource dataSource;
              private Properties settings;
              public Connection getConnection() throws SQLException {
                return createDataSource().getConnection();
              }
              protected synchronized DataSource createDataSource() {
                if (dataSource != null) {
                  return dataSource;
                }
                dataSource = newPool(new Properties(settings));
                return dataSource;
              }
              protected abstract DataSource newPool(Properties settings);
            }
            """),
        classes);
    findings = new JarAuditor().audit(List.of(classes), List.of());
  }

  private static String summary(String className) {
    return findings.stream()
        .filter(f -> f.className().equals(className))
        .map(f -> f.check() + " " + f.methodName())
        .sorted()
        .collect(Collectors.joining(", "));
  }

  private static AuditFinding only(String className) {
    List<AuditFinding> in = findings.stream().filter(f -> f.className().equals(className)).toList();
    assertEquals(1, in.size(), in.toString());
    return in.get(0);
  }

  @Test
  void everyGetConnectionTakesTheMonitorOfTheSynchronizedCreation() {
    assertEquals("SharedMonitorDao createDataSource", summary("shop.pool.LegacyDataSource"));
    String message = only("shop.pool.LegacyDataSource").message();
    assertTrue(
        message.startsWith(
            "LegacyDataSource.createDataSource() holds the monitor of the LegacyDataSource"
                + " instance for its whole body, and getConnection() calls it on every call:"
                + " every getConnection() takes that monitor just to read 'dataSource'; the first"
                + " one creates the pool while it holds it (createDataSource(), which calls"
                + " validate(), which calls DriverManager.getConnection())"),
        message);
    assertTrue(
        message.contains("'dataSource' stays null, so every later request retries it"), message);
    assertTrue(message.contains("(it is volatile already, double-checked"), message);
  }

  @Test
  void aSynchronizedThisBlockAroundTheNullTestIsTheWholeBodyToo() {
    assertEquals("SharedMonitorDao pool", summary("shop.pool.BlockDataSource"));
    assertTrue(
        only("shop.pool.BlockDataSource")
            .message()
            .startsWith("The synchronized block in BlockDataSource.pool() holds"),
        only("shop.pool.BlockDataSource").message());
  }

  @Test
  void doubleCheckedInitOnlyCallerCheckedAndIoFreeCreationsAreSilent() {
    assertEquals("", summary("shop.pool.DoubleCheckedDataSource"));
    assertEquals("", summary("shop.pool.EagerDataSource"));
    assertEquals("", summary("shop.pool.ConfiguredDataSource"));
  }

  @org.junit.jupiter.api.AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(List.of(), io.github.lockjaw.common.Resilience.swallowed(), "a detector threw");
  }
}
