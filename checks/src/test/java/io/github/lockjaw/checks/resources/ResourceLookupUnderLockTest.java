package io.github.lockjaw.checks.resources;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class ResourceLookupUnderLockTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ResourceLookupUnderLock.class, getClass());

  @Test
  void tomcatSevenProbesEveryJarUnderTheJarFilesLock() {
    compilation
        .addSourceLines(
            "WebappLoader.java",
            "import java.io.File;",
            "import java.io.IOException;",
            "import java.net.URL;",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "import java.util.jar.JarEntry;",
            "import java.util.jar.JarFile;",
            "public class WebappLoader {",
            "  protected JarFile[] jarFiles = new JarFile[0];",
            "  protected File[] jarRealFiles = new File[0];",
            "  synchronized void addJar(JarFile jar) throws IOException {",
            "    jar.getManifest();",
            "  }",
            "  public List<String> findResources(String name) {",
            "    List<String> result = new ArrayList<>();",
            "    // BUG: Diagnostic contains: holds the monitor of lock field 'jarFiles' while it calls JarFile.getJarEntry() (probes a jar)",
            "    synchronized (jarFiles) {",
            "      for (int i = 0; i < jarFiles.length; i++) {",
            "        JarEntry entry = jarFiles[i].getJarEntry(name);",
            "        if (entry != null) {",
            "          result.add(jarRealFiles[i] + \"!/\" + name);",
            "        }",
            "      }",
            "    }",
            "    return result;",
            "  }",
            "  static class ResourceEntry { Object manifest; }",
            "  protected URL findResourceInternal(String name, ResourceEntry entry) throws IOException {",
            "    if (entry.manifest == null) {",
            "      // BUG: Diagnostic contains: JarFile.getManifest() (reads a jar manifest)",
            "      synchronized (jarFiles) {",
            "        entry.manifest = jarFiles[0].getManifest();",
            "      }",
            "    }",
            "    // BUG: Diagnostic contains: while it calls probe(), which calls JarFile.getJarEntry()",
            "    synchronized (jarFiles) {",
            "      return probe(name);",
            "    }",
            "  }",
            "  private URL probe(String name) {",
            "    for (JarFile jar : jarFiles) {",
            "      if (jar.getJarEntry(name) != null) {",
            "        return null;",
            "      }",
            "    }",
            "    return null;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void assetServletScanningTheClassPathUnderAClassLock() {
    compilation
        .addSourceLines(
            "AssetLocator.java",
            "import java.io.InputStream;",
            "public class AssetLocator {",
            "  // BUG: Diagnostic contains: ClassLoader.getResourceAsStream() (searches the class path)",
            "  public static synchronized InputStream open(String path) {",
            "    return AssetLocator.class.getClassLoader().getResourceAsStream(\"META-INF/resources/webjars/\" + path);",
            "  }",
            "}")
        .addSourceLines(
            "ThemeFiles.java",
            "import java.io.IOException;",
            "import java.nio.file.Files;",
            "import java.nio.file.Path;",
            "import java.util.List;",
            "import java.util.stream.Stream;",
            "public class ThemeFiles {",
            "  private final Object lock = new Object();",
            "  private final Path root = Path.of(\"themes\");",
            "  public List<Path> findThemes() throws IOException {",
            "    // BUG: Diagnostic contains: Files.walk() (walks a file tree)",
            "    synchronized (lock) {",
            "      try (Stream<Path> files = Files.walk(root)) {",
            "        return files.filter(p -> p.toString().endsWith(\".css\")).toList();",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void silentInSetUpOneTimeInitialisationPerArchiveLocksAndUnlockedLookups() {
    compilation
        .addSourceLines(
            "AssetIndex.java",
            "import java.io.IOException;",
            "import java.net.URL;",
            "import java.util.Collections;",
            "import java.util.Enumeration;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "import java.util.zip.ZipFile;",
            "public class AssetIndex {",
            "  private static final Map<String, URL> BY_NAME;",
            "  static {",
            "    synchronized (AssetIndex.class) {",
            "      BY_NAME = Map.of(\"app.js\", AssetIndex.class.getResource(\"/app.js\"));",
            "    }",
            "  }",
            "  private final Map<String, URL> memo = new ConcurrentHashMap<>();",
            "  private volatile Enumeration<URL> all;",
            "  private final ZipFile zip;",
            "  public AssetIndex(ZipFile zip) {",
            "    this.zip = zip;",
            "    synchronized (this) {",
            "      getClass().getResource(\"/index.html\");",
            "    }",
            "  }",
            "  public URL get(String name) {",
            "    return memo.computeIfAbsent(name, n -> getClass().getResource(n));",
            "  }",
            "  public Enumeration<URL> getAll() throws IOException {",
            "    if (all == null) {",
            "      synchronized (this) {",
            "        if (all == null) {",
            "          all = getClass().getClassLoader().getResources(\"META-INF/assets\");",
            "        }",
            "      }",
            "    }",
            "    return all;",
            "  }",
            "  public boolean has(String name) {",
            "    synchronized (zip) {",
            "      return zip.getEntry(name) != null;",
            "    }",
            "  }",
            "  public synchronized void reload() throws IOException {",
            "    all = getClass().getClassLoader().getResources(\"META-INF/assets\");",
            "  }",
            "  public synchronized Runnable later(String name) {",
            "    return () -> getClass().getResource(name);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void silentWhenALoadedFlagOrAConditionOnTheAssignedFieldMakesItOneTime() {
    compilation
        .addSourceLines(
            "JaasConfig.java",
            "import java.net.URL;",
            "public class JaasConfig {",
            "  private volatile boolean loaded;",
            "  private URL config;",
            "  protected URL getConfig(String file) {",
            "    if (loaded) {",
            "      return config;",
            "    }",
            "    synchronized (this) {",
            "      config = Thread.currentThread().getContextClassLoader().getResource(file);",
            "      loaded = true;",
            "      return config;",
            "    }",
            "  }",
            "}")
        .addSourceLines(
            "ArchiveSet.java",
            "import java.io.IOException;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.jar.JarEntry;",
            "import java.util.jar.JarFile;",
            "public class ArchiveSet {",
            "  private final Object archiveLock = new Object();",
            "  private Map<String, JarEntry> archiveEntries;",
            "  private final String path = \"app.jar\";",
            "  protected Map<String, JarEntry> getArchiveEntries(boolean single) throws IOException {",
            "    synchronized (archiveLock) {",
            "      if (archiveEntries == null && !single) {",
            "        archiveEntries = new HashMap<>();",
            "        try (JarFile jar = new JarFile(path)) {",
            "          jar.stream().forEach(e -> archiveEntries.put(e.getName(), e));",
            "        }",
            "      }",
            "      return archiveEntries;",
            "    }",
            "  }",
            "}")
        .addSourceLines(
            "Deployer.java",
            "import java.io.File;",
            "public class Deployer {",
            "  private final Object host = new Object();",
            "  public void check() {",
            "    synchronized (host) {",
            "      deployApps();",
            "    }",
            "  }",
            "  private void deployApps() {",
            "    new File(\"webapps\").listFiles();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void suppressible() {
    compilation
        .addSourceLines(
            "Templates.java",
            "import java.io.InputStream;",
            "public class Templates {",
            "  @SuppressWarnings(\"ResourceLookupUnderLock\")",
            "  public synchronized InputStream open(String name) {",
            "    return getClass().getResourceAsStream(name);",
            "  }",
            "}")
        .doTest();
  }

  private static final String JAR_INDEX =
      """
      import java.util.HashSet;
      import java.util.Set;
      import java.util.jar.JarEntry;
      import java.util.jar.JarFile;
      public class JarIndex {
        private final JarFile[] jarFiles;
        private final Set<String> known = new HashSet<>();
        public JarIndex(JarFile[] jarFiles) {
          this.jarFiles = jarFiles;
        }
        public void start() {
          probeAll(new String[] {"META-INF/MANIFEST.MF", "META-INF/web-fragment.xml"});
        }
        %s
        protected void probeAll(String[] names) {
          for (String name : names) {
            %s
            synchronized (jarFiles) {
              for (JarFile jar : jarFiles) {
                JarEntry entry = jar.getJarEntry(name);
                if (entry != null) {
                  known.add(name);
                }
              }
            }
          }
        }
      }
      """;

  @Test
  void aLookupInAHelperThatOnlyStartReachesIsSilent() {
    compilation.addSourceLines("JarIndex.java", JAR_INDEX.formatted("", "")).doTest();
  }

  @Test
  void theSameHelperAlsoCalledPerRequestIsReported() {
    compilation
        .addSourceLines(
            "JarIndex.java",
            JAR_INDEX.formatted(
                """
                public boolean contains(String name) {
                    probeAll(new String[] {name});
                    return known.contains(name);
                  }""",
                "// BUG: Diagnostic contains: JarFile.getJarEntry() (probes a jar)"))
        .doTest();
  }

  @Test
  void aPropertiesFileLoadedOncePerLocaleIsSilent() {
    // Struts 1.3.10 PropertyMessageResources.loadLocale: the locales map records each locale key
    // before the class-path read, so the read runs once per locale, not once per message
    compilation
        .addSourceLines(
            "MessageBundle.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.Properties;",
            "public class MessageBundle {",
            "  private final String config = \"messages\";",
            "  private final Map<String, String> locales = new HashMap<>();",
            "  private final Map<String, String> messages = new HashMap<>();",
            "  private final Map<String, Properties> bundles = new HashMap<>();",
            "  private boolean trace;",
            "  public String getMessage(String localeKey, String key) {",
            "    loadLocale(localeKey);",
            "    synchronized (messages) {",
            "      return messages.get(localeKey + '.' + key);",
            "    }",
            "  }",
            "  protected synchronized void loadLocale(String localeKey) {",
            "    if (trace) {",
            "      System.out.println(\"loadLocale(\" + localeKey + \")\");",
            "    }",
            "    if (locales.get(localeKey) != null) {",
            "      return;",
            "    }",
            "    locales.put(localeKey, localeKey);",
            "    String name = config.replace('.', '/');",
            "    if (localeKey.length() > 0) {",
            "      name += \"_\" + localeKey;",
            "    }",
            "    Properties props = new Properties();",
            "    try (InputStream is = getClass().getClassLoader().getResourceAsStream(name + \".properties\")) {",
            "      if (is != null) {",
            "        props.load(is);",
            "      }",
            "    } catch (IOException e) {",
            "      return;",
            "    }",
            "    synchronized (messages) {",
            "      for (String key : props.stringPropertyNames()) {",
            "        messages.put(localeKey + '.' + key, props.getProperty(key));",
            "      }",
            "    }",
            "  }",
            "  public Properties bundle(String name) throws IOException {",
            "    synchronized (bundles) {",
            "      if (bundles.containsKey(name)) {",
            "        throw new IllegalStateException(\"already loaded: \" + name);",
            "      }",
            "      bundles.put(name, new Properties());",
            "      try (InputStream in = MessageBundle.class.getResourceAsStream(name)) {",
            "        bundles.get(name).load(in);",
            "      }",
            "      return bundles.get(name);",
            "    }",
            "  }",
            "  public synchronized Properties theme(String theme) throws IOException {",
            "    String path = \"/themes/\" + theme + \".properties\";",
            "    if (bundles.get(path) != null) {",
            "      return bundles.get(path);",
            "    }",
            "    Properties props = new Properties();",
            "    bundles.put(path, props);",
            "    try (InputStream in = MessageBundle.class.getResourceAsStream(path)) {",
            "      props.load(in);",
            "    }",
            "    return props;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aPrivateLoaderItsCallersCallOnlyOnAMissOfTheKeyItPutsRunsOncePerKey() {
    // from a fresh audit sample (Turbine 2.3.3's UI service, tuned): the skins map is read without
    // the lock, and the synchronized loader runs only when that read missed, then puts the skin.
    // A loader called on every request, one that other code can call (not private), or one handed
    // on as a method reference still holds the monitor around a lookup per call.
    compilation
        .addSourceLines(
            "SkinService.java",
            "import com.sun.net.httpserver.HttpExchange;",
            "import com.sun.net.httpserver.HttpHandler;",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.Properties;",
            "public class SkinService implements HttpHandler {",
            "  private final Map<String, Properties> skins = new HashMap<>();",
            "  private final Map<String, Properties> themes = new HashMap<>();",
            "  private final Map<String, Properties> layouts = new HashMap<>();",
            "  @Override public void handle(HttpExchange exchange) throws IOException {",
            "    String name = exchange.getRequestURI().getPath();",
            "    exchange.getResponseHeaders().add(\"X-Skin\", skin(name).getProperty(\"title\"));",
            "    exchange.getResponseHeaders().add(\"X-Font\", fonts(name).getProperty(\"body\"));",
            "    exchange.getResponseHeaders().add(\"X-Theme\", theme(name).getProperty(\"color\"));",
            "    exchange.getResponseHeaders().add(\"X-Layout\", layout(name).getProperty(\"grid\"));",
            "    java.util.List.of(name, \"default\").forEach(this::loadLayout);",
            "    exchange.close();",
            "  }",
            "  private Properties layout(String name) {",
            "    Properties loaded = layouts.get(name);",
            "    return loaded != null ? loaded : loadLayout(name);",
            "  }",
            "  // BUG: Diagnostic contains: Class.getResourceAsStream() (searches the class path)",
            "  private synchronized Properties loadLayout(String name) {",
            "    Properties props = load(\"/layouts/\" + name);",
            "    layouts.put(name, props);",
            "    return props;",
            "  }",
            "  private Properties skin(String name) {",
            "    Properties loaded = skins.get(name);",
            "    return loaded != null ? loaded : loadSkin(name);",
            "  }",
            "  private synchronized Properties loadSkin(String name) {",
            "    Properties props = load(\"/skins/\" + name);",
            "    synchronized (skins) {",
            "      skins.put(name, props);",
            "    }",
            "    return props;",
            "  }",
            "  private Properties fonts(String name) {",
            "    return loadFonts(name);",
            "  }",
            "  // BUG: Diagnostic contains: Class.getResourceAsStream() (searches the class path)",
            "  private synchronized Properties loadFonts(String name) {",
            "    return load(\"/fonts/\" + name);",
            "  }",
            "  private Properties theme(String name) {",
            "    Properties loaded = themes.get(name);",
            "    return loaded != null ? loaded : loadTheme(name);",
            "  }",
            "  // BUG: Diagnostic contains: Class.getResourceAsStream() (searches the class path)",
            "  public synchronized Properties loadTheme(String name) {",
            "    Properties props = load(\"/themes/\" + name);",
            "    synchronized (themes) {",
            "      themes.put(name, props);",
            "    }",
            "    return props;",
            "  }",
            "  private static Properties load(String path) {",
            "    Properties props = new Properties();",
            "    try (InputStream in = SkinService.class.getResourceAsStream(path)) {",
            "      if (in != null) {",
            "        props.load(in);",
            "      }",
            "    } catch (IOException e) {",
            "      return props;",
            "    }",
            "    return props;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aMembershipTestThatDoesNotLeaveOrTestsAnotherKeyIsReported() {
    compilation
        .addSourceLines(
            "TemplateSource.java",
            "import java.io.InputStream;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class TemplateSource {",
            "  private final Map<String, String> seen = new HashMap<>();",
            "  private int reloads;",
            "  // BUG: Diagnostic contains: ClassLoader.getResourceAsStream() (searches the class path)",
            "  public synchronized InputStream open(String name) {",
            "    if (seen.get(name) != null) {",
            "      reloads++;",
            "    }",
            "    seen.put(name, name);",
            "    return getClass().getClassLoader().getResourceAsStream(\"templates/\" + name);",
            "  }",
            "  // BUG: Diagnostic contains: ClassLoader.getResourceAsStream() (searches the class path)",
            "  public synchronized InputStream openLocalised(String name, String locale) {",
            "    if (seen.containsKey(locale)) {",
            "      return null;",
            "    }",
            "    seen.put(name, locale);",
            "    return getClass().getClassLoader().getResourceAsStream(locale + \"/\" + name);",
            "  }",
            "  // BUG: Diagnostic contains: ClassLoader.getResourceAsStream() (searches the class path)",
            "  public synchronized InputStream openAfterProbe(String name) {",
            "    InputStream probe = getClass().getClassLoader().getResourceAsStream(\"override/\" + name);",
            "    if (seen.get(name) != null) {",
            "      return probe;",
            "    }",
            "    seen.put(name, name);",
            "    return getClass().getClassLoader().getResourceAsStream(\"templates/\" + name);",
            "  }",
            "  // BUG: Diagnostic contains: ClassLoader.getResourceAsStream() (searches the class path)",
            "  public synchronized InputStream openReassigned(String name) {",
            "    if (seen.get(name) != null) {",
            "      return null;",
            "    }",
            "    name = name.trim();",
            "    seen.put(name, name);",
            "    return getClass().getClassLoader().getResourceAsStream(\"templates/\" + name);",
            "  }",
            "  // BUG: Diagnostic contains: Class.getResourceAsStream() (searches the class path)",
            "  public synchronized InputStream openAgain(String name) {",
            "    if (seen.containsKey(name)) {",
            "      return TemplateSource.class.getResourceAsStream(\"/templates/\" + name);",
            "    }",
            "    seen.put(name, name);",
            "    return TemplateSource.class.getResourceAsStream(\"/templates/\" + name);",
            "  }",
            "  // BUG: Diagnostic contains: ClassLoader.getResourceAsStream() (searches the class path)",
            "  public synchronized InputStream openRecordedOnlyWhenFound(String name) {",
            "    if (seen.get(name) != null) {",
            "      return null;",
            "    }",
            "    if (name.endsWith(\".vm\")) {",
            "      seen.put(name, name);",
            "    }",
            "    return getClass().getClassLoader().getResourceAsStream(\"templates/\" + name);",
            "  }",
            "}")
        .doTest();
  }

  /** The servlet API's interface as it is (only the methods the fixtures call). */
  private static final String[] JAVAX_SERVLET_CONTEXT = {
    "package javax.servlet;",
    "import java.io.InputStream;",
    "import java.net.MalformedURLException;",
    "import java.net.URL;",
    "import java.util.Set;",
    "public interface ServletContext {",
    "  URL getResource(String path) throws MalformedURLException;",
    "  InputStream getResourceAsStream(String path);",
    "  Set<String> getResourcePaths(String path);",
    "}"
  };

  @Test
  void aStaticFileHandlerAskingTheContainerUnderItsOwnMonitor() {
    // an old static-content helper: every request resolves its path (and lists a directory for an
    // index page) under the handler's monitor, so a page's assets queue behind each other
    compilation
        .addSourceLines("javax/servlet/ServletContext.java", JAVAX_SERVLET_CONTEXT)
        .addSourceLines(
            "StaticContent.java",
            "import java.io.InputStream;",
            "import java.net.MalformedURLException;",
            "import java.net.URL;",
            "import java.util.Set;",
            "import java.util.TreeSet;",
            "import javax.servlet.ServletContext;",
            "public class StaticContent {",
            "  private final ServletContext context;",
            "  private long served;",
            "  public StaticContent(ServletContext context) {",
            "    this.context = context;",
            "  }",
            "  // BUG: Diagnostic contains: ServletContext.getResource() (looks up a web resource)",
            "  public synchronized URL resolve(String path) throws MalformedURLException {",
            "    served++;",
            "    URL url = context.getResource(\"/static\" + path);",
            "    return url != null ? url : context.getResource(\"/WEB-INF/static\" + path);",
            "  }",
            "  public Set<String> listing(String directory) {",
            "    // BUG: Diagnostic contains: ServletContext.getResourcePaths() (lists web resources)",
            "    synchronized (this) {",
            "      Set<String> paths = context.getResourcePaths(directory);",
            "      return paths == null ? Set.of() : new TreeSet<>(paths);",
            "    }",
            "  }",
            "  // BUG: Diagnostic contains: ServletContext.getResourceAsStream() (looks up a web resource)",
            "  public synchronized InputStream open(String path) {",
            "    return context.getResourceAsStream(path);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aJarResourceLoaderLockingItselfRatherThanItsArchive() {
    // a template loader over one jar: the lock is the loader's, shared by every template load, not
    // the archive's; the entry probe and its read run under it
    compilation
        .addSourceLines(
            "JarTemplateLoader.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.util.ArrayList;",
            "import java.util.Collections;",
            "import java.util.List;",
            "import java.util.zip.ZipEntry;",
            "import java.util.zip.ZipFile;",
            "public class JarTemplateLoader {",
            "  private final ZipFile jar;",
            "  public JarTemplateLoader(ZipFile jar) {",
            "    this.jar = jar;",
            "  }",
            "  // BUG: Diagnostic contains: ZipFile.getEntry() (probes an archive)",
            "  public synchronized InputStream getResourceStream(String name) throws IOException {",
            "    ZipEntry entry = jar.getEntry(name.startsWith(\"/\") ? name.substring(1) : name);",
            "    return entry == null ? null : jar.getInputStream(entry);",
            "  }",
            "  // BUG: Diagnostic contains: ZipFile.entries() (scans an archive)",
            "  public synchronized List<String> templateNames(String folder) {",
            "    List<String> names = new ArrayList<>();",
            "    for (ZipEntry entry : Collections.list(jar.entries())) {",
            "      if (entry.getName().startsWith(folder)) {",
            "        names.add(entry.getName());",
            "      }",
            "    }",
            "    return names;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aChildFirstClassLoaderAndAServiceLookupUnderClassWideLocks() {
    compilation
        .addSourceLines(
            "PluginClassLoader.java",
            "import java.net.URL;",
            "import java.net.URLClassLoader;",
            "public class PluginClassLoader extends URLClassLoader {",
            "  public PluginClassLoader(URL[] urls, ClassLoader parent) {",
            "    super(urls, parent);",
            "  }",
            "  // BUG: Diagnostic contains: findResource() (searches the class path)",
            "  @Override public synchronized URL getResource(String name) {",
            "    URL url = findResource(name);",
            "    return url != null ? url : super.getResource(name);",
            "  }",
            "}")
        .addSourceLines(
            "Providers.java",
            "import java.io.IOException;",
            "import java.net.URL;",
            "import java.util.ArrayList;",
            "import java.util.Collections;",
            "import java.util.List;",
            "public final class Providers {",
            "  private Providers() {}",
            "  // BUG: Diagnostic contains: ClassLoader.getSystemResources() (searches every class path entry)",
            "  public static synchronized List<URL> lookup(Class<?> service) throws IOException {",
            "    return new ArrayList<>(",
            "        Collections.list(ClassLoader.getSystemResources(\"META-INF/services/\" + service.getName())));",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aTemplateDirectoryListedOnEveryRenderUnderAClassLock() {
    // hot reload done the expensive way: every render lists the template folder to find the
    // newest file, under a lock on the class
    compilation
        .addSourceLines(
            "TemplateFolder.java",
            "import java.io.File;",
            "import java.io.IOException;",
            "import java.nio.file.DirectoryStream;",
            "import java.nio.file.Files;",
            "import java.nio.file.Path;",
            "public class TemplateFolder {",
            "  private final Path folder;",
            "  private final File legacyFolder;",
            "  public TemplateFolder(Path folder) {",
            "    this.folder = folder;",
            "    this.legacyFolder = folder.toFile();",
            "  }",
            "  public Path newest(String prefix) throws IOException {",
            "    Path newest = null;",
            "    // BUG: Diagnostic contains: holds the TemplateFolder.class monitor while it calls Files.newDirectoryStream() (lists a directory)",
            "    synchronized (TemplateFolder.class) {",
            "      try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, prefix + \"*.ftl\")) {",
            "        for (Path file : files) {",
            "          if (newest == null || file.toFile().lastModified() > newest.toFile().lastModified()) {",
            "            newest = file;",
            "          }",
            "        }",
            "      }",
            "    }",
            "    return newest;",
            "  }",
            "  // BUG: Diagnostic contains: while it calls candidates(), which calls File.listFiles() (lists a directory)",
            "  public synchronized File pick(String name) {",
            "    for (File file : candidates()) {",
            "      if (file.getName().equals(name)) {",
            "        return file;",
            "      }",
            "    }",
            "    return null;",
            "  }",
            "  private File[] candidates() {",
            "    File[] files = legacyFolder.listFiles();",
            "    return files == null ? new File[0] : files;",
            "  }",
            "}")
        .doTest();
  }

  /**
   * A class-path probe under a class lock that only the application's context listener runs (the
   * web application starting) queues no request ({@code start-up-method} in entry-points.txt).
   */
  @Test
  void aLookupOnlyTheContextListenerRunsIsStartUpWork() {
    compilation
        .addSourceLines(
            "javax/servlet/ServletContextEvent.java",
            "package javax.servlet;",
            "public class ServletContextEvent {}")
        .addSourceLines(
            "javax/servlet/ServletContextListener.java",
            "package javax.servlet;",
            "public interface ServletContextListener {",
            "  void contextInitialized(ServletContextEvent event);",
            "  void contextDestroyed(ServletContextEvent event);",
            "}")
        .addSourceLines(
            "ScriptBundle.java",
            "import java.io.InputStream;",
            "final class ScriptBundle {",
            "  private static InputStream script;",
            "  static synchronized void load() {",
            "    script = ScriptBundle.class.getClassLoader().getResourceAsStream(\"META-INF/app.js\");",
            "  }",
            "}")
        .addSourceLines(
            "ScriptBootstrap.java",
            "import javax.servlet.ServletContextEvent;",
            "import javax.servlet.ServletContextListener;",
            "public class ScriptBootstrap implements ServletContextListener {",
            "  @Override public void contextInitialized(ServletContextEvent event) {",
            "    ScriptBundle.load();",
            "  }",
            "  @Override public void contextDestroyed(ServletContextEvent event) {}",
            "}")
        .doTest();
  }
}
