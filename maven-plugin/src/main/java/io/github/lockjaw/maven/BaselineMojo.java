package io.github.lockjaw.maven;

import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.io.IoProblems;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Writes the module's current findings to the baseline file, so that {@code check} fails only on
 * findings added after it. Commit the file; regenerate it to accept more.
 */
@Mojo(name = "baseline", requiresDependencyCollection = ResolutionScope.TEST, threadSafe = true)
public class BaselineMojo extends AbstractLockjawMojo {

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    Optional<AnalysisResult> analysed = analyse(true);
    if (analysed.isEmpty()) {
      return;
    }
    List<Finding> findings = analysed.get().findings().stream().filter(this::isReported).toList();
    Map<Finding, String> fingerprints = Fingerprint.all(findings, this::relativePath);
    List<Baseline.Entry> entries = new ArrayList<>();
    for (Finding f : findings) {
      entries.add(
          new Baseline.Entry(
              fingerprints.get(f),
              f.check(),
              relativePath(f),
              f.enclosingClass(),
              f.member(),
              f.line()));
    }
    if (entries.isEmpty() && !baseline.exists()) {
      // nothing to accept: no empty file to commit
      getLog()
          .info(
              "lockjaw: no findings in "
                  + project.getArtifactId()
                  + "; no baseline written (lockjaw:check passes without one).");
      return;
    }
    try {
      Baseline.write(baseline.toPath(), entries);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "lockjaw cannot write the baseline "
              + baseline
              + ": "
              + IoProblems.describe(e)
              + ". Make its directory"
              + " writable, or set lockjaw.baseline to a writable path.",
          e);
    }
    getLog()
        .info(
            "lockjaw: wrote "
                + entries.size()
                + " finding(s) of "
                + project.getArtifactId()
                + " to "
                + baseline
                + "; lockjaw:check now fails only on new ones.");
  }
}
