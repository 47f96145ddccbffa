package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Finds the Maven project of a file (the nearest {@code pom.xml} above it, within the workspace
 * folder holding it) and resolves its classpath once, by running Maven in a subprocess ({@code
 * dependency:build-classpath}, offline first, then online). The result is cached per {@code
 * pom.xml} and resolved again when that file changes (its modification time, or a {@code
 * workspace/didChangeWatchedFiles} notification).
 */
final class Projects {
  private static final long MAVEN_TIMEOUT_SECONDS = 300;

  private record Cached(FileTime pomModified, Project project) {}

  private final List<Path> workspaceFolders;
  private final String mavenExecutable;
  private final Consumer<String> onProblem;
  private final Map<Path, Cached> cache = new ConcurrentHashMap<>();

  /**
   * @param mavenExecutable the {@code mvn} to run, or null for the project's {@code mvnw}, else
   *     {@code mvn} on the PATH
   * @param onProblem told once per {@code pom.xml} state when its classpath cannot be resolved
   */
  Projects(List<Path> workspaceFolders, String mavenExecutable, Consumer<String> onProblem) {
    this.workspaceFolders = List.copyOf(workspaceFolders);
    this.mavenExecutable = mavenExecutable;
    this.onProblem = onProblem;
  }

  Project projectFor(Path file) {
    Path pom = nearestPom(file);
    if (pom == null) {
      return Project.NONE;
    }
    FileTime modified = modified(pom);
    Cached cached = cache.get(pom);
    if (cached != null && cached.pomModified().equals(modified)) {
      return cached.project();
    }
    Project project = resolve(pom);
    cache.put(pom, new Cached(modified, project));
    if (project.problem() != null) {
      onProblem.accept(project.problem());
    }
    return project;
  }

  /** Forgets what is known of the project of this {@code pom.xml}. */
  void invalidate(Path pom) {
    cache.remove(pom.toAbsolutePath().normalize());
  }

  Path nearestPom(Path file) {
    Path start = file.toAbsolutePath().normalize();
    Path boundary = null;
    for (Path folder : workspaceFolders) {
      Path f = folder.toAbsolutePath().normalize();
      if (start.startsWith(f) && (boundary == null || f.getNameCount() > boundary.getNameCount())) {
        boundary = f;
      }
    }
    for (Path dir = start.getParent(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.isRegularFile(pom)) {
        return pom;
      }
      if (dir.equals(boundary)) {
        break;
      }
    }
    return null;
  }

  private Project resolve(Path pom) {
    Path dir = pom.getParent();
    List<Path> roots = new ArrayList<>();
    for (String root : List.of("src/main/java", "src/test/java")) {
      if (Files.isDirectory(dir.resolve(root))) {
        roots.add(dir.resolve(root));
      }
    }
    String failure;
    try {
      Path output = Files.createTempFile("lockjaw-classpath", ".txt");
      try {
        failure = runMaven(dir, output, true);
        if (failure != null) {
          failure = runMaven(dir, output, false);
        }
        if (failure == null) {
          String text = Files.readString(output, UTF_8).trim();
          List<String> classpath =
              text.isEmpty()
                  ? List.of()
                  : Arrays.stream(text.split(File.pathSeparator))
                      .filter(s -> !s.isBlank())
                      .toList();
          return new Project(pom, classpath, roots, null);
        }
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      failure = e.getMessage();
    }
    String problem =
        "lockjaw could not resolve the classpath of "
            + pom
            + " ("
            + failure
            + "). It analyses the files of this"
            + " project with the JDK and the project's own sources only, so code that uses its dependencies is"
            + " checked less; run 'mvn dependency:build-classpath' in "
            + dir
            + " to see why, fix the pom.xml"
            + " or the network, then save the pom.xml to try again.";
    return new Project(pom, List.of(), roots, problem);
  }

  /** Null when Maven wrote the classpath, else why not. */
  private String runMaven(Path dir, Path output, boolean offline) {
    List<String> command = new ArrayList<>();
    command.add(mavenCommand(dir));
    command.add("-B");
    command.add("-q");
    if (offline) {
      command.add("-o");
    }
    command.add("org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath");
    command.add("-Dmdep.outputFile=" + output);
    command.add("-Dmdep.includeScope=test");
    Path log = null;
    try {
      log = Files.createTempFile("lockjaw-maven", ".log");
      Process process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(
                  ProcessBuilder.Redirect.from(
                      new File(
                          System.getProperty("os.name").startsWith("Windows")
                              ? "NUL"
                              : "/dev/null")))
              .start();
      if (!process.waitFor(MAVEN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "Maven did not finish within " + MAVEN_TIMEOUT_SECONDS + " s";
      }
      if (process.exitValue() == 0) {
        return null;
      }
      return "'"
          + String.join(" ", command)
          + "' failed: "
          + firstError(Files.readString(log, UTF_8));
    } catch (IOException e) {
      return "cannot run '" + command.get(0) + "': " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } finally {
      if (log != null) {
        try {
          Files.deleteIfExists(log);
        } catch (IOException e) {
          // a temporary file left behind
        }
      }
    }
  }

  private String mavenCommand(Path dir) {
    if (mavenExecutable != null && !mavenExecutable.isBlank()) {
      return mavenExecutable;
    }
    boolean windows = System.getProperty("os.name").startsWith("Windows");
    for (Path d = dir; d != null; d = d.getParent()) {
      Path wrapper = d.resolve(windows ? "mvnw.cmd" : "mvnw");
      if (Files.isExecutable(wrapper)) {
        return wrapper.toString();
      }
    }
    return windows ? "mvn.cmd" : "mvn";
  }

  private static String firstError(String log) {
    for (String line : log.split("\\R")) {
      if (line.contains("[ERROR]") && !line.strip().equals("[ERROR]")) {
        return line.replace("[ERROR]", "").strip();
      }
    }
    String trimmed = log.strip();
    return trimmed.isEmpty() ? "no output" : trimmed.lines().findFirst().orElse("");
  }

  private static FileTime modified(Path pom) {
    try {
      return Files.getLastModifiedTime(pom);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }
}
