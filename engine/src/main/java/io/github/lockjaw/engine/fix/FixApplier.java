package io.github.lockjaw.engine.fix;

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
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Applies lockjaw's suggested fixes to source files in place, for {@code lockjaw:fix} and the
 * command-line tool's {@code check --fix} alike. Each file is written whole or not at all
 * (atomically); a file edited while lockjaw ran, and a read-only file, are left alone; a file whose
 * fixed version does not compile is restored and named, and the other files keep their fixes; if
 * the sources still do not compile, every file lockjaw wrote is restored.
 */
public final class FixApplier {
  /**
   * Fixes that touch the same text (two hoisted fields at one place, two import changes) wait for
   * the next pass, which analyses the fixed code again; one pass per such fix at most.
   */
  public static final int MAX_ROUNDS = 10;

  /** Analyses the sources as they are on disk now. */
  public interface Analyzer {
    /**
     * The findings (when {@code runChecks}) of one analysis; with {@code runChecks} false, only
     * whether the sources compile. Empty when there is nothing to analyse.
     */
    Analysis analyse(boolean runChecks);
  }

  /**
   * One analysis: its findings, or why it failed ({@code failure}, javac's errors as {@code
   * /path/File.java:12: message} lines, and the caller's own exception to rethrow).
   */
  public record Analysis(Optional<List<Finding>> findings, String failure, Exception cause) {
    public static Analysis of(List<Finding> findings) {
      return new Analysis(Optional.of(findings), null, null);
    }

    public static Analysis nothingToAnalyse() {
      return new Analysis(Optional.empty(), null, null);
    }

    public static Analysis failed(String failure, Exception cause) {
      return new Analysis(Optional.empty(), failure == null ? "" : failure, cause);
    }

    public boolean succeeded() {
      return failure == null;
    }
  }

  /** Where the applier says what it left alone or restored. */
  public interface Log {
    void warn(String message);

    void error(String message);
  }

  /**
   * What was fixed.
   *
   * @param fixed the files written, with their new text
   * @param report per file: {@code fixed path:line [Check]} lines, then its diff, indented
   * @param withoutFix findings that have no automatic fix
   * @param pending fixes postponed past {@link #MAX_ROUNDS} passes
   * @param nothingToAnalyse true when the analyzer had no sources to look at
   */
  public record Result(
      Map<Path, String> fixed,
      Map<Path, List<String>> report,
      int withoutFix,
      int pending,
      boolean nothingToAnalyse) {}

  /** Why fixing failed; every file lockjaw had written is restored. */
  public static final class FixFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** True when lockjaw could not write or read a file (not a problem with the fixes). */
    private final boolean io;

    /** True when the first analysis failed, before any fix: its failure is the message. */
    private final boolean beforeAnyFix;

    FixFailure(String message, boolean io, Throwable cause) {
      this(message, io, cause, false);
    }

    FixFailure(String message, boolean io, Throwable cause, boolean beforeAnyFix) {
      super(message, cause);
      this.io = io;
      this.beforeAnyFix = beforeAnyFix;
    }

    public boolean isIo() {
      return io;
    }

    /** Whether the sources could not be analysed before any fix (nothing was written). */
    public boolean beforeAnyFix() {
      return beforeAnyFix;
    }
  }

  private final Charset charset;
  private final Function<Finding, String> relativePath;
  private final Log log;

  public FixApplier(Charset charset, Function<Finding, String> relativePath, Log log) {
    this.charset = charset;
    this.relativePath = relativePath;
    this.log = log;
  }

  /**
   * Fixes {@code sources}: analyses, applies the fixes of the findings {@code reported} accepts,
   * analyses again while fixes were postponed, then checks that the sources still compile.
   *
   * @param subject what is fixed, for messages (a module's name, "the sources")
   * @throws FixFailure when the first analysis fails (its {@code cause} is the analyzer's), when a
   *     file cannot be written, or when the fixed sources do not compile for a reason no single
   *     file's fix explains
   */
  public Result apply(
      List<Path> sources, Predicate<Finding> reported, Analyzer analyzer, String subject)
      throws FixFailure {
    Map<Path, String> before = new LinkedHashMap<>();
    for (Path file : sources) {
      try {
        before.put(file, Files.readString(file, charset));
      } catch (IOException e) {
        throw new FixFailure(
            "lockjaw cannot read " + file + ": " + IoProblems.describe(e), true, e);
      }
    }
    Map<Path, String> current = new LinkedHashMap<>(before);
    Map<Path, String> written = new LinkedHashMap<>();
    Set<Path> leftAlone = new LinkedHashSet<>(); // read-only, edited meanwhile, or fixes dropped
    Map<Path, List<String>> report = new LinkedHashMap<>(); // what was fixed, per file
    int withoutFix = 0;
    int pending = 0;
    for (int round = 1; round <= MAX_ROUNDS; round++) {
      Analysis analysed = analyzer.analyse(true);
      if (!analysed.succeeded()) {
        if (written.isEmpty()) {
          throw new FixFailure(analysed.failure(), false, analysed.cause(), true);
        }
        // code lockjaw rewrote does not compile: drop the fixes of the files javac names, keep
        // the others
        if (dropFilesNamedIn(analysed.failure(), written, before, current, leftAlone)) {
          round--; // the same pass again, on the code without the dropped fixes
          continue;
        }
        List<String> restored = restore(written, before);
        throw new FixFailure(
            "lockjaw applied fixes, but analysing the fixed "
                + subject
                + " again failed, so it restored "
                + restored.size()
                + " file(s): "
                + String.join(", ", restored)
                + ". Nothing was changed. What went wrong:\n"
                + analysed.failure()
                + "\nPlease report this: a lockjaw fix must always compile.",
            false,
            analysed.cause());
      }
      if (analysed.findings().isEmpty()) {
        return new Result(Map.of(), Map.of(), 0, 0, true);
      }
      Map<Path, List<Finding>> byFile = new LinkedHashMap<>();
      withoutFix = 0;
      for (Finding finding : analysed.findings().get()) {
        if (!reported.test(finding)) {
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
            log.warn(
                "lockjaw: " + file + " changed while lockjaw was working on it; not touching it.");
            leftAlone.add(file);
            continue;
          }
          if (isReadOnly(file)) {
            log.warn(
                "lockjaw: "
                    + relativePath.apply(entry.getValue().get(0))
                    + " is read-only; not fixing its "
                    + entry.getValue().size()
                    + " finding(s). Make it writable (or check it out for editing) and run"
                    + " lockjaw again.");
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
                        + relativePath.apply(finding)
                        + ":"
                        + finding.line()
                        + " ["
                        + finding.check()
                        + "]");
          }
          String fixed = SourceEdits.apply(expected, accepted);
          for (String line :
              SourceEdits.unifiedDiff(
                      relativePath.apply(entry.getValue().get(0)), expected, accepted)
                  .split("\n")) {
            report.computeIfAbsent(file, k -> new ArrayList<>()).add("    " + line);
          }
          AtomicFiles.write(file, fixed, charset);
          current.put(file, fixed);
          written.put(file, fixed);
        }
      } catch (IOException | RuntimeException e) {
        restore(written, before);
        String why =
            e instanceof IOException io ? IoProblems.describe(io) : String.valueOf(e.getMessage());
        throw new FixFailure(
            "lockjaw could not apply its fixes to "
                + file
                + " ("
                + why
                + "); every file it had changed was restored.",
            true,
            e);
      }
      pending = postponed;
      if (postponed == 0 || applied == 0) {
        break;
      }
    }
    if (written.isEmpty()) {
      return new Result(Map.of(), Map.of(), withoutFix, pending, false);
    }

    while (true) {
      Analysis compiled = analyzer.analyse(false);
      if (compiled.succeeded()) {
        break;
      }
      if (dropFilesNamedIn(compiled.failure(), written, before, current, leftAlone)
          && !written.isEmpty()) {
        continue; // check that the sources compile with the remaining fixes
      }
      List<String> restored = restore(written, before);
      throw new FixFailure(
          "lockjaw applied its fixes, but then "
              + subject
              + " did not compile, so it restored "
              + restored.size()
              + " file(s): "
              + String.join(", ", restored)
              + ". Nothing was changed. What javac said:\n"
              + compiled.failure()
              + "\nPlease report this: a lockjaw fix must always compile.",
          false,
          compiled.cause());
    }
    report.keySet().retainAll(written.keySet());
    return new Result(Map.copyOf(written), report, withoutFix, pending, false);
  }

  /**
   * Whether the file's permissions forbid writing it (also when running as root, which may write
   * anyway).
   */
  public static boolean isReadOnly(Path file) throws IOException {
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
      Set<Path> leftAlone) {
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
        log.error("lockjaw: could not restore " + file + ": " + IoProblems.describe(e));
        return false;
      }
      written.remove(file);
      current.put(file, before.get(file));
      leftAlone.add(file);
      dropped = true;
      log.warn(
          "lockjaw: dropped its fixes in "
              + file
              + " and restored the file: the fixed file did not compile ("
              + String.join("; ", lines.subList(0, Math.min(3, lines.size())))
              + "). Please report this: a lockjaw fix must always compile. The fixes in other"
              + " files are kept.");
    }
    return dropped;
  }

  /** javac's error lines ({@code /path/File.java:12: message}) about one file. */
  public static List<String> errorsIn(String errors, Path file) {
    String prefix = file.toString() + ":";
    return errors.lines().map(String::trim).filter(l -> l.startsWith(prefix)).toList();
  }

  /** Puts back the files lockjaw wrote, unless someone edited them since. */
  private List<String> restore(Map<Path, String> written, Map<Path, String> before) {
    List<String> restored = new ArrayList<>();
    for (Map.Entry<Path, String> entry : written.entrySet()) {
      Path file = entry.getKey();
      try {
        if (!Files.readString(file, charset).equals(entry.getValue())) {
          log.warn("lockjaw: " + file + " was edited after lockjaw fixed it; keeping that edit.");
          continue;
        }
        AtomicFiles.write(file, before.get(file), charset);
        restored.add(file.getFileName().toString());
      } catch (IOException e) {
        log.error("lockjaw: could not restore " + file + ": " + IoProblems.describe(e));
      }
    }
    return restored;
  }
}
