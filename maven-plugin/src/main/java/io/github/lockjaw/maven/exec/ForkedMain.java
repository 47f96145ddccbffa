package io.github.lockjaw.maven.exec;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.github.lockjaw.engine.analyzer.ParentWatch;
import io.github.lockjaw.engine.io.IoProblems;
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
 * Runs one of the plugin's {@code main} classes in a JVM of the JDK {@link AnalyzerJdk} selected,
 * on the plugin's own class path: the way a goal whose code needs JDK 21+ (lockjaw-checks,
 * lockjaw-contention) runs when Maven itself is on an older JDK. The request goes to the child as a
 * JSON file named by its one argument, the result comes back in the JSON file the request names;
 * the child ends with Maven ({@link ForkedAnalyzer#runToEnd}, {@link ParentWatch}).
 *
 * <pre>{@code
 * AuditOutcome outcome =
 *     ForkedMain.forPlugin(jdk, plugin)
 *         .run(AuditRunner.class, request, work.resolve("audit-request.json"),
 *             work.resolve("audit-result.json"), AuditOutcome.class, work.resolve("audit.log"));
 * }</pre>
 *
 * The child's main calls {@link ParentWatch#start()} first, reads the request with a Gson of its
 * own (the child's class path has no Maven API, so it must not touch this class), writes the result
 * file and exits 0.
 */
public final class ForkedMain {
  /** How requests and results are written on both sides. */
  public static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private final AnalyzerJdk jdk;
  private final String classpath;

  private ForkedMain(AnalyzerJdk jdk, String classpath) {
    this.jdk = jdk;
    this.classpath = classpath;
  }

  /** A runner on the plugin's own class path (its jar, lockjaw-checks, SpotBugs...). */
  public static ForkedMain forPlugin(AnalyzerJdk jdk, PluginDescriptor plugin)
      throws MojoExecutionException {
    List<String> entries = new ArrayList<>();
    ClassRealm realm = plugin.getClassRealm();
    for (URL url : realm != null ? realm.getURLs() : new URL[0]) {
      try {
        entries.add(Path.of(url.toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new MojoExecutionException("lockjaw cannot use class path entry " + url, e);
      }
    }
    if (entries.isEmpty()) {
      throw new MojoExecutionException("lockjaw cannot find its own class path to fork a JVM");
    }
    // SpotBugs logs through SLF4J, which Maven provides to plugins and leaves out of their realm
    try {
      Class<?> slf4j =
          Class.forName("org.slf4j.LoggerFactory", false, ForkedMain.class.getClassLoader());
      entries.add(
          Path.of(slf4j.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    } catch (ReflectiveOperationException | URISyntaxException | RuntimeException e) {
      // no SLF4J in sight: the child fails with its own message if it needs it
    }
    return new ForkedMain(jdk, String.join(File.pathSeparator, entries));
  }

  /** Writes the request, runs {@code main} on it, and reads its result. */
  public <T> T run(
      Class<?> main,
      Object request,
      Path requestFile,
      Path resultFile,
      Class<T> resultType,
      Path log)
      throws MojoExecutionException {
    try {
      Files.createDirectories(requestFile.toAbsolutePath().getParent());
      Files.deleteIfExists(resultFile);
      Files.writeString(requestFile, GSON.toJson(request), UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write "
              + requestFile
              + ": "
              + IoProblems.describe(e)
              + ". Check that the build directory is writable.",
          e);
    }
    List<String> command = new ArrayList<>();
    command.add(jdk.java().toString());
    command.add("-XX:+UseSerialGC");
    command.add("-D" + ParentWatch.PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
    if (Boolean.getBoolean("lockjaw.strict")) {
      command.add("-Dlockjaw.strict=true");
    }
    command.add("-cp");
    command.add(classpath);
    command.add(main.getName());
    command.add(requestFile.toString());
    int exit = ForkedAnalyzer.runToEnd(command, log);
    if (exit != 0 || !Files.exists(resultFile)) {
      String output;
      try {
        output = Files.readString(log, UTF_8);
      } catch (IOException e) {
        output = "(no output)";
      }
      throw new MojoExecutionException(
          "lockjaw's forked JVM ("
              + jdk.java()
              + ") stopped unexpectedly (exit code "
              + exit
              + "); its output, also in "
              + log
              + ":\n"
              + output);
    }
    try {
      return GSON.fromJson(Files.readString(resultFile, UTF_8), resultType);
    } catch (IOException | RuntimeException e) {
      throw new MojoExecutionException(
          "lockjaw cannot read its forked JVM's result " + resultFile + ": " + e.getMessage(), e);
    }
  }
}
