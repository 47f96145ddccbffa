package io.github.lockjaw.checks.cache;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * The cache checks must stay silent, never throw, on valid Java of every shape: modern syntax, raw
 * types, odd lock expressions, maps that are not fields, generated-looking code.
 */
class CacheChecksRobustnessTest {

  private static final String[] UNUSUAL_CODE = {
    "import java.util.*;",
    "import java.util.function.*;",
    "public class Unusual {",
    "  sealed interface Event permits Click, View {}",
    "  record Click(String target) implements Event {}",
    "  record View(String page, int ms) implements Event {}",
    "  enum Level { LOW, HIGH; synchronized Level next() { return values()[(ordinal() + 1) % 2]; } }",
    "  private final Map<String, List<Event>> byUser = new HashMap<>();",
    "  private static final Map RAW = new Hashtable();",
    "  private final Map<String, Integer>[] shards = new Map[4];",
    "  private Map<String, Integer> reassigned = new HashMap<>();",
    "  synchronized String describe(Event e) {",
    "    return switch (e) {",
    "      case Click c when c.target().isEmpty() -> \"empty click\";",
    "      case Click c -> \"click \" + c.target();",
    "      case View(var page, var ms) -> page + \" in \" + ms;",
    "    };",
    "  }",
    "  synchronized void record(String user, Event e) {",
    "    byUser.computeIfAbsent(user, u -> new ArrayList<>()).add(e);",
    "  }",
    "  static synchronized Object rawLookup(Object key) {",
    "    Object v = RAW.get(key);",
    "    RAW.put(key, v);",
    "    return v;",
    "  }",
    "  int shard(String key) {",
    "    synchronized (shards) {",
    "      Integer v = shards[key.length() % 4].get(key);",
    "      if (v == null) { shards[key.length() % 4].put(key, 1); }",
    "      return shards[0].size();",
    "    }",
    "  }",
    "  void swap() {",
    "    synchronized (this) { reassigned = new TreeMap<>(); }",
    "  }",
    "  <T> T generic(Map<String, T> map, String k, Supplier<T> s) {",
    "    synchronized (map) {",
    "      T t = map.get(k);",
    "      if (t == null) { t = s.get(); map.put(k, t); }",
    "      return t;",
    "    }",
    "  }",
    "  Runnable local() {",
    "    class Local {",
    "      final Map<String, String> m = Collections.synchronizedMap(new HashMap<>());",
    "      void run() { var x = m.get(\"a\"); }",
    "    }",
    "    return () -> new Local().run();",
    "  }",
    "  abstract static class Abstract { abstract Object get(); }",
    "  interface WithDefault { default void go() { synchronized (WithDefault.class) {} } }",
    "  Object init = new Object() { { synchronized (this) { } } };",
    "}",
  };

  @Test
  void classMonitorCacheStaysSilentAndDoesNotThrow() {
    CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass())
        .addSourceLines("Unusual.java", UNUSUAL_CODE)
        .doTest();
  }

  @Test
  void synchronizedMapCacheStaysSilentAndDoesNotThrow() {
    CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass())
        .addSourceLines("Unusual.java", UNUSUAL_CODE)
        .doTest();
  }
}
