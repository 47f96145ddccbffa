package io.github.lockjaw.maven.exec;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.plugin.MojoFailureException;

/** The JDK that runs the analysis: lockjaw.javaHome, else the one Maven runs on. */
public record AnalyzerJdk(Path java, int feature) {
  private static final Pattern JAVA_VERSION =
      Pattern.compile("(?m)^JAVA_VERSION=\"(?:1\\.)?(\\d+)");

  /** Fails early, and clearly, when no JDK 21+ is available to run Error Prone. */
  public static AnalyzerJdk select(File javaHome) throws MojoFailureException {
    if (javaHome != null) {
      Path java = javaHome.toPath().resolve("bin").resolve(isWindows() ? "java.exe" : "java");
      if (!Files.isExecutable(java)) {
        throw new MojoFailureException(
            "lockjaw.javaHome is "
                + javaHome
                + ", but it has no bin/java. Point it at the directory of a JDK 21 or newer.");
      }
      int feature = featureOf(javaHome.toPath());
      if (feature > 0 && feature < 21) {
        throw new MojoFailureException(
            "lockjaw.javaHome is "
                + javaHome
                + ", a JDK "
                + feature
                + "; lockjaw runs Error Prone 2.50, which needs"
                + " JDK 21 or newer. Point lockjaw.javaHome at a JDK 21+.");
      }
      // a JDK without a release file: assume it can compile for the release Maven's own JDK can
      return new AnalyzerJdk(java, feature > 0 ? feature : Runtime.version().feature());
    }
    int feature = Runtime.version().feature();
    if (feature < 21) {
      throw new MojoFailureException(
          "lockjaw runs Error Prone 2.50, which needs JDK 21 or newer, but Maven is running on JDK "
              + feature
              + " ("
              + System.getProperty("java.home")
              + "). Run Maven with JAVA_HOME set to a JDK 21+"
              + " (your code can still target an older release), or set -Dlockjaw.javaHome=/path/to/jdk21 so"
              + " that only the analysis uses it.");
    }
    return new AnalyzerJdk(
        Path.of(System.getProperty("java.home"), "bin", isWindows() ? "java.exe" : "java"),
        feature);
  }

  /** The feature version named by a JDK's {@code release} file, or 0 when it has none. */
  static int featureOf(Path javaHome) {
    try {
      Matcher m = JAVA_VERSION.matcher(Files.readString(javaHome.resolve("release"), ISO_8859_1));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
  }
}
