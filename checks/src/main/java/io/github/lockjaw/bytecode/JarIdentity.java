package io.github.lockjaw.bytecode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

/**
 * Which library a jar is: its Maven coordinates where the jar or its place in a Maven repository
 * says so, else only a version from the manifest. Plain Java; never throws on an odd jar.
 *
 * @param path the jar (or class directory)
 * @param groupId empty when unknown
 * @param artifactId empty when unknown
 * @param version empty when unknown
 */
public record JarIdentity(Path path, String groupId, String artifactId, String version) {

  /** {@code groupId:artifactId}, or empty when unknown. */
  public String coordinates() {
    return groupId.isEmpty() || artifactId.isEmpty() ? "" : groupId + ":" + artifactId;
  }

  /** A readable name: {@code commons-dbcp:commons-dbcp 1.2.2}, or the artifact or file name. */
  public String display() {
    String name =
        !coordinates().isEmpty() ? coordinates() : !artifactId.isEmpty() ? artifactId : fileName();
    return version.isEmpty() ? name : name + " " + version;
  }

  private String fileName() {
    Path file = path == null ? null : path.getFileName();
    return file == null ? "unknown jar" : file.toString();
  }

  /** Identifies a jar; a directory or an unreadable jar gets what its path tells. */
  public static JarIdentity of(Path jar) {
    if (jar == null) {
      return new JarIdentity(null, "", "", "");
    }
    String[] fromPom = {"", "", ""};
    String manifestVersion = "";
    if (Files.isRegularFile(jar)) {
      try (JarFile file = new JarFile(jar.toFile(), false)) {
        fromPom = fromPomProperties(file, jar);
        manifestVersion = fromManifest(file);
      } catch (IOException | RuntimeException e) {
        // not a readable jar: fall back to its path
      }
    }
    if (!fromPom[1].isEmpty()) {
      return new JarIdentity(jar, fromPom[0], fromPom[1], fromPom[2]);
    }
    JarIdentity fromPath = fromRepositoryPath(jar);
    if (fromPath != null) {
      return fromPath;
    }
    Matcher name = FILE_NAME.matcher(String.valueOf(jar.getFileName()));
    if (name.matches()) {
      return new JarIdentity(jar, "", name.group(1), name.group(2));
    }
    return new JarIdentity(jar, "", "", manifestVersion);
  }

  /** {@code spring-beans-2.5.1.jar}: an artifactId, a dash, a version that starts with a digit. */
  private static final Pattern FILE_NAME =
      Pattern.compile("(.+?)-(\\d[^-]*(?:-(?:[A-Za-z]+\\d*|SNAPSHOT))?)\\.jar");

  private static String[] fromPomProperties(JarFile file, Path jar) throws IOException {
    List<Properties> found = pomProperties(file);
    Properties chosen = null;
    if (found.size() == 1) {
      chosen = found.get(0);
    } else {
      // spring-beans-2.5.1.jar, or Quarkus' lib/main/org.springframework.spring-beans-2.5.1.jar
      String fileName = String.valueOf(jar.getFileName());
      for (Properties properties : found) {
        String group = properties.getProperty("groupId", "").trim();
        String artifact = properties.getProperty("artifactId", "").trim();
        if (!artifact.isEmpty()
            && (fileName.startsWith(artifact + "-")
                || fileName.startsWith(group + "." + artifact + "-"))) {
          chosen = properties;
          break;
        }
      }
    }
    if (chosen == null) {
      return new String[] {"", "", ""};
    }
    return new String[] {
      chosen.getProperty("groupId", "").trim(),
      chosen.getProperty("artifactId", "").trim(),
      chosen.getProperty("version", "").trim()
    };
  }

  private static List<Properties> pomProperties(JarFile file) throws IOException {
    List<Properties> found = new ArrayList<>();
    Enumeration<? extends ZipEntry> entries = file.entries();
    while (entries.hasMoreElements()) {
      ZipEntry entry = entries.nextElement();
      String name = entry.getName();
      if (name.startsWith("META-INF/maven/") && name.endsWith("/pom.properties")) {
        Properties properties = new Properties();
        try (InputStream in = file.getInputStream(entry)) {
          properties.load(in);
        }
        if (!properties.getProperty("artifactId", "").isBlank()) {
          found.add(properties);
        }
      }
    }
    return found;
  }

  /**
   * The artifacts a shaded (uber) jar bundles, one per {@code META-INF/maven/**}{@code
   * /pom.properties}; empty for a jar that carries one or none.
   */
  public static List<JarIdentity> bundled(Path jar) {
    if (jar == null || !Files.isRegularFile(jar)) {
      return List.of();
    }
    try (JarFile file = new JarFile(jar.toFile(), false)) {
      List<Properties> found = pomProperties(file);
      if (found.size() < 2) {
        return List.of();
      }
      List<JarIdentity> bundled = new ArrayList<>();
      for (Properties p : found) {
        bundled.add(
            new JarIdentity(
                jar,
                p.getProperty("groupId", "").trim(),
                p.getProperty("artifactId", "").trim(),
                p.getProperty("version", "").trim()));
      }
      return List.copyOf(bundled);
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * Which of a shaded jar's bundled artifacts a class (binary name) belongs to: the one whose
   * groupId is a prefix of the class's package, preferring the one whose artifactId's words are
   * package segments ({@code org.springframework:spring-beans} for {@code
   * org.springframework.beans.BeanUtils}); {@code own} when none matches. Shading that relocates
   * packages keeps them under the uber jar's own name.
   */
  public static JarIdentity forClass(List<JarIdentity> bundled, JarIdentity own, String className) {
    if (bundled.isEmpty()) {
      return own;
    }
    String pkg = className.contains(".") ? className.substring(0, className.lastIndexOf('.')) : "";
    List<String> segments = List.of(pkg.split("\\."));
    JarIdentity best = null;
    int bestScore = 0;
    for (JarIdentity candidate : bundled) {
      int score = 0;
      if (pkg.equals(candidate.groupId()) || pkg.startsWith(candidate.groupId() + ".")) {
        score += 2;
      }
      for (String word : candidate.artifactId().split("[-.]")) {
        if (word.length() > 2 && segments.contains(word)) {
          score += 1;
        }
      }
      if (score > bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    return best == null || bestScore < 2 ? own : best;
  }

  private static String fromManifest(JarFile file) throws IOException {
    Manifest manifest = file.getManifest();
    if (manifest == null) {
      return "";
    }
    Attributes main = manifest.getMainAttributes();
    for (String key :
        List.of("Implementation-Version", "Bundle-Version", "Specification-Version")) {
      String value = main.getValue(key);
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    return "";
  }

  /**
   * {@code .../repository/org/apache/ibatis/ibatis-sqlmap/2.3.4.726/ibatis-sqlmap-2.3.4.726.jar}.
   */
  private static JarIdentity fromRepositoryPath(Path jar) {
    Path absolute = jar.toAbsolutePath().normalize();
    int count = absolute.getNameCount();
    if (count < 4) {
      return null;
    }
    String file = absolute.getName(count - 1).toString();
    String version = absolute.getName(count - 2).toString();
    String artifact = absolute.getName(count - 3).toString();
    if (!file.startsWith(artifact + "-" + version)) {
      return null;
    }
    int root = -1;
    for (int i = 0; i < count - 3; i++) {
      if (absolute.getName(i).toString().equals("repository")) {
        root = i;
      }
    }
    if (root < 0 || root >= count - 4) {
      return new JarIdentity(jar, "", artifact, version);
    }
    StringBuilder group = new StringBuilder();
    for (int i = root + 1; i < count - 3; i++) {
      if (group.length() > 0) {
        group.append('.');
      }
      group.append(absolute.getName(i));
    }
    return new JarIdentity(jar, group.toString(), artifact, version);
  }
}
