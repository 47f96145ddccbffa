package io.github.lockjaw.maven;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The user's per-check configuration ({@code <checks><check>Name:LEVEL</check></checks>} or {@code
 * -Dlockjaw.checks=Name:LEVEL,...}) turned into Error Prone {@code -Xep} flags, with every name
 * checked against the checks lockjaw ships.
 */
final class CheckSelection {
  private static final String SERVICES =
      "META-INF/services/com.google.errorprone.bugpatterns.BugChecker";
  private static final Set<String> LEVELS = Set.of("OFF", "WARN", "ERROR", "DEFAULT");

  private CheckSelection() {}

  /** The simple names of lockjaw's checks, read from the checks jar's service registration. */
  static Set<String> knownChecks(ClassLoader loader) throws IOException {
    Set<String> names = new TreeSet<>();
    Enumeration<URL> registrations = loader.getResources(SERVICES);
    while (registrations.hasMoreElements()) {
      try (BufferedReader reader =
          new BufferedReader(
              new InputStreamReader(
                  registrations.nextElement().openStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          line = line.trim();
          if (line.startsWith("io.github.lockjaw.")) {
            names.add(line.substring(line.lastIndexOf('.') + 1));
          }
        }
      }
    }
    return names;
  }

  /** {@code -Xep:Name:LEVEL} flags for the configured entries. */
  static List<String> toErrorProneFlags(List<String> configured, Set<String> known)
      throws MojoFailureException {
    List<String> flags = new ArrayList<>();
    if (configured == null) {
      return flags;
    }
    for (String raw : configured) {
      if (raw == null || raw.isBlank()) {
        continue;
      }
      String entry = raw.trim();
      int colon = entry.indexOf(':');
      String name = colon < 0 ? entry : entry.substring(0, colon).trim();
      String level =
          colon < 0 ? "WARN" : entry.substring(colon + 1).trim().toUpperCase(Locale.ROOT);
      if (level.equals("WARNING")) {
        level = "WARN";
      }
      if (!known.contains(name)) {
        throw new MojoFailureException(
            "lockjaw has no check named '"
                + name
                + "' (in the <checks> configuration or -Dlockjaw.checks)."
                + " The checks are: "
                + String.join(", ", known)
                + ". Correct the name; check names are"
                + " case-sensitive and written like 'ClassMonitorCache:ERROR'.");
      }
      if (!LEVELS.contains(level)) {
        throw new MojoFailureException(
            "lockjaw cannot set check '"
                + name
                + "' to '"
                + entry.substring(colon + 1).trim()
                + "'. Use one of"
                + " OFF, WARN, ERROR or DEFAULT, e.g. '"
                + name
                + ":OFF'.");
      }
      flags.add("-Xep:" + name + ":" + level);
    }
    return flags;
  }
}
