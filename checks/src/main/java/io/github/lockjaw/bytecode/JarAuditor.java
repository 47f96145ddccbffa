package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.Plugin;
import edu.umd.cs.findbugs.PluginException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Audits jars and class directories for lockjaw's anti-patterns: runs SpotBugs in this JVM with
 * only lockjaw's detectors enabled, one jar at a time (the other jars are its class path), and
 * returns the findings with an account of every class: how many were analysed, and which could not
 * be, and why. The entry point of {@code lockjaw:audit} and {@code lockjaw-cli audit}.
 *
 * <pre>{@code
 * JarAuditor.Result result = new JarAuditor().run(runtimeJars, List.of(), JarAuditor.Options.DEFAULT);
 * }</pre>
 *
 * <p>One jar at a time: two jars that hold a class of the same name (shaded copies) are both
 * analysed, and nothing SpotBugs held for one jar outlives its run. A multi-release jar is read as
 * a runtime of the chosen release loads it. With a cache directory, a jar whose results are cached
 * for the same lockjaw, release and neighbouring jars is not analysed again.
 *
 * <p>Needs {@code com.github.spotbugs:spotbugs} on the class path (lockjaw-checks declares it
 * {@code provided}). SpotBugs keeps global state, so audits run one at a time per JVM.
 */
public final class JarAuditor {
  /** The plugin id in findbugs.xml. */
  public static final String PLUGIN_ID = "io.github.lockjaw";

  private static final Object LOCK = new Object();

  /** A class of an audited jar that lockjaw did not analyse, and why. */
  public record NotAnalysed(Path jar, String className, String reason) {}

  /**
   * How to audit.
   *
   * @param release the Java release whose classes of a multi-release jar are read; 0 for the newest
   *     each jar has
   * @param cacheDirectory where per-jar results are kept between audits; null for no cache
   * @param identities who a jar is, where the caller knows (Maven's coordinates); others are told
   *     by their {@code pom.properties}, their place in a Maven repository or their file name
   */
  public record Options(int release, Path cacheDirectory, Map<Path, JarIdentity> identities) {
    public static final Options DEFAULT = new Options(0, null, Map.of());

    public Options withRelease(int newRelease) {
      return new Options(newRelease, cacheDirectory, identities);
    }

    public Options withCache(Path directory) {
      return new Options(release, directory, identities);
    }

    public Options withIdentities(Map<Path, JarIdentity> known) {
      return new Options(release, cacheDirectory, Map.copyOf(known));
    }
  }

  /**
   * What an audit found and read.
   *
   * @param findings sorted by jar, class and line
   * @param classesInJars the class files of the audited jars (a multi-release jar's classes once)
   * @param classesAnalysed those the detectors analysed: {@code classesInJars} less {@code
   *     notAnalysed}
   * @param notAnalysed every class that could not be analysed, with the reason
   * @param jarsFromCache how many jars' results came from the cache
   */
  public record Result(
      List<AuditFinding> findings,
      int classesInJars,
      int classesAnalysed,
      List<NotAnalysed> notAnalysed,
      int jarsFromCache) {

    /**
     * {@code 2 classes could not be analysed: a.B (MapCacheDetector failed: ...), c.D (...)}: the
     * first {@code limit} names, or empty when every class was analysed.
     */
    public Optional<String> notAnalysedSummary(int limit) {
      if (notAnalysed.isEmpty()) {
        return Optional.empty();
      }
      String names =
          notAnalysed.stream()
              .limit(limit)
              .map(n -> n.className() + " (" + n.reason() + ")")
              .collect(Collectors.joining(", "));
      int more = notAnalysed.size() - Math.min(limit, notAnalysed.size());
      return Optional.of(
          notAnalysed.size()
              + (notAnalysed.size() == 1 ? " class" : " classes")
              + " of "
              + classesInJars
              + " could not be analysed: "
              + names
              + (more > 0 ? " and " + more + " more" : ""));
    }
  }

  /** The findings alone (see {@link #run}). */
  public List<AuditFinding> audit(List<Path> jars, List<Path> auxClasspath)
      throws IOException, InterruptedException {
    return run(jars, auxClasspath, Options.DEFAULT).findings();
  }

  /**
   * Audits {@code jars} (jars or class directories); each is also on the class path of the others,
   * and {@code auxClasspath} resolves the types they refer to without being audited (it may be
   * empty: missing classes make lockjaw see less, never more).
   */
  public Result run(List<Path> jars, List<Path> auxClasspath, Options options)
      throws IOException, InterruptedException {
    List<Path> audited = new ArrayList<>();
    for (Path jar : jars) {
      Path normal = jar.toAbsolutePath().normalize();
      if (Files.exists(normal) && !audited.contains(normal)) {
        audited.add(normal);
      }
    }
    List<Path> aux = new ArrayList<>();
    for (Path entry : auxClasspath) {
      Path normal = entry.toAbsolutePath().normalize();
      if (Files.exists(normal) && !audited.contains(normal) && !aux.contains(normal)) {
        aux.add(normal);
      }
    }
    if (audited.isEmpty()) {
      return new Result(List.of(), 0, 0, List.of(), 0);
    }
    AuditCache cache =
        options.cacheDirectory() == null ? null : new AuditCache(options.cacheDirectory());
    Map<Path, String> checksums = new LinkedHashMap<>();
    String context = "";
    if (cache != null) {
      StringBuilder all = new StringBuilder();
      for (Path path : Stream.concat(audited.stream(), aux.stream()).toList()) {
        String sum = AuditCache.checksum(path);
        checksums.put(path, sum);
        all.append(sum).append('\n');
      }
      context = AuditCache.sha256(all.toString().getBytes(StandardCharsets.UTF_8));
    }
    synchronized (LOCK) {
      List<AuditFinding> findings = new ArrayList<>();
      List<NotAnalysed> notAnalysed = new ArrayList<>();
      int classes = 0;
      int analysed = 0;
      int fromCache = 0;
      // only a multi-release jar needs a scratch directory: its view for one release
      Scratch scratch = new Scratch();
      try {
        for (Path jar : audited) {
          JarIdentity known = options.identities().get(jar);
          List<JarIdentity> bundled = JarIdentity.bundled(jar);
          JarRegistry.register(jar, known != null ? known : JarIdentity.of(jar), bundled);
          int release = releaseFor(jar, options.release());
          Set<String> classNames = classNames(jar, release);
          classes += classNames.size();
          String key = cache == null ? null : AuditCache.key(checksums.get(jar), release, context);
          Optional<AuditCache.Entry> cached =
              cache == null ? Optional.empty() : cache.read(key, jar);
          AuditCache.Entry entry;
          if (cached.isPresent()) {
            entry = cached.get();
            fromCache++;
          } else {
            entry = analyse(jar, release, classNames, audited, aux, scratch, known, bundled);
            if (cache != null) {
              cache.write(key, entry);
            }
          }
          analysed += entry.classesAnalysed();
          entry.notAnalysed().forEach((c, why) -> notAnalysed.add(new NotAnalysed(jar, c, why)));
          findings.addAll(entry.findings());
        }
      } finally {
        scratch.close();
      }
      findings.sort(
          Comparator.comparing((AuditFinding f) -> String.valueOf(f.jar()))
              .thenComparing(AuditFinding::className)
              .thenComparingInt(AuditFinding::line)
              .thenComparing(AuditFinding::methodName));
      return new Result(
          List.copyOf(findings), classes, analysed, List.copyOf(notAnalysed), fromCache);
    }
  }

  private static AuditCache.Entry analyse(
      Path jar,
      int release,
      Set<String> classNames,
      List<Path> audited,
      List<Path> aux,
      Scratch scratch,
      JarIdentity known,
      List<JarIdentity> bundled)
      throws IOException, InterruptedException {
    Path read = jar;
    if (release > 0 && Files.isRegularFile(jar) && MultiReleaseView.newestRelease(jar) > 0) {
      Path view =
          scratch
              .directory()
              .resolve("release-" + release + "-" + Integer.toHexString(jar.hashCode()))
              .resolve(jar.getFileName());
      if (MultiReleaseView.writeView(jar, release, view)) {
        JarRegistry.register(view, known != null ? known : JarIdentity.of(jar), bundled);
        read = view;
      }
    }
    List<Path> classpath = new ArrayList<>();
    for (Path other : audited) {
      if (!other.equals(jar)) {
        classpath.add(other);
      }
    }
    classpath.addAll(aux);
    List<List<String>> batches = JarBatches.plan(read);
    Set<String> observed = new HashSet<>();
    Map<String, String> failed = new LinkedHashMap<>();
    List<AuditFinding> findings = new ArrayList<>();
    if (batches.isEmpty()) {
      SpotBugsRun.Outcome outcome = SpotBugsRun.run(jar, read, classpath);
      observed.addAll(outcome.observed());
      failed.putAll(outcome.failed());
      findings.addAll(outcome.findings());
    } else {
      // -Dlockjaw.audit.batchClasses: a large jar a batch at a time, SpotBugs holding one batch
      List<Path> withJar = new ArrayList<>(classpath);
      withJar.add(0, read);
      for (int i = 0; i < batches.size(); i++) {
        Path batch = scratch.directory().resolve("batch-" + i).resolve(jar.getFileName());
        JarBatches.write(read, batches.get(i), batch);
        JarRegistry.register(batch, known != null ? known : JarIdentity.of(jar), bundled);
        try {
          SpotBugsRun.Outcome outcome = SpotBugsRun.run(jar, batch, withJar);
          observed.addAll(outcome.observed());
          failed.putAll(outcome.failed());
          findings.addAll(outcome.findings());
        } finally {
          Files.deleteIfExists(batch);
        }
      }
    }
    SpotBugsRun.Outcome outcome = new SpotBugsRun.Outcome(observed, failed, findings);
    Map<String, String> notAnalysed = new LinkedHashMap<>();
    int analysed = 0;
    for (String name : classNames) {
      String why = outcome.failed().get(name);
      if (why != null) {
        notAnalysed.put(name, why);
      } else if (!outcome.observed().contains(name)) {
        notAnalysed.put(name, "SpotBugs could not read it as a class file");
      } else {
        analysed++;
      }
    }
    return new AuditCache.Entry(analysed, notAnalysed, outcome.findings());
  }

  /**
   * The release whose classes of a multi-release jar are read: the one asked for, or its newest.
   */
  private static int releaseFor(Path jar, int release) throws IOException {
    if (!Files.isRegularFile(jar)) {
      return 0;
    }
    int newest = MultiReleaseView.newestRelease(jar);
    if (newest == 0) {
      return 0; // not multi-release: the same classes for every release
    }
    return release > 0 ? release : newest;
  }

  /**
   * The binary names of the classes of a jar or class directory, as a runtime of {@code release}
   * sees them (a multi-release jar's versioned classes count once); {@code module-info} holds no
   * code and is left out.
   */
  static Set<String> classNames(Path root, int release) throws IOException {
    Set<String> names = new LinkedHashSet<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path file : (Iterable<Path>) walk::iterator) {
          String entry = root.relativize(file).toString().replace('\\', '/');
          addClassName(entry, names);
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      return names;
    }
    try (ZipFile zip = new ZipFile(root.toFile())) {
      for (ZipEntry entry : Collections.list(zip.entries())) {
        if (!entry.isDirectory()) {
          addClassName(entry.getName(), names);
        }
      }
    }
    if (release > 0) {
      for (String versioned : MultiReleaseView.versionedClasses(root, release).keySet()) {
        addClassName(versioned, names);
      }
    }
    return names;
  }

  private static void addClassName(String entry, Set<String> names) {
    if (!entry.endsWith(".class")
        || entry.startsWith("META-INF/")
        || entry.endsWith("module-info.class")) {
      return;
    }
    names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
  }

  /**
   * A temporary directory made on first use, deleted when the audit ends and also when the JVM does
   * (Ctrl-C, SIGTERM), so no view of a jar is left behind.
   */
  private static final class Scratch implements AutoCloseable {
    private Path directory;
    private Thread cleanup;

    Path directory() throws IOException {
      if (directory == null) {
        directory = Files.createTempDirectory("lockjaw-audit-");
        Path made = directory;
        cleanup = new Thread(() -> deleteRecursively(made), "lockjaw-audit-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
      }
      return directory;
    }

    @Override
    public void close() {
      if (directory == null) {
        return;
      }
      deleteRecursively(directory);
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook deletes it
      }
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      // a scratch file left in the temporary directory is not worth failing the audit for
    }
  }

  /** The lockjaw plugin, loaded from the jar (or class directory) this class comes from. */
  static Plugin lockjawPlugin() throws IOException {
    Plugin loaded = Plugin.getByPluginId(PLUGIN_ID);
    if (loaded != null) {
      return loaded;
    }
    URL location = JarAuditor.class.getProtectionDomain().getCodeSource().getLocation();
    try {
      Plugin plugin = Plugin.addCustomPlugin(location, JarAuditor.class.getClassLoader());
      if (plugin == null) {
        throw new IOException("SpotBugs did not load the lockjaw plugin from " + location);
      }
      plugin.setGloballyEnabled(true);
      return plugin;
    } catch (PluginException e) {
      throw new IOException(
          "SpotBugs cannot load the lockjaw detectors from "
              + location
              + " (findbugs.xml and messages.xml must be in that jar): "
              + e.getMessage(),
          e);
    }
  }
}
