package io.github.lockjaw.checks.cache;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class SynchronizedMapCacheTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(SynchronizedMapCache.class, getClass());

  // ---------------------------------------------------------------- positives

  @Test
  void synchronizedMapWithoutOuterLockIsARaceAndAQueue() {
    compilation
        .addSourceLines(
            "CategoryService.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "public class CategoryService {",
            "  private final Map<String, List<String>> children =",
            "      Collections.synchronizedMap(new HashMap<>());",
            "  // BUG: Diagnostic contains: another thread can put between the check and the put",
            "  public List<String> childrenOf(String category) {",
            "    List<String> result = children.get(category);",
            "    if (result == null) {",
            "      result = List.of(category + \"/new\", category + \"/sale\");",
            "      children.put(category, result);",
            "    }",
            "    return result;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void hashtableContainsKeyThenPut() {
    compilation
        .addSourceLines(
            "TaxRates.java",
            "import java.util.Hashtable;",
            "public class TaxRates {",
            "  private final Hashtable<String, Double> rates = new Hashtable<>();",
            "  // BUG: Diagnostic contains: coarsely locked map",
            "  double rateFor(String region) {",
            "    if (!rates.containsKey(region)) {",
            "      rates.put(region, region.startsWith(\"EU\") ? 0.2 : 0.07);",
            "    }",
            "    return rates.get(region);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void hashMapUnderSynchronizedThis() {
    compilation
        .addSourceLines(
            "ProductCatalog.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ProductCatalog {",
            "  record Product(long id, String name) {}",
            "  private final Map<Long, Product> products = new HashMap<>();",
            "  Product find(long id) {",
            "    // BUG: Diagnostic contains: under the monitor of 'this'",
            "    synchronized (this) {",
            "      Product product = products.get(id);",
            "      if (product == null) {",
            "        product = new Product(id, \"product-\" + id);",
            "        products.put(id, product);",
            "      }",
            "      return product;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void hashMapInSynchronizedMethod() {
    compilation
        .addSourceLines(
            "UserDirectory.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class UserDirectory {",
            "  private final Map<String, String> displayNames = new HashMap<String, String>();",
            "  // BUG: Diagnostic contains: the instance monitor (synchronized method)",
            "  public synchronized String displayName(String login) {",
            "    String name = displayNames.get(login);",
            "    if (name != null) {",
            "      return name;",
            "    }",
            "    name = login.substring(0, 1).toUpperCase() + login.substring(1);",
            "    displayNames.put(login, name);",
            "    return name;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void synchronizedMapLockedOnItselfForTheCompoundOperation() {
    compilation
        .addSourceLines(
            "SessionRegistry.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class SessionRegistry {",
            "  private final Map<String, StringBuilder> carts = Collections.synchronizedMap(new HashMap<>());",
            "  StringBuilder cart(String sessionId) {",
            "    // BUG: Diagnostic contains: the monitor of 'carts'",
            "    synchronized (carts) {",
            "      StringBuilder cart = carts.get(sessionId);",
            "      if (cart == null) {",
            "        cart = new StringBuilder();",
            "        carts.put(sessionId, cart);",
            "      }",
            "      return cart;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void hashMapUnderPrivateLockObject() {
    compilation
        .addSourceLines(
            "ShippingQuotes.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ShippingQuotes {",
            "  private final Object quotesLock = new Object();",
            "  private final Map<String, Integer> quotes = new HashMap<>();",
            "  int quote(String zip) {",
            "    // BUG: Diagnostic contains: SynchronizedMapCache",
            "    synchronized (quotesLock) {",
            "      Integer cents = quotes.get(zip);",
            "      if (cents == null) {",
            "        cents = zip.hashCode() % 1000;",
            "        quotes.put(zip, cents);",
            "      }",
            "      return cents;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void lambdaOverSynchronizedMap() {
    compilation
        .addSourceLines(
            "Resolvers.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.function.Function;",
            "public class Resolvers {",
            "  private final Map<String, String> hosts = Collections.synchronizedMap(new HashMap<>());",
            "  Function<String, String> resolver() {",
            "    // BUG: Diagnostic contains: 'hosts'",
            "    return name -> {",
            "      String address = hosts.get(name);",
            "      if (address == null) {",
            "        address = \"10.0.0.\" + Math.abs(name.hashCode() % 255);",
            "        hosts.put(name, address);",
            "      }",
            "      return address;",
            "    };",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void anonymousClassSynchronizingOnItself() {
    compilation
        .addSourceLines(
            "Handlers.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.function.Function;",
            "public class Handlers {",
            "  final Function<String, Object> handlers = new Function<>() {",
            "    private final Map<String, Object> byPath = new HashMap<>();",
            "    @Override public Object apply(String path) {",
            "      // BUG: Diagnostic contains: SynchronizedMapCache",
            "      synchronized (this) {",
            "        Object handler = byPath.get(path);",
            "        if (handler == null) {",
            "          handler = new Object();",
            "          byPath.put(path, handler);",
            "        }",
            "        return handler;",
            "      }",
            "    }",
            "  };",
            "}")
        .doTest();
  }

  @Test
  void innerClassLockingOuterInstanceAroundOuterField() {
    compilation
        .addSourceLines(
            "Inventory.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Inventory {",
            "  private final Map<String, int[]> stock = new HashMap<>();",
            "  class Reservation {",
            "    int[] counter(String sku) {",
            "      // BUG: Diagnostic contains: 'stock'",
            "      synchronized (Inventory.this) {",
            "        int[] counter = Inventory.this.stock.get(sku);",
            "        if (counter == null) {",
            "          counter = new int[1];",
            "          Inventory.this.stock.put(sku, counter);",
            "        }",
            "        return counter;",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void springCachedIntrospectionResultsShape() {
    compilation
        .addSourceLines(
            "CachedIntrospectionResults.java",
            "import java.util.Collections;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "final class CachedIntrospectionResults {",
            "  static final Map classCache = Collections.synchronizedMap(new WeakHashMap());",
            "  private CachedIntrospectionResults(Class beanClass) {}",
            "  // BUG: Diagnostic contains: No automatic fix",
            "  static CachedIntrospectionResults forClass(Class beanClass) {",
            "    CachedIntrospectionResults results = null;",
            "    Object value = classCache.get(beanClass);",
            "    if (value != null) {",
            "      results = (CachedIntrospectionResults) value;",
            "    }",
            "    if (results == null) {",
            "      results = new CachedIntrospectionResults(beanClass);",
            "      classCache.put(beanClass, results);",
            "    }",
            "    return results;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void springValuesBehindWeakReferences() {
    compilation
        .addSourceLines(
            "IntrospectionCache.java",
            "import java.lang.ref.Reference;",
            "import java.lang.ref.WeakReference;",
            "import java.util.Collections;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "final class IntrospectionCache {",
            "  static final Map classCache = Collections.synchronizedMap(new WeakHashMap());",
            "  // BUG: Diagnostic contains: 'classCache'",
            "  static Object forClass(Class beanClass, boolean cacheSafe) {",
            "    Object results;",
            "    Object value = classCache.get(beanClass);",
            "    if (value instanceof Reference) {",
            "      Reference ref = (Reference) value;",
            "      results = ref.get();",
            "    } else {",
            "      results = value;",
            "    }",
            "    if (results == null) {",
            "      results = new Object();",
            "      if (cacheSafe) {",
            "        classCache.put(beanClass, results);",
            "      } else {",
            "        classCache.put(beanClass, new WeakReference(results));",
            "      }",
            "    }",
            "    return results;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void recordStaticHelperOnHashtable() {
    compilation
        .addSourceLines(
            "Money.java",
            "import java.util.Hashtable;",
            "import java.util.Map;",
            "public record Money(long cents, String currency) {",
            "  private static final Map<String, String> SYMBOLS = new Hashtable<>();",
            "  // BUG: Diagnostic contains: SynchronizedMapCache",
            "  static String symbol(String currency) {",
            "    String symbol = SYMBOLS.get(currency);",
            "    if (symbol == null) {",
            "      symbol = java.util.Currency.getInstance(currency).getSymbol();",
            "      SYMBOLS.put(currency, symbol);",
            "    }",
            "    return symbol;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void getThenComputeThenPutWithoutBraces() {
    compilation
        .addSourceLines(
            "Thumbnails.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Thumbnails {",
            "  private final Map<String, byte[]> thumbs = new HashMap<>();",
            "  // BUG: Diagnostic contains: SynchronizedMapCache",
            "  synchronized byte[] thumbnail(String imageId) {",
            "    byte[] thumb = thumbs.get(imageId);",
            "    if (thumb == null) thumbs.put(imageId, thumb = new byte[64]);",
            "    return thumb;",
            "  }",
            "}")
        .doTest();
  }

  // ---------------------------------------------------------------- negatives

  @Test
  void singleCallsOnASynchronizedMap() {
    compilation
        .addSourceLines(
            "Sessions.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Sessions {",
            "  private final Map<String, Long> lastSeen = Collections.synchronizedMap(new HashMap<>());",
            "  void touch(String id) { lastSeen.put(id, System.currentTimeMillis()); }",
            "  Long seen(String id) { return lastSeen.get(id); }",
            "  void expire(String id) { lastSeen.remove(id); }",
            "}")
        .doTest();
  }

  @Test
  void localMapNeverEscapes() {
    compilation
        .addSourceLines(
            "OrderTotals.java",
            "import java.util.HashMap;",
            "import java.util.Hashtable;",
            "import java.util.List;",
            "import java.util.Map;",
            "public class OrderTotals {",
            "  synchronized Map<String, Long> bySku(List<String> skus) {",
            "    Map<String, Long> totals = new Hashtable<>();",
            "    for (String sku : skus) {",
            "      Long total = totals.get(sku);",
            "      if (total == null) {",
            "        total = 0L;",
            "        totals.put(sku, total);",
            "      }",
            "    }",
            "    return totals;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void concurrentHashMapUnderALock() {
    compilation
        .addSourceLines(
            "Tokens.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Tokens {",
            "  private final Map<String, String> tokens = new ConcurrentHashMap<>();",
            "  synchronized String token(String user) {",
            "    String token = tokens.get(user);",
            "    if (token == null) {",
            "      token = Long.toHexString(user.hashCode());",
            "      tokens.put(user, token);",
            "    }",
            "    return token;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void unguardedPlainHashMapIsARaceNotContention() {
    compilation
        .addSourceLines(
            "Slugs.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Slugs {",
            "  private final Map<String, String> slugs = new HashMap<>();",
            "  String slug(String title) {",
            "    String slug = slugs.get(title);",
            "    if (slug == null) {",
            "      slug = title.toLowerCase().replace(' ', '-');",
            "      slugs.put(title, slug);",
            "    }",
            "    return slug;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void classMonitorIsReportedByClassMonitorCacheOnly() {
    compilation
        .addSourceLines(
            "ClassInfo.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());",
            "  static ClassInfo getInstance(Class clazz) {",
            "    synchronized (clazz) {",
            "      ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo();",
            "        CLASS_INFO_MAP.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "  static synchronized ClassInfo again(Class clazz) {",
            "    ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);",
            "    if (cached == null) {",
            "      cached = new ClassInfo();",
            "      CLASS_INFO_MAP.put(clazz, cached);",
            "    }",
            "    return cached;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void duplicateRegistrationThrows() {
    compilation
        .addSourceLines(
            "Listeners.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Listeners {",
            "  private final Map<String, Runnable> listeners = new HashMap<>();",
            "  synchronized void register(String event, Runnable listener) {",
            "    if (listeners.containsKey(event)) {",
            "      throw new IllegalArgumentException(\"already registered: \" + event);",
            "    }",
            "    listeners.put(event, listener);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void counterUnderSynchronizedMethod() {
    compilation
        .addSourceLines(
            "RequestStats.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class RequestStats {",
            "  private final Map<String, Integer> counts = new HashMap<>();",
            "  synchronized void record(String endpoint) {",
            "    Integer count = counts.get(endpoint);",
            "    counts.put(endpoint, count == null ? 1 : count + 1);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void putIfMissingWithoutReadingBack() {
    compilation
        .addSourceLines(
            "FeatureFlags.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class FeatureFlags {",
            "  private final Map<String, Boolean> flags = Collections.synchronizedMap(new HashMap<>());",
            "  void defaultTo(String flag, boolean enabled) {",
            "    if (!flags.containsKey(flag)) {",
            "      flags.put(flag, enabled);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void mapInjectedThroughConstructorIsUnknown() {
    compilation
        .addSourceLines(
            "PriceLookup.java",
            "import java.util.Map;",
            "public class PriceLookup {",
            "  private final Map<String, Long> prices;",
            "  PriceLookup(Map<String, Long> prices) { this.prices = prices; }",
            "  synchronized long price(String sku) {",
            "    Long price = prices.get(sku);",
            "    if (price == null) {",
            "      price = 0L;",
            "      prices.put(sku, price);",
            "    }",
            "    return price;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void multimapRegistrationGuardsTheValuesToo() {
    compilation
        .addSourceLines(
            "EventBus.java",
            "import java.util.ArrayList;",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "public class EventBus {",
            "  private final Map<String, List<Runnable>> listeners = new HashMap<>();",
            "  synchronized List<Runnable> register(String event, Runnable listener) {",
            "    List<Runnable> forEvent = listeners.get(event);",
            "    if (forEvent == null) {",
            "      forEvent = new ArrayList<>();",
            "      listeners.put(event, forEvent);",
            "    }",
            "    forEvent.add(listener);",
            "    return forEvent;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aCounterBumpedOnAMissIsPartOfTheFillAndNamedAsTheBlocker() {
    // a hit still takes the lock only to read; the lock also makes the miss count atomic, which
    // the message names, so nobody drops the lock and loses the count
    compilation
        .addSourceLines(
            "CountingCache.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class CountingCache {",
            "  private final Map<String, String> values = new HashMap<>();",
            "  private int misses;",
            "  // BUG: Diagnostic contains: (No automatic fix: the lock also keeps the write of 'misses'"
                + " atomic with the fill; make 'misses' an AtomicLong (or a LongAdder, for a count)"
                + " before the lock goes.)",
            "  synchronized String value(String key) {",
            "    String value = values.get(key);",
            "    if (value == null) {",
            "      misses++;",
            "      value = key.toUpperCase();",
            "      values.put(key, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aSubclassOfHashtableCallingItsOwnMethodsIsNotAFieldCache() {
    compilation
        .addSourceLines(
            "Grab.java",
            "import java.util.Hashtable;",
            "public class Grab extends Hashtable<String, String> {",
            "  String grab(String k) {",
            "    String v = this.get(k);",
            "    if (v == null) {",
            "      v = k + \"!\";",
            "      this.put(k, v);",
            "    }",
            "    return v;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void suppressedWithSuppressWarnings() {
    compilation
        .addSourceLines(
            "Legacy.java",
            "import java.util.Hashtable;",
            "public class Legacy {",
            "  private final Hashtable<String, Object> cache = new Hashtable<>();",
            "  @SuppressWarnings(\"SynchronizedMapCache\")",
            "  Object get(String key) {",
            "    Object value = cache.get(key);",
            "    if (value == null) {",
            "      value = new Object();",
            "      cache.put(key, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void switchedOffWithXepFlag() {
    compilation
        .setArgs("-Xep:SynchronizedMapCache:OFF")
        .addSourceLines(
            "Legacy.java",
            "import java.util.Hashtable;",
            "public class Legacy {",
            "  private final Hashtable<String, Object> cache = new Hashtable<>();",
            "  Object get(String key) {",
            "    Object value = cache.get(key);",
            "    if (value == null) {",
            "      value = new Object();",
            "      cache.put(key, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .doTest();
  }

  // ---------------------------------------------------------------- fixes

  @Test
  void fixesSynchronizedMethodWithPrimitiveKey() {
    refactoring
        .addInputLines(
            "ProductCatalog.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ProductCatalog {",
            "  static final class Product {",
            "    final long id;",
            "    Product(long id) { this.id = id; }",
            "  }",
            "  private final Map<Long, Product> products = new HashMap<>();",
            "  public synchronized Product product(long id) {",
            "    Product product = products.get(id);",
            "    if (product == null) {",
            "      product = new Product(id);",
            "      products.put(id, product);",
            "    }",
            "    return product;",
            "  }",
            "  public synchronized void evict(long id) {",
            "    products.remove(id);",
            "  }",
            "}")
        .addOutputLines(
            "ProductCatalog.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class ProductCatalog {",
            "  static final class Product {",
            "    final long id;",
            "    Product(long id) { this.id = id; }",
            "  }",
            "  private final Map<Long, Product> products = new ConcurrentHashMap<>();",
            "  public Product product(long id) {",
            "    return products.computeIfAbsent(id, k -> new Product(id));",
            "  }",
            "  public synchronized void evict(long id) {",
            "    products.remove(id);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixesSynchronizedThisBlockOnHashtableWithContainsKey() {
    refactoring
        .addInputLines(
            "Templates.java",
            "import java.util.Hashtable;",
            "public class Templates {",
            "  private final Hashtable<String, StringBuilder> compiled = new Hashtable<>();",
            "  StringBuilder compiled(String name) {",
            "    synchronized (this) {",
            "      if (!compiled.containsKey(name)) {",
            "        compiled.put(name, new StringBuilder(name));",
            "      }",
            "      return compiled.get(name);",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Templates.java",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Templates {",
            "  private final ConcurrentHashMap<String, StringBuilder> compiled = new ConcurrentHashMap<>();",
            "  StringBuilder compiled(String name) {",
            "    return compiled.computeIfAbsent(name, StringBuilder::new);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixesUnguardedSynchronizedMapWhenTheValueDereferencesTheKey() {
    refactoring
        .addInputLines(
            "Pages.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Pages {",
            "  static final class Page {",
            "    final String path;",
            "    Page(String path) { this.path = path; }",
            "  }",
            "  private final Map<String, Page> pages = Collections.synchronizedMap(new HashMap<>());",
            "  Page page(String path) {",
            "    Page page = pages.get(path);",
            "    if (page == null) {",
            "      page = new Page(path.trim());",
            "      pages.put(path, page);",
            "    }",
            "    return page;",
            "  }",
            "}")
        .addOutputLines(
            "Pages.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Pages {",
            "  static final class Page {",
            "    final String path;",
            "    Page(String path) { this.path = path; }",
            "  }",
            "  private final Map<String, Page> pages = new ConcurrentHashMap<>();",
            "  Page page(String path) {",
            "    return pages.computeIfAbsent(path, k -> new Page(k.trim()));",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixesLockObjectBlockAndRetypesHashMapField() {
    refactoring
        .addInputLines(
            "Quotes.java",
            "import java.util.HashMap;",
            "public class Quotes {",
            "  private final Object lock = new Object();",
            "  private final HashMap<Integer, StringBuilder> quotes = new HashMap<>();",
            "  StringBuilder quote(int zip) {",
            "    synchronized (lock) {",
            "      StringBuilder quote = quotes.get(zip);",
            "      if (quote == null) {",
            "        quote = new StringBuilder();",
            "        quotes.put(zip, quote);",
            "      }",
            "      return quote;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Quotes.java",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Quotes {",
            "  private final Object lock = new Object();",
            "  private final ConcurrentHashMap<Integer, StringBuilder> quotes = new ConcurrentHashMap<>();",
            "  StringBuilder quote(int zip) {",
            "    return quotes.computeIfAbsent(zip, k -> new StringBuilder());",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /**
   * Issue 26: the key is proven non-null by Error Prone's nullness dataflow, not by syntax: the
   * method rejects a null session id before it takes the lock.
   */
  @Test
  void fixesWhenTheDataflowProvesTheKeyNonNull() {
    refactoring
        .addInputLines(
            "Carts.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.Objects;",
            "public class Carts {",
            "  private final Map<String, StringBuilder> carts = new HashMap<>();",
            "  StringBuilder cart(String sessionId) {",
            "    Objects.requireNonNull(sessionId, \"sessionId\");",
            "    synchronized (this) {",
            "      StringBuilder cart = carts.get(sessionId);",
            "      if (cart == null) {",
            "        cart = new StringBuilder();",
            "        carts.put(sessionId, cart);",
            "      }",
            "      return cart;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Carts.java",
            "import java.util.Map;",
            "import java.util.Objects;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Carts {",
            "  private final Map<String, StringBuilder> carts = new ConcurrentHashMap<>();",
            "  StringBuilder cart(String sessionId) {",
            "    Objects.requireNonNull(sessionId, \"sessionId\");",
            "    return carts.computeIfAbsent(sessionId, k -> new StringBuilder());",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /**
   * Issue 26: a global lock held while a query fills a cache on a miss (a roster cache loaded at
   * login). The cure is per-key memoisation, not dropping the lock (every thread that missed would
   * run the same query); the query throws SQLException, which a mapping function cannot, so the
   * message names that blocker.
   */
  @Test
  void aRosterFilledByAQueryOnAMissGetsTheMemoisationCureAndItsBlocker() {
    compilation
        .addSourceLines(
            "RosterManager.java",
            "import java.sql.Connection;",
            "import java.sql.SQLException;",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.Objects;",
            "import javax.sql.DataSource;",
            "public class RosterManager {",
            "  static final class Roster {",
            "    Roster(String user, DataSource dataSource) throws SQLException {",
            "      try (Connection c = dataSource.getConnection()) {",
            "        c.prepareStatement(\"SELECT jid FROM roster WHERE owner = ?\").executeQuery();",
            "      }",
            "    }",
            "  }",
            "  private final DataSource dataSource;",
            "  private final Map<String, Roster> rosters = new HashMap<>();",
            "  RosterManager(DataSource dataSource) { this.dataSource = dataSource; }",
            "  // BUG: Diagnostic matches: MSG",
            "  public synchronized Roster rosterOf(String user) throws SQLException {",
            "    Objects.requireNonNull(user, \"user\");",
            "    Roster roster = rosters.get(user);",
            "    if (roster == null) {",
            "      roster = new Roster(user, dataSource);",
            "      rosters.put(user, roster);",
            "    }",
            "    return roster;",
            "  }",
            "}")
        .expectErrorMessage(
            "MSG",
            m ->
                m.contains("Make the map a ConcurrentHashMap and fill it with computeIfAbsent")
                    && m.contains(
                        "(No automatic fix: building the value 'new Roster(user, dataSource)'"
                            + " throws a checked exception, which a mapping function cannot.)"))
        .doTest();
  }

  /**
   * Issue 26: the same roster cache whose query wraps its SQLException: the cure is per-key
   * memoisation, offered as the fix. The query runs once per user inside computeIfAbsent, and
   * logins of other users no longer wait for it; the JDBC calls the constructor makes are the JDK's
   * interfaces (javax.sql.DataSource among them), which never call back into the cache.
   */
  @Test
  void aRosterQueryThatThrowsNoCheckedExceptionIsMemoisedPerKey() {
    String[] output = {
      "import java.sql.Connection;",
      "import java.sql.PreparedStatement;",
      "import java.sql.ResultSet;",
      "import java.sql.SQLException;",
      "import java.util.ArrayList;",
      "import java.util.List;",
      "import java.util.Map;",
      "import java.util.Objects;",
      "import java.util.concurrent.ConcurrentHashMap;",
      "import javax.sql.DataSource;",
      "public class RosterManager {",
      "  static final class Roster {",
      "    final List<String> contacts = new ArrayList<>();",
      "    Roster(String user, DataSource dataSource) {",
      "      try (Connection c = dataSource.getConnection();",
      "          PreparedStatement query =",
      "              c.prepareStatement(\"SELECT jid FROM roster WHERE owner = ?\")) {",
      "        query.setString(1, user);",
      "        try (ResultSet rows = query.executeQuery()) {",
      "          while (rows.next()) {",
      "            contacts.add(rows.getString(1));",
      "          }",
      "        }",
      "      } catch (SQLException e) {",
      "        throw new IllegalStateException(\"cannot load the roster of \" + user, e);",
      "      }",
      "    }",
      "  }",
      "  private final DataSource dataSource;",
      "  private final Map<String, Roster> rosters = new ConcurrentHashMap<>();",
      "  RosterManager(DataSource dataSource) { this.dataSource = dataSource; }",
      "  public Roster rosterOf(String user) {",
      "    Objects.requireNonNull(user, \"user\");",
      "    return rosters.computeIfAbsent(user, k -> new Roster(k, dataSource));",
      "  }",
      "}"
    };
    refactoring
        .addInputLines(
            "RosterManager.java",
            "import java.sql.Connection;",
            "import java.sql.PreparedStatement;",
            "import java.sql.ResultSet;",
            "import java.sql.SQLException;",
            "import java.util.ArrayList;",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.Objects;",
            "import javax.sql.DataSource;",
            "public class RosterManager {",
            "  static final class Roster {",
            "    final List<String> contacts = new ArrayList<>();",
            "    Roster(String user, DataSource dataSource) {",
            "      try (Connection c = dataSource.getConnection();",
            "          PreparedStatement query =",
            "              c.prepareStatement(\"SELECT jid FROM roster WHERE owner = ?\")) {",
            "        query.setString(1, user);",
            "        try (ResultSet rows = query.executeQuery()) {",
            "          while (rows.next()) {",
            "            contacts.add(rows.getString(1));",
            "          }",
            "        }",
            "      } catch (SQLException e) {",
            "        throw new IllegalStateException(\"cannot load the roster of \" + user, e);",
            "      }",
            "    }",
            "  }",
            "  private final DataSource dataSource;",
            "  private final Map<String, Roster> rosters = new HashMap<>();",
            "  RosterManager(DataSource dataSource) { this.dataSource = dataSource; }",
            "  public synchronized Roster rosterOf(String user) {",
            "    Objects.requireNonNull(user, \"user\");",
            "    Roster roster = rosters.get(user);",
            "    if (roster == null) {",
            "      roster = new Roster(user, dataSource);",
            "      rosters.put(user, roster);",
            "    }",
            "    return roster;",
            "  }",
            "}")
        .addOutputLines("RosterManager.java", output)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
    compilation.addSourceLines("RosterManager.java", output).doTest();
  }

  /**
   * Issue 26: a javax name alone is not the JDK: a fill that calls a javax.* class compiled from
   * another file (or read from a jar) may call back into the cache, so no fix.
   */
  @Test
  void aFillThatCallsAJavaxClassOutsideTheJdkGetsNoFix() {
    compilation
        .addSourceLines(
            "javax/directory/Lookup.java",
            "package javax.directory;",
            "public final class Lookup {",
            "  public static String displayName(String user) {",
            "    return user.toUpperCase();",
            "  }",
            "}")
        .addSourceLines(
            "Profiles.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.Objects;",
            "public class Profiles {",
            "  static final class Profile {",
            "    final String name;",
            "    Profile(String user) {",
            "      name = javax.directory.Lookup.displayName(user);",
            "    }",
            "  }",
            "  private final Map<String, Profile> profiles = new HashMap<>();",
            "  // BUG: Diagnostic contains: (No automatic fix: the constructor of 'new Profile(user)'"
                + " runs code lockjaw cannot see",
            "  public synchronized Profile profileOf(String user) {",
            "    Objects.requireNonNull(user, \"user\");",
            "    Profile profile = profiles.get(user);",
            "    if (profile == null) {",
            "      profile = new Profile(user);",
            "      profiles.put(user, profile);",
            "    }",
            "    return profile;",
            "  }",
            "}")
        .doTest();
  }

  /**
   * Issue 21's audit sample: a synchronizedMap keyed by the calling thread (Commons Jelly 1.0's
   * {@code TagScript.getTag}) is a per-thread map: no other thread puts the same key, and each call
   * holds the lock for one step. The same lookup keyed by a name is reported.
   */
  @Test
  void aMapKeyedByTheCurrentThreadIsPerThread() {
    compilation
        .addSourceLines(
            "TagScript.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class TagScript {",
            "  private final Map<Thread, StringBuilder> threadLocalTagCache =",
            "      Collections.synchronizedMap(new WeakHashMap<>());",
            "  private final Map<String, StringBuilder> byName =",
            "      Collections.synchronizedMap(new HashMap<>());",
            "  public StringBuilder getTag() {",
            "    Thread t = Thread.currentThread();",
            "    StringBuilder tag = threadLocalTagCache.get(t);",
            "    if (tag == null) {",
            "      tag = new StringBuilder(t.getName());",
            "      threadLocalTagCache.put(t, tag);",
            "    }",
            "    return tag;",
            "  }",
            "  // BUG: Diagnostic contains: Check-then-act cache on 'byName'",
            "  public StringBuilder getNamed(String name) {",
            "    StringBuilder tag = byName.get(name);",
            "    if (tag == null) {",
            "      tag = new StringBuilder(name);",
            "      byName.put(name, tag);",
            "    }",
            "    return tag;",
            "  }",
            "}")
        .doTest();
  }

  /**
   * Issue 26: a synchronized method that checks its argument before the lookup: the check reads
   * only the parameter, so it stays as written, and proves the key non-null.
   */
  @Test
  void aSynchronizedMethodKeepsItsArgumentCheckAboveTheRewrittenLookup() {
    refactoring
        .addInputLines(
            "Sessions.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Sessions {",
            "  private final Map<String, StringBuilder> logs = new HashMap<>();",
            "  synchronized StringBuilder log(String sessionId) {",
            "    if (sessionId == null) {",
            "      throw new IllegalArgumentException(\"no session\");",
            "    }",
            "    StringBuilder log = logs.get(sessionId);",
            "    if (log == null) {",
            "      log = new StringBuilder();",
            "      logs.put(sessionId, log);",
            "    }",
            "    return log;",
            "  }",
            "}")
        .addOutputLines(
            "Sessions.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Sessions {",
            "  private final Map<String, StringBuilder> logs = new ConcurrentHashMap<>();",
            "  StringBuilder log(String sessionId) {",
            "    if (sessionId == null) {",
            "      throw new IllegalArgumentException(\"no session\");",
            "    }",
            "    return logs.computeIfAbsent(sessionId, k -> new StringBuilder());",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /**
   * Issue 26, from OGNL 2.6.9's {@code OgnlRuntime.getParameterTypes}: the read assigned in the
   * null test, the fill assigned inside the put, and the value a JDK call on the key that never
   * returns null and changes nothing ({@code computed-value} in maps.txt). A raw map keeps its
   * cast.
   */
  @Test
  void fixesTheAssignInConditionShapeWithAJdkValueOnTheKey() {
    refactoring
        .addInputLines(
            "Reflection.java",
            "import java.lang.reflect.Method;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Reflection {",
            "  private static Map methodParameterTypesCache = new HashMap(101);",
            "  public static Class[] getParameterTypes(Method m) {",
            "    synchronized (methodParameterTypesCache) {",
            "      Class[] result;",
            "      if ((result = (Class[]) methodParameterTypesCache.get(m)) == null) {",
            "        methodParameterTypesCache.put(m, result = m.getParameterTypes());",
            "      }",
            "      return result;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Reflection.java",
            "import java.lang.reflect.Method;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class Reflection {",
            "  private static Map methodParameterTypesCache = new ConcurrentHashMap(101);",
            "  public static Class[] getParameterTypes(Method m) {",
            "    return (Class[]) methodParameterTypesCache.computeIfAbsent(m, k -> m.getParameterTypes());",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  /** A JDK call on a field, not on the key: the field may change, and no fix is offered. */
  @Test
  void noFixWhenTheJdkValueReadsAField() {
    compilation
        .addSourceLines(
            "Names.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.Objects;",
            "public class Names {",
            "  private final Map<String, String> names = new HashMap<>();",
            "  private Class<?> current = Object.class;",
            "  // BUG: Diagnostic contains: is computed from something other than the key",
            "  synchronized String name(String key) {",
            "    Objects.requireNonNull(key);",
            "    String name = names.get(key);",
            "    if (name == null) {",
            "      name = current.getName();",
            "      names.put(key, name);",
            "    }",
            "    return name;",
            "  }",
            "}")
        .doTest();
  }

  /** Issue 26: without a proof, the message names the key that may be null. */
  @Test
  void noFixMessageNamesTheNullableKey() {
    compilation
        .addSourceLines(
            "Carts.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Carts {",
            "  private final Map<String, StringBuilder> carts = new HashMap<>();",
            "  // BUG: Diagnostic contains: (No automatic fix: the key 'sessionId' may be null, and a",
            "  synchronized StringBuilder cart(String sessionId) {",
            "    StringBuilder cart = carts.get(sessionId);",
            "    if (cart == null) {",
            "      cart = new StringBuilder();",
            "      carts.put(sessionId, cart);",
            "    }",
            "    return cart;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenTheKeyMayBeNull() {
    refactoring
        .addInputLines(
            "Carts.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Carts {",
            "  private final Map<String, StringBuilder> carts = new HashMap<>();",
            "  synchronized StringBuilder cart(String sessionId) {",
            "    StringBuilder cart = carts.get(sessionId);",
            "    if (cart == null) {",
            "      cart = new StringBuilder();",
            "      carts.put(sessionId, cart);",
            "    }",
            "    return cart;",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenAnotherSynchronizedMethodMakesCompoundUpdates() {
    refactoring
        .addInputLines(
            "Prices.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Prices {",
            "  private final Map<Integer, StringBuilder> prices = new HashMap<>();",
            "  synchronized StringBuilder price(int sku) {",
            "    StringBuilder price = prices.get(sku);",
            "    if (price == null) {",
            "      price = new StringBuilder();",
            "      prices.put(sku, price);",
            "    }",
            "    return price;",
            "  }",
            "  synchronized void reload(int sku) {",
            "    prices.clear();",
            "    prices.put(sku, new StringBuilder(\"reloaded\"));",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenTheValueReadsStateTheLockGuarded() {
    refactoring
        .addInputLines(
            "Versions.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class Versions {",
            "  static final class Product {",
            "    Product(long id, int version) {}",
            "  }",
            "  private final Map<Long, Product> products = new HashMap<>();",
            "  private int version;",
            "  synchronized void bump() { version++; }",
            "  synchronized Product product(long id) {",
            "    Product product = products.get(id);",
            "    if (product == null) {",
            "      product = new Product(id, version);",
            "      products.put(id, product);",
            "    }",
            "    return product;",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenTwoFieldsShareTheDeclaredType() {
    refactoring
        .addInputLines(
            "Twins.java",
            "import java.util.HashMap;",
            "public class Twins {",
            "  private final HashMap<Long, StringBuilder> left = new HashMap<>(), right = new HashMap<>();",
            "  synchronized StringBuilder left(long id) {",
            "    StringBuilder value = left.get(id);",
            "    if (value == null) {",
            "      value = new StringBuilder();",
            "      left.put(id, value);",
            "    }",
            "    return value;",
            "  }",
            "  synchronized int rights() { return right.size(); }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenTheValueComesFromAMethodThatMayReturnNull() {
    refactoring
        .addInputLines(
            "Configs.java",
            "import java.util.Hashtable;",
            "public class Configs {",
            "  private final Hashtable<String, String> values = new Hashtable<>();",
            "  synchronized String value(String key) {",
            "    String value = values.get(key);",
            "    if (value == null) {",
            "      value = System.getProperty(key);",
            "      values.put(key, value);",
            "    }",
            "    return value;",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  // ---------------------------------------------------------------- shapes of issue 12

  private static String[] lines(String text) {
    return text.split("\n", -1);
  }

  @Test
  void theMapsOwnMonitorHeldWhileAValueIsBuiltSpring251MergedBeanDefinitions() {
    compilation
        .addSourceLines(
            "BeanFactory.java",
            lines(
                """
                import java.util.Map;
                import java.util.Set;
                import java.util.concurrent.ConcurrentHashMap;
                public abstract class BeanFactory {
                  static final class Definition {
                    private String scope = "singleton";
                    private final String parentName;
                    Definition(String parentName) { this.parentName = parentName; }
                    Definition(Definition original) { this.parentName = original.parentName; this.scope = original.scope; }
                    void overrideFrom(Definition other) { this.scope = other.scope; }
                    String getParentName() { return parentName; }
                  }
                  private final Map<String, Definition> mergedBeanDefinitions = createConcurrentMapIfPossible(16);
                  private final Set<String> alreadyCreated = ConcurrentHashMap.newKeySet();
                  static <K, V> Map<K, V> createConcurrentMapIfPossible(int capacity) {
                    return new ConcurrentHashMap<>(capacity);
                  }
                  protected abstract Definition getBeanDefinition(String beanName);
                  protected Definition getMergedBeanDefinition(String beanName, Definition bd) {
                    // BUG: Diagnostic contains: Check-then-act cache on 'mergedBeanDefinitions' under the monitor of 'this.mergedBeanDefinitions'
                    synchronized (this.mergedBeanDefinitions) {
                      Definition mbd = this.mergedBeanDefinitions.get(beanName);
                      if (mbd == null) {
                        if (bd.getParentName() == null) {
                          mbd = new Definition(bd);
                        } else {
                          Definition pbd = getMergedBeanDefinition(bd.getParentName(), getBeanDefinition(bd.getParentName()));
                          mbd = new Definition(pbd);
                          mbd.overrideFrom(bd);
                        }
                        if (this.alreadyCreated.contains(beanName)) {
                          this.mergedBeanDefinitions.put(beanName, mbd);
                        }
                      }
                      return mbd;
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aFreshValueBuiltInStepsBeforeThePutIsPartOfTheFill() {
    compilation
        .addSourceLines(
            "ReflectorCache.java",
            lines(
                """
                import java.util.HashMap;
                import java.util.Map;
                public class ReflectorCache {
                  static final class Reflector {
                    private final Class<?> type;
                    private String[] getters = new String[0];
                    Reflector(Class<?> type) { this.type = type; }
                    void init() { getters = new String[type.getMethods().length]; }
                    void touch() {}
                  }
                  private final Map<Class<?>, Reflector> reflectors = new HashMap<>();
                  // BUG: Diagnostic contains: Check-then-act cache on 'reflectors' under the instance monitor (synchronized method)
                  public synchronized Reflector forClass(Class<?> type) {
                    Reflector reflector = reflectors.get(type);
                    if (reflector == null) {
                      reflector = new Reflector(type);
                      reflector.init();
                      reflectors.put(type, reflector);
                    }
                    return reflector;
                  }
                  // the cached value itself is changed under the lock: the lock guards more than the map
                  public synchronized Reflector touched(Class<?> type) {
                    Reflector reflector = reflectors.get(type);
                    if (reflector == null) {
                      reflector = new Reflector(type);
                      reflectors.put(type, reflector);
                    }
                    reflector.touch();
                    return reflector;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aConcurrentMapLockedByAnotherMonitorIsNotTheMapsOwnMonitor() {
    compilation
        .addSourceLines(
            "Registry.java",
            lines(
                """
                import java.util.Map;
                import java.util.concurrent.ConcurrentHashMap;
                public class Registry {
                  private final Map<String, Object> beans = new ConcurrentHashMap<>();
                  private final Object lock = new Object();
                  public Object bean(String name) {
                    synchronized (lock) {
                      Object bean = beans.get(name);
                      if (bean == null) {
                        bean = new Object();
                        beans.put(name, bean);
                      }
                      return bean;
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aValueBuiltInStepsIsReportedWithoutARewrite() {
    // the fill is several statements: ComputeIfAbsentFix only rewrites a one-expression fill
    refactoring
        .addInputLines(
            "ReflectorCache.java",
            lines(
                """
                import java.util.HashMap;
                import java.util.Map;
                public class ReflectorCache {
                  static final class Reflector {
                    private final Class<?> type;
                    Reflector(Class<?> type) { this.type = type; }
                    void init() {}
                  }
                  private final Map<Class<?>, Reflector> reflectors = new HashMap<>();
                  public synchronized Reflector forClass(Class<?> type) {
                    Reflector reflector = reflectors.get(type);
                    if (reflector == null) {
                      reflector = new Reflector(type);
                      reflector.init();
                      reflectors.put(type, reflector);
                    }
                    return reflector;
                  }
                }
                """))
        .expectUnchanged()
        .doTest();
  }

  @Test
  void aStartUpRegistryUnderTheMapsOwnMonitorHandsNothingBack() {
    compilation
        .addSourceLines(
            "AliasRegistry.java",
            lines(
                """
                import java.util.Map;
                import java.util.concurrent.ConcurrentHashMap;
                public class AliasRegistry {
                  private final Map<String, String> aliasMap = new ConcurrentHashMap<>();
                  private final Map<Class<?>, Object> suppliers = new ConcurrentHashMap<>();
                  public void registerAlias(String name, String alias) {
                    synchronized (this.aliasMap) {
                      String registeredName = this.aliasMap.get(alias);
                      if (registeredName != null && !registeredName.equals(name)) {
                        throw new IllegalStateException("alias '" + alias + "' is already bound to '" + registeredName + "'");
                      }
                      this.aliasMap.put(alias, name);
                    }
                  }
                  public <T> void register(Class<T> type, Object supplier) {
                    synchronized (this.suppliers) {
                      if (!this.suppliers.containsKey(type)) {
                        this.suppliers.put(type, supplier);
                      }
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aDoubleCheckedLookupOnAConcurrentMapTakesItsMonitorOnlyOnAMiss() {
    compilation
        .addSourceLines(
            "ConstructorResolver.java",
            lines(
                """
                import java.util.Map;
                import java.util.concurrent.ConcurrentHashMap;
                public class ConstructorResolver {
                  private final Map<Class<?>, Object[]> candidateConstructorsCache = new ConcurrentHashMap<>(256);
                  public Object[] determineCandidateConstructors(Class<?> beanClass) {
                    Object[] candidateConstructors = this.candidateConstructorsCache.get(beanClass);
                    if (candidateConstructors == null) {
                      synchronized (this.candidateConstructorsCache) {
                        candidateConstructors = this.candidateConstructorsCache.get(beanClass);
                        if (candidateConstructors == null) {
                          candidateConstructors = beanClass.getDeclaredConstructors();
                          this.candidateConstructorsCache.put(beanClass, candidateConstructors);
                        }
                      }
                    }
                    return candidateConstructors;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aDoubleCheckedLookupOnACoarselyLockedMapStillLocksOnEveryRead() {
    compilation
        .addSourceLines(
            "TemplateCache.java",
            lines(
                """
                import java.util.Hashtable;
                import java.util.Map;
                public class TemplateCache {
                  private final Map<String, String> templates = new Hashtable<>();
                  public String template(String name) {
                    String template = templates.get(name);
                    if (template == null) {
                      // BUG: Diagnostic contains: Check-then-act cache on 'templates' under the monitor of 'templates'
                      synchronized (templates) {
                        template = templates.get(name);
                        if (template == null) {
                          template = name.toUpperCase();
                          templates.put(name, template);
                        }
                      }
                    }
                    return template;
                  }
                }
                """))
        .doTest();
  }

  // ---- check-then-act split across private helpers (issue 12) -----------------------------------

  @Test
  void checkThenActSplitAcrossPrivateHelpersOfTheSameClass() {
    compilation
        .addSourceLines(
            "PropertyAccessors.java",
            "import java.lang.reflect.Method;",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Hashtable;",
            "import java.util.Map;",
            "import java.util.WeakHashMap;",
            "public class PropertyAccessors {",
            "  private static final Map<Class<?>, Method[]> ACCESSORS = Collections.synchronizedMap(new HashMap<>());",
            "  private static final Map<String, String> COLUMNS = new Hashtable<>();",
            "  private static final Map<Class<?>, String> NAMES = Collections.synchronizedMap(new WeakHashMap<>());",
            "  public Method[] accessorsOf(Class<?> type) {",
            "    // BUG: Diagnostic contains: split across getCachedAccessors() and cacheAccessors()",
            "    Method[] accessors = getCachedAccessors(type);",
            "    if (accessors == null) {",
            "      accessors = type.getMethods();",
            "      cacheAccessors(type, accessors);",
            "    }",
            "    return accessors;",
            "  }",
            "  public String columnFor(String property) {",
            "    String column;",
            "    // BUG: Diagnostic contains: Check-then-act cache on 'COLUMNS', a coarsely locked map",
            "    column = (String) lookupColumn(property);",
            "    if (null == column) {",
            "      column = property.replaceAll(\"([A-Z])\", \"_$1\").toLowerCase();",
            "      rememberColumn(property, column);",
            "    }",
            "    return column;",
            "  }",
            "  public String nameOf(Class<?> type) {",
            "    // BUG: Diagnostic contains: split across cachedName() and cacheName()",
            "    String name = cachedName(type);",
            "    if (name == null) {",
            "      name = type.getName().toLowerCase();",
            "      cacheName(type, name);",
            "    }",
            "    return name;",
            "  }",
            "  private static Method[] getCachedAccessors(Class<?> type) { return ACCESSORS.get(type); }",
            "  private static void cacheAccessors(Class<?> type, Method[] accessors) { ACCESSORS.put(type, accessors); }",
            "  private Object lookupColumn(String property) { return COLUMNS.get(property); }",
            "  private void rememberColumn(String property, String column) { COLUMNS.put(property, column); }",
            "  private static String cachedName(Class<?> type) { return NAMES.get(type); }",
            "  private static void cacheName(Class<?> type, String name) { NAMES.put(type, name); }",
            "}")
        .doTest();
  }

  @Test
  void helperSplitsThatAreNotACoarseCache() {
    compilation
        .addSourceLines(
            "PropertyAccessors.java",
            "import java.lang.reflect.Method;",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class PropertyAccessors {",
            "  private static final Map<Class<?>, Method[]> CONCURRENT = new ConcurrentHashMap<>();",
            "  private static final Map<Class<?>, Method[]> COARSE = Collections.synchronizedMap(new HashMap<>());",
            "  private static final Map<Class<?>, Method[]> OTHER = Collections.synchronizedMap(new HashMap<>());",
            "  public PropertyAccessors() {",
            "    Method[] own = getCoarse(PropertyAccessors.class);",
            "    if (own == null) {",
            "      putCoarse(PropertyAccessors.class, PropertyAccessors.class.getMethods());",
            "    }",
            "  }",
            "  public Method[] onAConcurrentMap(Class<?> type) {",
            "    Method[] accessors = getConcurrent(type);",
            "    if (accessors == null) {",
            "      accessors = type.getMethods();",
            "      putConcurrent(type, accessors);",
            "    }",
            "    return accessors;",
            "  }",
            "  public Method[] overridableHelpers(Class<?> type) {",
            "    Method[] accessors = lookup(type);",
            "    if (accessors == null) {",
            "      accessors = type.getMethods();",
            "      store(type, accessors);",
            "    }",
            "    return accessors;",
            "  }",
            "  public Method[] anotherKey(Class<?> type) {",
            "    Method[] accessors = getCoarse(type);",
            "    if (accessors == null) {",
            "      accessors = type.getSuperclass().getMethods();",
            "      putCoarse(type.getSuperclass(), accessors);",
            "    }",
            "    return accessors;",
            "  }",
            "  public Method[] anotherMap(Class<?> type) {",
            "    Method[] accessors = getCoarse(type);",
            "    if (accessors == null) {",
            "      accessors = type.getMethods();",
            "      putOther(type, accessors);",
            "    }",
            "    return accessors;",
            "  }",
            "  public Method[] helperDoesMore(Class<?> type) {",
            "    Method[] accessors = getCoarse(type);",
            "    if (accessors == null) {",
            "      accessors = type.getMethods();",
            "      putAndLog(type, accessors);",
            "    }",
            "    return accessors;",
            "  }",
            "  private static Method[] getConcurrent(Class<?> type) { return CONCURRENT.get(type); }",
            "  private static void putConcurrent(Class<?> type, Method[] m) { CONCURRENT.put(type, m); }",
            "  protected Method[] lookup(Class<?> type) { return COARSE.get(type); }",
            "  protected void store(Class<?> type, Method[] m) { COARSE.put(type, m); }",
            "  private static Method[] getCoarse(Class<?> type) { return COARSE.get(type); }",
            "  private static void putCoarse(Class<?> type, Method[] m) { COARSE.put(type, m); }",
            "  private static void putOther(Class<?> type, Method[] m) { OTHER.put(type, m); }",
            "  private static void putAndLog(Class<?> type, Method[] m) {",
            "    COARSE.put(type, m);",
            "    System.out.println(\"cached \" + type);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aMapOfAnObjectCreatedPerCallAndNeverPublishedQueuesNobody() {
    compilation
        .addSourceLines(
            "TemplateRenderer.java",
            "import java.util.Hashtable;",
            "import java.util.Map;",
            "public class TemplateRenderer {",
            "  public String render(String template, Map<String, Object> model) {",
            "    Expansion expansion = new Expansion(model);",
            "    return expansion.expand(template) + new Expansion(model).expand(\"${footer}\");",
            "  }",
            "  private static final class Expansion {",
            "    private final Map<String, Object> model;",
            "    private final Map<String, String> resolved = new Hashtable<>();",
            "    Expansion(Map<String, Object> model) {",
            "      this.model = model;",
            "    }",
            "    String expand(String name) {",
            "      synchronized (resolved) {",
            "        String value = resolved.get(name);",
            "        if (value == null) {",
            "          value = String.valueOf(model.get(name));",
            "          resolved.put(name, value);",
            "        }",
            "        return value;",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aMapOfAnObjectThatIsPublishedIsShared() {
    compilation
        .addSourceLines(
            "Renderers.java",
            "import java.util.Hashtable;",
            "import java.util.Map;",
            "public class Renderers {",
            "  private Expansion shared;",
            "  public String render(String template) {",
            "    Expansion expansion = new Expansion();",
            "    shared = expansion;", // stored in a field: every later call uses the same object
            "    return expansion.expand(template);",
            "  }",
            "  public String renderEscaping(String template) {",
            "    return Escapes.of().expand(template);",
            "  }",
            "  private static final class Expansion {",
            "    private final Map<String, String> resolved = new Hashtable<>();",
            "    String expand(String name) {",
            "      // BUG: Diagnostic contains: SynchronizedMapCache",
            "      synchronized (resolved) {",
            "        String value = resolved.get(name);",
            "        if (value == null) {",
            "          value = name.trim();",
            "          resolved.put(name, value);",
            "        }",
            "        return value;",
            "      }",
            "    }",
            "  }",
            "  private static final class Escapes {",
            "    private static final Escapes INSTANCE = new Escapes();",
            "    private final Map<String, String> resolved = new Hashtable<>();",
            "    static Escapes of() {",
            "      return INSTANCE;",
            "    }",
            "    String expand(String name) {",
            "      // BUG: Diagnostic contains: SynchronizedMapCache",
            "      synchronized (resolved) {",
            "        String value = resolved.get(name);",
            "        if (value == null) {",
            "          value = name.trim();",
            "          resolved.put(name, value);",
            "        }",
            "        return value;",
            "      }",
            "    }",
            "  }",
            "}")
        .addSourceLines(
            "Registering.java",
            "import java.util.Hashtable;",
            "import java.util.List;",
            "import java.util.Map;",
            "public class Registering {",
            "  public String render(String template, List<Object> live) {",
            "    return new Expansion(live).expand(template);",
            "  }",
            "  private static final class Expansion {",
            "    private final Map<String, String> resolved = new Hashtable<>();",
            "    Expansion(List<Object> live) {",
            "      live.add(this);", // hands itself out: others may share its map
            "    }",
            "    String expand(String name) {",
            "      // BUG: Diagnostic contains: SynchronizedMapCache",
            "      synchronized (resolved) {",
            "        String value = resolved.get(name);",
            "        if (value == null) {",
            "          value = name.trim();",
            "          resolved.put(name, value);",
            "        }",
            "        return value;",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- recall-hunt misses S1, S4, S-FP1 (issue 12) ----------------------------------------------

  @Test
  void aValueMadeInATryAndSetUpAfterThePutIsPartOfTheFillStruts13RequestProcessor() {
    compilation
        .addSourceLines(
            "RequestProcessor.java",
            lines(
                """
                import java.util.HashMap;
                public class RequestProcessor {
                  public static class Action {
                    private Object servlet;
                    public Object getServlet() { return servlet; }
                    public void setServlet(Object servlet) { this.servlet = servlet; }
                  }
                  protected final HashMap actions = new HashMap();
                  protected Object servlet;
                  static Object applicationInstance(String className) throws Exception {
                    return Class.forName(className).getDeclaredConstructor().newInstance();
                  }
                  protected Action processActionCreate(String className) {
                    Action instance;
                    // BUG: Diagnostic contains: Check-then-act cache on 'actions' under the monitor of 'actions'
                    synchronized (actions) {
                      instance = (Action) actions.get(className);
                      if (instance != null) {
                        return (instance);
                      }
                      try {
                        instance = (Action) applicationInstance(className);
                      } catch (Exception e) {
                        return (null);
                      }
                      actions.put(className, instance);
                      if (instance.getServlet() == null) {
                        instance.setServlet(this.servlet);
                      }
                    }
                    return (instance);
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aValueMadeByReflectionAndMadeAccessibleBeforeThePutXStream14SerializationMembers() {
    compilation
        .addSourceLines(
            "SerializationMembers.java",
            lines(
                """
                import java.lang.reflect.Method;
                import java.util.Collections;
                import java.util.HashMap;
                import java.util.Map;
                public class SerializationMembers {
                  private final Map declaredCache = Collections.synchronizedMap(new HashMap());
                  // BUG: Diagnostic contains: Check-then-act cache on 'declaredCache', a coarsely locked map
                  Method getMethod(Class type, String name, Class[] parameterTypes) {
                    if (type == null) {
                      return null;
                    }
                    String member = type.getName() + "." + name;
                    Method result = (Method) declaredCache.get(member);
                    if (result == null) {
                      try {
                        result = type.getDeclaredMethod(name, parameterTypes);
                        if (!result.isAccessible()) {
                          result.setAccessible(true);
                        }
                      } catch (NoSuchMethodException e) {
                        result = getMethod(type.getSuperclass(), name, parameterTypes);
                      }
                      declaredCache.put(member, result);
                    }
                    return result;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aValueBorrowedFromAnotherFieldIsWorkTheLockGuards() {
    // the pool is shared state: setting up what it hands out is what the lock is for
    compilation
        .addSourceLines(
            "SessionRegistry.java",
            lines(
                """
                import java.util.ArrayDeque;
                import java.util.Deque;
                import java.util.HashMap;
                import java.util.Map;
                public class SessionRegistry {
                  static final class Session {
                    String user;
                    void attach(String user) { this.user = user; }
                  }
                  static final class Pool {
                    private final Deque<Session> idle = new ArrayDeque<>();
                    Session borrow() { Session s = idle.poll(); return s != null ? s : new Session(); }
                  }
                  private final Pool pool = new Pool();
                  private final Map<String, Session> sessions = new HashMap<>();
                  public synchronized Session sessionFor(String user) {
                    Session session = sessions.get(user);
                    if (session == null) {
                      session = pool.borrow();
                      session.attach(user);
                      sessions.put(user, session);
                    }
                    return session;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aValueMadeOnlyOnOnePathStillChangesTheCachedValueOnTheOther() {
    // after the if, 'handlers' may be the cached list: adding to it is a multimap update
    compilation
        .addSourceLines(
            "EventBus.java",
            lines(
                """
                import java.util.ArrayList;
                import java.util.List;
                import java.util.Map;
                import java.util.Hashtable;
                public class EventBus {
                  private final Map<String, List<Runnable>> handlers = new Hashtable<>();
                  public synchronized List<Runnable> subscribe(String topic, Runnable handler) {
                    List<Runnable> list = handlers.get(topic);
                    if (list == null) {
                      try {
                        list = new ArrayList<>(List.of(handler));
                      } catch (RuntimeException e) {
                        System.err.println(e);
                      }
                      handlers.put(topic, list);
                    }
                    list.add(handler);
                    return list;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aCachedLookupFailureIsRethrownXStream14CachingMapper() {
    compilation
        .addSourceLines(
            "CachingMapper.java",
            lines(
                """
                import java.util.Collections;
                import java.util.HashMap;
                import java.util.Map;
                public class CachingMapper {
                  static class CannotResolveClassException extends RuntimeException {
                    CannotResolveClassException(String name) { super(name); }
                  }
                  private final Map realClassCache = Collections.synchronizedMap(new HashMap(128));
                  Class resolve(String elementName) throws CannotResolveClassException {
                    try {
                      return Class.forName(elementName);
                    } catch (ClassNotFoundException e) {
                      throw new CannotResolveClassException(elementName);
                    }
                  }
                  // BUG: Diagnostic contains: Check-then-act cache on 'realClassCache', a coarsely locked map
                  public Class realClass(String elementName) {
                    Object cached = realClassCache.get(elementName);
                    if (cached != null) {
                      if (cached instanceof Class) {
                        return (Class) cached;
                      }
                      throw (CannotResolveClassException) cached;
                    }
                    try {
                      Class result = resolve(elementName);
                      realClassCache.put(elementName, result);
                      return result;
                    } catch (CannotResolveClassException e) {
                      realClassCache.put(elementName, e);
                      throw e;
                    }
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aHitUnwrappedFromAWeakReferenceReturnsFromANestedIfXStream13CachingMapper() {
    compilation
        .addSourceLines(
            "CachingMapper.java",
            lines(
                """
                import java.lang.ref.WeakReference;
                import java.util.Collections;
                import java.util.HashMap;
                import java.util.Map;
                public class CachingMapper {
                  private final Map realClassCache = Collections.synchronizedMap(new HashMap(128));
                  // BUG: Diagnostic contains: Check-then-act cache on 'realClassCache', a coarsely locked map
                  public Class realClass(String elementName) throws ClassNotFoundException {
                    WeakReference reference = (WeakReference) realClassCache.get(elementName);
                    if (reference != null) {
                      Class cached = (Class) reference.get();
                      if (cached != null) {
                        return cached;
                      }
                    }
                    Class result = Class.forName(elementName);
                    realClassCache.put(elementName, new WeakReference(result));
                    return result;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aHitThatOnlyLogsFallsThroughToThePutEveryTime() {
    // the put runs on every call: a last-value register, not a lookup
    compilation
        .addSourceLines(
            "LastLogin.java",
            lines(
                """
                import java.util.Collections;
                import java.util.HashMap;
                import java.util.Map;
                public class LastLogin {
                  private final Map<String, Long> lastLogin = Collections.synchronizedMap(new HashMap<>());
                  public long login(String user, long now) {
                    Long previous = lastLogin.get(user);
                    if (previous != null) {
                      if (previous > now) {
                        System.err.println("clock went back for " + user);
                      }
                    }
                    lastLogin.put(user, now);
                    return previous == null ? now : previous;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aLockTakenOnlyAfterALockFreeMissIsNotAQueueOgnl31ConstructorParameterTypes() {
    compilation
        .addSourceLines(
            "OgnlRuntime.java",
            lines(
                """
                import java.lang.reflect.Constructor;
                import java.util.HashMap;
                import java.util.Map;
                public class OgnlRuntime {
                  static final Map _ctorParameterTypesCache = new HashMap(101);
                  public static Class[] getParameterTypes(Constructor c) {
                    Class[] result;
                    if ((result = (Class[]) _ctorParameterTypesCache.get(c)) == null) {
                      synchronized (_ctorParameterTypesCache) {
                        if ((result = (Class[]) _ctorParameterTypesCache.get(c)) == null) {
                          _ctorParameterTypesCache.put(c, result = c.getParameterTypes());
                        }
                      }
                    }
                    return result;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void aLockFreeReadOfAnotherKeyDoesNotSpareTheLock() {
    compilation
        .addSourceLines(
            "LabelCache.java",
            lines(
                """
                import java.util.HashMap;
                import java.util.Map;
                public class LabelCache {
                  private final Map<String, String> labels = new HashMap<>();
                  public String label(String locale, String key) {
                    String fallback = labels.get("default." + key);
                    if (fallback == null) {
                      // BUG: Diagnostic contains: under the monitor of 'labels'
                      synchronized (labels) {
                        String id = locale + "." + key; // the model follows one key by its value
                        String label = labels.get(id);
                        if (label == null) {
                          label = key.toUpperCase();
                          labels.put(id, label);
                        }
                        return label;
                      }
                    }
                    return fallback;
                  }
                }
                """))
        .doTest();
  }

  @Test
  void theNewlyReportedShapesGetNoRewrite() {
    refactoring
        .addInputLines(
            "CachingMapper.java",
            lines(
                """
                import java.util.Collections;
                import java.util.HashMap;
                import java.util.Map;
                public class CachingMapper {
                  private final Map<String, Object> realClassCache =
                      Collections.synchronizedMap(new HashMap<>(128));
                  public Class<?> realClass(String elementName) {
                    Object cached = realClassCache.get(elementName);
                    if (cached != null) {
                      if (cached instanceof Class) {
                        return (Class<?>) cached;
                      }
                      throw (IllegalArgumentException) cached;
                    }
                    try {
                      Class<?> result = Class.forName(elementName);
                      realClassCache.put(elementName, result);
                      return result;
                    } catch (ClassNotFoundException e) {
                      IllegalArgumentException failure = new IllegalArgumentException(elementName);
                      realClassCache.put(elementName, failure);
                      throw failure;
                    }
                  }
                }
                """))
        .expectUnchanged()
        .addInputLines(
            "ActionCache.java",
            lines(
                """
                import java.util.HashMap;
                import java.util.Map;
                public class ActionCache {
                  public static class Action {
                    Object servlet;
                    void setServlet(Object servlet) { this.servlet = servlet; }
                  }
                  private final Map<String, Action> actions = new HashMap<>();
                  private final Object servlet = new Object();
                  Action action(String className) {
                    synchronized (actions) {
                      Action instance = actions.get(className);
                      if (instance != null) {
                        return instance;
                      }
                      instance = create(className);
                      actions.put(className, instance);
                      instance.setServlet(servlet);
                      return instance;
                    }
                  }
                  static Action create(String className) { return new Action(); }
                }
                """))
        .expectUnchanged()
        .doTest();
  }

  @Test
  void theNewlyReportedShapesSayWhyThereIsNoRewrite() {
    compilation
        .addSourceLines(
            "ActionCache.java",
            lines(
                """
                import java.util.HashMap;
                import java.util.Map;
                public class ActionCache {
                  public static class Action {
                    Object servlet;
                    void setServlet(Object servlet) { this.servlet = servlet; }
                  }
                  private final Map<String, Action> actions = new HashMap<>();
                  private final Object servlet = new Object();
                  Action action(String className) {
                    // BUG: Diagnostic contains: No automatic fix
                    synchronized (actions) {
                      Action instance = actions.get(className);
                      if (instance != null) {
                        return instance;
                      }
                      instance = create(className);
                      actions.put(className, instance);
                      instance.setServlet(servlet);
                      return instance;
                    }
                  }
                  static Action create(String className) { return new Action(); }
                }
                """))
        .doTest();
  }
}
