package io.github.lockjaw.checks.cache;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * What the lock of a synchronized-map cache covers: the value's computation (reported), or only the
 * map's re-check and put of a value built without it (silent); keys computed by a call.
 */
class SynchronizedMapCacheLockScopeTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass());

  @Test
  void valueBuiltWithoutTheLockThenReCheckedAndPutUnderItIsSilent() {
    compilation
        .addSourceLines(
            "FieldIndex.java",
            "import java.lang.reflect.Field;",
            "import java.util.*;",
            "public class FieldIndex {",
            "  private final Map<Class<?>, List<Field>> entries = new HashMap<>();",
            "  private synchronized List<Field> entry(Class<?> type) { return entries.get(type); }",
            "  public List<Field> fields(Class<?> type) {",
            "    List<Field> found = entry(type);",
            "    if (found != null) {",
            "      return found;",
            "    }",
            "    List<Field> built = Arrays.asList(type.getDeclaredFields());",
            "    synchronized (this) {",
            "      if (entry(type) == null) {",
            "        entries.put(type, built);",
            "      }",
            "    }",
            "    return built;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void valueBuiltUnderTheLockIsReported() {
    compilation
        .addSourceLines(
            "FieldIndex.java",
            "import java.lang.reflect.Field;",
            "import java.util.*;",
            "public class FieldIndex {",
            "  private final Map<Class<?>, List<Field>> entries = new HashMap<>();",
            "  public List<Field> fields(Class<?> type) {",
            "    // BUG: Diagnostic contains: SynchronizedMapCache",
            "    synchronized (this) {",
            "      List<Field> found = entries.get(type);",
            "      if (found == null) {",
            "        found = Arrays.asList(type.getDeclaredFields());",
            "        entries.put(type, found);",
            "      }",
            "      return found;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void keyComputedByACallUnderASynchronizedMethodIsReported() {
    compilation
        .addSourceLines(
            "LoaderLocal.java",
            "import java.util.*;",
            "public class LoaderLocal<T> {",
            "  private final Map<ClassLoader, T> byLoader = new WeakHashMap<>();",
            "  protected T initialValue() { return null; }",
            "  // BUG: Diagnostic contains: SynchronizedMapCache",
            "  public synchronized T get() {",
            "    byLoader.isEmpty(); // purges stale weak entries",
            "    try {",
            "      ClassLoader loader = Thread.currentThread().getContextClassLoader();",
            "      if (loader != null) {",
            "        T value = byLoader.get(loader);",
            "        if (value == null && !byLoader.containsKey(loader)) {",
            "          value = initialValue();",
            "          byLoader.put(loader, value);",
            "        }",
            "        return value;",
            "      }",
            "    } catch (SecurityException e) {",
            "      // no access to the context class loader",
            "    }",
            "    return null;",
            "  }",
            "}")
        .doTest();
  }
}
