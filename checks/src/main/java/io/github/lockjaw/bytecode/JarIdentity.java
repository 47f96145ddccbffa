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
        found.add(properties);
      }
    }
    Properties chosen = null;
    if (found.size() == 1) {
      chosen = found.get(0);
    } else {
      String fileName = String.valueOf(jar.getFileName());
      for (Properties properties : found) {
        String artifact = properties.getProperty("artifactId", "");
        if (!artifact.isEmpty() && fileName.startsWith(artifact + "-")) {
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
