package io.github.lockjaw.engine.analyzer;

import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Rule;
import java.util.List;

/**
 * What the forked analyzer found.
 *
 * @param status {@code ok}, {@code compile-error} (see {@code errors}) or {@code failure} (the
 *     analyzer itself failed; see {@code errors})
 * @param errors javac's errors, formatted {@code file:line: message}, or the failure's description
 * @param rules every lockjaw check known to the analyzer
 * @param findings what the enabled checks reported
 * @param notes what the analyzer learnt of the module and the build should say (the file that runs
 *     request handlers on virtual threads)
 */
public record AnalysisResult(
    String status,
    List<String> errors,
    List<Rule> rules,
    List<Finding> findings,
    List<String> notes) {
  public static final String OK = "ok";
  public static final String COMPILE_ERROR = "compile-error";
  public static final String FAILURE = "failure";
}
