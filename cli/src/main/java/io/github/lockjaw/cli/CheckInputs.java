package io.github.lockjaw.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/** What {@code check} reads: the Java files of its PATHs, and the entries of its class path. */
final class CheckInputs {
  private CheckInputs() {}

  /** The {@code .java} files given, and those under the directories given, sorted, each once. */
  static List<Path> sources(List<Path> paths) throws CliException {
    Set<Path> files = new LinkedHashSet<>();
    for (Path path : paths) {
      if (!Files.exists(path)) {
        throw new CliException(
            Main.INPUT_ERROR,
            path + " does not exist. Give Java source files, or directories of them (e.g. src).");
      }
      if (Files.isRegularFile(path)) {
        if (!path.toString().endsWith(".java")) {
          throw new CliException(
              Main.USAGE_ERROR,
              path
                  + " is not a Java source file. check reads .java files and directories of them;"
                  + " for jars and classes use lockjaw audit.");
        }
        files.add(path.toAbsolutePath().normalize());
        continue;
      }
      try (Stream<Path> walk = Files.walk(path)) {
        walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
            .filter(p -> !p.getFileName().toString().equals("module-info.java"))
            .filter(p -> !hidden(path, p))
            .map(p -> p.toAbsolutePath().normalize())
            .sorted()
            .forEach(files::add);
      } catch (IOException | RuntimeException e) {
        throw new CliException(
            Main.INPUT_ERROR, "lockjaw cannot list the files under " + path + ": " + e + ".");
      }
    }
    if (files.isEmpty()) {
      throw new CliException(
          Main.INPUT_ERROR,
          "There are no .java files in "
              + paths
              + ". Give the directory that holds the sources (e.g. src or src/main/java).");
    }
    return List.copyOf(files);
  }

  /** Whether a file lies in a hidden directory (.git, .idea) under the PATH given. */
  private static boolean hidden(Path root, Path file) {
    Path relative = root.relativize(file);
    for (Path part : relative) {
      if (part.toString().startsWith(".") && !part.toString().equals(".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The class path: each entry as it is, a glob ({@code lib/*}, {@code lib/*.jar}, {@code libs/**})
   * as the jars it matches, in name order. Globs match jars (and zips) only: {@code lib/*} is the
   * jars of {@code lib}, as with {@code java -cp 'lib/*'}. A missing entry is an error; a glob that
   * matches nothing is said on {@code progress}.
   */
  static List<String> classpath(List<String> entries, PrintStream progress) throws CliException {
    List<String> expanded = new ArrayList<>();
    for (String entry : entries) {
      if (!isGlob(entry)) {
        Path path = Path.of(entry);
        if (!Files.exists(path)) {
          throw new CliException(
              Main.INPUT_ERROR,
              "The class path entry "
                  + entry
                  + " does not exist. Give jars, directories of classes, or globs such as"
                  + " 'lib/*' (quoted, so the shell leaves the * to lockjaw).");
        }
        expanded.add(path.toAbsolutePath().normalize().toString());
        continue;
      }
      List<String> matched = glob(entry);
      if (matched.isEmpty()) {
        progress.println("lockjaw: --classpath " + entry + " matches no jar.");
      }
      expanded.addAll(matched);
    }
    return expanded;
  }

  private static boolean isGlob(String entry) {
    return entry.contains("*") || entry.contains("?") || entry.contains("[");
  }

  private static List<String> glob(String entry) throws CliException {
    String normalized = entry.replace('\\', '/');
    String[] segments = normalized.split("/");
    int first = 0;
    while (first < segments.length && !isGlob(segments[first])) {
      first++;
    }
    String base = String.join("/", Arrays.copyOfRange(segments, 0, first));
    String pattern = String.join("/", Arrays.copyOfRange(segments, first, segments.length));
    Path dir = Path.of(base.isEmpty() ? "." : base);
    if (!Files.isDirectory(dir.toAbsolutePath())) {
      throw new CliException(
          Main.INPUT_ERROR,
          "The class path glob " + entry + " names no directory: " + dir.toAbsolutePath() + ".");
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    int depth = pattern.contains("**") ? Integer.MAX_VALUE : pattern.split("/").length;
    Path absolute = dir.toAbsolutePath().normalize();
    try (Stream<Path> walk = Files.walk(absolute, depth)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> matcher.matches(absolute.relativize(p)))
          .filter(CheckInputs::isJar)
          .sorted()
          .map(Path::toString)
          .toList();
    } catch (IOException | RuntimeException e) {
      throw new CliException(
          Main.INPUT_ERROR, "lockjaw cannot list " + absolute + " for " + entry + ": " + e + ".");
    }
  }

  private static boolean isJar(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".jar") || name.endsWith(".zip");
  }
}
