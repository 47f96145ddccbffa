package io.github.lockjaw.maven;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which lockjaw checks a module's compile runs, read from maven-compiler-plugin's Error Prone
 * arguments as Error Prone reads them, left to right: every check on, {@code -XepDisableAllChecks}
 * turns all off, {@code -Xep:Name} or {@code -Xep:Name:WARN|ERROR} turns one on, {@code
 * -Xep:Name:OFF} turns it off.
 */
final class CompilerIntegration {
  private CompilerIntegration() {}

  /** The checks of {@code known} that a compile with these arguments runs. */
  static Set<String> checksRun(List<String> compilerArgs, Set<String> known) {
    Set<String> on = new LinkedHashSet<>(known);
    for (String arg : compilerArgs) {
      for (String option : arg.trim().split("\\s+")) {
        if (option.equals("-XepDisableAllChecks")) {
          on.clear();
        } else if (option.startsWith("-Xep:")) {
          String[] parts = option.substring("-Xep:".length()).split(":", 2);
          if (!known.contains(parts[0])) {
            continue;
          }
          if (parts.length == 2 && parts[1].equalsIgnoreCase("OFF")) {
            on.remove(parts[0]);
          } else {
            on.add(parts[0]);
          }
        }
      }
    }
    return new TreeSet<>(on);
  }

  /**
   * Whether this Maven run has run (or will run, before this goal) the module's compile: a
   * lifecycle phase from compile onward was asked for, not just {@code mvn lockjaw:check}.
   */
  static boolean compileRunsInThisBuild(List<String> goals) {
    Set<String> compiling =
        Set.of(
            "compile",
            "process-classes",
            "generate-test-sources",
            "process-test-sources",
            "generate-test-resources",
            "process-test-resources",
            "test-compile",
            "process-test-classes",
            "test",
            "prepare-package",
            "package",
            "pre-integration-test",
            "integration-test",
            "post-integration-test",
            "verify",
            "install",
            "deploy");
    return goals.stream().anyMatch(compiling::contains);
  }
}
