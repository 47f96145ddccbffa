package io.github.lockjaw.checks.cache;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Lookups on a map-like type of maps.txt, a class that is not a java.util.Map but is used as one
 * (OGNL 2.6.9's {@code OgnlRuntime.ClassCache}, a hash table keyed by Class): its get and put are a
 * check-then-act like a Map's.
 */
class MapLikeTypeCacheTest {
  private final CompilationTestHelper synchronizedMapCache =
      CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass());
  private final CompilationTestHelper classMonitorCache =
      CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(SynchronizedMapCache.class, getClass());

  /** A cut-down OGNL 2.6.9 OgnlRuntime: its own ClassCache type, then the lookups on it. */
  private static final String[] OGNL_RUNTIME_HEAD = {
    "package ognl;",
    "import java.util.*;",
    "import java.lang.reflect.*;",
    "public class OgnlRuntime {",
    "  private static class ClassCache {",
    "    private final Object[] table = new Object[512];",
    "    public final Object get(Class key) {",
    "      return table[key.hashCode() & 511];",
    "    }",
    "    public final Object put(Class key, Object value) {",
    "      Object old = table[key.hashCode() & 511];",
    "      table[key.hashCode() & 511] = value;",
    "      return old;",
    "    }",
    "  }",
    "  private static ClassCache constructorCache = new ClassCache();",
    "  private static ClassCache fieldCache = new ClassCache();",
  };

  private static String[] ognlRuntime(String... body) {
    String[] lines = new String[OGNL_RUNTIME_HEAD.length + body.length + 1];
    System.arraycopy(OGNL_RUNTIME_HEAD, 0, lines, 0, OGNL_RUNTIME_HEAD.length);
    System.arraycopy(body, 0, lines, OGNL_RUNTIME_HEAD.length, body.length);
    lines[lines.length - 1] = "}";
    return lines;
  }

  @Test
  void getThenPutOnOgnlsClassCacheUnderItsOwnMonitor() {
    synchronizedMapCache
        .addSourceLines(
            "ognl/OgnlRuntime.java",
            ognlRuntime(
                "  public static final List getConstructors(Class targetClass) {",
                "    List result;",
                "    // BUG: Diagnostic contains: SynchronizedMapCache",
                "    synchronized (constructorCache) {",
                "      if ((result = (List) constructorCache.get(targetClass)) == null) {",
                "        constructorCache.put(",
                "            targetClass, result = Arrays.asList(targetClass.getConstructors()));",
                "      }",
                "    }",
                "    return result;",
                "  }",
                "  public static final Map getFields(Class targetClass) {",
                "    Map result;",
                "    // BUG: Diagnostic contains: SynchronizedMapCache",
                "    synchronized (fieldCache) {",
                "      result = (Map) fieldCache.get(targetClass);",
                "      if (result == null) {",
                "        result = new HashMap(23);",
                "        for (Field field : targetClass.getDeclaredFields()) {",
                "          result.put(field.getName(), field);",
                "        }",
                "        fieldCache.put(targetClass, result);",
                "      }",
                "    }",
                "    return result;",
                "  }"))
        .doTest();
  }

  @Test
  void noFixRewritesAMapLikeType() {
    // the finding stands, but ClassCache is no Map: nothing moves it to ConcurrentHashMap
    String[] source =
        ognlRuntime(
            "  public static final List getConstructors(Class targetClass) {",
            "    List result;",
            "    synchronized (constructorCache) {",
            "      if ((result = (List) constructorCache.get(targetClass)) == null) {",
            "        constructorCache.put(",
            "            targetClass, result = Arrays.asList(targetClass.getConstructors()));",
            "      }",
            "    }",
            "    return result;",
            "  }");
    refactoring
        .addInputLines("ognl/OgnlRuntime.java", source)
        .addOutputLines("ognl/OgnlRuntime.java", source)
        .doTest();
  }

  @Test
  void classCacheUnderAClassLockIsAClassMonitorCache() {
    classMonitorCache
        .addSourceLines(
            "ognl/OgnlRuntime.java",
            ognlRuntime(
                "  // BUG: Diagnostic contains: ClassMonitorCache",
                "  public static synchronized List getConstructors(Class targetClass) {",
                "    List result = (List) constructorCache.get(targetClass);",
                "    if (result == null) {",
                "      result = Arrays.asList(targetClass.getConstructors());",
                "      constructorCache.put(targetClass, result);",
                "    }",
                "    return result;",
                "  }"))
        .doTest();
  }

  @Test
  void unlockedOrOtherwiseLockedLookupsOnAMapLikeTypeAreLeftAlone() {
    // lockjaw cannot see how a map-like type locks: without its own monitor (or a Class lock)
    // there is no evidence of a queue; a lookup that never puts is no cache
    synchronizedMapCache
        .addSourceLines(
            "ognl/OgnlRuntime.java",
            ognlRuntime(
                "  private final Object lock = new Object();",
                "  public static List unlocked(Class targetClass) {",
                "    List result = (List) constructorCache.get(targetClass);",
                "    if (result == null) {",
                "      result = Arrays.asList(targetClass.getConstructors());",
                "      constructorCache.put(targetClass, result);",
                "    }",
                "    return result;",
                "  }",
                "  public List otherLock(Class targetClass) {",
                "    synchronized (lock) {",
                "      List result = (List) constructorCache.get(targetClass);",
                "      if (result == null) {",
                "        result = Arrays.asList(targetClass.getConstructors());",
                "        constructorCache.put(targetClass, result);",
                "      }",
                "      return result;",
                "    }",
                "  }",
                "  public static Map readOnly(Class targetClass) {",
                "    synchronized (fieldCache) {",
                "      Map result = (Map) fieldCache.get(targetClass);",
                "      return result == null ? Collections.emptyMap() : result;",
                "    }",
                "  }"))
        .doTest();
  }

  @Test
  void aClassCacheThatMapsTxtDoesNotNameIsNotAMap() {
    // the same shape on a hash table of another library: only the named types are map-like
    synchronizedMapCache
        .addSourceLines(
            "shop/TypeTable.java",
            "package shop;",
            "import java.util.*;",
            "public class TypeTable {",
            "  static class ClassCache {",
            "    private final Object[] table = new Object[64];",
            "    Object get(Class key) { return table[key.hashCode() & 63]; }",
            "    Object put(Class key, Object value) { return table[key.hashCode() & 63] = value; }",
            "  }",
            "  private static final ClassCache NAMES = new ClassCache();",
            "  public static String nameOf(Class type) {",
            "    synchronized (NAMES) {",
            "      String name = (String) NAMES.get(type);",
            "      if (name == null) {",
            "        name = type.getSimpleName();",
            "        NAMES.put(type, name);",
            "      }",
            "      return name;",
            "    }",
            "  }",
            "}")
        .doTest();
  }
}
