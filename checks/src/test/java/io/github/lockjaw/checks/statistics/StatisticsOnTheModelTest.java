package io.github.lockjaw.checks.statistics;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * StatisticsUnderSharedLock as a query over the model (issue 21): counters in library callbacks and
 * in handlers other code calls per request, across classes; and what is not a statistic (a cache
 * fill, an admission counter that needs a compare-and-increment, a sequence handed out) or not a
 * request path (set-up, JMX and test code).
 */
class StatisticsOnTheModelTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(StatisticsUnderSharedLock.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(StatisticsUnderSharedLock.class, getClass());

  @Test
  void countersInAConnectionListenerThePoolCallsAreReported() {
    // javax.sql.ConnectionEventListener: the pool calls it on every close of a pooled connection
    compilation
        .addSourceLines(
            "PoolMetrics.java",
            """
            package pool;

            import javax.sql.ConnectionEvent;
            import javax.sql.ConnectionEventListener;

            public class PoolMetrics implements ConnectionEventListener {
              private long closed;
              private long failed;
              private long longestCloseNanos;

              // BUG: Diagnostic contains: connectionClosed() takes the monitor of the PoolMetrics instance on every call of connectionClosed() only to update 'closed'
              @Override public synchronized void connectionClosed(ConnectionEvent event) {
                closed++;
              }

              @Override public void connectionErrorOccurred(ConnectionEvent event) {
                long nanos = System.nanoTime();
                // BUG: Diagnostic contains: only to update 'failed', 'longestCloseNanos'
                synchronized (this) {
                  failed++;
                  if (nanos > longestCloseNanos) {
                    longestCloseNanos = nanos;
                  }
                }
              }

              public synchronized long closed() {
                return closed;
              }
            }
            """)
        .doTest();
  }

  @Test
  void countersOfALibraryStatisticsClassItsSessionsCallAreReported() {
    // a library's statistics object, bumped by its own session code on every open and load:
    // reached through a call in another class, or through the interface the library calls
    compilation
        .addSourceLines(
            "StatisticsImplementor.java",
            """
            package orm;

            public interface StatisticsImplementor {
              void sessionOpened();
              void entityLoaded(String entityName);
            }
            """)
        .addSourceLines(
            "SessionStatistics.java",
            """
            package orm;

            import java.util.HashMap;
            import java.util.Map;

            public class SessionStatistics implements StatisticsImplementor {
              private long sessionsOpened;
              private final Map<String, Integer> loadsPerEntity = new HashMap<>();

              // BUG: Diagnostic contains: on every call of SessionFactory.openSession(), which calls sessionOpened(),
              @Override public synchronized void sessionOpened() {
                sessionsOpened++;
              }

              @Override public void entityLoaded(String entityName) {
                // BUG: Diagnostic contains: only to update 'loadsPerEntity': every request queues on that one lock to bump a number. Counters per key in a ConcurrentHashMap<K, LongAdder>
                synchronized (loadsPerEntity) {
                  Integer loads = loadsPerEntity.get(entityName);
                  loadsPerEntity.put(entityName, loads == null ? 1 : loads + 1);
                }
              }
            }
            """)
        .addSourceLines(
            "SessionFactory.java",
            """
            package orm;

            public class SessionFactory {
              private final StatisticsImplementor statistics = new SessionStatistics();

              public Object openSession() {
                statistics.sessionOpened();
                return new Object();
              }

              public Object load(String entityName, Object id) {
                statistics.entityLoaded(entityName);
                return id;
              }
            }
            """)
        .doTest();
  }

  @Test
  void aCacheFillAnAdmissionCounterAndASequenceAreNoStatistics() {
    compilation
        .addSourceLines(
            "Admission.java",
            """
            package web;

            import com.sun.net.httpserver.Filter;
            import com.sun.net.httpserver.HttpExchange;
            import java.io.IOException;
            import java.util.HashMap;
            import java.util.Map;

            public class Admission extends Filter {
              private final int limit = 100;
              private int inFlight;
              private long rejected;
              private long sequence;
              private final Map<String, Object> lastResponse = new HashMap<>();

              @Override public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                if (!admit()) {
                  reject();
                  return;
                }
                try {
                  exchange.getResponseHeaders().add("X-Request", Long.toString(nextId()));
                  chain.doFilter(exchange);
                } finally {
                  release();
                }
                remember(exchange.getRequestURI().getPath(), exchange.getResponseHeaders());
              }

              // an admission counter: the increment depends on the counter's own value
              private boolean admit() {
                synchronized (this) {
                  if (inFlight < limit) {
                    inFlight++;
                    return true;
                  }
                  return false;
                }
              }

              // the same counter, released: a LongAdder could not keep admit() exact
              private synchronized void release() {
                inFlight--;
              }

              // BUG: Diagnostic contains: only to update 'rejected'
              private synchronized void reject() {
                rejected++;
              }

              // a sequence: the lock hands out each number once
              private long nextId() {
                synchronized (this) {
                  return ++sequence;
                }
              }

              // a cache fill: a map put of a value that is no count
              private void remember(String path, Object headers) {
                synchronized (lastResponse) {
                  lastResponse.put(path, headers);
                }
              }

              @Override public String description() {
                return "admission";
              }
            }
            """)
        .doTest();
  }

  @Test
  void countersWhoseValueDecidesWhatCodeDoesAreNoStatistics() {
    // from a fresh audit sample (Turbine's security service, Resin's JSP page): a hand-made reader
    // count that an exclusive lock waits on, and a reference count whose release destroys the
    // object at zero. A LongAdder cannot keep either: code acts on each one's exact value.
    compilation
        .addSourceLines(
            "SecurityService.java",
            """
            package security;

            public class SecurityService {
              private int readers;

              public String[] rolesOf(String user) {
                lockShared();
                try {
                  return new String[] {user};
                } finally {
                  unlockShared();
                }
              }

              public void grant(String user, String role) throws InterruptedException {
                lockExclusive();
              }

              protected synchronized void lockShared() {
                readers++;
              }

              protected synchronized void unlockShared() {
                readers--;
                notifyAll();
              }

              protected synchronized void lockExclusive() throws InterruptedException {
                while (readers > 0) {
                  wait();
                }
              }
            }
            """)
        .addSourceLines(
            "CompiledPage.java",
            """
            package pages;

            import com.sun.net.httpserver.HttpExchange;
            import com.sun.net.httpserver.HttpHandler;

            public class CompiledPage implements HttpHandler {
              private int useCount;

              @Override public void handle(HttpExchange exchange) {
                use();
                try {
                  exchange.close();
                } finally {
                  free();
                }
              }

              public void use() {
                synchronized (this) {
                  useCount++;
                }
              }

              public void free() {
                synchronized (this) {
                  useCount--;
                }
                if (useCount <= 0) {
                  destroy();
                }
              }

              public void destroy() {}
            }
            """)
        .doTest();
  }

  @Test
  void aCounterOnlyReportsReadIsAStatistic() {
    // reading the counters to report them, a zero test of the average's divisor included, decides
    // nothing: they stay statistics; nor does a test of something else just before the update
    compilation
        .addSourceLines(
            "QueryTimes.java",
            """
            package stats;

            import com.sun.net.httpserver.HttpExchange;
            import com.sun.net.httpserver.HttpHandler;

            public class QueryTimes implements HttpHandler {
              private long count;
              private long totalNanos;

              @Override public void handle(HttpExchange exchange) {
                long start = System.nanoTime();
                exchange.close();
                record(System.nanoTime() - start);
              }

              private void record(long nanos) {
                if (nanos > 1_000_000_000L) {
                  warn(nanos);
                }
                // BUG: Diagnostic contains: only to update 'count', 'totalNanos'
                synchronized (this) {
                  count++;
                  totalNanos += nanos;
                }
              }

              private void warn(long nanos) {
                System.err.println("slow query: " + nanos + " ns");
              }

              public synchronized long averageNanos() {
                return count == 0 ? 0 : totalNanos / count;
              }

              public synchronized String report() {
                if (count > 0) {
                  return count + " queries, " + totalNanos / count + " ns on average";
                }
                return "no queries";
              }
            }
            """)
        .doTest();
  }

  @Test
  void setUpJmxAndTestPathsAreNoRequestPaths() {
    compilation
        .addSourceLines(
            "Warmup.java",
            """
            package app;

            import java.util.List;

            public class Warmup {
              private long warmed;

              public void start(List<String> pages) {
                for (String page : pages) {
                  warmOne(page);
                }
              }

              private void warmOne(String page) {
                synchronized (this) {
                  warmed++;
                }
              }
            }
            """)
        .addSourceLines(
            "CacheAdminMBean.java",
            """
            package app;

            public interface CacheAdminMBean {
              void evictAll();
              long getEvictions();
            }
            """)
        .addSourceLines(
            "CacheAdmin.java",
            """
            package app;

            public class CacheAdmin implements CacheAdminMBean {
              private long evictions;

              @Override public void evictAll() {
                countEviction();
              }

              private synchronized void countEviction() {
                evictions++;
              }

              @Override public synchronized long getEvictions() {
                return evictions;
              }
            }
            """)
        .addSourceLines(
            "ListenerTest.java",
            """
            package app;

            import javax.sql.ConnectionEvent;
            import javax.sql.ConnectionEventListener;

            class ListenerTest implements ConnectionEventListener {
              private long closed;

              @Override public synchronized void connectionClosed(ConnectionEvent event) {
                closed++;
              }

              @Override public void connectionErrorOccurred(ConnectionEvent event) {}

              @org.junit.jupiter.api.Test
              void countsCloses() {
                connectionClosed(null);
              }
            }
            """)
        .doTest();
  }

  @Test
  void guardedCountersAreStatisticsAndGetTheLongAdderFix() {
    // counting slow calls is a statistic: the condition tests the duration, not the counter
    refactoring
        .addInputLines(
            "SlowCalls.java",
            """
            package web;

            import com.sun.net.httpserver.HttpExchange;
            import com.sun.net.httpserver.HttpHandler;

            public class SlowCalls implements HttpHandler {
              private long slow;

              @Override public void handle(HttpExchange exchange) {
                long start = System.nanoTime();
                exchange.close();
                record(System.nanoTime() - start);
              }

              private void record(long nanos) {
                synchronized (this) {
                  if (nanos > 1_000_000_000L) {
                    slow++;
                  }
                }
              }

              public long slow() {
                return slow;
              }
            }
            """)
        .addOutputLines(
            "SlowCalls.java",
            """
            package web;

            import com.sun.net.httpserver.HttpExchange;
            import com.sun.net.httpserver.HttpHandler;
            import java.util.concurrent.atomic.LongAdder;

            public class SlowCalls implements HttpHandler {
              private final LongAdder slow = new LongAdder();

              @Override public void handle(HttpExchange exchange) {
                long start = System.nanoTime();
                exchange.close();
                record(System.nanoTime() - start);
              }

              private void record(long nanos) {
                if (nanos > 1_000_000_000L) {
                  slow.increment();
                }
              }

              public long slow() {
                return slow.sum();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /** An object pool's per-key queue keeps the pool's totals, as commons-pool 1.5's ObjectQueue. */
  private static String keyedPool(String borrowBody, String expected) {
    return """
        package pool;

        import java.util.HashMap;
        import java.util.Map;

        public class KeyedPool {
          private final Map<String, ObjectQueue> queues = new HashMap<>();
          private int totalActive;

          public Object borrow(String key) {
        %s
          }

          public synchronized int totalActive() {
            return totalActive;
          }

          private ObjectQueue queue(String key) {
            return queues.computeIfAbsent(key, k -> new ObjectQueue());
          }

          private class ObjectQueue {
            private int active;

            void incrementActive() {
              %s
              synchronized (KeyedPool.this) {
                totalActive++;
              }
              active++;
            }
          }
        }
        """
        .formatted(borrowBody, expected);
  }

  @Test
  void anInnerObjectReenteringTheMonitorEveryCallerHoldsIsSilent() {
    // the inner queue takes the pool's monitor, which borrow() already holds: no queue of its own
    compilation
        .addSourceLines(
            "KeyedPool.java",
            keyedPool(
                """
                    synchronized (this) {
                      ObjectQueue queue = queue(key);
                      queue.incrementActive();
                      return new Object();
                    }
                """,
                ""))
        .doTest();
  }

  @Test
  void anInnerObjectTakingTheOuterMonitorForACallerWithoutItIsReported() {
    compilation
        .addSourceLines(
            "KeyedPool.java",
            keyedPool(
                """
                    ObjectQueue queue;
                    synchronized (this) {
                      queue = queue(key);
                    }
                    queue.incrementActive();
                    return new Object();
                """,
                "// BUG: Diagnostic contains: only to update 'totalActive'"))
        .doTest();
  }
}
