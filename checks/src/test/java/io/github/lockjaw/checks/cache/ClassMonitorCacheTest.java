package io.github.lockjaw.checks.cache;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class ClassMonitorCacheTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(ClassMonitorCache.class, getClass());

  // ---------------------------------------------------------------- positives

  @Test
  void ibatisClassInfoLockedOnTheClassArgument() {
    compilation
        .addSourceLines(
            "ClassInfo.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());",
            "  private final String className;",
            "  private ClassInfo(Class clazz) { className = clazz.getName(); }",
            "  public static ClassInfo getInstance(Class clazz) {",
            "    // BUG: Diagnostic contains: Cache lookup on 'CLASS_INFO_MAP' holds the monitor of 'clazz'",
            "    synchronized (clazz) {",
            "      ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo(clazz);",
            "        CLASS_INFO_MAP.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void classLiteralMonitorAroundContainsKeyThenPut() {
    compilation
        .addSourceLines(
            "TemplateRegistry.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class TemplateRegistry {",
            "  private static final Map<String, String> TEMPLATES = new HashMap<>();",
            "  public String template(String name) {",
            "    // BUG: Diagnostic contains: ConcurrentHashMap",
            "    synchronized (TemplateRegistry.class) {",
            "      if (!TEMPLATES.containsKey(name)) {",
            "        TEMPLATES.put(name, load(name));",
            "      }",
            "      return TEMPLATES.get(name);",
            "    }",
            "  }",
            "  private String load(String name) { return \"<html>\" + name + \"</html>\"; }",
            "}")
        .doTest();
  }

  @Test
  void getClassMonitorAroundInstanceCache() {
    compilation
        .addSourceLines(
            "ConverterLookup.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ConverterLookup {",
            "  private final Map<Class<?>, Object> converters = new HashMap<>();",
            "  public Object converterFor(Class<?> type) {",
            "    // BUG: Diagnostic contains: the monitor of 'getClass()'",
            "    synchronized (getClass()) {",
            "      Object converter = this.converters.get(type);",
            "      if (converter == null) {",
            "        converter = new Object();",
            "        this.converters.put(type, converter);",
            "      }",
            "      return converter;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void staticSynchronizedFactoryCache() {
    compilation
        .addSourceLines(
            "Currency.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public final class Currency {",
            "  private static final Map<String, Currency> BY_CODE = new HashMap<>();",
            "  private final String code;",
            "  private Currency(String code) { this.code = code; }",
            "  // BUG: Diagnostic contains: the class monitor (static synchronized)",
            "  public static synchronized Currency of(String code) {",
            "    Currency currency = BY_CODE.get(code);",
            "    if (currency == null) {",
            "      currency = new Currency(code);",
            "      BY_CODE.put(code, currency);",
            "    }",
            "    return currency;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void staticSynchronizedWithEarlyReturn() {
    compilation
        .addSourceLines(
            "DialectResolver.java",
            "import java.util.Hashtable;",
            "public class DialectResolver {",
            "  private static Hashtable<String, String> dialects = new Hashtable<>();",
            "  // BUG: Diagnostic contains: ClassValue",
            "  static synchronized String resolve(String url) {",
            "    String dialect = dialects.get(url);",
            "    if (dialect != null) {",
            "      return dialect;",
            "    }",
            "    dialect = url.startsWith(\"jdbc:mysql\") ? \"mysql\" : \"ansi\";",
            "    dialects.put(url, dialect);",
            "    return dialect;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void nestedStaticClassLockingOnClassParameter() {
    compilation
        .addSourceLines(
            "Reflection.java",
            "import java.lang.reflect.Method;",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Reflection {",
            "  static class MethodCache {",
            "    private static final Map<Class<?>, Method[]> METHODS =",
            "        Collections.synchronizedMap(new HashMap<Class<?>, Method[]>());",
            "    static Method[] methodsOf(Class<?> type) {",
            "      // BUG: Diagnostic contains: 'METHODS'",
            "      synchronized (type) {",
            "        Method[] methods = METHODS.get(type);",
            "        if (methods == null) {",
            "          methods = type.getDeclaredMethods();",
            "          METHODS.put(type, methods);",
            "        }",
            "        return methods;",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void recordWithStaticSynchronizedInterning() {
    compilation
        .addSourceLines(
            "Sku.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public record Sku(String value) {",
            "  private static final Map<String, Sku> INTERNED = new HashMap<>();",
            "  // BUG: Diagnostic contains: ClassMonitorCache",
            "  public static synchronized Sku of(String value) {",
            "    Sku sku = INTERNED.get(value);",
            "    if (sku == null) {",
            "      sku = new Sku(value);",
            "      INTERNED.put(value, sku);",
            "    }",
            "    return sku;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void lambdaComputingTheValueInsideTheLock() {
    compilation
        .addSourceLines(
            "SerializerCache.java",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.function.Function;",
            "public class SerializerCache {",
            "  private static final Map<Class<?>, Function<Object, String>> SERIALIZERS = new HashMap<>();",
            "  static Function<Object, String> serializerFor(Class<?> type, List<String> prefixes) {",
            "    // BUG: Diagnostic contains: No automatic fix",
            "    synchronized (SerializerCache.class) {",
            "      Function<Object, String> serializer = SERIALIZERS.get(type);",
            "      if (serializer == null) {",
            "        serializer = o -> prefixes.get(0) + o;",
            "        SERIALIZERS.put(type, serializer);",
            "      }",
            "      return serializer;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void anonymousClassMethodLockingOnClassLiteral() {
    compilation
        .addSourceLines(
            "Plugins.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.function.Function;",
            "public class Plugins {",
            "  private static final Map<String, Object> LOADED = new HashMap<>();",
            "  final Function<String, Object> loader = new Function<String, Object>() {",
            "    @Override public Object apply(String name) {",
            "      // BUG: Diagnostic contains: ClassMonitorCache",
            "      synchronized (Plugins.class) {",
            "        Object plugin = LOADED.get(name);",
            "        if (plugin == null) {",
            "          plugin = new Object();",
            "          LOADED.put(name, plugin);",
            "        }",
            "        return plugin;",
            "      }",
            "    }",
            "  };",
            "}")
        .doTest();
  }

  @Test
  void assignmentInsideTheNullCheck() {
    compilation
        .addSourceLines(
            "MetadataCache.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class MetadataCache {",
            "  private static final Map<Class<?>, String> TABLE_NAMES = new HashMap<>();",
            "  static String tableName(Class<? extends Object> entity) {",
            "    String name;",
            "    // BUG: Diagnostic contains: ClassMonitorCache",
            "    synchronized (entity) {",
            "      if ((name = TABLE_NAMES.get(entity)) == null) {",
            "        name = entity.getSimpleName().toLowerCase();",
            "        TABLE_NAMES.put(entity, name);",
            "      }",
            "    }",
            "    return name;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void rawTypesAndThisQualifiedField() {
    compilation
        .addSourceLines(
            "BeanInfoCache.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class BeanInfoCache {",
            "  private Map infos = new HashMap();",
            "  public Object info(Class beanClass) {",
            "    // BUG: Diagnostic contains: 'infos'",
            "    synchronized (beanClass) {",
            "      if (this.infos.get(beanClass) == null) {",
            "        this.infos.put(beanClass, new Object());",
            "      }",
            "      return this.infos.get(beanClass);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---------------------------------------------------------------- negatives

  @Test
  void classLockAroundOneTimeInitialisation() {
    compilation
        .addSourceLines(
            "ConnectionFactory.java",
            "public class ConnectionFactory {",
            "  private static ConnectionFactory instance;",
            "  public static ConnectionFactory getInstance() {",
            "    synchronized (ConnectionFactory.class) {",
            "      if (instance == null) {",
            "        instance = new ConnectionFactory();",
            "      }",
            "      return instance;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void concurrentHashMapUnderTheClassLockStillQueuesOnTheLock() {
    compilation
        .addSourceLines(
            "ClassInfo.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class ClassInfo {",
            "  private static final Map<Class<?>, ClassInfo> CACHE = new ConcurrentHashMap<>();",
            "  public static ClassInfo getInstance(Class<?> clazz) {",
            "    // BUG: Diagnostic contains: Cache lookup on 'CACHE' holds the monitor of 'clazz'",
            "    synchronized (clazz) {",
            "      ClassInfo cached = CACHE.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo();",
            "        CACHE.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void privateLockObjectBelongsToOtherChecks() {
    compilation
        .addSourceLines(
            "PriceCache.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class PriceCache {",
            "  private final Object lock = new Object();",
            "  private final Map<String, Long> prices = new HashMap<>();",
            "  Long price(String sku) {",
            "    synchronized (lock) {",
            "      Long price = prices.get(sku);",
            "      if (price == null) {",
            "        price = 100L;",
            "        prices.put(sku, price);",
            "      }",
            "      return price;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void instanceSynchronizedMethodBelongsToOtherChecks() {
    compilation
        .addSourceLines(
            "SessionCache.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class SessionCache {",
            "  private final Map<String, Object> sessions = new HashMap<>();",
            "  synchronized Object session(String id) {",
            "    Object session = sessions.get(id);",
            "    if (session == null) {",
            "      session = new Object();",
            "      sessions.put(id, session);",
            "    }",
            "    return session;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void registrationOnlyPuts() {
    compilation
        .addSourceLines(
            "Drivers.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Drivers {",
            "  private static final Map<String, String> DRIVERS = new HashMap<>();",
            "  static synchronized void register(String scheme, String driverClass) {",
            "    DRIVERS.put(scheme, driverClass);",
            "  }",
            "  static synchronized String lookup(String scheme) {",
            "    return DRIVERS.get(scheme);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void duplicateCheckThatThrowsIsARegistryNotACache() {
    compilation
        .addSourceLines(
            "Routes.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Routes {",
            "  private static final Map<String, Runnable> ROUTES = new HashMap<>();",
            "  static synchronized void add(String path, Runnable handler) {",
            "    Runnable existing = ROUTES.get(path);",
            "    if (existing != null) {",
            "      throw new IllegalStateException(\"duplicate route \" + path + \": \" + existing);",
            "    }",
            "    ROUTES.put(path, handler);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void counterIncrementIsNotALookup() {
    compilation
        .addSourceLines(
            "HitCounter.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class HitCounter {",
            "  private static final Map<String, Integer> HITS = new HashMap<>();",
            "  static synchronized void hit(String page) {",
            "    Integer hits = HITS.get(page);",
            "    HITS.put(page, hits == null ? 1 : hits + 1);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void localMapInsideStaticSynchronizedMethod() {
    compilation
        .addSourceLines(
            "Report.java",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "public class Report {",
            "  static synchronized Map<String, Integer> firstIndex(List<String> words) {",
            "    Map<String, Integer> index = new HashMap<>();",
            "    for (int i = 0; i < words.size(); i++) {",
            "      Integer seen = index.get(words.get(i));",
            "      if (seen == null) {",
            "        index.put(words.get(i), i);",
            "      }",
            "    }",
            "    return index;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void lookupInLambdaRunsOutsideTheLock() {
    compilation
        .addSourceLines(
            "AsyncLoader.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.concurrent.Callable;",
            "public class AsyncLoader {",
            "  private static final Map<String, String> CACHE = new HashMap<>();",
            "  static Callable<String> loader(String key) {",
            "    synchronized (AsyncLoader.class) {",
            "      return () -> {",
            "        String value = CACHE.get(key);",
            "        if (value == null) {",
            "          value = key.toUpperCase();",
            "          CACHE.put(key, value);",
            "        }",
            "        return value;",
            "      };",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void putIfMissingWithoutReadingTheValue() {
    compilation
        .addSourceLines(
            "Defaults.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Defaults {",
            "  private static final Map<String, String> SETTINGS = new HashMap<>();",
            "  static synchronized void ensureDefault(String key, String value) {",
            "    if (SETTINGS.get(key) == null) {",
            "      SETTINGS.put(key, value);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void suppressedWithSuppressWarnings() {
    compilation
        .addSourceLines(
            "Legacy.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Legacy {",
            "  private static final Map<String, Object> CACHE = new HashMap<>();",
            "  @SuppressWarnings(\"ClassMonitorCache\")",
            "  static synchronized Object get(String key) {",
            "    Object value = CACHE.get(key);",
            "    if (value == null) {",
            "      value = new Object();",
            "      CACHE.put(key, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void switchedOffWithXepFlag() {
    compilation
        .setArgs("-Xep:ClassMonitorCache:OFF")
        .addSourceLines(
            "Legacy.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Legacy {",
            "  private static final Map<String, Object> CACHE = new HashMap<>();",
            "  static synchronized Object get(String key) {",
            "    Object value = CACHE.get(key);",
            "    if (value == null) {",
            "      value = new Object();",
            "      CACHE.put(key, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void modernJavaShapesDoNotCrash() {
    compilation
        .addSourceLines(
            "Shapes.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Shapes {",
            "  sealed interface Shape permits Circle, Square {}",
            "  record Circle(double r) implements Shape {}",
            "  record Square(double side) implements Shape {}",
            "  private static final Map<Shape, Double> AREAS = new HashMap<>();",
            "  static synchronized double area(Shape shape) {",
            "    return switch (shape) {",
            "      case Circle c when c.r() > 0 -> Math.PI * c.r() * c.r();",
            "      case Circle c -> 0;",
            "      case Square s -> s.side() * s.side();",
            "    };",
            "  }",
            "  static double cached(Object o) {",
            "    synchronized (Shapes.class) {",
            "      if (o instanceof Shape s && AREAS.containsKey(s)) {",
            "        return AREAS.get(s);",
            "      }",
            "      return 0;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---------------------------------------------------------------- fixes

  @Test
  void fixesIbatisShapeAndDropsUnusedImports() {
    refactoring
        .addInputLines(
            "ClassInfo.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());",
            "  private final String className;",
            "  private ClassInfo(Class clazz) { className = clazz.getName(); }",
            "  public static ClassInfo getInstance(Class clazz) {",
            "    synchronized (clazz) {",
            "      ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo(clazz);",
            "        CLASS_INFO_MAP.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "ClassInfo.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = new ConcurrentHashMap();",
            "  private final String className;",
            "  private ClassInfo(Class clazz) { className = clazz.getName(); }",
            "  public static ClassInfo getInstance(Class clazz) {",
            "    return (ClassInfo) CLASS_INFO_MAP.computeIfAbsent(clazz, k -> new ClassInfo(clazz));",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixesStaticSynchronizedMethodAndKeepsDiamond() {
    refactoring
        .addInputLines(
            "Currency.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public final class Currency {",
            "  private static final Map<Character, Currency> BY_SYMBOL = new HashMap<>(8);",
            "  private final char symbol;",
            "  private Currency(char symbol) { this.symbol = symbol; }",
            "  public static synchronized Currency of(char symbol) {",
            "    Currency currency = BY_SYMBOL.get(symbol);",
            "    if (currency == null) {",
            "      currency = new Currency(symbol);",
            "      BY_SYMBOL.put(symbol, currency);",
            "    }",
            "    return currency;",
            "  }",
            "}")
        .addOutputLines(
            "Currency.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public final class Currency {",
            "  private static final Map<Character, Currency> BY_SYMBOL = new ConcurrentHashMap<>(8);",
            "  private final char symbol;",
            "  private Currency(char symbol) { this.symbol = symbol; }",
            "  public static Currency of(char symbol) {",
            "    return BY_SYMBOL.computeIfAbsent(symbol, k -> new Currency(symbol));",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixesContainsKeyShapeOnClassParameter() {
    refactoring
        .addInputLines(
            "EntityMetadata.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class EntityMetadata {",
            "  private static final Map<Class<?>, EntityMetadata> CACHE =",
            "      Collections.synchronizedMap(new HashMap<Class<?>, EntityMetadata>());",
            "  private final String table;",
            "  EntityMetadata(Class<?> type) { table = type.getSimpleName(); }",
            "  static EntityMetadata forType(Class<?> type) {",
            "    synchronized (type) {",
            "      if (!CACHE.containsKey(type)) {",
            "        CACHE.put(type, new EntityMetadata(type));",
            "      }",
            "      return CACHE.get(type);",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "EntityMetadata.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class EntityMetadata {",
            "  private static final Map<Class<?>, EntityMetadata> CACHE =",
            "      new ConcurrentHashMap<Class<?>, EntityMetadata>();",
            "  private final String table;",
            "  EntityMetadata(Class<?> type) { table = type.getSimpleName(); }",
            "  static EntityMetadata forType(Class<?> type) {",
            "    return CACHE.computeIfAbsent(type, EntityMetadata::new);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixesHashtableFieldTypeAndAssignmentShape() {
    refactoring
        .addInputLines(
            "Formatters.java",
            "import java.util.Hashtable;",
            "public class Formatters {",
            "  private static final Hashtable<String, StringBuilder> BUFFERS = new Hashtable<>();",
            "  static int width(String name) {",
            "    StringBuilder buffer;",
            "    synchronized (Formatters.class) {",
            "      buffer = BUFFERS.get(name);",
            "      if (buffer == null) {",
            "        buffer = new StringBuilder(name);",
            "        BUFFERS.put(name, buffer);",
            "      }",
            "    }",
            "    return buffer.length();",
            "  }",
            "}")
        .addOutputLines(
            "Formatters.java",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Formatters {",
            "  private static final ConcurrentHashMap<String, StringBuilder> BUFFERS =",
            "      new ConcurrentHashMap<>();",
            "  static int width(String name) {",
            "    StringBuilder buffer;",
            "    buffer = BUFFERS.computeIfAbsent(name, StringBuilder::new);",
            "    return buffer.length();",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void noFixWhenTheKeyMayBeNull() {
    refactoring
        .addInputLines(
            "Currency.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public final class Currency {",
            "  private static final Map<String, Currency> BY_CODE = new HashMap<>();",
            "  private Currency(String code) {}",
            "  public static synchronized Currency of(String code) {",
            "    Currency currency = BY_CODE.get(code);",
            "    if (currency == null) {",
            "      currency = new Currency(code);",
            "      BY_CODE.put(code, currency);",
            "    }",
            "    return currency;",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenTheConstructorCallsBackIntoTheCache() {
    refactoring
        .addInputLines(
            "TypeInfo.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class TypeInfo {",
            "  private static final Map<Class<?>, TypeInfo> INFOS = new HashMap<>();",
            "  private final TypeInfo parent;",
            "  private TypeInfo(Class<?> type) {",
            "    parent = type.getSuperclass() == null ? null : forType(type.getSuperclass());",
            "  }",
            "  static TypeInfo forType(Class<?> type) {",
            "    synchronized (type) {",
            "      TypeInfo info = INFOS.get(type);",
            "      if (info == null) {",
            "        info = new TypeInfo(type);",
            "        INFOS.put(type, info);",
            "      }",
            "      return info;",
            "    }",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenTheMapIsIteratedElsewhere() {
    refactoring
        .addInputLines(
            "ClassInfo.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ClassInfo {",
            "  private static final Map<Class<?>, ClassInfo> CACHE = Collections.synchronizedMap(new HashMap<>());",
            "  static ClassInfo getInstance(Class<?> clazz) {",
            "    synchronized (clazz) {",
            "      ClassInfo cached = CACHE.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo();",
            "        CACHE.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "  static int describe(StringBuilder out) {",
            "    synchronized (CACHE) {",
            "      for (Class<?> c : CACHE.keySet()) { out.append(c.getName()); }",
            "    }",
            "    return out.length();",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixForInsertionOrderedMaps() {
    refactoring
        .addInputLines(
            "Lru.java",
            "import java.util.LinkedHashMap;",
            "import java.util.Map;",
            "public class Lru {",
            "  private static final Map<Class<?>, Object> RECENT = new LinkedHashMap<>();",
            "  static synchronized Object get(Class<?> type) {",
            "    Object value = RECENT.get(type);",
            "    if (value == null) {",
            "      value = new Object();",
            "      RECENT.put(type, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void aConcurrentMapUnderTheClassLockLosesTheLockAndFillsWithComputeIfAbsent() {
    refactoring
        .addInputLines(
            "ClassInfo.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class ClassInfo {",
            "  private static final Map<Class<?>, ClassInfo> CACHE = new ConcurrentHashMap<>();",
            "  private final Class<?> type;",
            "  private ClassInfo(Class<?> type) {",
            "    this.type = type;",
            "  }",
            "  public static ClassInfo getInstance(Class<?> clazz) {",
            "    synchronized (clazz) {",
            "      ClassInfo cached = CACHE.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo(clazz);",
            "        CACHE.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "ClassInfo.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class ClassInfo {",
            "  private static final Map<Class<?>, ClassInfo> CACHE = new ConcurrentHashMap<>();",
            "  private final Class<?> type;",
            "  private ClassInfo(Class<?> type) {",
            "    this.type = type;",
            "  }",
            "  public static ClassInfo getInstance(Class<?> clazz) {",
            "    return CACHE.computeIfAbsent(clazz, ClassInfo::new);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void aConcurrentMapUnderTheClassLockIsMessagedAsAlreadyConcurrent() {
    compilation
        .addSourceLines(
            "Converters.java",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Converters {",
            "  private static final ConcurrentHashMap<Class<?>, String> NAMES = new ConcurrentHashMap<>();",
            "  // BUG: Diagnostic contains: The map is already concurrent: the lock is the bottleneck",
            "  static synchronized String nameOf(Class<?> type) {",
            "    String name = NAMES.get(type);",
            "    if (name == null) {",
            "      name = new String(type.getName());",
            "      NAMES.put(type, name);",
            "    }",
            "    return name;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noRewriteOfAConcurrentMapWhenOtherCodeMakesCompoundUpdatesUnderTheLock() {
    // reload() replaces an entry in two steps under the same Class lock; without the lock in the
    // lookup, a computeIfAbsent could run between its remove and its put
    refactoring
        .addInputLines(
            "Schemas.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Schemas {",
            "  private static final Map<Class<?>, Schema> SCHEMAS = new ConcurrentHashMap<>();",
            "  static final class Schema {",
            "    Schema(Class<?> type) {}",
            "  }",
            "  static Schema of(Class<?> type) {",
            "    synchronized (Schemas.class) {",
            "      Schema schema = SCHEMAS.get(type);",
            "      if (schema == null) {",
            "        schema = new Schema(type);",
            "        SCHEMAS.put(type, schema);",
            "      }",
            "      return schema;",
            "    }",
            "  }",
            "  static void reload(Class<?> type) {",
            "    synchronized (Schemas.class) {",
            "      SCHEMAS.remove(type);",
            "      SCHEMAS.put(type, new Schema(type));",
            "    }",
            "  }",
            "}")
        .expectUnchanged()
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void noRewriteOfAConcurrentSkipListMapWhoseComputeIfAbsentIsNotAtomic() {
    refactoring
        .addInputLines(
            "Ordered.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentSkipListMap;",
            "public class Ordered {",
            "  private static final Map<String, Ordered> BY_NAME = new ConcurrentSkipListMap<>();",
            "  private Ordered(String name) {}",
            "  static Ordered named(String name) {",
            "    synchronized (Ordered.class) {",
            "      Ordered found = BY_NAME.get(name);",
            "      if (found == null) {",
            "        found = new Ordered(name);",
            "        BY_NAME.put(name, found);",
            "      }",
            "      return found;",
            "    }",
            "  }",
            "}")
        .expectUnchanged()
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void theClassThroughALocalIsTheSameJvmWideLock() {
    compilation
        .addSourceLines(
            "PropertyCache.java",
            "import java.beans.PropertyDescriptor;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class PropertyCache {",
            "  private static final Map<Class<?>, PropertyDescriptor[]> DESCRIPTORS = new ConcurrentHashMap<>();",
            "  public static PropertyDescriptor[] describe(Object bean) throws Exception {",
            "    Class<?> c = bean.getClass();",
            "    // BUG: Diagnostic contains: Cache lookup on 'DESCRIPTORS'",
            "    synchronized (c) {",
            "      PropertyDescriptor[] found = DESCRIPTORS.get(c);",
            "      if (found == null) {",
            "        found = java.beans.Introspector.getBeanInfo(c).getPropertyDescriptors();",
            "        DESCRIPTORS.put(c, found);",
            "      }",
            "      return found;",
            "    }",
            "  }",
            "  public static PropertyDescriptor[] lockFree(Object bean) throws Exception {",
            "    Class<?> c = bean.getClass();",
            "    PropertyDescriptor[] found = DESCRIPTORS.get(c);",
            "    if (found == null) {",
            "      found = java.beans.Introspector.getBeanInfo(c).getPropertyDescriptors();",
            "      DESCRIPTORS.put(c, found);",
            "    }",
            "    return found;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aSharedMethodsMonitorHeldAroundItsInvocationOgnl27InvokeMethod() {
    // OGNL 2.7.3 ognl.OgnlRuntime#invokeMethod: the Method comes from OGNL's caches, so every
    // expression that reaches the same non-public getter queues on its monitor
    compilation
        .addSourceLines(
            "OgnlRuntime.java",
            "import java.lang.reflect.AccessibleObject;",
            "import java.lang.reflect.InvocationTargetException;",
            "import java.lang.reflect.Method;",
            "import java.lang.reflect.Modifier;",
            "public class OgnlRuntime {",
            "  public static Object invokeMethod(Object target, Method method, Object[] argsArray)",
            "      throws InvocationTargetException, IllegalAccessException {",
            "    Object result;",
            "    boolean wasAccessible = true;",
            "    // BUG: Diagnostic contains: Holds the monitor of the Method 'method' while it calls"
                + " through it (Method.invoke())",
            "    synchronized (method) {",
            "      if (!Modifier.isPublic(method.getModifiers())) {",
            "        if (!(wasAccessible = ((AccessibleObject) method).isAccessible())) {",
            "          ((AccessibleObject) method).setAccessible(true);",
            "        }",
            "      }",
            "      result = method.invoke(target, argsArray);",
            "      if (!wasAccessible) {",
            "        ((AccessibleObject) method).setAccessible(false);",
            "      }",
            "    }",
            "    return result;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void sharedFieldsAndConstructorsHeldAroundTheirReflectiveCalls() {
    compilation
        .addSourceLines(
            "PropertyAccess.java",
            "import java.lang.reflect.Constructor;",
            "import java.lang.reflect.Field;",
            "public class PropertyAccess {",
            "  private final Field field;",
            "  private final Constructor<?> factory;",
            "  PropertyAccess(Field field, Constructor<?> factory) {",
            "    this.field = field;",
            "    this.factory = factory;",
            "  }",
            "  public Object read(Object bean) throws IllegalAccessException {",
            "    // BUG: Diagnostic contains: Holds the monitor of the Field 'field'",
            "    synchronized (field) {",
            "      field.setAccessible(true);",
            "      return field.get(bean);",
            "    }",
            "  }",
            "  public Object create() throws ReflectiveOperationException {",
            "    // BUG: Diagnostic contains: (Constructor.newInstance())",
            "    synchronized (factory) {",
            "      return factory.newInstance();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void reflectiveLocksThatQueueNobody() {
    compilation
        .addSourceLines(
            "Invoker.java",
            "import java.lang.reflect.Method;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "import java.util.Map;",
            "public class Invoker {",
            "  private final Method init;",
            "  private final Map<String, Method> methods = new ConcurrentHashMap<>();",
            "  Invoker(Method init, Object target) throws Exception {",
            "    this.init = init;",
            "    synchronized (init) {", // a constructor runs once per object
            "      init.invoke(target);",
            "    }",
            "  }",
            "  public Object call(Object target, String name) throws Exception {",
            "    Method fresh = target.getClass().getMethod(name);",
            "    synchronized (fresh) {", // getMethod hands out a copy nobody else holds
            "      return fresh.invoke(target);",
            "    }",
            "  }",
            "  public boolean isPublic(Method method) {",
            "    synchronized (method) {", // no reflective call under the lock
            "      return java.lang.reflect.Modifier.isPublic(method.getModifiers());",
            "    }",
            "  }",
            "  public Object callOutside(Object target, Method method) throws Exception {",
            "    synchronized (method) {",
            "      method.setAccessible(true);",
            "    }",
            "    return method.invoke(target);", // the call runs after the lock is released
            "  }",
            "  public void start(Object target) throws Exception {",
            "    synchronized (init) {", // lifecycle: runs once
            "      init.invoke(target);",
            "    }",
            "  }",
            "  public Runnable later(Object target, Method method) {",
            "    synchronized (method) {", // the call runs later, in the lambda, without the lock
            "      return () -> {",
            "        try {",
            "          method.invoke(target);",
            "        } catch (ReflectiveOperationException e) {",
            "          throw new IllegalStateException(e);",
            "        }",
            "      };",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void theReflectiveCallInASmallHelperOfTheSameClassOgnl31() {
    compilation
        .addSourceLines(
            "Sandboxed.java",
            "import java.lang.reflect.Method;",
            "public class Sandboxed {",
            "  public static Object invokeMethod(Object target, Method method, Object[] args)",
            "      throws Exception {",
            "    // BUG: Diagnostic contains: (Method.invoke() in invokeInsideSandbox())",
            "    synchronized (method) {",
            "      method.setAccessible(true);",
            "      return invokeInsideSandbox(target, method, args);",
            "    }",
            "  }",
            "  private static Object invokeInsideSandbox(Object target, Method method, Object[] args)",
            "      throws Exception {",
            "    return method.invoke(target, args);",
            "  }",
            "  public Object described(Method method) {",
            "    synchronized (method) {", // the helper makes no reflective call
            "      return describe(method);",
            "    }",
            "  }",
            "  private static String describe(Method method) {",
            "    return method.getName();",
            "  }",
            "  public Object overridable(Object target, Method method) throws Exception {",
            "    synchronized (method) {", // a subclass may replace the helper
            "      return call(target, method);",
            "    }",
            "  }",
            "  protected Object call(Object target, Method method) throws Exception {",
            "    return method.invoke(target);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aCacheLookupUnderASharedMethodsMonitorOgnl34InvokeMethod() {
    // OGNL 3.4 ognl.OgnlRuntime#invokeMethod (shaded into MyBatis 3.5): orphan-oss/ognl#522 saw
    // 980 threads BLOCKED waiting to lock a java.lang.reflect.Method here
    compilation
        .addSourceLines(
            "OgnlRuntime.java",
            "import java.lang.reflect.Method;",
            "import java.lang.reflect.Modifier;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class OgnlRuntime {",
            "  static final Map<Method, Boolean> METHOD_ACCESS = new ConcurrentHashMap<>();",
            "  public static Object invokeMethod(Object target, Method method, Object[] args)",
            "      throws Exception {",
            "    boolean syncInvoke;",
            "    // BUG: Diagnostic contains: Cache lookup on 'METHOD_ACCESS' holds the monitor of"
                + " 'method', a reflective object a cache hands to every caller",
            "    synchronized (method) {",
            "      Boolean access = METHOD_ACCESS.get(method);",
            "      if (access == null) {",
            "        access = !Modifier.isPublic(method.getModifiers());",
            "        METHOD_ACCESS.put(method, access);",
            "      }",
            "      syncInvoke = Boolean.TRUE.equals(access);",
            "    }",
            "    return syncInvoke ? null : method.invoke(target, args);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aDoubleCheckedLookupTakesTheSharedMethodsMonitorOnlyOnAMissOgnl35() {
    // the fix of orphan-oss/ognl#521: read the concurrent map first, lock only on a miss
    compilation
        .addSourceLines(
            "OgnlRuntime.java",
            "import java.lang.reflect.Method;",
            "import java.lang.reflect.Modifier;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class OgnlRuntime {",
            "  static final Map<Method, Boolean> METHOD_ACCESS = new ConcurrentHashMap<>();",
            "  public static Object invokeMethod(Object target, Method method, Object[] args)",
            "      throws Exception {",
            "    Boolean access = METHOD_ACCESS.get(method);",
            "    if (access == null) {",
            "      synchronized (method) {",
            "        access = METHOD_ACCESS.get(method);",
            "        if (access == null) {",
            "          access = !Modifier.isPublic(method.getModifiers());",
            "          METHOD_ACCESS.put(method, access);",
            "        }",
            "      }",
            "    }",
            "    return Boolean.TRUE.equals(access) ? null : method.invoke(target, args);",
            "  }",
            "  static Boolean fresh(Class<?> type, String name) throws Exception {",
            "    Method copy = type.getMethod(name);", // a copy nobody else holds
            "    synchronized (copy) {",
            "      Boolean access = METHOD_ACCESS.get(copy);",
            "      if (access == null) {",
            "        access = Boolean.FALSE;",
            "        METHOD_ACCESS.put(copy, access);",
            "      }",
            "      return access;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- recall-hunt miss S2 (issue 12) -----------------------------------------------------------

  @Test
  void aFinalAliasOfTheKeyIsTheSameKeyBeanUtils17MappedPropertyDescriptor() {
    compilation
        .addSourceLines(
            "MappedPropertyDescriptor.java",
            "import java.lang.reflect.Method;",
            "import java.lang.reflect.Modifier;",
            "import java.util.function.Supplier;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class MappedPropertyDescriptor {",
            "  private static final Map declaredMethodCache = new HashMap();",
            "  // BUG: Diagnostic contains: Cache lookup on 'declaredMethodCache'",
            "  private static synchronized Method[] getPublicDeclaredMethods(Class clz) {",
            "    final Class fclz = clz;",
            "    Method[] result = (Method[]) declaredMethodCache.get(fclz);",
            "    if (result != null) {",
            "      return result;",
            "    }",
            "    result = new Supplier<Method[]>() {",
            "      public Method[] get() { return fclz.getDeclaredMethods(); }",
            "    }.get();",
            "    for (int i = 0; i < result.length; i++) {",
            "      if (!Modifier.isPublic(result[i].getModifiers())) {",
            "        result[i] = null;",
            "      }",
            "    }",
            "    declaredMethodCache.put(clz, result);",
            "    return result;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aCopyOfTheKeyThatMovesOnIsAnotherKey() {
    // the model follows values, not names: 'c' is still 'type' when the get reads it, so the get
    // and the put use one key and annotatedAncestor memoises per type (a lookup); in
    // movedBeforeTheGet 'c' has walked up the hierarchy before the get: two keys
    compilation
        .addSourceLines(
            "AnnotationFinder.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class AnnotationFinder {",
            "  private static final Map<Class<?>, Class<?>> ANNOTATED = new HashMap<>();",
            "  // BUG: Diagnostic contains: Cache lookup on 'ANNOTATED'",
            "  static synchronized Class<?> annotatedAncestor(Class<?> type) {",
            "    Class<?> c = type;",
            "    Class<?> hit = ANNOTATED.get(c);",
            "    if (hit != null) {",
            "      return hit;",
            "    }",
            "    while (c != null && c.getAnnotations().length == 0) {",
            "      c = c.getSuperclass();",
            "    }",
            "    ANNOTATED.put(type, c);",
            "    return c;",
            "  }",
            "  static synchronized Class<?> movedBeforeTheGet(Class<?> type) {",
            "    Class<?> c = type;",
            "    while (c != null && c.getAnnotations().length == 0) {",
            "      c = c.getSuperclass();",
            "    }",
            "    Class<?> hit = ANNOTATED.get(c);",
            "    if (hit != null) {",
            "      return hit;",
            "    }",
            "    ANNOTATED.put(type, c);",
            "    return c;",
            "  }",
            "}")
        .doTest();
  }
}
