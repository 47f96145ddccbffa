package io.github.lockjaw.maven;

import io.github.lockjaw.maven.analyzer.AnalysisResult;
import io.github.lockjaw.maven.model.AtomicFiles;
import io.github.lockjaw.maven.model.Edit;
import io.github.lockjaw.maven.model.Finding;
import io.github.lockjaw.maven.model.SourceEdits;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Applies lockjaw's suggested fixes to the module's sources in place. Each file is written whole or
 * not at all; a file edited while lockjaw ran is left alone; and if the fixed module no longer
 * compiles, every file lockjaw wrote is restored and the goal fails saying why.
 */
@Mojo(name = "fix", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class FixMojo extends AbstractLockjawMojo {
  private static final int MAX_ROUNDS = 3;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("lockjaw: skipped (lockjaw.skip)");
      return;
    }
    Charset charset = charset();
    Map<Path, String> before = new LinkedHashMap<>();
    for (Path file : sourceFiles()) {
      try {
        before.put(file, Files.readString(file, charset));
      } catch (IOException e) {
        throw new MojoExecutionException("lockjaw cannot read " + file + ": " + e.getMessage(), e);
      }
    }
    Map<Path, String> current = new LinkedHashMap<>(before);
    Map<Path, String> written = new LinkedHashMap<>();
    List<String> report = new ArrayList<>();
    int withoutFix = 0;
    // Fixes that touch the same lines (two fixes both adding imports, say) cannot be applied in
    // one pass; the next pass analyses the fixed code again and applies the rest.
    for (int round = 1; round <= MAX_ROUNDS; round++) {
      Optional<AnalysisResult> analysed;
      try {
        analysed = analyse(true);
      } catch (MojoFailureException | MojoExecutionException e) {
        if (written.isEmpty()) {
          throw e;
        }
        // a later pass failed on code lockjaw itself rewrote: undo everything
        List<String> restored = restore(written, before, charset);
        throw new MojoFailureException(
            "lockjaw applied fixes, but analysing the fixed "
                + project.getArtifactId()
                + " again failed, so it restored "
                + restored.size()
                + " file(s): "
                + String.join(", ", restored)
                + ". Nothing was changed. What went"
                + " wrong:\n"
                + e.getMessage()
                + "\nPlease report this: a lockjaw fix must always compile.");
      }
      if (analysed.isEmpty()) {
        return;
      }
      Map<Path, List<Finding>> byFile = new LinkedHashMap<>();
      withoutFix = 0;
      for (Finding finding : analysed.get().findings()) {
        if (!isReported(finding)) {
          continue;
        }
        if (!finding.hasFix()) {
          withoutFix++;
          continue;
        }
        byFile
            .computeIfAbsent(
                Path.of(finding.file()).toAbsolutePath().normalize(), k -> new ArrayList<>())
            .add(finding);
      }
      int postponed = 0;
      try {
        for (Map.Entry<Path, List<Finding>> entry : byFile.entrySet()) {
          Path file = entry.getKey();
          String expected = current.get(file);
          if (expected == null || !expected.equals(Files.readString(file, charset))) {
            getLog()
                .warn(
                    "lockjaw: "
                        + file
                        + " changed while lockjaw was working on it; not touching it.");
            continue;
          }
          List<Edit> accepted = new ArrayList<>();
          for (Finding finding : entry.getValue()) {
            if (finding.fix().stream().anyMatch(e -> accepted.stream().anyMatch(e::overlaps))) {
              postponed++;
              continue;
            }
            accepted.addAll(finding.fix());
            report.add(
                "  fixed "
                    + relativePath(finding)
                    + ":"
                    + finding.line()
                    + " ["
                    + finding.check()
                    + "]");
          }
          String fixed = SourceEdits.apply(expected, accepted);
          for (String line :
              SourceEdits.unifiedDiff(relativePath(entry.getValue().get(0)), expected, accepted)
                  .split("\n")) {
            report.add("    " + line);
          }
          AtomicFiles.write(file, fixed, charset);
          current.put(file, fixed);
          written.put(file, fixed);
        }
      } catch (IOException | RuntimeException e) {
        restore(written, before, charset);
        throw new MojoExecutionException(
            "lockjaw could not apply its fixes ("
                + e.getMessage()
                + "); every file it had"
                + " changed was restored.",
            e);
      }
      if (postponed == 0) {
        break;
      }
    }
    if (written.isEmpty()) {
      getLog()
          .info(
              "lockjaw: nothing to fix in "
                  + project.getArtifactId()
                  + (withoutFix > 0
                      ? " (" + withoutFix + " finding(s) have no automatic fix; see lockjaw:check)"
                      : ""));
      return;
    }

    try {
      analyse(false);
    } catch (MojoFailureException | MojoExecutionException e) {
      List<String> restored = restore(written, before, charset);
      throw new MojoFailureException(
          "lockjaw applied its fixes, but then "
              + project.getArtifactId()
              + " did not compile, so it restored "
              + restored.size()
              + " file(s): "
              + String.join(", ", restored)
              + ". Nothing was changed. What javac"
              + " said:\n"
              + e.getMessage()
              + "\nPlease report this: a lockjaw fix must always compile.");
    }
    report.forEach(line -> getLog().info(line));
    getLog()
        .info(
            "lockjaw: fixed "
                + written.size()
                + " file(s) in "
                + project.getArtifactId()
                + "; the module still compiles."
                + (withoutFix > 0
                    ? " " + withoutFix + " finding(s) have no automatic fix; see lockjaw:check."
                    : ""));
  }

  /** Puts back the files lockjaw wrote, unless someone edited them since. */
  private List<String> restore(
      Map<Path, String> written, Map<Path, String> before, Charset charset) {
    List<String> restored = new ArrayList<>();
    for (Map.Entry<Path, String> entry : written.entrySet()) {
      Path file = entry.getKey();
      try {
        if (!Files.readString(file, charset).equals(entry.getValue())) {
          getLog()
              .warn("lockjaw: " + file + " was edited after lockjaw fixed it; keeping that edit.");
          continue;
        }
        AtomicFiles.write(file, before.get(file), charset);
        restored.add(file.getFileName().toString());
      } catch (IOException e) {
        getLog().error("lockjaw: could not restore " + file + ": " + e.getMessage());
      }
    }
    return restored;
  }
}
