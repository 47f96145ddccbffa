package io.github.lockjaw.checks.readmostly;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class ReadMostlyStateUnderLockTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ReadMostlyStateUnderLock.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(ReadMostlyStateUnderLock.class, getClass());

  @Test
  void springFiveOneGetBeanFactoryIsFlaggedWithoutAFixWhenCloseReadsBeforeItWrites() {
    compilation
        .addSourceLines(
            "RefreshableContext.java",
            "public abstract class RefreshableContext {",
            "  static class DefaultListableBeanFactory {}",
            "  private DefaultListableBeanFactory beanFactory;",
            "  private final Object beanFactoryMonitor = new Object();",
            "  protected final void refreshBeanFactory() {",
            "    DefaultListableBeanFactory created = new DefaultListableBeanFactory();",
            "    synchronized (this.beanFactoryMonitor) {",
            "      this.beanFactory = created;",
            "    }",
            "  }",
            "  protected final void closeBeanFactory() {",
            "    synchronized (this.beanFactoryMonitor) {",
            "      if (this.beanFactory != null) {",
            "        this.beanFactory = null;",
            "      }",
            "    }",
            "  }",
            "  protected final boolean hasBeanFactory() {",
            "    // BUG: Diagnostic contains: closeBeanFactory() reads 'beanFactory' before it writes it",
            "    synchronized (this.beanFactoryMonitor) {",
            "      return (this.beanFactory != null);",
            "    }",
            "  }",
            "  public final DefaultListableBeanFactory getBeanFactory() {",
            "    // BUG: Diagnostic contains: only to read 'beanFactory', which only refreshBeanFactory(), closeBeanFactory() write",
            "    synchronized (this.beanFactoryMonitor) {",
            "      if (this.beanFactory == null) {",
            "        throw new IllegalStateException(\"BeanFactory not initialized or already closed\");",
            "      }",
            "      return this.beanFactory;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void springTwoFiveOneCopiesEveryBeanNameOnEachTypeLookup() {
    compilation
        .addSourceLines(
            "BeanRegistry.java",
            "import java.util.ArrayList;",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "public class BeanRegistry {",
            "  private final Map<String, Object> beanDefinitionMap = new HashMap<>();",
            "  private final List<String> beanDefinitionNames = new ArrayList<>();",
            "  public void registerBeanDefinition(String name, Object definition) {",
            "    synchronized (this.beanDefinitionMap) {",
            "      if (!beanDefinitionMap.containsKey(name)) {",
            "        this.beanDefinitionNames.add(name);",
            "      }",
            "      this.beanDefinitionMap.put(name, definition);",
            "    }",
            "  }",
            "  public String[] getBeanNamesForType(Class<?> type) {",
            "    String[] names;",
            "    // BUG: Diagnostic contains: only to copy 'beanDefinitionNames' (List.toArray()), which only registerBeanDefinition() writes",
            "    synchronized (this.beanDefinitionMap) {",
            "      names = this.beanDefinitionNames.toArray(new String[0]);",
            "    }",
            "    List<String> result = new ArrayList<>();",
            "    for (String name : names) {",
            "      if (type.isInstance(beanDefinitionMap.get(name))) {",
            "        result.add(name);",
            "      }",
            "    }",
            "    return result.toArray(new String[0]);",
            "  }",
            "  public List<String> getBeanDefinitionNames() {",
            "    // BUG: Diagnostic contains: immutable snapshot through a volatile field",
            "    synchronized (this.beanDefinitionMap) {",
            "      return new ArrayList<>(this.beanDefinitionNames);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void dbcp2PoolingDriverReadsAStaticPoolMapUnderTheDriverMonitor() {
    compilation
        .addSourceLines(
            "PoolingDriver.java",
            "import java.sql.SQLException;",
            "import java.util.HashMap;",
            "public class PoolingDriver {",
            "  private static final String URL_PREFIX = \"jdbc:apache:commons:dbcp:\";",
            "  protected static final HashMap<String, Object> pools = new HashMap<>();",
            "  public synchronized void registerPool(String name, Object pool) { pools.put(name, pool); }",
            "  public synchronized void closePool(String name) { pools.remove(name); }",
            "  // BUG: Diagnostic contains: only to read 'pools', which only registerPool(), closePool() write",
            "  public synchronized Object getConnectionPool(String name) throws SQLException {",
            "    Object pool = pools.get(name);",
            "    if (null == pool) {",
            "      throw new SQLException(\"Pool not registered: \" + URL_PREFIX + name);",
            "    }",
            "    return pool;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void synchronizedGetterOfAFieldOnlySettersAssign() {
    compilation
        .addSourceLines(
            "PricingRules.java",
            "import java.util.Map;",
            "public class PricingRules {",
            "  private Map<String, Integer> discounts = Map.of();",
            "  // BUG: Diagnostic contains: Make 'discounts' volatile and read it once without the lock",
            "  public synchronized Map<String, Integer> getDiscounts() {",
            "    return discounts;",
            "  }",
            "  public synchronized void reload(Map<String, Integer> fresh) {",
            "    discounts = Map.copyOf(fresh);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noVolatileFixWhenAWriterGoesOnWithTheObjectItPublished() {
    // reload() fills the map after it assigned it: under the lock no reader sees it half filled;
    // with a volatile field and an unlocked reader, one could
    compilation
        .addSourceLines(
            "PricingRules.java",
            """
            import java.util.HashMap;
            import java.util.Map;

            public class PricingRules {
              private Map<String, Integer> discounts = Map.of();

              // BUG: Diagnostic contains: a writer goes on after it assigns 'discounts'
              public synchronized Map<String, Integer> getDiscounts() {
                return discounts;
              }

              public synchronized void reload(Map<String, Integer> fresh) {
                Map<String, Integer> next = new HashMap<>();
                discounts = next;
                next.putAll(fresh);
              }
            }
            """
                .lines()
                .toArray(String[]::new))
        .doTest();
  }

  @Test
  void volatileFixForASynchronizedGetter() {
    refactoring
        .addInputLines(
            "PricingRules.java",
            "import java.util.Map;",
            "public class PricingRules {",
            "  private Map<String, Integer> discounts = Map.of();",
            "",
            "  public synchronized Map<String, Integer> getDiscounts() {",
            "    return discounts;",
            "  }",
            "",
            "  public synchronized void reload(Map<String, Integer> fresh) {",
            "    discounts = Map.copyOf(fresh);",
            "  }",
            "}")
        .addOutputLines(
            "PricingRules.java",
            "import java.util.Map;",
            "public class PricingRules {",
            "  private volatile Map<String, Integer> discounts = Map.of();",
            "",
            "  public Map<String, Integer> getDiscounts() {",
            "    return discounts;",
            "  }",
            "",
            "  public synchronized void reload(Map<String, Integer> fresh) {",
            "    discounts = Map.copyOf(fresh);",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void volatileFixForALockedReadKeepsTheCodeAroundIt() {
    refactoring
        .addInputLines(
            "TenantSettings.java",
            "public class TenantSettings {",
            "  private final Object lock = new Object();",
            "  private String theme = \"light\";",
            "",
            "  public String getTheme(String fallback) {",
            "    String current;",
            "    synchronized (lock) {",
            "      current = theme;",
            "    }",
            "    return current == null ? fallback : current;",
            "  }",
            "",
            "  public void reloadTheme(String theme) {",
            "    synchronized (lock) {",
            "      this.theme = theme;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "TenantSettings.java",
            "public class TenantSettings {",
            "  private final Object lock = new Object();",
            "  private volatile String theme = \"light\";",
            "",
            "  public String getTheme(String fallback) {",
            "    String current;",
            "    current = theme;",
            "    return current == null ? fallback : current;",
            "  }",
            "",
            "  public void reloadTheme(String theme) {",
            "    synchronized (lock) {",
            "      this.theme = theme;",
            "    }",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void silentWhenTheLockGuardsAReadModifyWriteOrRequestPathWrites() {
    compilation
        .addSourceLines(
            "LazyHolder.java",
            "public class LazyHolder {",
            "  private Object value;",
            "  public synchronized Object getValue() {",
            "    if (value == null) {",
            "      value = new Object();",
            "    }",
            "    return value;",
            "  }",
            "}")
        .addSourceLines(
            "HitCounter.java",
            "public class HitCounter {",
            "  private long hits;",
            "  public synchronized void recordHit() { hits++; }",
            "  public synchronized long getHits() { return hits; }",
            "}")
        .addSourceLines(
            "Sessions.java",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "public class Sessions {",
            "  private final List<String> active = new ArrayList<>();",
            "  public void onLogin(String user) { synchronized (active) { active.add(user); } }",
            "  public List<String> getActive() { synchronized (active) { return new ArrayList<>(active); } }",
            "}")
        .addSourceLines(
            "Constants.java",
            "public class Constants {",
            "  private final String name;",
            "  public Constants(String name) { this.name = name; }",
            "  public synchronized String getName() { return name; }",
            "  private synchronized String name() { return name; }",
            "}")
        .doTest();
  }

  @Test
  void silentOnLruMapsAndOnCollectionsOnlyAddAndRemoveMethodsWrite() {
    compilation
        .addSourceLines(
            "LockOut.java",
            "import java.util.LinkedHashMap;",
            "import java.util.Map;",
            "public class LockOut {",
            "  private final Map<String, Integer> failedUsers = new LinkedHashMap<>(16, 0.75f, true);",
            "  private final LinkedHashMap<String, Integer> recent = new LinkedHashMap<>(16, 0.75f, true);",
            "  public void registerAuthFailure(String user) {",
            "    synchronized (this) { failedUsers.put(user, 1); recent.put(user, 1); }",
            "  }",
            "  public boolean isLocked(String user) {",
            "    synchronized (this) { return recent.get(user) != null; }",
            "  }",
            "}")
        .addSourceLines(
            "LockOutRealm.java",
            "import java.util.LinkedHashMap;",
            "import java.util.Map;",
            "public class LockOutRealm {",
            "  protected Map<String, Long> failedUsers = null;",
            "  protected void startInternal() {",
            "    failedUsers = new LinkedHashMap<>(16, 0.75f, true) {",
            "      @Override protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {",
            "        return size() > 1000;",
            "      }",
            "    };",
            "  }",
            "  public void registerAuthFailure(String user) {",
            "    synchronized (this) { failedUsers.put(user, System.currentTimeMillis()); }",
            "  }",
            "  public boolean isLocked(String user) {",
            "    Long since;",
            "    synchronized (this) { since = failedUsers.get(user); }",
            "    return since != null;",
            "  }",
            "}")
        .addSourceLines(
            "ContextConfig.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ContextConfig {",
            "  private final Map<String, String> servletMappings = new HashMap<>();",
            "  private final Object servletMappingsLock = new Object();",
            "  public void addServletMapping(String pattern, String name) {",
            "    synchronized (servletMappingsLock) { servletMappings.put(pattern, name); }",
            "  }",
            "  public void removeServletMapping(String pattern) {",
            "    synchronized (servletMappingsLock) { servletMappings.remove(pattern); }",
            "  }",
            "  public String findServletMapping(String pattern) {",
            "    synchronized (servletMappingsLock) { return servletMappings.get(pattern); }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void silentOnJavaBeanPropertiesAndLifecycleFlags() {
    compilation
        .addSourceLines(
            "PoolSettings.java",
            "public class PoolSettings {",
            "  private int maxIdle = 8;",
            "  private boolean closed;",
            "  public synchronized int getMaxIdle() { return maxIdle; }",
            "  public synchronized void setMaxIdle(int maxIdle) { this.maxIdle = maxIdle; }",
            "  public synchronized boolean isClosed() { return closed; }",
            "  public synchronized void start() { closed = false; }",
            "  public synchronized void close() { closed = true; }",
            "}")
        .doTest();
  }

  @Test
  void silentWhenASnapshotIsHandedOutFirstAsInSpringTwoFiveTwo() {
    compilation
        .addSourceLines(
            "BeanRegistry.java",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "public class BeanRegistry {",
            "  private final List<String> beanDefinitionNames = new ArrayList<>();",
            "  private String[] frozenBeanDefinitionNames;",
            "  public void registerBeanDefinition(String name) {",
            "    synchronized (beanDefinitionNames) {",
            "      beanDefinitionNames.add(name);",
            "      frozenBeanDefinitionNames = null;",
            "    }",
            "  }",
            "  public void freezeConfiguration() {",
            "    synchronized (beanDefinitionNames) {",
            "      frozenBeanDefinitionNames = beanDefinitionNames.toArray(new String[0]);",
            "    }",
            "  }",
            "  public String[] getBeanDefinitionNames() {",
            "    synchronized (beanDefinitionNames) {",
            "      if (frozenBeanDefinitionNames != null) {",
            "        return frozenBeanDefinitionNames;",
            "      }",
            "      return beanDefinitionNames.toArray(new String[0]);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void suppressible() {
    compilation
        .addSourceLines(
            "Holder.java",
            "public class Holder {",
            "  private Object value;",
            "  @SuppressWarnings(\"ReadMostlyStateUnderLock\")",
            "  public synchronized Object getValue() { return value; }",
            "  public synchronized void refresh(Object value) { this.value = value; }",
            "}")
        .doTest();
  }

  private static final String REFRESHABLE_CONTEXT =
      """
      public abstract class RefreshableContext {
        static class DefaultListableBeanFactory {}
        private DefaultListableBeanFactory beanFactory;
        private final Object beanFactoryMonitor = new Object();
        protected final void refreshBeanFactory() {
          if (hasBeanFactory()) {
            closeBeanFactory();
          }
          DefaultListableBeanFactory created = new DefaultListableBeanFactory();
          synchronized (this.beanFactoryMonitor) {
            this.beanFactory = created;
          }
        }
        protected final void closeBeanFactory() {
          synchronized (this.beanFactoryMonitor) {
            this.beanFactory = null;
          }
        }
        %s
        protected final boolean hasBeanFactory() {
          %s
          synchronized (this.beanFactoryMonitor) {
            return (this.beanFactory != null);
          }
        }
      }
      """;

  @Test
  void anAccessorThatOnlyARefreshCallsIsSilent() {
    // Spring 5.1's hasBeanFactory(): refreshBeanFactory() is its one caller in the class
    compilation
        .addSourceLines("RefreshableContext.java", REFRESHABLE_CONTEXT.formatted("", ""))
        .doTest();
  }

  @Test
  void theSameAccessorAlsoCalledPerRequestIsReported() {
    compilation
        .addSourceLines(
            "RefreshableContext.java",
            REFRESHABLE_CONTEXT.formatted(
                """
                public Object getBean(String name) {
                    return hasBeanFactory() ? name : null;
                  }""",
                "// BUG: Diagnostic contains: only to read 'beanFactory'"))
        .doTest();
  }
}
