package io.github.lockjaw.checks.readmostly;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * ReadMostlyStateUnderLock as a query over the model (issue 21): readers on a request path,
 * whatever their names (private accessors, accessors that call a helper), of state whose writers,
 * named anything, only start-up code reaches; and the same code silent when a writer runs per
 * request, or when only JMX or test code reads.
 */
class ReadMostlyOnTheModelTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ReadMostlyStateUnderLock.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(ReadMostlyStateUnderLock.class, getClass());

  /** A route table: loaded at start-up by {@code applyRoutes}, read by every request. */
  private static final String ROUTE_TABLE =
      """
      package web;

      import com.sun.net.httpserver.HttpExchange;
      import com.sun.net.httpserver.HttpHandler;
      import java.io.IOException;
      import java.util.Map;

      public class RouteTable implements HttpHandler {
        private final Object lock = new Object();
        private Map<String, String> routes = Map.of();

        public void start(Map<String, String> initial) {
          applyRoutes(initial);
        }

        private void applyRoutes(Map<String, String> fresh) {
          synchronized (lock) {
            routes = Map.copyOf(fresh);
          }
        }

        @Override public void handle(HttpExchange exchange) throws IOException {
          String path = exchange.getRequestURI().getPath();
          %s
          exchange.getResponseHeaders().add("Location", target(path));
          exchange.sendResponseHeaders(302, -1);
        }

        private String target(String path) {
          %s
          synchronized (lock) {
            return lookup(path);
          }
        }

        private String lookup(String path) {
          return routes.getOrDefault(path, "/");
        }
      }
      """;

  @Test
  void aPrivateAccessorThatCallsALookupHelperOfStateOnlyStartUpWrites() {
    compilation
        .addSourceLines(
            "RouteTable.java",
            ROUTE_TABLE.formatted(
                "",
                "// BUG: Diagnostic contains: The synchronized block in target() takes the monitor"
                    + " of lock field 'lock' on every call only to read 'routes', which only"
                    + " applyRoutes() writes"))
        .doTest();
  }

  @Test
  void theSameStateAlsoWrittenPerRequestIsSilent() {
    compilation
        .addSourceLines(
            "RouteTable.java",
            ROUTE_TABLE.formatted("if (path.endsWith(\"/reset\")) { applyRoutes(Map.of()); }", ""))
        .doTest();
  }

  @Test
  void volatileFixForAPrivateAccessorOfFlagsAnInitStepLoads() {
    refactoring
        .addInputLines(
            "FeatureFlags.java",
            """
            package web;

            import com.sun.net.httpserver.HttpExchange;
            import com.sun.net.httpserver.HttpHandler;
            import java.io.IOException;
            import java.util.Set;

            public class FeatureFlags implements HttpHandler {
              private Set<String> enabled = Set.of();

              public void init(Set<String> names) {
                load(names);
              }

              private void load(Set<String> names) {
                synchronized (this) {
                  enabled = Set.copyOf(names);
                }
              }

              private synchronized Set<String> enabled() {
                return enabled;
              }

              @Override public void handle(HttpExchange exchange) throws IOException {
                int status = enabled().contains("beta") ? 200 : 404;
                exchange.sendResponseHeaders(status, -1);
              }
            }
            """)
        .addOutputLines(
            "FeatureFlags.java",
            """
            package web;

            import com.sun.net.httpserver.HttpExchange;
            import com.sun.net.httpserver.HttpHandler;
            import java.io.IOException;
            import java.util.Set;

            public class FeatureFlags implements HttpHandler {
              private volatile Set<String> enabled = Set.of();

              public void init(Set<String> names) {
                load(names);
              }

              private void load(Set<String> names) {
                synchronized (this) {
                  enabled = Set.copyOf(names);
                }
              }

              private Set<String> enabled() {
                return enabled;
              }

              @Override public void handle(HttpExchange exchange) throws IOException {
                int status = enabled().contains("beta") ? 200 : 404;
                exchange.sendResponseHeaders(status, -1);
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void readersOnlyJmxOrTestsCallAreSilent() {
    compilation
        .addSourceLines(
            "RatesMBean.java",
            """
            package admin;

            import java.util.Map;

            public interface RatesMBean {
              Map<String, Double> getRates();
            }
            """)
        .addSourceLines(
            "Rates.java",
            """
            package admin;

            import java.util.Map;

            public class Rates implements RatesMBean {
              private Map<String, Double> rates = Map.of();

              @Override public synchronized Map<String, Double> getRates() {
                return rates;
              }

              public synchronized void reloadRates(Map<String, Double> fresh) {
                rates = Map.copyOf(fresh);
              }
            }
            """)
        .addSourceLines(
            "CatalogTest.java",
            """
            package admin;

            import java.util.List;

            class CatalogTest {
              private List<String> items = List.of();

              void refreshItems(List<String> fresh) {
                synchronized (this) {
                  items = List.copyOf(fresh);
                }
              }

              private synchronized List<String> items() {
                return items;
              }

              @org.junit.jupiter.api.Test
              void listsItems() {
                refreshItems(List.of("a"));
                items();
              }
            }
            """)
        .doTest();
  }

  @Test
  void anApiAccessorOfStateOnlyAnUnnamedStartUpStepWritesNeedsACallerOnTheRequestPath() {
    // getLimits() is API nobody in the code calls: that requests call it is an assumption, and
    // the state's one writer neither registers nor refreshes; a caller per request shows it hot
    compilation
        .addSourceLines(
            "Limits.java",
            """
            package app;

            import java.util.Map;

            public class Limits {
              private Map<String, Integer> limits = Map.of();

              public void startup(Map<String, Integer> configured) {
                apply(configured);
              }

              private synchronized void apply(Map<String, Integer> configured) {
                limits = Map.copyOf(configured);
              }

              public synchronized Map<String, Integer> getLimits() {
                return limits;
              }
            }
            """)
        .addSourceLines(
            "Quotas.java",
            """
            package app;

            import java.util.Map;

            public class Quotas {
              private Map<String, Integer> quotas = Map.of();

              public void startup(Map<String, Integer> configured) {
                apply(configured);
              }

              private synchronized void apply(Map<String, Integer> configured) {
                quotas = Map.copyOf(configured);
              }

              // BUG: Diagnostic contains: only to read 'quotas', which only apply() writes
              private synchronized Map<String, Integer> quotas() {
                return quotas;
              }

              public boolean allows(String tenant, int used) {
                return used < quotas().getOrDefault(tenant, 0);
              }
            }
            """)
        .doTest();
  }
}
