package io.github.lockjaw.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * What to audit, from the user's PATHs, in the layouts applications are deployed in:
 *
 * <ul>
 *   <li>a jar as it is; a Spring Boot executable jar's {@code BOOT-INF/classes} and every {@code
 *       BOOT-INF/lib} jar (and its launcher classes);
 *   <li>a WAR's {@code WEB-INF/classes}, {@code WEB-INF/lib} and (Spring Boot) {@code
 *       WEB-INF/lib-provided}; an EAR's jars and WARs;
 *   <li>an exploded application (a directory with {@code WEB-INF/} or {@code BOOT-INF/}), a
 *       directory of applications ({@code webapps/}), a Quarkus {@code quarkus-app/} ({@code app/},
 *       {@code lib/main}, {@code lib/boot}, {@code quarkus/}), any directory of jars or classes.
 * </ul>
 *
 * Archives are unpacked into a temporary directory within {@link ArchiveLimits}, deleted on close
 * and when the JVM ends (Ctrl-C, SIGTERM). Every entry keeps a label that says where it came from:
 * {@code app.jar!/BOOT-INF/lib/commons-pool-1.3.jar}, {@code webapps/shop/WEB-INF/classes}.
 */
final class Targets implements AutoCloseable {
  private final Map<Path, String> entries = new LinkedHashMap<>();
  private final Map<Path, Path> origins = new LinkedHashMap<>();
  private final ArchiveReader reader;
  private Path temp;
  private Thread cleanup;

  private Targets(ArchiveLimits limits) {
    this.reader = new ArchiveReader(limits);
  }

  /** The jars and class directories to audit. */
  List<Path> entries() {
    return List.copyOf(entries.keySet());
  }

  /** How the user knows an entry: {@code shop.war!/WEB-INF/lib/commons-pool-1.3.jar}. */
  String label(Path entry) {
    return entry == null ? "unknown" : entries.getOrDefault(entry, entry.toString());
  }

  /** The file or directory the user named that holds the entry. */
  Path origin(Path entry) {
    return entry == null ? null : origins.getOrDefault(entry, entry);
  }

  static Targets expand(List<Path> paths) throws CliException {
    return expand(paths, ArchiveLimits.fromSystemProperties());
  }

  static Targets expand(List<Path> paths, ArchiveLimits limits) throws CliException {
    Targets targets = new Targets(limits);
    try {
      for (Path path : paths) {
        requireExists(path);
      }
      for (Path path : paths) {
        int before = targets.entries.size();
        targets.add(path.toAbsolutePath().normalize(), path.toString());
        if (targets.entries.size() == before && !targets.containsAll(path)) {
          throw new CliException(
              Main.INPUT_ERROR,
              path
                  + " holds nothing to audit: no class file and no jar, WAR or EAR (an empty"
                  + " WEB-INF, or the wrong directory). Give the application's jars, its WAR/EAR, or"
                  + " a directory that holds them or its classes.");
        }
      }
    } catch (CliException e) {
      targets.close();
      throw e;
    } catch (IOException | UncheckedIOException e) {
      targets.close();
      throw new CliException(Main.INPUT_ERROR, "lockjaw cannot read " + e.getMessage() + ".");
    }
    return targets;
  }

  /** Whether a PATH given again is already audited (a jar given twice is audited once). */
  private boolean containsAll(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    return entries.keySet().stream().anyMatch(e -> e.startsWith(absolute));
  }

  /** Every PATH is checked before anything is read. */
  static void requireExists(Path path) throws CliException {
    if (!Files.exists(path)) {
      throw new CliException(
          Main.INPUT_ERROR,
          path
              + " does not exist. Give jars, WAR or EAR files, or directories"
              + " (an exploded application, WEB-INF/lib, WEB-INF/classes).");
    }
    if (!Files.isReadable(path)) {
      throw new CliException(
          Main.INPUT_ERROR, path + " cannot be read (permission denied): check its permissions.");
    }
  }

  private void add(Path path, String label) throws CliException, IOException {
    if (Files.isDirectory(path)) {
      addDirectory(path, label, path, 0);
      return;
    }
    String name = lower(path);
    if (name.endsWith(".jar") || name.endsWith(".war") || name.endsWith(".ear")) {
      addArchive(path, path.getFileName().toString(), path, 1); // known by its file name
    } else {
      throw new CliException(
          Main.INPUT_ERROR,
          path
              + " is not a jar, WAR or EAR file. Give the application's jars,"
              + " its WAR/EAR, or a directory that holds them or its classes.");
    }
  }

  /** A jar, WAR or EAR found at {@code depth} (1: given by the user). */
  private void addArchive(Path archive, String label, Path origin, int depth)
      throws CliException, IOException {
    requireZip(archive);
    String name = lower(archive);
    if (name.endsWith(".jar") && !hasEntry(archive, "BOOT-INF/")) {
      reader.check(archive, label, depth);
      putEntry(archive, label, origin);
      return;
    }
    // a WAR, an EAR or a Spring Boot jar: its classes and archives, unpacked
    Path into = Files.createDirectory(temp().resolve(entries.size() + "-" + archive.getFileName()));
    reader.extract(
        archive,
        label,
        depth,
        entry -> {
          String lower = entry.toLowerCase(Locale.ROOT);
          return lower.endsWith(".class")
              || lower.endsWith(".jar")
              || lower.endsWith(".war")
              || lower.endsWith(".ear");
        },
        into);
    addDirectory(into, label + "!", origin, depth);
  }

  private void addDirectory(Path dir, String label, Path origin, int depth)
      throws CliException, IOException {
    Path webInf = dir.resolve("WEB-INF");
    Path bootInf = dir.resolve("BOOT-INF");
    if (Files.isDirectory(webInf) || Files.isDirectory(bootInf)) {
      Path inf = Files.isDirectory(webInf) ? webInf : bootInf;
      String infLabel = join(label, inf.getFileName().toString());
      if (hasClasses(inf.resolve("classes"))) {
        putEntry(inf.resolve("classes"), infLabel + "/classes", origin);
      }
      for (String lib : List.of("lib", "lib-provided")) {
        addArchives(inf.resolve(lib), infLabel + "/" + lib, origin, depth, false);
      }
      addLauncher(dir, label, origin);
      return;
    }
    if (Files.isRegularFile(dir.resolve("quarkus-run.jar"))
        && Files.isDirectory(dir.resolve("lib"))) {
      for (String part : List.of("app", "lib/main", "lib/boot", "quarkus")) {
        addArchives(dir.resolve(part), join(label, part), origin, depth, false);
      }
      return;
    }
    // a directory of applications (webapps/), of jars, or of classes
    List<Path> applications = new ArrayList<>();
    List<Path> archives = new ArrayList<>();
    boolean[] classes = {false};
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
            if (!d.equals(dir)
                && (Files.isDirectory(d.resolve("WEB-INF"))
                    || Files.isDirectory(d.resolve("BOOT-INF"))
                    || Files.isRegularFile(d.resolve("quarkus-run.jar")))) {
              applications.add(d);
              return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String name = lower(file);
            if (name.endsWith(".class")) {
              classes[0] = true;
            } else if (name.endsWith(".jar") || name.endsWith(".war") || name.endsWith(".ear")) {
              archives.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    if (classes[0]) {
      putEntry(dir, label, origin);
    }
    for (Path application : applications.stream().sorted().toList()) {
      addDirectory(application, join(label, relative(dir, application)), origin, depth);
    }
    for (Path archive : archives.stream().sorted().toList()) {
      addArchive(archive, join(label, relative(dir, archive)), origin, depth + 1);
    }
  }

  /** A Spring Boot jar's or WAR's launcher: the classes outside BOOT-INF/WEB-INF, if any. */
  private void addLauncher(Path dir, String label, Path origin) throws IOException {
    Path loader = dir.resolve("org/springframework/boot/loader");
    if (Files.isDirectory(loader) && hasClasses(loader)) {
      Path launcher = Files.createDirectories(temp().resolve(entries.size() + "-launcher"));
      Path copy = launcher.resolve("org/springframework/boot/loader");
      Files.createDirectories(copy.getParent());
      Files.move(loader, copy);
      putEntry(
          launcher, join(label, "org/springframework/boot/loader (Spring Boot launcher)"), origin);
    }
  }

  /** The jars (and WARs, EARs) directly in {@code dir}. */
  private void addArchives(Path dir, String label, Path origin, int depth, boolean recurse)
      throws CliException, IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> archives;
    try (Stream<Path> walk = Files.walk(dir, recurse ? 6 : 1)) {
      archives =
          walk.filter(Files::isRegularFile)
              .filter(
                  p -> {
                    String n = lower(p);
                    return n.endsWith(".jar") || n.endsWith(".war") || n.endsWith(".ear");
                  })
              .sorted()
              .toList();
    }
    for (Path archive : archives) {
      addArchive(archive, join(label, relative(dir, archive)), origin, depth + 1);
    }
  }

  private void putEntry(Path entry, String label, Path origin) {
    Path key = entry.toAbsolutePath().normalize();
    if (!entries.containsKey(key)) {
      entries.put(key, label);
      origins.put(key, origin);
    }
  }

  private static boolean hasClasses(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.anyMatch(p -> p.toString().endsWith(".class") && Files.isRegularFile(p));
    }
  }

  private static boolean hasEntry(Path archive, String prefix) throws IOException {
    try (ZipFile zip = new ZipFile(archive.toFile())) {
      return zip.stream().anyMatch(e -> e.getName().startsWith(prefix));
    }
  }

  private static String join(String label, String child) {
    return label + "/" + child;
  }

  private static String relative(Path dir, Path file) {
    return dir.relativize(file).toString().replace('\\', '/');
  }

  private static String lower(Path path) {
    Path name = path.getFileName();
    return name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
  }

  private static void requireZip(Path file) throws CliException {
    try (ZipFile zip = new ZipFile(file.toFile())) {
      zip.size();
    } catch (IOException e) {
      throw new CliException(
          Main.INPUT_ERROR,
          file
              + " is not a readable jar/zip file ("
              + e.getMessage()
              + "): it may be"
              + " truncated or not an archive at all.");
    }
  }

  private Path temp() throws IOException {
    if (temp == null) {
      // the hook first: a SIGTERM right after the directory is made must find it
      Path[] made = new Path[1];
      cleanup = new Thread(() -> deleteWhileWritten(made[0]), "lockjaw-cli-cleanup");
      Runtime.getRuntime().addShutdownHook(cleanup); // Ctrl-C and SIGTERM run it too
      temp = Files.createTempDirectory("lockjaw-audit-input-");
      made[0] = temp;
    }
    return temp;
  }

  /**
   * On Ctrl-C or SIGTERM the unpacking may still be writing while the hook runs: delete until the
   * directory stays gone (at most about two seconds).
   */
  private static void deleteWhileWritten(Path dir) {
    for (int i = 0; dir != null && i < 20 && Files.exists(dir); i++) {
      deleteRecursively(dir);
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    if (temp == null) {
      return;
    }
    deleteRecursively(temp);
    try {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook deletes it
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory left behind is not worth failing for
    }
  }

  /** For tests and messages: the entries with their labels. */
  Map<Path, String> labelled() {
    return new LinkedHashMap<>(entries);
  }

  /** Every entry's label, in order. */
  List<String> labels() {
    return new ArrayList<>(entries.values());
  }
}
