package io.github.lockjaw.checks.support;

import com.google.errorprone.CompilationTestHelper;
import io.github.lockjaw.checks.readmostly.ReadMostlyStateUnderLock;
import io.github.lockjaw.checks.resources.ResourceLookupUnderLock;
import io.github.lockjaw.checks.statistics.StatisticsUnderSharedLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The three checks of what a shared lock is held for stay silent, and never throw (tests run with
 * lockjaw.strict), on valid Java of unusual shapes that come close to what they flag: array
 * elements and boxed counters, lookups in lambdas and anonymous classes, records, enums, nested and
 * local classes, {@code Outer.this} locks, switch patterns, a setter-only property.
 */
class LockRegionChecksRobustnessTest {

  private static final String[] UNUSUAL_CODE = {
    "import com.sun.net.httpserver.Filter;",
    "import com.sun.net.httpserver.HttpExchange;",
    "import java.io.IOException;",
    "import java.net.URL;",
    "import java.util.*;",
    "import java.util.function.*;",
    "public class Unusual extends Filter {",
    "  sealed interface Event permits Hit, Miss {}",
    "  record Hit(String page) implements Event {",
    "    public synchronized String page() { return page; }",
    "  }",
    "  record Miss(int code) implements Event {}",
    "  enum Mode { ON, OFF; private int flips; synchronized int getFlips() { return flips; } }",
    "  private final long[] perStatus = new long[6];",
    "  private Integer boxed = 0;",
    "  private char lastClass;",
    "  private boolean seen;",
    "  private String config = \"\";",
    "  private final List<Runnable> later = new ArrayList<>();",
    "  @Override public void doFilter(HttpExchange exchange, Chain chain) throws IOException {",
    "    int status = exchange.getResponseCode();",
    "    synchronized (this) { perStatus[status / 100]++; }",
    "    synchronized (this) { boxed++; }",
    "    synchronized (this) { seen = true; }",
    "    synchronized (Unusual.this) { later.add(() -> getClass().getResource(\"/x\")); }",
    "    synchronized (this) {",
    "      later.add(new Runnable() { public void run() { getClass().getResourceAsStream(\"/y\"); } });",
    "    }",
    "    Object local = new Object();",
    "    synchronized (local) { lastClass++; }",
    "    chain.doFilter(exchange);",
    "  }",
    "  String describe(Event e) {",
    "    synchronized (this) {",
    "      return switch (e) {",
    "        case Hit h when h.page().isEmpty() -> \"root\";",
    "        case Hit h -> h.page();",
    "        case Miss(var code) -> \"miss \" + code;",
    "      };",
    "    }",
    "  }",
    "  public synchronized String getConfig() { return config; }",
    "  public synchronized void setConfig(String config) { this.config = config; }",
    "  class Inner {",
    "    String getOuterConfig() { synchronized (Unusual.this) { return config; } }",
    "  }",
    "  <T> T generic(Map<String, T> map, String key) { synchronized (map) { return map.get(key); } }",
    "  static Supplier<URL> lazy(ClassLoader loader) {",
    "    return () -> { synchronized (Unusual.class) { return null; } };",
    "  }",
    "  @Override public String description() { return \"unusual\"; }",
    "}"
  };

  @ParameterizedTest
  @ValueSource(
      classes = {
        StatisticsUnderSharedLock.class,
        ResourceLookupUnderLock.class,
        ReadMostlyStateUnderLock.class
      })
  void silentAndNoCrashOnUnusualCode(
      Class<? extends com.google.errorprone.bugpatterns.BugChecker> check) {
    CompilationTestHelper.newInstance(check, getClass())
        .addSourceLines("Unusual.java", UNUSUAL_CODE)
        .expectNoDiagnostics()
        .doTest();
  }
}
