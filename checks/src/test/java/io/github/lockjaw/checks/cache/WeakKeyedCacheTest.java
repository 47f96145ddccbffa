package io.github.lockjaw.checks.cache;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: a locked cache whose map holds its keys weakly (a {@code WeakHashMap} keyed by classes
 * or class loaders) is not cured by a ConcurrentHashMap, which would keep every key alive. For
 * class keys the fix is a {@code ClassValue}; for other keys the message names a concurrent
 * weak-keyed map and offers no rewrite.
 */
class WeakKeyedCacheTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(SynchronizedMapCache.class, getClass());

  @Test
  void aClassKeyedWeakHashMapBecomesAClassValue() {
    refactoring
        .addInputLines(
            "BeanAccessors.java",
            "import java.lang.reflect.Method;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class BeanAccessors {",
            "  static final class Accessors {",
            "    final Method[] methods;",
            "    Accessors(Class<?> type) {",
            "      this.methods = type.getMethods();",
            "    }",
            "  }",
            "  private static final Map<Class<?>, Accessors> ACCESSORS = new WeakHashMap<>();",
            "  public static Accessors of(Class<?> type) {",
            "    synchronized (ACCESSORS) {",
            "      // introspected once per class, as long as the class is loaded",
            "      Accessors accessors = ACCESSORS.get(type);",
            "      if (accessors == null) {",
            "        accessors = new Accessors(type);",
            "        ACCESSORS.put(type, accessors);",
            "      }",
            "      return accessors;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "BeanAccessors.java",
            "import java.lang.reflect.Method;",
            "public class BeanAccessors {",
            "  static final class Accessors {",
            "    final Method[] methods;",
            "    Accessors(Class<?> type) {",
            "      this.methods = type.getMethods();",
            "    }",
            "  }",
            "  private static final ClassValue<Accessors> ACCESSORS = new ClassValue<Accessors>() {",
            "    @Override",
            "    protected Accessors computeValue(Class<?> type) {",
            "      return new Accessors(type);",
            "    }",
            "  };",
            "  public static Accessors of(Class<?> type) {",
            "    // introspected once per class, as long as the class is loaded",
            "    return ACCESSORS.get(type);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /** A static synchronized method holds the class's monitor: ClassMonitorCache's finding. */
  @Test
  void aStaticSynchronizedMethodOverASynchronizedWeakHashMapBecomesAClassValue() {
    BugCheckerRefactoringTestHelper.newInstance(ClassMonitorCache.class, getClass())
        .addInputLines(
            "Converters.java",
            "import java.util.Collections;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class Converters {",
            "  record Converter(String name) {}",
            "  private static final Map<Class<?>, Converter> BY_TYPE =",
            "      Collections.synchronizedMap(new WeakHashMap<>());",
            "  static synchronized Converter forType(Class<?> type) {",
            "    Converter converter = BY_TYPE.get(type);",
            "    if (converter == null) {",
            "      converter = new Converter(type.getName());",
            "      BY_TYPE.put(type, converter);",
            "    }",
            "    return converter;",
            "  }",
            "}")
        .addOutputLines(
            "Converters.java",
            "public class Converters {",
            "  record Converter(String name) {}",
            "  private static final ClassValue<Converter> BY_TYPE = new ClassValue<Converter>() {",
            "    @Override",
            "    protected Converter computeValue(Class<?> type) {",
            "      return new Converter(type.getName());",
            "    }",
            "  };",
            "  static Converter forType(Class<?> type) {",
            "    return BY_TYPE.get(type);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void classLoaderKeysGetTheWeakMapCureAndNoRewrite() {
    compilation
        .addSourceLines(
            "PluginRegistry.java",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class PluginRegistry {",
            "  record Plugins(ClassLoader loader) {}",
            "  private static final Map<ClassLoader, Plugins> BY_LOADER = new WeakHashMap<>();",
            "  static Plugins of(ClassLoader loader) {",
            "    // BUG: Diagnostic matches: MSG",
            "    synchronized (BY_LOADER) {",
            "      Plugins plugins = BY_LOADER.get(loader);",
            "      if (plugins == null) {",
            "        plugins = new Plugins(loader);",
            "        BY_LOADER.put(loader, plugins);",
            "      }",
            "      return plugins;",
            "    }",
            "  }",
            "}")
        .expectErrorMessage(
            "MSG",
            m ->
                m.contains("a ConcurrentHashMap would keep every key alive")
                    && m.contains("its keys are not classes, so ClassValue does not apply")
                    && !m.contains("Make the map a ConcurrentHashMap"))
        .doTest();
  }

  @Test
  void noClassValueWhenTheValueUsesAnInstanceField() {
    compilation
        .addSourceLines(
            "Schemas.java",
            "import java.util.Map;",
            "import java.util.Objects;",
            "import java.util.WeakHashMap;",
            "public class Schemas {",
            "  record Schema(Class<?> type, String dialect) {}",
            "  private static final Map<Class<?>, Schema> SCHEMAS = new WeakHashMap<>();",
            "  private final String dialect = \"h2\";",
            "  Schema of(Class<?> type) {",
            "    Objects.requireNonNull(type, \"type\");",
            "    // BUG: Diagnostic contains: building the value uses 'dialect', which a ClassValue",
            "    synchronized (SCHEMAS) {",
            "      Schema schema = SCHEMAS.get(type);",
            "      if (schema == null) {",
            "        schema = new Schema(type, dialect);",
            "        SCHEMAS.put(type, schema);",
            "      }",
            "      return schema;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noClassValueWhenBuildingTheValueWritesAStaticField() {
    compilation
        .addSourceLines(
            "Mappers.java",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class Mappers {",
            "  static int built;",
            "  static final class Mapper {",
            "    Mapper(Class<?> type) {",
            "      built++;",
            "    }",
            "  }",
            "  private static final Map<Class<?>, Mapper> MAPPERS = new WeakHashMap<>();",
            "  static Mapper of(Class<?> type) {",
            "    if (type == null) {",
            "      throw new IllegalArgumentException(\"no type\");",
            "    }",
            "    // BUG: Diagnostic contains: writes a static field, and a ClassValue may build it",
            "    synchronized (MAPPERS) {",
            "      Mapper mapper = MAPPERS.get(type);",
            "      if (mapper == null) {",
            "        mapper = new Mapper(type);",
            "        MAPPERS.put(type, mapper);",
            "      }",
            "      return mapper;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  /**
   * Reading a static field (a negated flag) while building the value is no write: the fix stands.
   */
  @Test
  void aStaticFieldReadWhileBuildingTheValueIsNoWrite() {
    refactoring
        .addInputLines(
            "Describers.java",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class Describers {",
            "  static final boolean VERBOSE = Boolean.getBoolean(\"describers.verbose\");",
            "  static final class Describer {",
            "    final boolean brief;",
            "    Describer(Class<?> type) {",
            "      String name = type.getName();",
            "      this.brief = !VERBOSE && name.length() < 8;",
            "    }",
            "  }",
            "  private static final Map<Class<?>, Describer> DESCRIBERS = new WeakHashMap<>();",
            "  static Describer of(Class<?> type) {",
            "    synchronized (DESCRIBERS) {",
            "      Describer describer = DESCRIBERS.get(type);",
            "      if (describer == null) {",
            "        describer = new Describer(type);",
            "        DESCRIBERS.put(type, describer);",
            "      }",
            "      return describer;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Describers.java",
            "public class Describers {",
            "  static final boolean VERBOSE = Boolean.getBoolean(\"describers.verbose\");",
            "  static final class Describer {",
            "    final boolean brief;",
            "    Describer(Class<?> type) {",
            "      String name = type.getName();",
            "      this.brief = !VERBOSE && name.length() < 8;",
            "    }",
            "  }",
            "  private static final ClassValue<Describer> DESCRIBERS = new ClassValue<Describer>() {",
            "    @Override",
            "    protected Describer computeValue(Class<?> type) {",
            "      return new Describer(type);",
            "    }",
            "  };",
            "  static Describer of(Class<?> type) {",
            "    return DESCRIBERS.get(type);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /** A key dereferenced only in an anonymous class the constructor builds proves nothing. */
  @Test
  void aDereferenceInsideAnAnonymousClassIsNoNullProof() {
    compilation
        .addSourceLines(
            "Probes.java",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class Probes {",
            "  static final class Probe {",
            "    final Runnable check;",
            "    Probe(Class<?> type) {",
            "      this.check = new Runnable() {",
            "        @Override public void run() { type.getName(); }",
            "      };",
            "    }",
            "  }",
            "  private static final Map<Class<?>, Probe> PROBES = new WeakHashMap<>();",
            "  static Probe of(Class<?> type) {",
            "    // BUG: Diagnostic contains: the key 'type' may be null",
            "    synchronized (PROBES) {",
            "      Probe probe = PROBES.get(type);",
            "      if (probe == null) {",
            "        probe = new Probe(type);",
            "        PROBES.put(type, probe);",
            "      }",
            "      return probe;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noClassValueWhenTheMapIsClearedElsewhere() {
    compilation
        .addSourceLines(
            "Introspector.java",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class Introspector {",
            "  record Info(String name) {}",
            "  private static final Map<Class<?>, Info> INFOS = new WeakHashMap<>();",
            "  static Info of(Class<?> type) {",
            "    // BUG: Diagnostic contains: is also used at line 18, and a ClassValue offers only",
            "    synchronized (INFOS) {",
            "      Info info = INFOS.get(type);",
            "      if (info == null) {",
            "        info = new Info(type.getSimpleName());",
            "        INFOS.put(type, info);",
            "      }",
            "      return info;",
            "    }",
            "  }",
            "  static synchronized void flush() {",
            "    INFOS.clear();",
            "  }",
            "}")
        .doTest();
  }
}
