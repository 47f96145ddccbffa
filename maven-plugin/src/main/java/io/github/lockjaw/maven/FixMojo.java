package io.github.lockjaw.maven;

import io.github.lockjaw.engine.analyzer.AnalysisResult;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.SourceEdits;
import io.github.lockjaw.engine.io.AtomicFiles;
import io.github.lockjaw.engine.io.IoProblems;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Applies lockjaw's suggested fixes to the module's sources in place. Each file is written whole or
 * not at all; a file edited while lockjaw ran, and a read-only file, are left alone; a file whose
 * fixed version does not compile is restored and named, and the other files keep their fixes; if
 * the module still does not compile, every file lockjaw wrote is restored.
 */
@Mojo(name = "fix", requiresDependencyCollection = ResolutionScope.TEST, threadSafe = true)
public class FixMojo extends AbstractLockjawMojo {
  /**
   * Fixes that touch the same text (two hoisted fields at one place, two import changes) wait for
   * the next pass, which analyses the fixed code again; one pass per such fix at most.
   */
  static final int MAX_ROUNDS = 10;

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
        throw new MojoExecutionException(
            "lockjaw cannot read " + file + ": " + IoProblems.describe(e), e);
      }
    }
    Map<Path, String> current = new LinkedHashMap<>(before);
    Map<Path, String> written = new LinkedHashMap<>();
    Set<Path> leftAlone = new LinkedHashSet<>(); // read-only, edited meanwhile, or fixes dropped
    Map<Path, List<String>> report = new LinkedHashMap<>(); // what was fixed, per file
    int withoutFix = 0;
    int pending = 0;
    for (int round = 1; round <= MAX_ROUNDS; round++) {
      Optional<AnalysisResult> analysed;
      try {
        analysed = analyse(true);
      } catch (MojoFailureException | MojoExecutionException e) {
        if (written.isEmpty()) {
          throw e;
        }
        // code lockjaw rewrote does not compile: drop the fixes of the files javac names, keep the
        // others
        if (dropFilesNamedIn(e.getMessage(), written, before, current, leftAlone, charset)) {
          round--; // the same pass again, on the code without the dropped fixes
          continue;
        }
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
      int applied = 0;
      Path file = null;
      try {
        for (Map.Entry<Path, List<Finding>> entry : byFile.entrySet()) {
          file = entry.getKey();
          if (leftAlone.contains(file)) {
            continue;
          }
          String expected = current.get(file);
          if (expected == null || !expected.equals(Files.readString(file, charset))) {
            getLog()
                .warn(
                    "lockjaw: "
                        + file
                        + " changed while lockjaw was working on it; not touching it.");
            leftAlone.add(file);
            continue;
          }
          if (isReadOnly(file)) {
            getLog()
                .warn(
                    "lockjaw: "
                        + relativePath(entry.getValue().get(0))
                        + " is read-only; not fixing its "
                        + entry.getValue().size()
                        + " finding(s). Make it writable (or check it out for editing) and run"
                        + " lockjaw:fix again.");
            leftAlone.add(file);
            continue;
          }
          List<Edit> accepted = new ArrayList<>();
          for (Finding finding : entry.getValue()) {
            if (finding.fix().stream().anyMatch(e -> accepted.stream().anyMatch(e::overlaps))) {
              postponed++;
              continue;
            }
            accepted.addAll(finding.fix());
            applied++;
            report
                .computeIfAbsent(file, k -> new ArrayList<>())
                .add(
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
            report.computeIfAbsent(file, k -> new ArrayList<>()).add("    " + line);
          }
          AtomicFiles.write(file, fixed, charset);
          current.put(file, fixed);
          written.put(file, fixed);
        }
      } catch (IOException | RuntimeException e) {
        restore(written, before, charset);
        String why =
            e instanceof IOException io ? IoProblems.describe(io) : String.valueOf(e.getMessage());
        throw new MojoExecutionException(
            "lockjaw could not apply its fixes to "
                + file
                + " ("
                + why
                + "); every file it"
                + " had changed was restored.",
            e);
      }
      pending = postponed;
      if (postponed == 0 || applied == 0) {
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

    while (true) {
      try {
        analyse(false);
        break;
      } catch (MojoFailureException | MojoExecutionException e) {
        if (dropFilesNamedIn(e.getMessage(), written, before, current, leftAlone, charset)
            && !written.isEmpty()) {
          continue; // check that the module compiles with the remaining fixes
        }
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
    }
    report.keySet().retainAll(written.keySet());
    report.values().forEach(lines -> lines.forEach(line -> getLog().info(line)));
    getLog()
        .info(
            "lockjaw: fixed "
                + written.size()
                + " file(s) in "
                + project.getArtifactId()
                + "; the module still compiles."
                + (withoutFix > 0
                    ? " " + withoutFix + " finding(s) have no automatic fix; see lockjaw:check."
                    : "")
                + (pending > 0
                    ? " "
                        + pending
                        + " fix(es) are still pending after "
                        + MAX_ROUNDS
                        + " passes (they change code"
                        + " that other fixes changed); run lockjaw:fix again to apply them."
                    : ""));
  }

  /**
   * Whether the file's permissions forbid writing it (also when running as root, which may write
   * anyway).
   */
  static boolean isReadOnly(Path file) throws IOException {
    if (!Files.isWritable(file)) {
      return true;
    }
    PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
    if (posix != null) {
      Set<PosixFilePermission> permissions = posix.readAttributes().permissions();
      return !permissions.contains(PosixFilePermission.OWNER_WRITE);
    }
    Object dosReadOnly;
    try {
      dosReadOnly = Files.getAttribute(file, "dos:readonly");
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
    return Boolean.TRUE.equals(dosReadOnly);
  }

  /**
   * Restores the written files that javac's errors name, so the other files keep their fixes; false
   * when the errors name none of them (the failure is not one file's fix).
   */
  private boolean dropFilesNamedIn(
      String errors,
      Map<Path, String> written,
      Map<Path, String> before,
      Map<Path, String> current,
      Set<Path> leftAlone,
      Charset charset) {
    if (errors == null) {
      return false;
    }
    boolean dropped = false;
    for (Path file : new ArrayList<>(written.keySet())) {
      List<String> lines = errorsIn(errors, file);
      if (lines.isEmpty()) {
        continue;
      }
      try {
        if (!Files.readString(file, charset).equals(written.get(file))) {
          return false; // edited by someone else: do not guess
        }
        AtomicFiles.write(file, before.get(file), charset);
      } catch (IOException e) {
        getLog().error("lockjaw: could not restore " + file + ": " + IoProblems.describe(e));
        return false;
      }
      written.remove(file);
      current.put(file, before.get(file));
      leftAlone.add(file);
      dropped = true;
      getLog()
          .warn(
              "lockjaw: dropped its fixes in "
                  + file
                  + " and restored the file: the fixed file did not compile ("
                  + String.join("; ", lines.subList(0, Math.min(3, lines.size())))
                  + "). Please report this: a lockjaw fix must"
                  + " always compile. The fixes in other files are kept.");
    }
    return dropped;
  }

  /** javac's error lines ({@code /path/File.java:12: message}) about one file. */
  static List<String> errorsIn(String errors, Path file) {
    String prefix = file.toString() + ":";
    return errors.lines().map(String::trim).filter(l -> l.startsWith(prefix)).toList();
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
        getLog().error("lockjaw: could not restore " + file + ": " + IoProblems.describe(e));
      }
    }
    return restored;
  }
}
