package io.github.lockjaw.maven;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.engine.analyzer.ParentWatch;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.io.Json;
import io.github.lockjaw.maven.exec.ForkedAnalyzer;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.codehaus.plexus.classworlds.realm.ClassRealm;

/**
 * Runs {@link ContentionWork} in a JDK 21+ of its own ({@code lockjaw.javaHome}) when Maven runs on
 * an older JDK: lockjaw's readers and detectors are built for Java 21 and must not be loaded into
 * Maven's JVM there. The job goes in as JSON, the outcome comes back as JSON; the JVM ends with
 * Maven (a shutdown hook, and {@link ParentWatch} when Maven is killed).
 */
final class ForkedContention {
  /**
   * Named, not referenced: Maven's older JVM must not load it (its code reaches Java 21 classes).
   */
  private static final String MAIN = "io.github.lockjaw.maven.ContentionWork";

  private ForkedContention() {}

  static ContentionJob.Outcome run(
      Path java, PluginDescriptor plugin, ContentionJob job, Path workDirectory)
      throws MojoExecutionException {
    Path jobFile = workDirectory.resolve("contention-job.json");
    Path outcomeFile = workDirectory.resolve("contention-outcome.json");
    Path log = workDirectory.resolve("contention.log");
    try {
      Files.createDirectories(workDirectory);
      Files.deleteIfExists(outcomeFile);
      Files.writeString(jobFile, Json.GSON.toJson(job), UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write its contention job to "
              + workDirectory
              + ": "
              + IoProblems.describe(e)
              + ". Check that the build directory is writable.",
          e);
    }
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-XX:+UseSerialGC");
    command.add("-D" + ParentWatch.PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
    command.add("-cp");
    command.add(classpath(plugin));
    command.add(MAIN);
    command.add(jobFile.toString());
    command.add(outcomeFile.toString());
    int exit = ForkedAnalyzer.runToEnd(command, log, "contention JVM");
    if (exit != 0 || !Files.exists(outcomeFile)) {
      String output;
      try {
        output = Files.readString(log, UTF_8);
      } catch (IOException e) {
        output = "(no output)";
      }
      throw new MojoExecutionException(
          "lockjaw:contention's JVM ("
              + java
              + ") stopped unexpectedly (exit code "
              + exit
              + "); its output, also in "
              + log
              + ":\n"
              + output);
    }
    try {
      return Json.GSON.fromJson(Files.readString(outcomeFile, UTF_8), ContentionJob.Outcome.class);
    } catch (IOException | RuntimeException e) {
      throw new MojoExecutionException(
          "lockjaw cannot read the outcome of lockjaw:contention's JVM, " + outcomeFile, e);
    }
  }

  private static String classpath(PluginDescriptor plugin) throws MojoExecutionException {
    List<String> entries = new ArrayList<>();
    ClassRealm realm = plugin.getClassRealm();
    for (URL url : realm == null ? new URL[0] : realm.getURLs()) {
      try {
        entries.add(Path.of(url.toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new MojoExecutionException("lockjaw cannot use class path entry " + url, e);
      }
    }
    if (entries.isEmpty()) {
      throw new MojoExecutionException("lockjaw cannot find its own class path to fork a JVM");
    }
    return String.join(File.pathSeparator, entries);
  }
}
