package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock-region queries of {@link ModelDetector} on compiled fixtures: statistics on the request
 * path, resource lookups and read-mostly state under shared locks, and the shapes it must leave
 * alone.
 */
class LockRegionDetectorTest {
  @TempDir static Path classes;

  private static List<AuditFinding> findings;

  @BeforeAll
  static void auditFixtures() throws Exception {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "shop.web.TimingFilter",
        """
        package shop.web;
        import com.sun.net.httpserver.Filter;
        import com.sun.net.httpserver.HttpExchange;
        import java.io.IOException;
        public class TimingFilter extends Filter {
          private long requests;
          private long totalNanos;
          @Override public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
            long start = System.nanoTime();
            chain.doFilter(exchange);
            record(System.nanoTime() - start);
          }
          private void record(long nanos) {
            synchronized (this) {                                           // line 14
              requests++;
              totalNanos += nanos;
            }
          }
          public synchronized long averageNanos() {
            return requests == 0 ? 0 : totalNanos / requests;
          }
          @Override public String description() { return "timing"; }
        }
        """);
    sources.put(
        "shop.batch.ImportJob",
        """
        package shop.batch;
        public class ImportJob {
          private long rows;
          public void importRow(String row) {
            synchronized (this) {
              rows++;
            }
          }
        }
        """);
    sources.put(
        "shop.web.AssetLocator",
        """
        package shop.web;
        import java.io.InputStream;
        import java.net.URL;
        import java.util.Enumeration;
        public class AssetLocator {
          private volatile Enumeration<URL> roots;
          public synchronized InputStream open(String path) {
            return getClass().getClassLoader().getResourceAsStream("META-INF/resources/" + path); // line 8
          }
          public Enumeration<URL> roots() throws java.io.IOException {
            synchronized (this) {
              if (roots == null) {
                roots = getClass().getClassLoader().getResources("META-INF/resources");
              }
              return roots;
            }
          }
          public synchronized void reload() throws java.io.IOException {
            roots = getClass().getClassLoader().getResources("META-INF/resources");
          }
        }
        """);
    sources.put(
        "shop.config.Settings",
        """
        package shop.config;
        import java.util.ArrayList;
        import java.util.List;
        import java.util.Map;
        public class Settings {
          private final Object lock = new Object();
          private Map<String, String> values = Map.of();
          private final List<String> names = new ArrayList<>();
          public Map<String, String> getValues() {
            synchronized (lock) {                                           // line 10
              return values;
            }
          }
          public List<String> getNames() {
            synchronized (lock) {                                           // line 15
              return new ArrayList<>(names);
            }
          }
          public void reload(Map<String, String> fresh) {
            synchronized (lock) {
              values = fresh;
              names.clear();
              names.addAll(fresh.keySet());
            }
          }
        }
        """);
    sources.put(
        "shop.config.Sequence",
        """
        package shop.config;
        public class Sequence {
          private long next;
          private String lastCaller;
          public synchronized long getNext() {
            return next++;
          }
          public synchronized String getLastCaller() {
            return lastCaller;
          }
          public synchronized void call(String caller) {
            lastCaller = caller;
          }
        }
        """);
    sources.put(
        "shop.i18n.MessageBundle",
        """
        package shop.i18n;
        import java.io.IOException;
        import java.io.InputStream;
        import java.util.HashMap;
        import java.util.Map;
        import java.util.Properties;
        public class MessageBundle {
          private final Map<String, String> locales = new HashMap<>();
          private final Map<String, Properties> bundles = new HashMap<>();
          private boolean trace;
          protected synchronized void loadLocale(String localeKey) {
            if (trace) {
              System.out.println("loadLocale(" + localeKey + ")");
            }
            if (locales.get(localeKey) != null) {
              return;
            }
            locales.put(localeKey, localeKey);
            String name = "messages";
            if (localeKey.length() > 0) {
              name += "_" + localeKey;
            }
            try (InputStream is = getClass().getClassLoader().getResourceAsStream(name + ".properties")) {
              new Properties().load(is);
            } catch (IOException e) {
              return;
            }
          }
          public Properties bundle(String name) throws IOException {
            synchronized (bundles) {
              if (bundles.containsKey(name)) {
                return bundles.get(name);
              }
              bundles.put(name, new Properties());
              try (InputStream in = MessageBundle.class.getResourceAsStream(name)) {
                bundles.get(name).load(in);
              }
              return bundles.get(name);
            }
          }
          public synchronized Properties theme(String theme) throws IOException {
            String path = "/themes/" + theme + ".properties";
            if (bundles.get(path) != null) {
              return bundles.get(path);
            }
            Properties props = new Properties();
            bundles.put(path, props);
            try (InputStream in = MessageBundle.class.getResourceAsStream(path)) {
              props.load(in);
            }
            return props;
          }
        }
        """);
    sources.put(
        "shop.web.TemplateSource",
        """
        package shop.web;
        import java.io.InputStream;
        import java.util.HashMap;
        import java.util.Map;
        public class TemplateSource {
          private final Map<String, String> seen = new HashMap<>();
          private int reloads;
          public synchronized InputStream open(String name) {
            if (seen.get(name) != null) {
              reloads++;
            }
            seen.put(name, name);
            return getClass().getClassLoader().getResourceAsStream("templates/" + name);
          }
          public synchronized InputStream openLocalised(String name, String locale) {
            if (seen.containsKey(locale)) {
              return null;
            }
            seen.put(name, locale);
            return getClass().getClassLoader().getResourceAsStream(locale + "/" + name);
          }
          public InputStream openRecordedOnlyWhenFound(String name) {
            synchronized (seen) {
              if (seen.get(name) != null) {
                return null;
              }
              if (name.endsWith(".vm")) {
                seen.put(name, name);
              }
              return getClass().getClassLoader().getResourceAsStream("templates/" + name);
            }
          }
          public synchronized InputStream openReassigned(String name) {
            if (seen.get(name) != null) {
              return null;
            }
            name = name.trim();
            seen.put(name, name);
            return getClass().getClassLoader().getResourceAsStream("templates/" + name);
          }
          public synchronized InputStream openAgain(String name) {
            if (seen.containsKey(name)) {
              return TemplateSource.class.getResourceAsStream("/templates/" + name);
            }
            seen.put(name, name);
            return TemplateSource.class.getResourceAsStream("/templates/" + name);
          }
        }
        """);
    sources.put(
        "shop.templates.JarTemplateLoader",
        """
        package shop.templates;
        import java.io.IOException;
        import java.io.InputStream;
        import java.util.zip.ZipEntry;
        import java.util.zip.ZipFile;
        public class JarTemplateLoader {
          private final ZipFile jar;
          public JarTemplateLoader(ZipFile jar) {
            this.jar = jar;
          }
          public synchronized InputStream getResourceStream(String name) throws IOException {
            ZipEntry entry = jar.getEntry(name.startsWith("/") ? name.substring(1) : name);
            return entry == null ? null : jar.getInputStream(entry);
          }
          public boolean has(String name) {
            synchronized (jar) {
              return jar.getEntry(name) != null;
            }
          }
        }
        """);
    sources.put(
        "shop.templates.TemplateFolder",
        """
        package shop.templates;
        import java.io.File;
        import java.io.IOException;
        import java.nio.file.DirectoryStream;
        import java.nio.file.Files;
        import java.nio.file.Path;
        public class TemplateFolder {
          private final Path folder;
          private final File legacyFolder;
          public TemplateFolder(Path folder) {
            this.folder = folder;
            this.legacyFolder = folder.toFile();
          }
          public Path newest(String prefix) throws IOException {
            Path newest = null;
            synchronized (TemplateFolder.class) {
              try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, prefix + "*.ftl")) {
                for (Path file : files) {
                  if (newest == null || file.toFile().lastModified() > newest.toFile().lastModified()) {
                    newest = file;
                  }
                }
              }
            }
            return newest;
          }
          public synchronized File pick(String name) {
            for (File file : candidates()) {
              if (file.getName().equals(name)) {
                return file;
              }
            }
            return null;
          }
          private File[] candidates() {
            File[] files = legacyFolder.listFiles();
            return files == null ? new File[0] : files;
          }
        }
        """);
    sources.put(
        "shop.pool.PoolMetrics",
        """
        package shop.pool;
        import javax.sql.ConnectionEvent;
        import javax.sql.ConnectionEventListener;
        public class PoolMetrics implements ConnectionEventListener {
          private long closed;
          private long failed;
          @Override public synchronized void connectionClosed(ConnectionEvent event) {
            closed++;                                                         // line 8
          }
          @Override public void connectionErrorOccurred(ConnectionEvent event) {
            synchronized (this) {                                             // line 11
              failed++;
            }
          }
          public synchronized long closed() {
            return closed;
          }
        }
        """);
    sources.put(
        "shop.web.Admission",
        """
        package shop.web;
        import com.sun.net.httpserver.Filter;
        import com.sun.net.httpserver.HttpExchange;
        import java.io.IOException;
        import java.util.HashMap;
        import java.util.Map;
        public class Admission extends Filter {
          private final int limit = 100;
          private int inFlight;
          private long rejected;
          private long sequence;
          private final Map<String, Object> lastResponse = new HashMap<>();
          @Override public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
            if (!admit()) {
              reject();
              return;
            }
            try {
              exchange.getResponseHeaders().add("X-Request", Long.toString(nextId()));
              chain.doFilter(exchange);
            } finally {
              release();
            }
            remember(exchange.getRequestURI().getPath(), exchange.getResponseHeaders());
          }
          private boolean admit() {
            synchronized (this) {
              if (inFlight < limit) {
                inFlight++;
                return true;
              }
              return false;
            }
          }
          private synchronized void release() {
            inFlight--;
          }
          private synchronized void reject() {
            rejected++;                                                       // line 39
          }
          private long nextId() {
            synchronized (this) {
              return ++sequence;
            }
          }
          private void remember(String path, Object headers) {
            synchronized (lastResponse) {
              lastResponse.put(path, headers);
            }
          }
          @Override public String description() {
            return "admission";
          }
        }
        """);
    sources.put(
        "shop.web.RouteTable",
        """
        package shop.web;
        import com.sun.net.httpserver.HttpExchange;
        import com.sun.net.httpserver.HttpHandler;
        import java.io.IOException;
        import java.util.Map;
        public class RouteTable implements HttpHandler {
          private final Object lock = new Object();
          private Map<String, String> routes = Map.of();
          public void start(Map<String, String> initial) {
            applyRoutes(initial);
          }
          private void applyRoutes(Map<String, String> fresh) {
            synchronized (lock) {
              routes = Map.copyOf(fresh);
            }
          }
          @Override public void handle(HttpExchange exchange) throws IOException {
            exchange.getResponseHeaders().add("Location", target(exchange.getRequestURI().getPath()));
            exchange.sendResponseHeaders(302, -1);
          }
          private String target(String path) {
            synchronized (lock) {                                             // line 22
              return lookup(path);
            }
          }
          private String lookup(String path) {
            return routes.getOrDefault(path, "/");
          }
        }
        """);
    sources.put(
        "shop.security.SecurityService",
        """
        package shop.security;
        public class SecurityService {
          private int readers;
          public String[] rolesOf(String user) {
            lockShared();
            try {
              return new String[] {user};
            } finally {
              unlockShared();
            }
          }
          public void grant(String user, String role) throws InterruptedException {
            lockExclusive();
          }
          protected synchronized void lockShared() {
            readers++;
          }
          protected synchronized void unlockShared() {
            readers--;
            notifyAll();
          }
          protected synchronized void lockExclusive() throws InterruptedException {
            while (readers > 0) {
              wait();
            }
          }
        }
        """);
    sources.put(
        "shop.pages.CompiledPage",
        """
        package shop.pages;
        import com.sun.net.httpserver.HttpExchange;
        import com.sun.net.httpserver.HttpHandler;
        public class CompiledPage implements HttpHandler {
          private int useCount;
          @Override public void handle(HttpExchange exchange) {
            use();
            try {
              exchange.close();
            } finally {
              free();
            }
          }
          public void use() {
            synchronized (this) {
              useCount++;
            }
          }
          public void free() {
            synchronized (this) {
              useCount--;
            }
            if (useCount <= 0) {
              destroy();
            }
          }
          public void destroy() {}
        }
        """);
    sources.put(
        "shop.stats.QueryTimes",
        """
        package shop.stats;
        import com.sun.net.httpserver.HttpExchange;
        import com.sun.net.httpserver.HttpHandler;
        public class QueryTimes implements HttpHandler {
          private long count;
          private long totalNanos;
          @Override public void handle(HttpExchange exchange) {
            long start = System.nanoTime();
            exchange.close();
            record(System.nanoTime() - start);
          }
          private void record(long nanos) {
            if (nanos > 1_000_000_000L) {
              warn(nanos);
            }
            synchronized (this) {                                             // line 16
              count++;
              totalNanos += nanos;
            }
          }
          private void warn(long nanos) {
            System.err.println("slow query: " + nanos + " ns");
          }
          public synchronized long averageNanos() {
            return count == 0 ? 0 : totalNanos / count;
          }
          public synchronized String report() {
            if (count > 0) {
              return count + " queries, " + totalNanos / count + " ns on average";
            }
            return "no queries";
          }
        }
        """);
    sources.put(
        "shop.ui.SkinService",
        """
        package shop.ui;
        import com.sun.net.httpserver.HttpExchange;
        import com.sun.net.httpserver.HttpHandler;
        import java.io.IOException;
        import java.io.InputStream;
        import java.util.HashMap;
        import java.util.Map;
        import java.util.Properties;
        public class SkinService implements HttpHandler {
          private final Map<String, Properties> skins = new HashMap<>();
          private final Map<String, Properties> themes = new HashMap<>();
          private final Map<String, Properties> layouts = new HashMap<>();
          @Override public void handle(HttpExchange exchange) throws IOException {
            String name = exchange.getRequestURI().getPath();
            exchange.getResponseHeaders().add("X-Skin", skin(name).getProperty("title"));
            exchange.getResponseHeaders().add("X-Font", loadFonts(name).getProperty("body"));
            exchange.getResponseHeaders().add("X-Theme", theme(name).getProperty("color"));
            exchange.close();
          }
          private Properties skin(String name) {
            Properties loaded = skins.get(name);
            return loaded != null ? loaded : loadSkin(name);
          }
          private synchronized Properties loadSkin(String name) {
            Properties props = load("/skins/" + name);
            synchronized (skins) {
              skins.put(name, props);
            }
            return props;
          }
          private synchronized Properties loadFonts(String name) {         // line 32
            return load("/fonts/" + name);
          }
          private Properties theme(String name) {
            Properties loaded = themes.get(name);
            return loaded != null ? loaded : loadTheme(name);
          }
          public synchronized Properties loadTheme(String name) {         // line 39
            Properties props = load("/themes/" + name);
            synchronized (themes) {
              themes.put(name, props);
            }
            return props;
          }
          public void warmLayouts(java.util.List<String> names) {
            layout(names.get(0));
            names.forEach(this::loadLayout);
          }
          private Properties layout(String name) {
            Properties loaded = layouts.get(name);
            return loaded != null ? loaded : loadLayout(name);
          }
          private synchronized Properties loadLayout(String name) {       // line 54
            Properties props = load("/layouts/" + name);
            layouts.put(name, props);
            return props;
          }
          private static Properties load(String path) {
            Properties props = new Properties();
            try (InputStream in = SkinService.class.getResourceAsStream(path)) {
              if (in != null) {
                props.load(in);
              }
            } catch (IOException e) {
              return props;
            }
            return props;
          }
        }
        """);
    Path out = classes.resolve("fixtures");
    BytecodeFixtures.compile(sources, out);
    findings = new JarAuditor().audit(List.of(out), List.of());
  }

  private static List<AuditFinding> in(String className) {
    return findings.stream().filter(f -> f.className().equals(className)).toList();
  }

  /** The class's ResourceLookupUnderLock findings (its map caches are MapCacheDetector's). */
  private static List<AuditFinding> resourceLookups(String className) {
    return in(className).stream().filter(f -> f.check().equals("ResourceLookupUnderLock")).toList();
  }

  private static String summary(List<AuditFinding> found) {
    return found.stream()
        .map(f -> f.check() + " " + f.methodName() + ":" + f.line())
        .sorted()
        .collect(Collectors.joining(", "));
  }

  @Test
  void statisticsUpdatedUnderTheInstanceMonitorOfAFilter() {
    List<AuditFinding> found = in("shop.web.TimingFilter");
    assertEquals("StatisticsUnderSharedLock record:14", summary(found));
    String message = found.get(0).message();
    assertTrue(message.contains("on every call of doFilter(), which calls record(),"), message);
    assertTrue(message.contains("'requests', 'totalNanos'"), message);
    assertTrue(message.contains("LongAdder"), message);
  }

  @Test
  void statisticsOffTheRequestPathAreNotFlagged() {
    assertEquals("", summary(in("shop.batch.ImportJob")));
  }

  @Test
  void classPathLookupUnderTheInstanceMonitor() {
    List<AuditFinding> found = in("shop.web.AssetLocator");
    assertEquals("ResourceLookupUnderLock open:8", summary(found));
    assertTrue(
        found
            .get(0)
            .message()
            .contains("ClassLoader.getResourceAsStream() (searches the class path)"),
        found.get(0).message());
  }

  @Test
  void readMostlyStateReadAndCopiedUnderALockField() {
    List<AuditFinding> found = in("shop.config.Settings");
    assertEquals(
        "ReadMostlyStateUnderLock getNames:15, ReadMostlyStateUnderLock getValues:10",
        summary(found));
    for (AuditFinding finding : found) {
      assertTrue(finding.message().contains("which only reload() writes"), finding.message());
      assertTrue(
          finding.advice().contains("If this is your own code, lockjaw's ReadMostlyStateUnderLock"),
          finding.advice());
    }
  }

  @Test
  void stateWrittenOnTheRequestPathOrReadModifyWriteIsNotReadMostly() {
    assertEquals("", summary(in("shop.config.Sequence")));
  }

  @Test
  void countersOfAConnectionListenerTheJdkDeclaresAreStatistics() {
    // a library callback: nothing in the code calls it, javax.sql.ConnectionEventListener declares
    // it
    List<AuditFinding> found = in("shop.pool.PoolMetrics");
    assertEquals(
        "StatisticsUnderSharedLock connectionClosed:8,"
            + " StatisticsUnderSharedLock connectionErrorOccurred:11",
        summary(found));
  }

  @Test
  void anAdmissionCounterASequenceAndACacheFillAreNoStatistics() {
    assertEquals("StatisticsUnderSharedLock reject:39", summary(in("shop.web.Admission")));
  }

  @Test
  void aReaderCountAnExclusiveLockWaitsOnAndAReferenceCountAreNoStatistics() {
    assertEquals("", summary(in("shop.security.SecurityService")));
    assertEquals("", summary(in("shop.pages.CompiledPage")));
  }

  @Test
  void countersReadOnlyToReportThemAreStatistics() {
    assertEquals("StatisticsUnderSharedLock record:16", summary(in("shop.stats.QueryTimes")));
  }

  @Test
  void aPrivateAccessorThatCallsALookupOfStateOnlyStartUpWrites() {
    List<AuditFinding> found = in("shop.web.RouteTable");
    assertEquals("ReadMostlyStateUnderLock target:22", summary(found));
    assertTrue(
        found.get(0).message().contains("which only applyRoutes() writes"), found.get(0).message());
  }

  @AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(
        List.of(),
        io.github.lockjaw.common.Resilience.swallowed(),
        "a detector threw; SpotBugs logged it and went on");
  }

  @Test
  void aLookupAfterAMembershipTestThatLeavesAndAPutOfTheKeyRunsOncePerKey() {
    assertEquals("", summary(resourceLookups("shop.i18n.MessageBundle")));
  }

  @Test
  void aPrivateLoaderItsCallersCallOnlyOnAMissOfTheKeyItPutsRunsOncePerKey() {
    assertEquals(
        "ResourceLookupUnderLock loadFonts:32, ResourceLookupUnderLock loadLayout:54,"
            + " ResourceLookupUnderLock loadTheme:39",
        summary(resourceLookups("shop.ui.SkinService")));
  }

  @Test
  void aMembershipTestThatDoesNotLeaveOrTestsAnotherKeyStillQueues() {
    assertEquals(
        "ResourceLookupUnderLock open:9, ResourceLookupUnderLock openAgain:42,"
            + " ResourceLookupUnderLock openLocalised:16,"
            + " ResourceLookupUnderLock openReassigned:34,"
            + " ResourceLookupUnderLock openRecordedOnlyWhenFound:23",
        summary(resourceLookups("shop.web.TemplateSource")));
  }

  @Test
  void aJarLoaderLockingItselfProbesItsArchiveForEveryTemplate() {
    List<AuditFinding> found = resourceLookups("shop.templates.JarTemplateLoader");
    assertEquals("ResourceLookupUnderLock getResourceStream:12", summary(found));
    assertTrue(found.get(0).message().contains("(probes an archive)"), found.get(0).message());
  }

  @Test
  void aTemplateFolderListedUnderAClassLockAndThroughAHelper() {
    List<AuditFinding> found = resourceLookups("shop.templates.TemplateFolder");
    assertEquals(
        "ResourceLookupUnderLock newest:16, ResourceLookupUnderLock pick:28", summary(found));
    String messages = found.stream().map(AuditFinding::message).collect(Collectors.joining("\n"));
    assertTrue(messages.contains("newDirectoryStream() (lists a directory)"), messages);
    assertTrue(messages.contains("candidates(), which calls "), messages);
  }
}
