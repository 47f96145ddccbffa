package io.github.lockjaw.checks.cache;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: a cache whose fill is more than one {@code computeIfAbsent} can take (it recurses,
 * catches, caches a sentinel for a miss), on a synchronizedMap or Hashtable read without a lock,
 * gets the smallest fix that keeps behaviour: the declaration becomes a ConcurrentHashMap and the
 * code stays. The shapes are XStream's {@code SerializationMembers} and {@code PropertyDictionary}
 * and Velocity's {@code ClassMap}; each negative names the one use that blocks the swap.
 */
class ConcurrentMapSwapTest {
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(SynchronizedMapCache.class, getClass());
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass());

  @Test
  void anUnlockedLookupWithASentinelForAMissKeepsItsCodeOnAConcurrentHashMap() {
    fixAndCompile(
        new String[] {
          "import java.lang.reflect.Method;",
          "import java.util.Collections;",
          "import java.util.HashMap;",
          "import java.util.Map;",
          "import java.util.Objects;",
          "class ReadResolveMethods {",
          "  private static final Object NO_METHOD = new Object();",
          "  // keyed by class name: one lookup per class",
          "  private final Map<String, Object> resolveCache =",
          "      Collections.synchronizedMap(new HashMap<String, Object>(64));",
          "",
          "  Method readResolveOf(Class<?> type) {",
          "    String key = Objects.requireNonNull(type.getName());",
          "    Object result = resolveCache.get(key);",
          "    if (result == null) {",
          "      try {",
          "        result = type.getDeclaredMethod(\"readResolve\");",
          "        result.hashCode();",
          "      } catch (NoSuchMethodException e) {",
          "        result = NO_METHOD;",
          "      }",
          "      resolveCache.put(key, result);",
          "    }",
          "    return result == NO_METHOD ? null : (Method) result;",
          "  }",
          "",
          "  void flush() {",
          "    resolveCache.clear();",
          "  }",
          "}"
        },
        "import java.lang.reflect.Method;",
        "import java.util.Map;",
        "import java.util.Objects;",
        "import java.util.concurrent.ConcurrentHashMap;",
        "class ReadResolveMethods {",
        "  private static final Object NO_METHOD = new Object();",
        "  // keyed by class name: one lookup per class",
        "  private final Map<String, Object> resolveCache =",
        "      new ConcurrentHashMap<String, Object>(64);",
        "",
        "  Method readResolveOf(Class<?> type) {",
        "    String key = Objects.requireNonNull(type.getName());",
        "    Object result = resolveCache.get(key);",
        "    if (result == null) {",
        "      try {",
        "        result = type.getDeclaredMethod(\"readResolve\");",
        "        result.hashCode();",
        "      } catch (NoSuchMethodException e) {",
        "        result = NO_METHOD;",
        "      }",
        "      resolveCache.put(key, result);",
        "    }",
        "    return result == NO_METHOD ? null : (Method) result;",
        "  }",
        "",
        "  void flush() {",
        "    resolveCache.clear();",
        "  }",
        "}");
  }

  @Test
  void aDoubleCheckedFillKeepsItsLockAndItsReadersStopQueuing() {
    fixAndCompile(
        new String[] {
          "import java.beans.IntrospectionException;",
          "import java.beans.Introspector;",
          "import java.beans.PropertyDescriptor;",
          "import java.util.Collections;",
          "import java.util.HashMap;",
          "import java.util.Map;",
          "import java.util.TreeMap;",
          "class PropertyIndex {",
          "  private final Map<Class<?>, Map<String, PropertyDescriptor>> byClass =",
          "      Collections.synchronizedMap(new HashMap<>());",
          "",
          "  Map<String, PropertyDescriptor> propertiesOf(Class<?> type)",
          "      throws IntrospectionException {",
          "    String prefix = type.getSimpleName() + '.';",
          "    if (!byClass.containsKey(type)) {",
          "      synchronized (byClass) {",
          "        if (!byClass.containsKey(type)) { // double check",
          "          Map<String, PropertyDescriptor> found = new TreeMap<>();",
          "          for (PropertyDescriptor d :",
          "              Introspector.getBeanInfo(type).getPropertyDescriptors()) {",
          "            found.put(prefix + d.getName(), d);",
          "          }",
          "          byClass.put(type, found);",
          "        }",
          "      }",
          "    }",
          "    return byClass.get(type);",
          "  }",
          "}"
        },
        "import java.beans.IntrospectionException;",
        "import java.beans.Introspector;",
        "import java.beans.PropertyDescriptor;",
        "import java.util.Map;",
        "import java.util.TreeMap;",
        "import java.util.concurrent.ConcurrentHashMap;",
        "class PropertyIndex {",
        "  private final Map<Class<?>, Map<String, PropertyDescriptor>> byClass =",
        "      new ConcurrentHashMap<>();",
        "",
        "  Map<String, PropertyDescriptor> propertiesOf(Class<?> type)",
        "      throws IntrospectionException {",
        "    String prefix = type.getSimpleName() + '.';",
        "    if (!byClass.containsKey(type)) {",
        "      synchronized (byClass) {",
        "        if (!byClass.containsKey(type)) { // double check",
        "          Map<String, PropertyDescriptor> found = new TreeMap<>();",
        "          for (PropertyDescriptor d :",
        "              Introspector.getBeanInfo(type).getPropertyDescriptors()) {",
        "            found.put(prefix + d.getName(), d);",
        "          }",
        "          byClass.put(type, found);",
        "        }",
        "      }",
        "    }",
        "    return byClass.get(type);",
        "  }",
        "}");
  }

  @Test
  void aHashtableIsRetypedAndItsNullRulesAlreadyHold() {
    fixAndCompile(
        new String[] {
          "import java.lang.reflect.Method;",
          "import java.util.Hashtable;",
          "class MethodMap {",
          "  private static final Object CACHE_MISS = new Object();",
          "  private final Hashtable<String, Object> methodCache = new Hashtable<>();",
          "  private final Class<?> type;",
          "",
          "  MethodMap(Class<?> type) {",
          "    this.type = type;",
          "  }",
          "",
          "  Method findMethod(String name) {",
          "    Object entry = methodCache.get(name);",
          "    if (entry == CACHE_MISS) {",
          "      return null;",
          "    }",
          "    if (entry == null) {",
          "      try {",
          "        entry = type.getMethod(name);",
          "      } catch (NoSuchMethodException e) {",
          "        methodCache.put(name, CACHE_MISS);",
          "        return null;",
          "      }",
          "      methodCache.put(name, entry);",
          "    }",
          "    return (Method) entry;",
          "  }",
          "}"
        },
        "import java.lang.reflect.Method;",
        "import java.util.concurrent.ConcurrentHashMap;",
        "class MethodMap {",
        "  private static final Object CACHE_MISS = new Object();",
        "  private final ConcurrentHashMap<String, Object> methodCache = new ConcurrentHashMap<>();",
        "  private final Class<?> type;",
        "",
        "  MethodMap(Class<?> type) {",
        "    this.type = type;",
        "  }",
        "",
        "  Method findMethod(String name) {",
        "    Object entry = methodCache.get(name);",
        "    if (entry == CACHE_MISS) {",
        "      return null;",
        "    }",
        "    if (entry == null) {",
        "      try {",
        "        entry = type.getMethod(name);",
        "      } catch (NoSuchMethodException e) {",
        "        methodCache.put(name, CACHE_MISS);",
        "        return null;",
        "      }",
        "      methodCache.put(name, entry);",
        "    }",
        "    return (Method) entry;",
        "  }",
        "}");
  }

  @Test
  void aKeyBuiltInAStringBufferAndASentinelFieldAreNeverNull() {
    // XStream 1.3's SerializationMethodInvoker: the key is a StringBuffer's toString(), a miss
    // caches a final field built with new Object(); the dataflow alone proves neither
    fixAndCompile(
        new String[] {
          "import java.lang.reflect.Method;",
          "import java.util.Collections;",
          "import java.util.HashMap;",
          "import java.util.Map;",
          "class SerializationMethodInvoker {",
          "  private final Map cache = Collections.synchronizedMap(new HashMap());",
          "  private static final Object NO_METHOD = new Object();",
          "",
          "  Method getMethod(Class type, String name, boolean includeBaseclasses) {",
          "    final String typeName = type.getName();",
          "    StringBuffer sb = new StringBuffer(typeName.length() + name.length() + 7);",
          "    sb.append(typeName).append('.').append(name).append('.').append(includeBaseclasses);",
          "    String key = sb.toString();",
          "    Object resultOb = cache.get(key);",
          "    if (resultOb != null) {",
          "      return (resultOb == NO_METHOD) ? null : ((Method) resultOb);",
          "    }",
          "    while (type != null) {",
          "      try {",
          "        Method result = type.getDeclaredMethod(name);",
          "        result.setAccessible(true);",
          "        cache.put(key, result);",
          "        return result;",
          "      } catch (NoSuchMethodException e) {",
          "        type = includeBaseclasses ? type.getSuperclass() : null;",
          "      }",
          "    }",
          "    cache.put(key, NO_METHOD);",
          "    return null;",
          "  }",
          "}"
        },
        "import java.lang.reflect.Method;",
        "import java.util.Map;",
        "import java.util.concurrent.ConcurrentHashMap;",
        "class SerializationMethodInvoker {",
        "  private final Map cache = new ConcurrentHashMap();",
        "  private static final Object NO_METHOD = new Object();",
        "",
        "  Method getMethod(Class type, String name, boolean includeBaseclasses) {",
        "    final String typeName = type.getName();",
        "    StringBuffer sb = new StringBuffer(typeName.length() + name.length() + 7);",
        "    sb.append(typeName).append('.').append(name).append('.').append(includeBaseclasses);",
        "    String key = sb.toString();",
        "    Object resultOb = cache.get(key);",
        "    if (resultOb != null) {",
        "      return (resultOb == NO_METHOD) ? null : ((Method) resultOb);",
        "    }",
        "    while (type != null) {",
        "      try {",
        "        Method result = type.getDeclaredMethod(name);",
        "        result.setAccessible(true);",
        "        cache.put(key, result);",
        "        return result;",
        "      } catch (NoSuchMethodException e) {",
        "        type = includeBaseclasses ? type.getSuperclass() : null;",
        "      }",
        "    }",
        "    cache.put(key, NO_METHOD);",
        "    return null;",
        "  }",
        "}");
  }

  @Test
  void aWriteOutsideTheMapsOwnLockBlocksTheSwap() {
    compilation
        .addSourceLines(
            "PropertyIndex.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "class PropertyIndex {",
            "  private final Map<Class<?>, String> byClass =",
            "      Collections.synchronizedMap(new HashMap<>());",
            "  String describe(Class<?> type) {",
            "    String name = type.getName();",
            "    if (!byClass.containsKey(type)) {",
            "      // BUG: Diagnostic contains: is written by remove() at line 22 outside the"
                + " synchronized (byClass) blocks",
            "      synchronized (byClass) {",
            "        if (!byClass.containsKey(type)) {",
            "          String text = name + '@' + type.getModifiers();",
            "          text = text.intern();",
            "          byClass.put(type, text);",
            "        }",
            "      }",
            "    }",
            "    return byClass.get(type);",
            "  }",
            "  void forget(Class<?> type) {",
            "    byClass.remove(type.getClass());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aLockedBlockThatWritesTwiceBlocksTheSwap() {
    // readers outside the block waited for both writes; on a ConcurrentHashMap they would see
    // the alias without its canonical entry
    compilation
        .addSourceLines(
            "Aliases.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "class Aliases {",
            "  private final Map<String, String> canonical =",
            "      Collections.synchronizedMap(new HashMap<>());",
            "  String canonicalOf(String alias) {",
            "    String lower = alias.toLowerCase();",
            "    if (!canonical.containsKey(alias)) {",
            "      // BUG: Diagnostic contains: a synchronized (canonical) block writes it twice"
                + " (again at line 15)",
            "      synchronized (canonical) {",
            "        if (!canonical.containsKey(alias)) {",
            "          String name = lower.trim();",
            "          canonical.put(alias, name);",
            "          canonical.put(lower, name);",
            "        }",
            "      }",
            "    }",
            "    return canonical.get(alias);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void iterationOrANullValueBlocksTheSwap() {
    compilation
        .addSourceLines(
            "Registry.java",
            "import java.util.ArrayList;",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "class Registry {",
            "  private final Map<String, Object> byName = Collections.synchronizedMap(new HashMap<>());",
            "  private final Map<String, Object> loaded = Collections.synchronizedMap(new HashMap<>());",
            "  // BUG: Diagnostic contains: the value of put() at line 15 may be null",
            "  Object lookup(String name) {",
            "    if (name == null) throw new IllegalArgumentException();",
            "    Object found = byName.get(name);",
            "    if (found == null) {",
            "      found = name.isEmpty() ? null : name.trim();",
            "      byName.put(name, found);",
            "    }",
            "    return found;",
            "  }",
            "  // BUG: Diagnostic contains: 'loaded' is also used at line 31 by keySet(), which is"
                + " not one atomic step",
            "  Object load(String name) {",
            "    if (name == null) throw new IllegalArgumentException();",
            "    Object found = loaded.get(name);",
            "    if (found == null) {",
            "      found = new StringBuilder(name).reverse();",
            "      found.hashCode();",
            "      loaded.put(name, found);",
            "    }",
            "    return found;",
            "  }",
            "  List<String> names() {",
            "    return new ArrayList<>(loaded.keySet());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aWeakKeyedMapGetsItsOwnCureOnce() {
    // the swap is no cure for weak keys: the message names the weak-keyed cure, and only once
    compilation
        .addSourceLines(
            "Factories.java",
            "import java.util.Collections;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "class Factories {",
            "  private static final Map<ClassLoader, StringBuilder> PER_LOADER =",
            "      Collections.synchronizedMap(new WeakHashMap<>());",
            "  // BUG: Diagnostic matches: WEAK",
            "  static StringBuilder forLoader(ClassLoader loader) {",
            "    StringBuilder factory = PER_LOADER.get(loader);",
            "    if (factory == null) {",
            "      factory = new StringBuilder(loader.getName());",
            "      factory.append('/');",
            "      PER_LOADER.put(loader, factory);",
            "    }",
            "    return factory;",
            "  }",
            "}")
        .expectErrorMessage(
            "WEAK",
            m ->
                m.contains("holds its keys weakly")
                    && !m.contains("just become a ConcurrentHashMap"))
        .doTest();
  }

  @Test
  void aLookupThatAlwaysHoldsALockGetsNoSwap() {
    compilation
        .addSourceLines(
            "Templates.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "class Templates {",
            "  private final Map<String, String> compiled = Collections.synchronizedMap(new"
                + " HashMap<>());",
            // every reader takes the object's lock first: a concurrent map alone changes nothing
            "  // BUG: Diagnostic contains: (No automatic fix: the locked code does more than read"
                + " 'compiled', test for a miss and put a newly built value (the one shape lockjaw"
                + " rewrites).)",
            "  synchronized String compile(String source) {",
            "    if (source == null) throw new IllegalArgumentException();",
            "    String result = compiled.get(source);",
            "    if (result == null) {",
            "      String trimmed = source.trim();",
            "      result = trimmed.toUpperCase();",
            "      compiled.put(source, result);",
            "    }",
            "    return result;",
            "  }",
            "}")
        .doTest();
  }

  private void fixAndCompile(String[] input, String... output) {
    refactoring
        .addInputLines("Input.java", input)
        .addOutputLines("Input.java", output)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
    compilation.addSourceLines("Input.java", output).doTest();
  }
}
