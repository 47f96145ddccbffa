package io.github.lockjaw.maven;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import java.util.List;

/**
 * What lockjaw:contention's work needs, as plain data, so it runs the same in Maven's JVM (JDK 21+)
 * and in a forked JDK 21+ when Maven runs on an older one ({@link ForkedContention}): the evidence,
 * the modules' own findings with what the report shows of them, the dependency jars, the outputs
 * and the gate. Written as JSON for the forked JVM.
 *
 * @param recordings this run's evidence: recordings, dumps, or directories of them (absolute)
 * @param baselines an earlier run's evidence to compare with; empty for none
 * @param findings the modules' source findings, as lockjaw:check reports them
 * @param locations each finding's file relative to the repository, in the order of {@code findings}
 * @param fingerprints each finding's SARIF fingerprint, in the same order
 * @param fixDiffs each finding's fix as a unified diff, empty when it has none
 * @param rules the rules of the source findings
 * @param jars the reactor's runtime dependency jars
 * @param checksOff checks switched off: their findings in dependency jars are left out
 * @param failAbove the gate's share as the user wrote it ({@code 10%}); empty when off
 * @param failOnRegression whether sites new or worse than the baseline fail
 */
record ContentionJob(
    List<String> recordings,
    List<String> baselines,
    List<Finding> findings,
    List<String> locations,
    List<String> fingerprints,
    List<String> fixDiffs,
    List<Rule> rules,
    List<Jar> jars,
    List<String> checksOff,
    String encoding,
    String markdown,
    String html,
    String sarif,
    String pluginVersion,
    String repositoryRoot,
    String failAbove,
    boolean failOnRegression) {

  /** A dependency jar and the Maven coordinates the report names it by. */
  record Jar(String path, String coordinates) {}

  /**
   * What the work produced: the report's lines for the build log, warnings, the one-paragraph error
   * that fails the goal (unreadable evidence; null when none), and the gate's reasons (empty when
   * it passed or was off).
   */
  record Outcome(
      List<String> lines, List<String> warnings, String error, List<String> gateFailures) {
    static Outcome failed(String error) {
      return new Outcome(List.of(), List.of(), error, List.of());
    }
  }
}
