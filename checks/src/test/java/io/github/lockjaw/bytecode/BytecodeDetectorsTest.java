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
              String name = NAMES.get(type);                                     // line 7
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
        "shop.beans.BeanFactory",
        """
        package shop.beans;
        import java.util.*;
        import java.util.concurrent.ConcurrentHashMap;
        public class BeanFactory {
          static final class Definition {
            String scope = "singleton";
            Definition() {}
            Definition(Definition parent) { this.scope = parent.scope; }
            void overrideFrom(Definition other) { this.scope = other.scope; }
          }
          private final Map<String, Definition> merged = new ConcurrentHashMap<>();
          private final Map<String, Definition> raw = new ConcurrentHashMap<>();
          private final Object lock = new Object();
          public Definition mergedDefinition(String name, Definition parent) {
            synchronized (this.merged) {
              Definition mbd = merged.get(name);                                  // line 16
              if (mbd == null) {
                mbd = new Definition(parent);
                mbd.overrideFrom(raw.get(name));
                merged.put(name, mbd);
              }
              return mbd;
            }
          }
          public void registerDefinition(String name, Definition definition) {
            synchronized (this.merged) {
              Definition old = merged.get(name);
              if (old != null && old != definition) {
                throw new IllegalStateException("already registered: " + name);
              }
              merged.put(name, definition);
            }
          }
          public Definition cachedDefinition(String name) {
            Definition definition = merged.get(name);
            if (definition == null) {
              synchronized (this.merged) {
                definition = merged.get(name);
                if (definition == null) {
                  definition = new Definition();
                  merged.put(name, definition);
                }
              }
            }
            return definition;
          }
          public Definition rawDefinition(String name) {
            synchronized (lock) {
              Definition definition = raw.get(name);
              if (definition == null) {
                definition = new Definition();
                raw.put(name, definition);
              }
              return definition;
            }
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
        "org.apache.commons.pool3.PooledObjectFactory",
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
    sources.put(
        "shop.pool.ConnectionPool",
        """
        package shop.pool;
        import java.util.*;
        import org.apache.commons.pool3.PooledObjectFactory;
        public class ConnectionPool<T> {
          private final PooledObjectFactory<T, RuntimeException> factory;
          private final ArrayDeque<T> idle = new ArrayDeque<>();
          private Set<T> recentlyEvicted;
          private int maxIdle = 8;
          public ConnectionPool(PooledObjectFactory<T, RuntimeException> factory) {
            this.factory = factory;
          }
          public synchronized T borrowObject() {
            T obj = idle.isEmpty() ? factory.makeObject() : idle.pop();          // line 13
            factory.activateObject(obj);
            return obj;
          }
          public synchronized void returnObject(T obj) {
            if (!factory.validateObject(obj)) {                                 // line 18
              factory.destroyObject(obj);
              return;
            }
            idle.push(obj);
          }
          public synchronized void evict() {
            if (recentlyEvicted == null) {
              recentlyEvicted = new HashSet<>();
            }
            for (Iterator<T> it = idle.iterator(); it.hasNext(); ) {
              T obj = it.next();
              if (!recentlyEvicted.contains(obj) && !factory.validateObject(obj)) {  // line 30
                it.remove();
                factory.destroyObject(obj);
              }
            }
          }
          public synchronized void setMaxIdle(int maxIdle) {
            this.maxIdle = maxIdle;
            while (idle.size() > maxIdle) {
              factory.destroyObject(idle.pop());
            }
          }
          public synchronized void close() {
            while (!idle.isEmpty()) {
              factory.destroyObject(idle.pop());
            }
          }
          public T borrowPatiently(long millis) throws InterruptedException {
            T obj;
            synchronized (this) {
              obj = idle.poll();
            }
            try {
              Thread.sleep(millis);
            } catch (InterruptedException e) {
              synchronized (this) {
                if (obj != null) {
                  returnObject(obj);
                }
              }
              throw e;
            }
            return obj;
          }
        }
        """);
    sources.put(
        "shop.dao.ProxyStatement",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.*;
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
        }
        """);
    sources.put(
        "shop.dao.PoolJndiFactory",
        """
        package shop.dao;
        import java.util.Hashtable;
        import javax.naming.*;
        import javax.naming.spi.ObjectFactory;
        import javax.sql.DataSource;
        public class PoolJndiFactory implements ObjectFactory {
          @Override
          public synchronized Object getObjectInstance(Object obj, Name name, Context nameCtx,
              Hashtable<?, ?> environment) throws NamingException {
            return lookup((String) ((Reference) obj).get("dataSourceJNDI").getContent());
          }
          public synchronized DataSource lookup(String jndiName) throws NamingException {
            return (DataSource) new InitialContext().lookup(jndiName);                // line 13
          }
        }
        """);
    sources.put(
        "shop.dao.LocatorJndiFactory",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.Hashtable;
        import javax.naming.*;
        import javax.naming.spi.ObjectFactory;
        import javax.sql.DataSource;
        public class LocatorJndiFactory implements ObjectFactory {
          @Override
          public Object getObjectInstance(Object obj, Name name, Context nameCtx,
              Hashtable<?, ?> environment) throws NamingException {
            return lookup(String.valueOf(obj));
          }
          public synchronized DataSource lookup(String jndiName) throws NamingException {
            return (DataSource) new InitialContext().lookup(jndiName);                // line 14
          }
          public Connection connect(String jndiName) throws NamingException, SQLException {
            return lookup(jndiName).getConnection();
          }
        }
        """);
    sources.put(
        "shop.dao.PoolManager",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.*;
        import javax.naming.*;
        import javax.sql.*;
        public class PoolManager {
          private final ConnectionPoolDataSource cpds;
          private final Map<String, Object> authsToPools = new HashMap<>();
          private DataSource cachedInner;
          public PoolManager(ConnectionPoolDataSource cpds) { this.cpds = cpds; }
          public synchronized Object getPool(String user) throws SQLException {
            Object out = authsToPools.get(user);
            if (out == null) {
              cpds.getPooledConnection().close();
              out = new Object();
              authsToPools.put(user, out);
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
          public synchronized Object pooledConnection(String user) throws SQLException {
            Object out = authsToPools.get(user);
            if (out == null) {
              out = cpds.getPooledConnection();                                        // line 32
            }
            return out;
          }
        }
        """);
    sources.put(
        "shop.dao.PooledConnectionImpl",
        """
        package shop.dao;
        import java.lang.reflect.*;
        import java.sql.Connection;
        public abstract class PooledConnectionImpl implements javax.sql.PooledConnection {
          private final Connection physical;
          protected PooledConnectionImpl(Connection physical) { this.physical = physical; }
          final class ProxyConnectionInvocationHandler implements InvocationHandler {
            @Override
            public synchronized Object invoke(Object proxy, Method method, Object[] args)
                throws Throwable {
              if (method.getName().equals("close")) {
                physical.rollback();
                return null;
              }
              return method.invoke(physical, args);
            }
          }
        }
        """);
    sources.put(
        "shop.load.Cleanup",
        """
        package shop.load;
        public class Cleanup {
          public void harness(Thread t) {
            while (true) {
              if (t.isAlive()) {
                continue;
              }
              break;
            }
          }
          public void clearReferencesThreads(Thread t) throws InterruptedException {
            int count = 0;
            while (t.isAlive() && count < 100) {
              Thread.sleep(20);
              count++;
            }
          }
        }
        """);
    sources.put(
        "shop.load.StartWaits",
        """
        package shop.load;
        import java.util.concurrent.*;
        public class StartWaits {
          public void untilStarted(Thread worker) throws InterruptedException {
            while (!worker.isAlive()) {
              Thread.sleep(10);
            }
          }
          public void untilStartedDo(Thread worker) {
            do {
              Thread.onSpinWait();
            } while (!worker.isAlive());
          }
          public void untilStartedBreak(Thread worker) {
            while (true) {
              if (worker.isAlive()) {
                break;
              }
              Thread.yield();
            }
          }
          public void untilSubmitted(Future<?> task) throws InterruptedException {
            while (task.isDone()) {
              Thread.sleep(10);
            }
          }
          public void untilArmed(CountDownLatch latch) throws InterruptedException {
            while (latch.getCount() == 0) {
              Thread.sleep(10);
            }
          }
          public void untilEnded(Thread worker) throws InterruptedException {
            while (worker.isAlive()) {                                        // line 33
              Thread.sleep(10);
            }
          }
          public void untilEndedDo(Thread worker) {
            do {
              Thread.onSpinWait();
            } while (worker.isAlive());                                       // line 40
          }
          public void untilDone(Future<?> task) throws InterruptedException {
            while (!task.isDone()) {                                          // line 43
              Thread.sleep(10);
            }
          }
          public void untilOpen(CountDownLatch latch) throws InterruptedException {
            while (latch.getCount() != 0) {                                   // line 48
              Thread.sleep(10);
            }
          }
        }
        """);
    sources.put(
        "shop.load.ContainerLoader",
        """
        package shop.load;
        import java.util.*;
        import java.util.concurrent.*;
        public class ContainerLoader {
          private final List<Thread> started = new CopyOnWriteArrayList<>();
          private volatile boolean running;
          public void stop() throws InterruptedException {
            running = false;
            clearReferences();
          }
          protected void clearReferences() throws InterruptedException {
            clearReferencesThreads();
          }
          private void clearReferencesThreads() throws InterruptedException {
            for (Thread thread : started) {
              int count = 0;
              while (thread.isAlive() && count < 100) {
                Thread.sleep(20);
                count++;
              }
            }
          }
          public Class<?> load(String name) throws ClassNotFoundException {
            if (!running) {
              throw new IllegalStateException("stopped");
            }
            return Class.forName(name);
          }
        }
        """);
    sources.put(
        "shop.load.ContainerPool",
        """
        package shop.load;
        public class ContainerPool {
          private final Thread acceptor = new Thread(() -> {}, "acceptor");
          private Thread worker = new Thread(() -> {});
          public void stop() throws InterruptedException {
            awaitWorker(worker);
            awaitAcceptor();
            Runnable later = () -> awaitQuietly(worker);
            later.run();
          }
          public String handle(String request) throws InterruptedException {
            worker = new Thread(() -> System.out.println(request));
            worker.start();
            awaitWorker(worker);
            return "done";
          }
          public void pause() throws InterruptedException {
            awaitAcceptor();
          }
          private void awaitWorker(Thread thread) throws InterruptedException {
            int count = 0;
            while (thread.isAlive() && count < 100) {                           // line 22
              Thread.sleep(20);
              count++;
            }
          }
          protected void awaitAcceptor() throws InterruptedException {
            while (acceptor.isAlive()) {                                        // line 28
              Thread.sleep(10);
            }
          }
          private static void awaitQuietly(Thread thread) {
            while (thread.isAlive()) {                                          // line 33
              Thread.onSpinWait();
            }
          }
        }
        """);
    sources.put(
        "shop.dao.SchemaRegistry",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.*;
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
          private synchronized void loadColumns(String table) throws SQLException {
            try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select name from columns where t = ?")) {
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
        """);
    sources.put(
        "shop.dao.SchemaLookup",
        """
        package shop.dao;
        import java.sql.*;
        import java.util.*;
        import javax.sql.DataSource;
        public class SchemaLookup {
          private final DataSource dataSource;
          private final Map<String, String> columns = new HashMap<>();
          public SchemaLookup(DataSource dataSource) {
            this.dataSource = dataSource;
          }
          public void start() throws SQLException {
            loadColumns("orders");
          }
          public String columnOf(String table, String column) throws SQLException {
            loadColumns(table);
            return tableOf(column);
          }
          private synchronized void loadColumns(String table) throws SQLException {
            try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select name from columns where t = ?")) {
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
        """);
    sources.put(
        "shop.res.JarIndex",
        """
        package shop.res;
        import java.util.*;
        import java.util.jar.*;
        public class JarIndex {
          private final JarFile[] jarFiles;
          private final Set<String> known = new HashSet<>();
          public JarIndex(JarFile[] jarFiles) {
            this.jarFiles = jarFiles;
          }
          public void start() {
            probeAll(new String[] {"META-INF/MANIFEST.MF"});
          }
          protected void probeAll(String[] names) {
            for (String name : names) {
              synchronized (jarFiles) {
                for (JarFile jar : jarFiles) {
                  if (jar.getJarEntry(name) != null) {
                    known.add(name);
                  }
                }
              }
            }
          }
        }
        """);
    sources.put(
        "shop.res.JarLookup",
        """
        package shop.res;
        import java.util.*;
        import java.util.jar.*;
        public class JarLookup {
          private final JarFile[] jarFiles;
          private final Set<String> known = new HashSet<>();
          public JarLookup(JarFile[] jarFiles) {
            this.jarFiles = jarFiles;
          }
          public void start() {
            probeAll(new String[] {"META-INF/MANIFEST.MF"});
          }
          public boolean contains(String name) {
            probeAll(new String[] {name});
            return known.contains(name);
          }
          protected void probeAll(String[] names) {
            for (String name : names) {
              synchronized (jarFiles) {
                for (JarFile jar : jarFiles) {
                  if (jar.getJarEntry(name) != null) {
                    known.add(name);
                  }
                }
              }
            }
          }
        }
        """);
    sources.put(
        "shop.ctx.RefreshableContext",
        """
        package shop.ctx;
        public abstract class RefreshableContext {
          static class BeanFactory {}
          private BeanFactory beanFactory;
          private final Object beanFactoryMonitor = new Object();
          protected final void refreshBeanFactory() {
            if (getBeanFactory() != null) {
              closeBeanFactory();
            }
            BeanFactory created = new BeanFactory();
            synchronized (this.beanFactoryMonitor) {
              this.beanFactory = created;
            }
          }
          protected final void closeBeanFactory() {
            synchronized (this.beanFactoryMonitor) {
              this.beanFactory = null;
            }
          }
          protected final BeanFactory getBeanFactory() {
            synchronized (this.beanFactoryMonitor) {
              return this.beanFactory;
            }
          }
        }
        """);
    sources.put(
        "shop.ctx.RequestContext",
        """
        package shop.ctx;
        public abstract class RequestContext {
          static class BeanFactory {}
          private BeanFactory beanFactory;
          private final Object beanFactoryMonitor = new Object();
          protected final void refreshBeanFactory() {
            if (getBeanFactory() != null) {
              closeBeanFactory();
            }
            BeanFactory created = new BeanFactory();
            synchronized (this.beanFactoryMonitor) {
              this.beanFactory = created;
            }
          }
          protected final void closeBeanFactory() {
            synchronized (this.beanFactoryMonitor) {
              this.beanFactory = null;
            }
          }
          public Object getBean(String name) {
            return getBeanFactory() != null ? name : null;
          }
          protected final BeanFactory getBeanFactory() {
            synchronized (this.beanFactoryMonitor) {
              return this.beanFactory;
            }
          }
        }
        """);
    sources.put(
        "shop.load.Acceptor",
        """
        package shop.load;
        public class Acceptor {
          private final Thread thread = new Thread(() -> {}, "acceptor");
          public void stop() throws InterruptedException {
            awaitThread();
            awaitQuietly();
          }
          private void awaitThread() throws InterruptedException {
            while (thread.isAlive()) {                                          // line 9
              Thread.sleep(10);
            }
          }
          private void awaitQuietly() throws InterruptedException {
            while (thread.isAlive()) {
              Thread.sleep(10);
            }
          }
          class Handler implements Runnable {
            @Override
            public void run() {
              try {
                awaitThread();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
          static class Closer {
            private final Acceptor acceptor;
            Closer(Acceptor acceptor) throws InterruptedException {
              this.acceptor = acceptor;
              acceptor.awaitQuietly();
            }
            void destroy() throws InterruptedException {
              acceptor.awaitQuietly();
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
        "shop.load.ProcessWaits",
        """
        package shop.load;
        import java.util.concurrent.*;
        public class ProcessWaits {
          static boolean isRunning(Process process) {
            try {
              process.exitValue();
              return false;
            } catch (IllegalThreadStateException stillRunning) {
              return true;
            }
          }
          public int convert(ProcessBuilder command) throws Exception {
            Process convert = command.start();
            while (isRunning(convert)) {                                        // line 14
              Thread.sleep(10);
            }
            return convert.exitValue();
          }
          public Callable<String> render(Future<String> data) {
            return new Callable<String>() {
              @Override
              public String call() throws Exception {
                while (!data.isDone()) {                                        // line 23
                  Thread.sleep(5);
                }
                return data.get();
              }
            };
          }
        }
        """);
    sources.put(
        "shop.load.HelperPolls",
        """
        package shop.load;
        public class HelperPolls {
          private static boolean isRunning(Thread t) {
            return t.isAlive();
          }
          protected boolean overridable(Thread t) {
            return t.isAlive();
          }
          private static boolean logsToo(Thread t) {
            System.out.println(t.getName());
            return t.isAlive();
          }
          public void awaitWorker(Thread worker) throws InterruptedException {
            while (isRunning(worker)) {
              Thread.sleep(10);
            }
          }
          public void awaitOverridable(Thread worker) throws InterruptedException {
            while (overridable(worker)) {
              Thread.sleep(10);
            }
          }
          public void awaitLogging(Thread worker) throws InterruptedException {
            while (logsToo(worker)) {
              Thread.sleep(10);
            }
          }
          public void awaitFlag(Thread worker) throws InterruptedException {
            boolean alive = worker.isAlive();
            while (alive) {
              Thread.sleep(10);
              alive = worker.isAlive();
            }
          }
          public void flagAlsoStopped(Thread worker, java.util.concurrent.atomic.AtomicBoolean stop)
              throws InterruptedException {
            boolean waiting = true;
            while (waiting) {
              Thread.sleep(10);
              waiting = worker.isAlive();
              if (stop.get()) {
                waiting = false;
              }
            }
          }
        }
        """);
    sources.put(
        "shop.meta.PropertyAccessors",
        """
        package shop.meta;
        import java.lang.reflect.Method;
        import java.util.*;
        import java.util.concurrent.ConcurrentHashMap;
        public class PropertyAccessors {
          private static final Map<Class<?>, Method[]> ACCESSORS = Collections.synchronizedMap(new HashMap<>());
          private static final Map<Class<?>, Method[]> FAST = new ConcurrentHashMap<>();
          private final Map<String, String> columns = new Hashtable<>();
          public Method[] accessorsOf(Class<?> type) {
            Method[] accessors = getCachedAccessors(type);
            if (accessors == null) {
              accessors = type.getMethods();
              cacheAccessors(type, accessors);
            }
            return accessors;
          }
          public String columnFor(String property) {
            String column = lookupColumn(property);
            if (column == null) {
              column = property.toLowerCase();
              rememberColumn(property, column);
            }
            return column;
          }
          public Method[] fast(Class<?> type) {
            Method[] accessors = getFast(type);
            if (accessors == null) {
              accessors = type.getMethods();
              putFast(type, accessors);
            }
            return accessors;
          }
          public Method[] otherKey(Class<?> type) {
            Method[] accessors = getCachedAccessors(type);
            if (accessors == null) {
              accessors = type.getMethods();
              cacheAccessors(type.getSuperclass(), accessors);
            }
            return accessors;
          }
          private static Method[] getCachedAccessors(Class<?> type) { return ACCESSORS.get(type); }
          private static void cacheAccessors(Class<?> type, Method[] accessors) { ACCESSORS.put(type, accessors); }
          private String lookupColumn(String property) { return columns.get(property); }
          private void rememberColumn(String property, String column) { columns.put(property, column); }
          private static Method[] getFast(Class<?> type) { return FAST.get(type); }
          private static void putFast(Class<?> type, Method[] accessors) { FAST.put(type, accessors); }
        }
        """);
    sources.put(
        "shop.http.FieldClients",
        """
        package shop.http;
        import java.io.IOException;
        import org.apache.http.client.methods.HttpGet;
        import org.apache.http.impl.client.BasicResponseHandler;
        import org.apache.http.impl.client.CloseableHttpClient;
        import org.apache.http.impl.client.HttpClients;
        import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
        public class FieldClients {
          private static final PoolingHttpClientConnectionManager POOL = new PoolingHttpClientConnectionManager();
          private CloseableHttpClient client;
          private CloseableHttpClient lazy;
          public FieldClients() {
            client = HttpClients.createDefault();
          }
          public String authorize(String orderId) throws IOException {
            this.client = HttpClients.createDefault();
            return this.client.execute(new HttpGet("http://psp/authorize/" + orderId), new BasicResponseHandler());
          }
          public String level(String sku) throws IOException {
            if (lazy == null) {
              lazy = HttpClients.createDefault();
            }
            return lazy.execute(new HttpGet("http://stock/" + sku), new BasicResponseHandler());
          }
          public void reset() {
            client = HttpClients.createDefault();
          }
          public String onSharedPool(String sku, String user) throws IOException {
            try (CloseableHttpClient perCall = HttpClients.custom()
                .setConnectionManager(POOL)
                .setConnectionManagerShared(true)
                .setUserAgent(user)
                .build()) {
              return perCall.execute(new HttpGet("http://inventory/" + sku), new BasicResponseHandler());
            }
          }
          public String onPoolNotShared(String sku) throws IOException {
            try (CloseableHttpClient perCall = HttpClients.custom()
                .setConnectionManager(POOL)
                .build()) {
              return perCall.execute(new HttpGet("http://inventory/" + sku), new BasicResponseHandler());
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
    sources.put(
        "shop.http.RequestScoped",
        """
        package shop.http;
        import java.io.*;
        import java.net.*;
        import org.apache.http.client.methods.HttpGet;
        import org.apache.http.impl.client.BasicResponseHandler;
        import org.apache.http.impl.client.CloseableHttpClient;
        import org.apache.http.impl.client.HttpClients;
        import org.springframework.scheduling.annotation.Scheduled;
        public class RequestScoped {
          public static class Gateway {
            private final CloseableHttpClient http;
            public Gateway() {
              this.http = HttpClients.createDefault();                        // line 13
            }
            public String get(String path) throws IOException {
              return http.execute(new HttpGet("http://gw/" + path), new BasicResponseHandler());
            }
          }
          static final class Response implements Closeable {
            private final HttpURLConnection connection;
            Response(HttpURLConnection connection) { this.connection = connection; }
            InputStream body() throws IOException { return connection.getInputStream(); }
            @Override public void close() { connection.disconnect(); }
          }
          private final Gateway shared = new Gateway();
          public String order(String id) throws IOException {
            return new Gateway().get("orders/" + id);
          }
          public String cached(String id) throws IOException {
            return shared.get("cached/" + id);
          }
          public byte[] rates(String base) throws IOException {
            HttpURLConnection c = (HttpURLConnection) new URL("http://fx/" + base).openConnection(); // line 33
            try (Response response = new Response(c)) {
              return response.body().readAllBytes();
            }
          }
          public int whois(String host) throws IOException {
            Socket socket = new Socket(host, 43);                             // line 39
            try {
              socket.getOutputStream().write(1);
              return socket.getInputStream().read();
            } finally {
              socket.close();
            }
          }
          @Scheduled(fixedRate = 21600000)
          public void sixHourly() throws IOException {
            try (CloseableHttpClient client = HttpClients.createDefault()) {
              client.execute(new HttpGet("http://updates/latest"), new BasicResponseHandler());
            }
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
                    "httpclient-4",
                    "httpcore-4",
                    "spring-web-",
                    "spring-core-",
                    "spring-context-"));
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
    assertTrue(finding.advice().contains("If this is your own code"), finding.advice());
  }

  @Test
  void classMonitorCacheOnStaticSynchronizedMethod() {
    assertEquals("ClassMonitorCache converterFor:7", summary(in("shop.meta.ConverterRegistry")));
  }

  @Test
  void concurrentMapUnderClassLockIsAClassMonitorCacheButComputeIfAbsentIsNot() {
    assertEquals("ClassMonitorCache nameOf:7", summary(in("shop.meta.ConcurrentTypeCache")));
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
  void theMapsOwnMonitorHeldWhileAValueIsBuiltEvenOnAConcurrentMap() {
    // mergedDefinition locks the map itself; rawDefinition locks another object around a
    // ConcurrentHashMap (racy, but no lock that readers of the map share); registerDefinition
    // hands nothing back: a registry filled at configuration; cachedDefinition reads the
    // concurrent map without the lock first, so it takes the map's monitor only on a miss
    assertEquals("SynchronizedMapCache mergedDefinition:16", summary(in("shop.beans.BeanFactory")));
    AuditFinding merged = in("shop.beans.BeanFactory").get(0);
    assertTrue(merged.message().contains("under the lock in field 'merged'"), merged.message());
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
  void aCappedWaitIsNotAdvisedToBlockWithoutItsCap() {
    List<AuditFinding> found =
        in("shop.load.Cleanup").stream()
            .filter(f -> f.methodName().equals("clearReferencesThreads"))
            .toList();
    assertEquals(1, found.size(), summary(found));
    assertTrue(found.get(0).message().contains("join(millis)"), found.get(0).message());
    assertFalse(found.get(0).message().contains("Blocking in join()"), found.get(0).message());
  }

  @Test
  void theFieldReportsHarnessIsABusyWait() {
    assertTrue(
        summary(in("shop.load.Cleanup")).contains("ThreadAliveBusyWait harness:"),
        summary(in("shop.load.Cleanup")));
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
  void poolLifecycleCallsOnAPool3FactoryUnderThePoolMonitor() {
    // a lazily created field before the I/O does not make the I/O run once (evict);
    // close() and a property setter run at configuration and tear-down; a lock taken in a catch
    // clause (an interrupted borrower hands its object back) is a failure path
    assertEquals(
        "SharedMonitorDao borrowObject:13, SharedMonitorDao evict:30,"
            + " SharedMonitorDao returnObject:18",
        summary(in("shop.pool.ConnectionPool")));
    AuditFinding evict =
        in("shop.pool.ConnectionPool").stream()
            .filter(f -> f.methodName().equals("evict"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        evict
            .message()
            .contains(
                "PooledObjectFactory.validateObject()"
                    + " (for a connection pool: runs the validation query)"),
        evict.message());
  }

  @Test
  void statementProxyLockFieldsAndJndiObjectFactoriesAreNotSharedMonitorDaos() {
    assertEquals("", summary(in("shop.dao.ProxyStatement")));
    // a public lookup only the factory calls runs when JNDI resolves the name (issue 21: one-time
    // lookups in factories); the same lookup also called from a method requests reach is reported
    assertEquals("", summary(in("shop.dao.PoolJndiFactory")));
    assertEquals("SharedMonitorDao lookup:14", summary(in("shop.dao.LocatorJndiFactory")));
  }

  @Test
  void ioOncePerKeyOrInTheElseOfAnInitialisedTestAndPerConnectionHandlers() {
    // getPool is a cache on a plain map under the instance monitor: SynchronizedMapCache
    assertEquals(
        "SharedMonitorDao pooledConnection:32, SynchronizedMapCache getPool:12",
        summary(in("shop.dao.PoolManager")));
    assertEquals("", summary(in("shop.dao.PooledConnectionImpl$ProxyConnectionInvocationHandler")));
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
    assertTrue(
        stock.message().contains("(HttpClients.createDefault() in PriceFeedClient.fetchStock()"),
        stock.message());
  }

  @Test
  void busyWaitPollingThroughASmallPrivateHelper() {
    assertEquals(
        "ThreadAliveBusyWait awaitFlag:32, ThreadAliveBusyWait awaitWorker:14",
        summary(in("shop.load.HelperPolls")));
  }

  @Test
  void anExitValueWrapperAndAnAnonymousCallableAreBusyWaits() {
    // issue 21: the model composes the helper and reads the anonymous class's method
    assertEquals("ThreadAliveBusyWait convert:14", summary(in("shop.load.ProcessWaits")));
    assertEquals("ThreadAliveBusyWait call:23", summary(in("shop.load.ProcessWaits$1")));
  }

  @Test
  void aWaitUntilStartedIsNotABusyWaitButAWaitUntilEndedIs() {
    // the poll's direction: the loop must go on while the thread lives (the task runs, the latch
    // is not open); waiting for a thread to start, a task to be submitted or a latch to be armed
    // is no wait that join(), get() or await() replaces
    assertEquals(
        "ThreadAliveBusyWait untilDone:43, ThreadAliveBusyWait untilEnded:33,"
            + " ThreadAliveBusyWait untilEndedDo:40, ThreadAliveBusyWait untilOpen:48",
        summary(in("shop.load.StartWaits")));
  }

  @Test
  void aCappedWaitReachedOnlyFromStopIsSilent() {
    // Tomcat's WebappClassLoaderBase: stop() -> protected clearReferences() -> private
    // clearReferencesThreads(), all in the same class
    assertEquals("", summary(in("shop.load.ContainerLoader")));
  }

  @Test
  void aHelperAlsoReachedFromARequestOrAnUnknownPublicMethodOrALambdaIsReported() {
    assertEquals(
        "ThreadAliveBusyWait awaitAcceptor:28, ThreadAliveBusyWait awaitQuietly:33,"
            + " ThreadAliveBusyWait awaitWorker:22",
        summary(in("shop.load.ContainerPool")));
  }

  @Test
  void lockedHelpersThatOnlyStartOrRefreshReachAreSilentInEveryLockDetector() {
    // SharedMonitorDao (start() -> loadColumns()), ResourceLookupUnderLock
    // (start() -> probeAll()) and read-mostly state (refreshBeanFactory() -> getBeanFactory())
    assertEquals("", summary(in("shop.dao.SchemaRegistry")));
    assertEquals("", summary(in("shop.res.JarIndex")));
    assertEquals("", summary(in("shop.ctx.RefreshableContext")));
  }

  @Test
  void theSameHelpersAlsoCalledPerRequestAreReported() {
    assertEquals("SharedMonitorDao loadColumns:19", summary(in("shop.dao.SchemaLookup")));
    assertEquals("ResourceLookupUnderLock probeAll:19", summary(in("shop.res.JarLookup")));
    assertEquals(
        "ReadMostlyStateUnderLock getBeanFactory:24", summary(in("shop.ctx.RequestContext")));
  }

  @Test
  void callersInNestedClassesCount() {
    // awaitThread() is also called from a nested Runnable's run(): reported; awaitQuietly() only
    // from stop() and from a nested class's constructor and destroy(): silent
    assertEquals("ThreadAliveBusyWait awaitThread:9", summary(in("shop.load.Acceptor")));
  }

  @Test
  void checkThenActSplitAcrossPrivateHelpersOnACoarselyLockedMap() {
    assertEquals(
        "SynchronizedMapCache accessorsOf:10, SynchronizedMapCache columnFor:18",
        summary(in("shop.meta.PropertyAccessors")));
  }

  @Test
  void clientFieldReassignedPerRequestButNotLazilyOrOnASharedManager() {
    List<AuditFinding> found = in("shop.http.FieldClients");
    assertEquals(
        "PerRequestHttpClient authorize:16, PerRequestHttpClient onPoolNotShared:38",
        summary(found));
    assertTrue(
        found
            .get(0)
            .message()
            .contains(
                "The field 'client' gets a new CloseableHttpClient on every call of authorize()"),
        found.get(0).message());
  }

  @Test
  void perRequestObjectsWrappersAndSocketsButNotScheduledJobs() {
    // the Gateway's client lives for one request because order() creates a Gateway per call; the
    // connection is disconnected by its wrapper's close(); the socket is opened and closed per
    // call; the six-hourly job makes no request load
    assertEquals(
        "PerRequestHttpClient rates:33, PerRequestHttpClient whois:39",
        summary(in("shop.http.RequestScoped")));
    assertEquals("PerRequestHttpClient <init>:13", summary(in("shop.http.RequestScoped$Gateway")));
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
