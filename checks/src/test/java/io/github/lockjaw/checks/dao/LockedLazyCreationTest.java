package io.github.lockjaw.checks.dao;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * SharedMonitorDao on a lazy pool creation that holds the data source's monitor for its whole body
 * and that {@code getConnection()} calls on every call (commons-dbcp 1.x {@code BasicDataSource}),
 * and its negative twins: the double-checked form of commons-dbcp2, a creation reached from {@code
 * init()} only, a creation without I/O, a creation behind a method that hands out no connections.
 */
class LockedLazyCreationTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SharedMonitorDao.class, getClass());

  private static String[] lines(String text) {
    return text.split("\n", -1);
  }

  /** commons-pool 1.x's factory interface, as DBCP 1.x's validation calls it. */
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

  @Test
  void dbcp14CreatesThePoolUnderTheMonitorThatEveryGetConnectionTakes() {
    compilation
        .addSourceLines("PoolableObjectFactory.java", POOL1_FACTORY)
        .addSourceLines(
            "BasicDataSource.java",
            lines(
                """
                package org.apache.commons.dbcp;
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                import org.apache.commons.pool.PoolableObjectFactory;
                public abstract class BasicDataSource implements DataSource {
                  protected volatile DataSource dataSource;
                  private boolean closed;
                  private String url;
                  private int initialSize;
                  public synchronized void setUrl(String url) { this.url = url; }
                  public Connection getConnection() throws SQLException {
                    return createDataSource().getConnection();
                  }
                  // BUG: Diagnostic contains: createDataSource() holds the monitor of the BasicDataSource instance for its whole body, and getConnection() calls it on every call: every getConnection() takes that monitor just to read 'dataSource'; the first one creates the pool while it holds it (createDataSource(), which calls createPoolableConnectionFactory(), which calls validateConnectionFactory(), which calls PoolableObjectFactory.makeObject() (for a connection pool: opens a connection)) and every other request waits
                  protected synchronized DataSource createDataSource() throws SQLException {
                    if (closed) {
                      throw new SQLException("Data source is closed");
                    }
                    if (dataSource != null) {
                      return (dataSource);
                    }
                    PoolableObjectFactory factory = createPoolableConnectionFactory();
                    createDataSourceInstance(factory);
                    try {
                      for (int i = 0; i < initialSize; i++) {
                        DriverManager.getConnection(url).close();
                      }
                    } catch (SQLException e) {
                      throw new SQLException("Error preloading the connection pool", e);
                    }
                    return dataSource;
                  }
                  protected abstract PoolableObjectFactory newFactory(String url);
                  protected abstract DataSource newPoolingDataSource(PoolableObjectFactory factory);
                  protected PoolableObjectFactory createPoolableConnectionFactory() throws SQLException {
                    PoolableObjectFactory factory = newFactory(url);
                    try {
                      validateConnectionFactory(factory);
                    } catch (Exception e) {
                      throw new SQLException("Cannot create PoolableConnectionFactory", e);
                    }
                    return factory;
                  }
                  protected static void validateConnectionFactory(PoolableObjectFactory factory) throws Exception {
                    Object conn = factory.makeObject();
                    try {
                      factory.validateObject(conn);
                    } finally {
                      factory.destroyObject(conn);
                    }
                  }
                  protected void createDataSourceInstance(PoolableObjectFactory factory) {
                    dataSource = newPoolingDataSource(factory);
                  }
                  public synchronized void close() { closed = true; dataSource = null; }
                }
                """))
        .doTest();
  }

  @Test
  void dbcp122AssignsTheFieldInTheCreationAndTheMessageSaysFailuresAreRetriedUnderTheLock() {
    compilation
        .addSourceLines(
            "LegacyDataSource.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public abstract class LegacyDataSource implements DataSource {
                  private DataSource dataSource;
                  private String url;
                  @Override
                  public Connection getConnection() throws SQLException {
                    return createDataSource().getConnection();
                  }
                  @Override
                  public Connection getConnection(String user, String password) throws SQLException {
                    DataSource pool = createDataSource();
                    return pool.getConnection(user, password);
                  }
                  // BUG: Diagnostic contains: when the creation fails (the database is unreachable at start), 'dataSource' stays null, so every later request retries it, connect timeouts included, under the lock, and all requests queue behind it. Read 'dataSource' before taking the lock (a volatile field, double-checked
                  protected synchronized DataSource createDataSource() throws SQLException {
                    if (dataSource == null) {
                      DriverManager.getConnection(url).close(); // validates the settings
                      dataSource = newPool(url);
                    }
                    return dataSource;
                  }
                  protected abstract DataSource newPool(String url);
                }
                """))
        .addSourceLines(
            "BlockDataSource.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public abstract class BlockDataSource implements DataSource {
                  private DataSource pool;
                  private String url;
                  @Override
                  public Connection getConnection() throws SQLException {
                    return pool().getConnection();
                  }
                  private DataSource pool() throws SQLException {
                    // BUG: Diagnostic contains: every getConnection() takes that monitor just to read 'pool'
                    synchronized (this) {
                      if (pool != null) {
                        return pool;
                      }
                      DriverManager.getConnection(url).close();
                      pool = newPool(url);
                      return pool;
                    }
                  }
                  protected abstract DataSource newPool(String url);
                }
                """))
        .doTest();
  }

  @Test
  void dbcp2ReadsTheVolatileFieldBeforeItLocks() {
    compilation
        .addSourceLines(
            "BasicDataSource.java",
            lines(
                """
                package org.apache.commons.dbcp2;
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import javax.sql.DataSource;
                public abstract class BasicDataSource implements DataSource {
                  private volatile DataSource dataSource;
                  private boolean closed;
                  private String url;
                  @Override
                  public Connection getConnection() throws SQLException {
                    return createDataSource().getConnection();
                  }
                  protected DataSource createDataSource() throws SQLException {
                    if (closed) {
                      throw new SQLException("Data source is closed");
                    }
                    if (dataSource != null) {
                      return dataSource;
                    }
                    synchronized (this) {
                      if (dataSource != null) {
                        return dataSource;
                      }
                      DriverManager.getConnection(url).close();
                      DataSource newDataSource = newPool(url);
                      dataSource = newDataSource;
                      return dataSource;
                    }
                  }
                  protected abstract DataSource newPool(String url);
                }
                """))
        .doTest();
  }

  @Test
  void aCreationReachedFromInitOnlyOrBehindANullTestIsNotOnEveryRequest() {
    compilation
        .addSourceLines(
            "EagerDataSource.java",
            lines(
                """
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
                  @Override
                  public Connection getConnection() throws SQLException {
                    return dataSource.getConnection();
                  }
                  @Override
                  public Connection getConnection(String user, String password) throws SQLException {
                    DataSource ready = dataSource;
                    if (ready == null) {
                      ready = createDataSource();
                    }
                    return ready.getConnection(user, password);
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
                """))
        .doTest();
  }

  @Test
  void aCallerThatReturnsTheCreatedPoolFirstOrCallsTheCreationInALambdaTakesNoLockPerCall() {
    compilation
        .addSourceLines(
            "CheckedDataSource.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                import java.util.concurrent.Callable;
                import javax.sql.DataSource;
                public abstract class CheckedDataSource implements DataSource {
                  private volatile DataSource dataSource;
                  private String url;
                  @Override
                  public Connection getConnection() throws SQLException {
                    DataSource ready = dataSource;
                    if (ready != null) {
                      return ready.getConnection();
                    }
                    return createDataSource().getConnection();
                  }
                  @Override
                  public Connection getConnection(String user, String password) throws SQLException {
                    Callable<Connection> later = () -> createDataSource().getConnection(user, password);
                    try {
                      return later.call();
                    } catch (Exception e) {
                      throw new SQLException(e);
                    }
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
                """))
        .doTest();
  }

  @Test
  void aCreationWithoutIoOrBehindAMethodThatHandsOutNoConnectionIsNotFlagged() {
    compilation
        .addSourceLines(
            "ConfiguredDataSource.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.SQLException;
                import java.util.Properties;
                import javax.sql.DataSource;
                public abstract class ConfiguredDataSource implements DataSource {
                  private DataSource dataSource;
                  private Properties settings;
                  @Override
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
                """))
        .addSourceLines(
            "ReportDao.java",
            lines(
                """
                import java.sql.Connection;
                import java.sql.DriverManager;
                import java.sql.SQLException;
                public class ReportDao {
                  private Connection connection;
                  private final String url;
                  public ReportDao(String url) { this.url = url; }
                  public String catalog() throws SQLException {
                    return connection().getCatalog();
                  }
                  private synchronized Connection connection() throws SQLException {
                    if (connection == null) {
                      connection = DriverManager.getConnection(url);
                    }
                    return connection;
                  }
                }
                """))
        .doTest();
  }
}
