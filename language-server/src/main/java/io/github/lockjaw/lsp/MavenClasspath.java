package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs Maven in a subprocess to resolve one pom's compile and test class path ({@code
 * dependency:build-classpath}): offline first, then online, all within a deadline. Maven's output
 * goes to a temporary log, read only for the problem it reports and the repository it was waiting
 * on.
 */
final class MavenClasspath {
  static final String GOAL =
      "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath";

  /**
   * @param classpath the entries, when Maven wrote them
   * @param problem why not, in one line, else null
   * @param timedOut whether Maven was stopped at the deadline
   */
  record Outcome(List<String> classpath, String problem, boolean timedOut) {}

  private final String mavenExecutable;

  /**
   * @param mavenExecutable the {@code mvn} to run, or null for the project's {@code mvnw}, else
   *     {@code mvn} on the PATH
   */
  MavenClasspath(String mavenExecutable) {
    this.mavenExecutable = mavenExecutable;
  }

  /**
   * Resolves {@code pom}'s class path, giving up at {@code deadlineNanos} ({@link
   * System#nanoTime}).
   *
   * @param timeoutSeconds the whole time allowed, named in the message when it runs out
   */
  Outcome resolve(Path pom, long deadlineNanos, long timeoutSeconds) throws InterruptedException {
    Path output = null;
    try {
      output = Files.createTempFile("lockjaw-classpath", ".txt");
      Run offline = run(pom, output, true, deadlineNanos, timeoutSeconds);
      Run run = offline;
      if (offline.problem() != null && !offline.timedOut() && !unreadable(offline.problem())) {
        run = run(pom, output, false, deadlineNanos, timeoutSeconds);
      }
      if (run.problem() != null) {
        return new Outcome(List.of(), run.problem(), run.timedOut());
      }
      String text = Files.readString(output, UTF_8).trim();
      List<String> classpath =
          text.isEmpty()
              ? List.of()
              : Arrays.stream(text.split(File.pathSeparator)).filter(s -> !s.isBlank()).toList();
      return new Outcome(classpath, null, false);
    } catch (IOException e) {
      return new Outcome(List.of(), "cannot run Maven: " + e.getMessage(), false);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a temporary file left behind
        }
      }
    }
  }

  private record Run(String problem, boolean timedOut) {}

  /** A pom Maven cannot even read fails online as it fails offline. */
  private static boolean unreadable(String problem) {
    return problem.startsWith("Non-readable POM") || problem.startsWith("Non-parseable POM");
  }

  private Run run(Path pom, Path output, boolean offline, long deadlineNanos, long timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(mavenCommand(pom.getParent()));
    command.add("-B");
    command.add("-Dstyle.color=never");
    if (offline) {
      command.add("-o");
    }
    command.add("-f");
    command.add(pom.toString());
    command.add(GOAL);
    command.add("-Dmdep.outputFile=" + output);
    command.add("-Dmdep.includeScope=test");
    Path log = Files.createTempFile("lockjaw-maven", ".log");
    Process process;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(pom.getParent().toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(
                  ProcessBuilder.Redirect.from(
                      new File(
                          System.getProperty("os.name").startsWith("Windows")
                              ? "NUL"
                              : "/dev/null")));
      try {
        process = builder.start();
      } catch (IOException e) {
        return new Run("cannot run '" + command.get(0) + "': " + e.getMessage(), false);
      }
      long remaining = deadlineNanos - System.nanoTime();
      boolean finished;
      try {
        finished = remaining > 0 && process.waitFor(remaining, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        destroy(process);
        throw e;
      }
      if (!finished) {
        destroy(process);
        String waitingOn = MavenLog.lastDownload(Files.readString(log, UTF_8));
        return new Run(
            "Maven did not finish within "
                + timeoutSeconds
                + " s"
                + (waitingOn == null ? "" : "; it was still downloading " + waitingOn),
            true);
      }
      if (process.exitValue() == 0) {
        return new Run(null, false);
      }
      return new Run(MavenLog.problem(Files.readString(log, UTF_8)), false);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static void destroy(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  String mavenCommand(Path dir) {
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
}
