package io.github.lockjaw.maven;

import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.fix.FixApplier;
import io.github.lockjaw.engine.fix.FixApplier.Analysis;
import io.github.lockjaw.engine.fix.FixApplier.FixFailure;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Applies lockjaw's suggested fixes to the module's sources in place, with the engine's {@link
 * FixApplier} (as the command-line tool's {@code check --fix} does). Each file is written whole or
 * not at all; a file edited while lockjaw ran, and a read-only file, are left alone; a file whose
 * fixed version does not compile is restored and named, and the other files keep their fixes; if
 * the module still does not compile, every file lockjaw wrote is restored.
 */
@Mojo(name = "fix", requiresDependencyCollection = ResolutionScope.TEST, threadSafe = true)
public class FixMojo extends AbstractLockjawMojo {

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    FixApplier applier =
        new FixApplier(
            charset(),
            this::relativePath,
            new FixApplier.Log() {
              @Override
              public void warn(String message) {
                getLog().warn(message);
              }

              @Override
              public void error(String message) {
                getLog().error(message);
              }
            });
    FixApplier.Analyzer analyzer =
        runChecks -> {
          try {
            Optional<AnalysisResult> result = analyse(runChecks);
            return result.isEmpty()
                ? Analysis.nothingToAnalyse()
                : Analysis.of(result.get().findings());
          } catch (MojoFailureException | MojoExecutionException e) {
            return Analysis.failed(e.getMessage(), e);
          }
        };
    FixApplier.Result result;
    try {
      result = applier.apply(sourceFiles(), this::isReported, analyzer, project.getArtifactId());
    } catch (FixFailure e) {
      if (e.beforeAnyFix() && e.getCause() instanceof MojoFailureException failure) {
        throw failure; // the first analysis failed: nothing was written
      }
      if (e.beforeAnyFix() && e.getCause() instanceof MojoExecutionException failure) {
        throw failure;
      }
      if (e.isIo()) {
        throw new MojoExecutionException(e.getMessage(), e);
      }
      throw new MojoFailureException(e.getMessage(), e);
    }
    if (result.nothingToAnalyse()) {
      return;
    }
    int withoutFix = result.withoutFix();
    if (result.fixed().isEmpty()) {
      getLog()
          .info(
              "lockjaw: nothing to fix in "
                  + project.getArtifactId()
                  + (withoutFix > 0
                      ? " (" + withoutFix + " finding(s) have no automatic fix; see lockjaw:check)"
                      : ""));
      return;
    }
    for (Map.Entry<?, List<String>> entry : result.report().entrySet()) {
      entry.getValue().forEach(line -> getLog().info(line));
    }
    getLog()
        .info(
            "lockjaw: fixed "
                + result.fixed().size()
                + " file(s) in "
                + project.getArtifactId()
                + "; the module still compiles."
                + (withoutFix > 0
                    ? " " + withoutFix + " finding(s) have no automatic fix; see lockjaw:check."
                    : "")
                + (result.pending() > 0
                    ? " "
                        + result.pending()
                        + " fix(es) are still pending after "
                        + FixApplier.MAX_ROUNDS
                        + " passes (they change code"
                        + " that other fixes changed); run lockjaw:fix again to apply them."
                    : ""));
  }
}
