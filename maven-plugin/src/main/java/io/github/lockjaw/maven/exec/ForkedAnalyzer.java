package io.github.lockjaw.maven.exec;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.engine.analyzer.AnalysisRequest;
import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.analyzer.LockjawAnalyzer;
import io.github.lockjaw.engine.analyzer.ParentWatch;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.io.Json;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.codehaus.plexus.classworlds.realm.ClassRealm;

/**
 * Runs {@link LockjawAnalyzer} in its own JVM: the JDK {@link AnalyzerJdk} selected, the {@code
 * --add-exports} flags Error Prone needs (so Maven's JVM needs none), the plugin's own class path.
 * The analyzer ends with Maven: a shutdown hook stops it when Maven exits or is interrupted, and
 * {@link ParentWatch} ends it when Maven is killed outright.
 */
public final class ForkedAnalyzer {
  /** The flags Error Prone needs to reach into javac; the forked analyzer JVM gets them. */
  public static final List<String> JAVAC_EXPORTS =
      Stream.concat(
              Stream.of(
                      "api",
                      "code",
                      "comp",
                      "file",
                      "main",
                      "model",
                      "parser",
                      "processing",
                      "tree",
                      "util")
                  .map(p -> "--add-exports=jdk.compiler/com.sun.tools.javac." + p + "=ALL-UNNAMED"),
              Stream.of("code", "comp")
                  .map(p -> "--add-opens=jdk.compiler/com.sun.tools.javac." + p + "=ALL-UNNAMED"))
          .toList();

  private final AnalyzerJdk jdk;
  private final String classpath;

  public ForkedAnalyzer(AnalyzerJdk jdk, String classpath) {
    this.jdk = jdk;
    this.classpath = classpath;
  }

  /** An analyzer run with the plugin's own class path (its jar, lockjaw-checks, Error Prone). */
  public static ForkedAnalyzer forPlugin(AnalyzerJdk jdk, PluginDescriptor plugin)
      throws MojoExecutionException {
    List<String> entries = new ArrayList<>();
    ClassRealm realm = plugin.getClassRealm();
    URL[] urls = realm != null ? realm.getURLs() : new URL[0];
    for (URL url : urls) {
      try {
        entries.add(Path.of(url.toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new MojoExecutionException("lockjaw cannot use class path entry " + url, e);
      }
    }
    if (entries.isEmpty()) {
      throw new MojoExecutionException(
          "lockjaw cannot find its own class path to start the analyzer");
    }
    return new ForkedAnalyzer(jdk, String.join(File.pathSeparator, entries));
  }

  /** The command line that runs the analyzer on a request file. */
  List<String> command(Path requestFile) {
    List<String> command = new ArrayList<>();
    command.add(jdk.java().toString());
    command.addAll(JAVAC_EXPORTS);
    // The analyzer is one short javac run: C1 alone compiles its hot code soon enough, while C2's
    // compiler threads would compete with it for the CPU (40-50 % less time measured by
    // scripts/benchmark-plugin.sh); one GC thread suffices for its heap.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-D" + ParentWatch.PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
    command.add("-cp");
    command.add(classpath);
    command.add(LockjawAnalyzer.class.getName());
    command.add(requestFile.toString());
    return command;
  }

  /**
   * Writes the request, runs the analyzer, and reads its result; the analyzer's output goes to
   * {@code log}. Fails when the analyzer could not run or wrote no result.
   */
  public AnalysisResult run(AnalysisRequest request, Path requestFile, Path log)
      throws MojoExecutionException {
    Path resultFile = Path.of(request.output());
    try {
      Files.createDirectories(requestFile.toAbsolutePath().getParent());
      Files.deleteIfExists(resultFile);
      Files.writeString(requestFile, Json.GSON.toJson(request), UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write its analysis request: "
              + IoProblems.describe(e)
              + ". Check that the build directory"
              + " is writable.",
          e);
    }
    List<String> command = command(requestFile);
    int exit = runToEnd(command, log);
    if (exit != 0 || !Files.exists(resultFile)) {
      String output;
      try {
        output = Files.readString(log, UTF_8);
      } catch (IOException e) {
        output = "(no output)";
      }
      throw new MojoExecutionException(
          "lockjaw's analyzer stopped unexpectedly (exit code "
              + exit
              + "); its output, also in "
              + log
              + ":\n"
              + output);
    }
    try {
      return Json.GSON.fromJson(Files.readString(resultFile, UTF_8), AnalysisResult.class);
    } catch (IOException | RuntimeException e) {
      throw new MojoExecutionException(
          "lockjaw cannot read its analyzer's result " + resultFile + ": " + e.getMessage(), e);
    }
  }

  /** Starts the analyzer and waits for it; the process never outlives this JVM. */
  static int runToEnd(List<String> command, Path log) throws MojoExecutionException {
    return runToEnd(command, log, "analyzer");
  }

  /**
   * Starts a forked lockjaw JVM (its {@code purpose}: "analyzer", "contention JVM") and waits for
   * it, its output in {@code log}; the process never outlives this JVM, and an interrupt stops it.
   */
  public static int runToEnd(List<String> command, Path log, String purpose)
      throws MojoExecutionException {
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot start its "
              + purpose
              + " ("
              + command.get(0)
              + "): "
              + IoProblems.describe(e),
          e);
    }
    Thread stop = new Thread(() -> stop(process), "lockjaw-stop-" + purpose.replace(' ', '-'));
    boolean hooked;
    try {
      Runtime.getRuntime().addShutdownHook(stop);
      hooked = true;
    } catch (IllegalStateException e) {
      hooked = false; // Maven is already shutting down
      stop(process);
    }
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      stop(process);
      Thread.currentThread().interrupt();
      throw new MojoExecutionException(
          "lockjaw was interrupted; its " + purpose + " was stopped", e);
    } finally {
      if (hooked) {
        try {
          Runtime.getRuntime().removeShutdownHook(stop);
        } catch (IllegalStateException e) {
          // shutting down: the hook runs
        }
      }
    }
  }

  private static void stop(Process process) {
    if (process.isAlive()) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }
}
