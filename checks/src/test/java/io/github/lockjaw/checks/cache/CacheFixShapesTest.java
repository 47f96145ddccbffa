package io.github.lockjaw.checks.cache;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 4: the cache fix on records, enums, interfaces, anonymous and local classes
 * neither crashes javac nor writes code that does not compile; item 9/issue 12: the mapping
 * function uses the key the map passes in, never the captured variable, where that keeps meaning.
 */
class CacheFixShapesTest {
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(ClassMonitorCache.class, getClass());

  @Test
  void aRecordGetsTheFix() {
    fixAndCompile(
        new String[] {
          "import java.util.HashMap;",
          "import java.util.Map;",
          "record Shapes(String name) {",
          "  private static final Map<Class<?>, Shapes> BY_TYPE = new HashMap<>();",
          "  static Shapes of(Class<?> type) {",
          "    synchronized (type) {",
          "      Shapes s = BY_TYPE.get(type);",
          "      if (s == null) {",
          "        s = new Shapes(type.getName());",
          "        BY_TYPE.put(type, s);",
          "      }",
          "      return s;",
          "    }",
          "  }",
          "}"
        },
        "import java.util.Map;",
        "import java.util.concurrent.ConcurrentHashMap;",
        "record Shapes(String name) {",
        "  private static final Map<Class<?>, Shapes> BY_TYPE = new ConcurrentHashMap<>();",
        "  static Shapes of(Class<?> type) {",
        "    return BY_TYPE.computeIfAbsent(type, k -> new Shapes(k.getName()));",
        "  }",
        "}");
  }

  @Test
  void anEnumGetsTheFixWithAConstructorReference() {
    fixAndCompile(
        new String[] {
          "import java.util.HashMap;",
          "import java.util.Map;",
          "enum Kind {",
          "  A, B;",
          "  static final class Meta {",
          "    Meta(Class<?> type) {}",
          "  }",
          "  private static final Map<Class<?>, Meta> METAS = new HashMap<>();",
          "  static Meta meta(Class<?> type) {",
          "    synchronized (type) {",
          "      Meta m = METAS.get(type);",
          "      if (m == null) {",
          "        m = new Meta(type);",
          "        METAS.put(type, m);",
          "      }",
          "      return m;",
          "    }",
          "  }",
          "}"
        },
        "import java.util.Map;",
        "import java.util.concurrent.ConcurrentHashMap;",
        "enum Kind {",
        "  A, B;",
        "  static final class Meta {",
        "    Meta(Class<?> type) {}",
        "  }",
        "  private static final Map<Class<?>, Meta> METAS = new ConcurrentHashMap<>();",
        "  static Meta meta(Class<?> type) {",
        "    return METAS.computeIfAbsent(type, Meta::new);",
        "  }",
        "}");
  }

  /**
   * Issue 26: the fill assigned inside the put of an unbraced {@code if} (Hudson 1.300's {@code
   * ParsedQuickSilver.get}): the same lookup as the braced two-statement fill, and the same fix.
   */
  @Test
  void aFillAssignedInsideThePutOfAnUnbracedIfGetsTheFix() {
    String[] output = {
      "import java.lang.reflect.Method;",
      "import java.util.ArrayList;",
      "import java.util.List;",
      "import java.util.Map;",
      "import java.util.concurrent.ConcurrentHashMap;",
      "final class ParsedQuickSilver {",
      "  private static final Map<Class<?>, ParsedQuickSilver> TABLE = new ConcurrentHashMap<>();",
      "",
      "  static ParsedQuickSilver get(Class<?> clazz) {",
      "    return TABLE.computeIfAbsent(clazz, ParsedQuickSilver::new);",
      "  }",
      "",
      "  private final List<String> getters = new ArrayList<>();",
      "",
      "  private ParsedQuickSilver(Class<?> clazz) {",
      "    for (Method m : clazz.getMethods()) {",
      "      if (m.getName().startsWith(\"get\") && m.getParameterCount() == 0) {",
      "        getters.add(m.getName().substring(3));",
      "      }",
      "    }",
      "  }",
      "}"
    };
    fixAndCompile(
        new String[] {
          "import java.lang.reflect.Method;",
          "import java.util.ArrayList;",
          "import java.util.HashMap;",
          "import java.util.List;",
          "import java.util.Map;",
          "final class ParsedQuickSilver {",
          "  private static final Map<Class<?>, ParsedQuickSilver> TABLE = new HashMap<>();",
          "",
          "  synchronized static ParsedQuickSilver get(Class<?> clazz) {",
          "    ParsedQuickSilver pqs = TABLE.get(clazz);",
          "    if (pqs == null)",
          "      TABLE.put(clazz, pqs = new ParsedQuickSilver(clazz));",
          "    return pqs;",
          "  }",
          "",
          "  private final List<String> getters = new ArrayList<>();",
          "",
          "  private ParsedQuickSilver(Class<?> clazz) {",
          "    for (Method m : clazz.getMethods()) {",
          "      if (m.getName().startsWith(\"get\") && m.getParameterCount() == 0) {",
          "        getters.add(m.getName().substring(3));",
          "      }",
          "    }",
          "  }",
          "}"
        },
        output);
  }

  private void fixAndCompile(String[] input, String... output) {
    refactoring
        .addInputLines("Input.java", input)
        .addOutputLines("Input.java", output)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
    CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass())
        .addSourceLines("Input.java", output)
        .expectNoDiagnostics()
        .doTest();
  }

  @Test
  void interfacesAnonymousAndLocalClassesDoNotCrash() {
    CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass())
        .addSourceLines(
            "Registry.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public interface Registry {",
            "  Map<Class<?>, StringBuilder> NAMES = new HashMap<>();",
            "  static StringBuilder name(Class<?> type) {",
            "    // BUG: Diagnostic contains: holds the monitor of 'type'",
            "    synchronized (type) {",
            "      StringBuilder n = NAMES.get(type);",
            "      if (n == null) {",
            "        n = new StringBuilder(type.getName());",
            "        NAMES.put(type, n);",
            "      }",
            "      return n;",
            "    }",
            "  }",
            "  static Runnable task() {",
            "    class Local {",
            "      private final Map<Class<?>, StringBuilder> cache = new HashMap<>();",
            "      StringBuilder of(Class<?> type) {",
            "        // BUG: Diagnostic contains: holds the monitor of 'type'",
            "        synchronized (type) {",
            "          StringBuilder n = cache.get(type);",
            "          if (n == null) {",
            "            n = new StringBuilder(type.getName());",
            "            cache.put(type, n);",
            "          }",
            "          return n;",
            "        }",
            "      }",
            "    }",
            "    return new Runnable() {",
            "      private final Map<Class<?>, StringBuilder> cache = new HashMap<>();",
            "      public void run() {",
            "        Class<?> type = getClass();",
            // hands nothing back: to the model a put-if-absent, like a default registered once
            // (both engines leave a get-then-put in a method that returns nothing alone)
            "        synchronized (type) {",
            "          StringBuilder n = cache.get(type);",
            "          if (n == null) {",
            "            n = new StringBuilder(type.getName());",
            "            cache.put(type, n);",
            "          }",
            "        }",
            "        new Local();",
            "      }",
            "    };",
            "  }",
            "}")
        .doTest();
  }
}
