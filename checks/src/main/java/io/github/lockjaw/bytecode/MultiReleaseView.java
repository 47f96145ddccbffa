package io.github.lockjaw.bytecode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The classes of a multi-release jar as a runtime of one Java release loads them: for each class,
 * the copy under the highest {@code META-INF/versions/N/} with N at most that release, else the
 * base copy. lockjaw hands SpotBugs a view of the jar with exactly those classes.
 */
final class MultiReleaseView {
  private static final Pattern VERSIONED = Pattern.compile("META-INF/versions/(\\d+)/(.+\\.class)");

  private MultiReleaseView() {}

  /** The newest release a jar has versioned classes for, or 0 when it is not multi-release. */
  static int newestRelease(Path jar) throws IOException {
    int newest = 0;
    for (int release : versionedClasses(jar, Integer.MAX_VALUE).values()) {
      newest = Math.max(newest, release);
    }
    return newest;
  }

  /**
   * Class entry (base path) → the release whose copy a runtime of {@code release} loads, for the
   * classes that have a versioned copy at or below it. Empty for a jar that is not multi-release.
   */
  static Map<String, Integer> versionedClasses(Path jar, int release) throws IOException {
    Map<String, Integer> chosen = new TreeMap<>();
    if (!Files.isRegularFile(jar)) {
      return chosen;
    }
    try (JarFile file = new JarFile(jar.toFile(), false)) {
      if (!isMultiRelease(file)) {
        return chosen;
      }
      Enumeration<? extends ZipEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        Matcher m = VERSIONED.matcher(entries.nextElement().getName());
        if (m.matches()) {
          int version;
          try {
            version = Integer.parseInt(m.group(1));
          } catch (NumberFormatException e) {
            continue;
          }
          if (version <= release) {
            chosen.merge(m.group(2), version, Math::max);
          }
        }
      }
    }
    return chosen;
  }

  private static boolean isMultiRelease(JarFile file) throws IOException {
    Manifest manifest = file.getManifest();
    return manifest != null
        && "true"
            .equalsIgnoreCase(manifest.getMainAttributes().getValue(Attributes.Name.MULTI_RELEASE));
  }

  /**
   * Writes the classes a runtime of {@code release} loads into {@code into} (a jar named like the
   * original, in its own directory): the base classes, each replaced by its chosen versioned copy,
   * and no {@code META-INF/versions/} (SpotBugs would read classes from there that this release
   * never loads). False, and nothing written, when the jar is not multi-release.
   */
  static boolean writeView(Path jar, int release, Path into) throws IOException {
    if (newestRelease(jar) == 0) {
      return false;
    }
    Map<String, Integer> chosen = versionedClasses(jar, release);
    Files.createDirectories(into.getParent());
    try (ZipFile zip = new ZipFile(jar.toFile());
        OutputStream file = Files.newOutputStream(into);
        ZipOutputStream out = new ZipOutputStream(file)) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        String name = entry.getName();
        if (entry.isDirectory() || !name.endsWith(".class") || name.startsWith("META-INF/")) {
          continue;
        }
        Integer version = chosen.remove(name);
        copy(
            zip,
            version == null ? entry : zip.getEntry("META-INF/versions/" + version + "/" + name),
            name,
            out);
      }
      for (Map.Entry<String, Integer> only : chosen.entrySet()) {
        // a class that exists only in a versioned directory
        copy(
            zip,
            zip.getEntry("META-INF/versions/" + only.getValue() + "/" + only.getKey()),
            only.getKey(),
            out);
      }
    }
    return true;
  }

  private static void copy(ZipFile zip, ZipEntry from, String name, ZipOutputStream out)
      throws IOException {
    out.putNextEntry(new ZipEntry(name));
    try (InputStream in = zip.getInputStream(from)) {
      in.transferTo(out);
    }
    out.closeEntry();
  }
}
