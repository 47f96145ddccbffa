package io.github.lockjaw.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What to audit, from the user's PATHs: jars as they are; a WAR's WEB-INF/lib jars and
 * WEB-INF/classes, an EAR's jars and WARs (unpacked into a temporary directory, deleted on close);
 * an exploded application's WEB-INF; a directory's jars, WARs, EARs and class files.
 */
final class Targets implements AutoCloseable {
  private final Map<Path, String> entries = new LinkedHashMap<>();
  private final Map<Path, Path> origins = new LinkedHashMap<>();
  private Path temp;

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
    Targets targets = new Targets();
    try {
      for (Path path : paths) {
        targets.add(path.toAbsolutePath().normalize());
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

  private void add(Path path) throws CliException, IOException {
    if (!Files.exists(path)) {
      throw new CliException(
          Main.INPUT_ERROR,
          path
              + " does not exist. Give jars, WAR or EAR files, or directories"
              + " (an exploded application, WEB-INF/lib, WEB-INF/classes).");
    }
    if (Files.isDirectory(path)) {
      addDirectory(path, path.toString(), path);
      return;
    }
    String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".jar")) {
      requireZip(path);
      entries.put(path, path.getFileName().toString());
      origins.put(path, path);
    } else if (name.endsWith(".war") || name.endsWith(".ear")) {
      requireZip(path);
      Path into = Files.createDirectory(temp().resolve(entries.size() + "-" + path.getFileName()));
      unzip(path, into);
      addDirectory(into, path.getFileName() + "!", path);
    } else {
      throw new CliException(
          Main.INPUT_ERROR,
          path
              + " is not a jar, WAR or EAR file. Give the application's jars,"
              + " its WAR/EAR, or a directory that holds them or its classes.");
    }
  }

  private void addDirectory(Path dir, String label, Path origin) throws CliException, IOException {
    Path webInf = dir.resolve("WEB-INF");
    if (Files.isDirectory(webInf)) {
      if (Files.isDirectory(webInf.resolve("classes"))) {
        entries.put(webInf.resolve("classes"), label + "/WEB-INF/classes");
        origins.put(webInf.resolve("classes"), origin);
      }
      addArchives(webInf.resolve("lib"), label + "/WEB-INF/lib", origin, false);
      return;
    }
    boolean classes;
    try (Stream<Path> walk = Files.walk(dir)) {
      classes = walk.anyMatch(p -> p.toString().endsWith(".class") && Files.isRegularFile(p));
    }
    if (classes) {
      entries.put(dir, label);
      origins.put(dir, origin);
    }
    int archives = addArchives(dir, label, origin, true);
    if (!classes && archives == 0) {
      throw new CliException(
          Main.INPUT_ERROR, dir + " holds no jar, WAR, EAR or class file to audit.");
    }
  }

  /** Adds the archives under {@code dir}; returns how many there are. */
  private int addArchives(Path dir, String label, Path origin, boolean recurse)
      throws CliException, IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    List<Path> archives;
    try (Stream<Path> walk = Files.walk(dir, recurse ? 6 : 1)) {
      archives =
          walk.filter(Files::isRegularFile)
              .filter(
                  p -> {
                    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                    return n.endsWith(".jar") || n.endsWith(".war") || n.endsWith(".ear");
                  })
              .sorted()
              .toList();
    }
    for (Path archive : archives) {
      String inner = label + "/" + dir.relativize(archive).toString().replace('\\', '/');
      String name = archive.getFileName().toString().toLowerCase(Locale.ROOT);
      if (name.endsWith(".jar")) {
        requireZip(archive);
        entries.putIfAbsent(archive, inner);
        origins.putIfAbsent(archive, origin);
      } else {
        requireZip(archive);
        Path into =
            Files.createDirectory(temp().resolve(entries.size() + "-" + archive.getFileName()));
        unzip(archive, into);
        addDirectory(into, inner + "!", origin);
      }
    }
    return archives.size();
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

  /** Unpacks the jars, WARs and classes of an archive (nothing else is needed). */
  private static void unzip(Path archive, Path into) throws IOException {
    try (ZipFile zip = new ZipFile(archive.toFile())) {
      Enumeration<? extends ZipEntry> all = zip.entries();
      while (all.hasMoreElements()) {
        ZipEntry entry = all.nextElement();
        String name = entry.getName();
        String lower = name.toLowerCase(Locale.ROOT);
        if (entry.isDirectory()
            || !(lower.endsWith(".jar") || lower.endsWith(".war") || lower.endsWith(".class"))) {
          continue;
        }
        Path target = into.resolve(name).normalize();
        if (!target.startsWith(into)) {
          continue; // "../" in an entry name: never written outside the directory
        }
        Files.createDirectories(target.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private Path temp() throws IOException {
    if (temp == null) {
      temp = Files.createTempDirectory("lockjaw-cli-");
    }
    return temp;
  }

  @Override
  public void close() {
    if (temp == null) {
      return;
    }
    try (Stream<Path> walk = Files.walk(temp)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
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
