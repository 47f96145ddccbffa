package io.github.lockjaw.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.engine.analyzer.SourceTreeAnalysis;
import io.github.lockjaw.engine.baseline.Baseline;
import io.github.lockjaw.engine.docs.CheckPages;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Rule;
import io.github.lockjaw.engine.fix.FixApplier;
import io.github.lockjaw.engine.io.IoProblems;
import io.github.lockjaw.engine.io.Json;
import io.github.lockjaw.engine.report.ConsoleReporter;
import io.github.lockjaw.engine.report.FindingsReport;
import io.github.lockjaw.engine.report.HtmlReporter;
import io.github.lockjaw.engine.report.MarkdownReporter;
import io.github.lockjaw.engine.report.SarifReporter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * {@code check PATH...}: lockjaw's source checks over Java files without a build (Ant-era and
 * hand-built projects, Gradle without the Error Prone plugin), with the engine {@code
 * lockjaw:check} uses: the same analysis, findings, baseline, reporters, and {@code lockjaw:fix}'s
 * way of applying fixes. Classes missing from the class path are named once and never fail the run.
 */
final class CheckCommand {
  private final PrintStream progress;
  private final SourceTreeAnalysis analysis = new SourceTreeAnalysis();

  CheckCommand(PrintStream progress) {
    this.progress = progress;
  }

  Main.Report run(Options options) throws CliException, IOException {
    CheckOptions check = options.check();
    List<Path> sources = CheckInputs.sources(options.paths());
    List<String> classpath = CheckInputs.classpath(check.classpath(), progress);
    List<String> javacOptions =
        check.release() == null ? List.of() : List.of("--release", check.release());
    Charset charset = check.encoding() == null ? UTF_8 : check.encoding();
    Path root = root();
    Function<Finding, String> relativePath = f -> display(root, Path.of(f.file()));
    Baseline baseline = readBaseline(check);
    progress.println(
        "lockjaw: checking "
            + sources.size()
            + " Java file(s)"
            + (classpath.isEmpty() ? "" : " against " + classpath.size() + " class path entries")
            + (check.release() == null ? "" : " at Java release " + check.release())
            + "...");

    List<String> fixReport = new ArrayList<>();
    if (check.fix()) {
      fixReport = fix(sources, classpath, javacOptions, charset, relativePath);
    }
    SourceTreeAnalysis.Result result =
        analysis.analyse(sources, classpath, javacOptions, charset, List.of(), true);
    if (!result.missing().isEmpty()) {
      progress.println(analysedWithout(result.missing()));
    }
    if (!result.compiles()) {
      throw new CliException(Main.INPUT_ERROR, doesNotCompile(result, check));
    }
    result.unanalysed().forEach(u -> progress.println("lockjaw: could not analyse " + u));
    List<Finding> findings = result.findings();
    Map<Finding, String> fingerprints = Fingerprint.all(findings, relativePath);
    Predicate<Finding> baselined = f -> baseline.contains(fingerprints.get(f));

    if (check.writeBaseline()) {
      return writeBaseline(check.baseline(), findings, fingerprints, relativePath);
    }

    List<String> ruleIds = result.rules().stream().map(Rule::id).toList();
    CheckPages pages = pages(options.output(), ruleIds);
    long fresh = findings.stream().filter(baselined.negate()).count();
    String summary =
        findings.size()
            + (findings.size() == 1 ? " finding" : " findings")
            + " in "
            + sources.size()
            + " Java file(s)"
            + (findings.size() == fresh ? "" : " (" + fresh + " new)");
    String text =
        switch (options.format()) {
          case "sarif" ->
              Json.GSON.toJson(
                      new SarifReporter(AuditCommand.version(), root, pages)
                          .build(result.rules(), findings, relativePath, fingerprints, baselined))
                  + "\n";
          case "markdown", "html" -> {
            Path base =
                options.output() == null
                    ? Path.of("").toAbsolutePath()
                    : options.output().toAbsolutePath().getParent();
            FindingsReport report =
                new FindingsReport(
                    "lockjaw check",
                    result.rules(),
                    findings,
                    relativePath,
                    baselined,
                    charset,
                    c -> pages.page(c).map(p -> link(base, p)).orElse(null),
                    Map.of(),
                    result.missing().isEmpty()
                        ? List.of()
                        : List.of(
                            analysedWithout(result.missing()).substring("lockjaw: ".length())));
            yield options.format().equals("html")
                ? HtmlReporter.page(report)
                : MarkdownReporter.render(report);
          }
          default -> {
            List<String> lines = new ArrayList<>(fixReport);
            lines.addAll(
                new ConsoleReporter(
                        relativePath,
                        baselined,
                        charset,
                        f ->
                            pages
                                .page(f.check())
                                .map(p -> display(Path.of("").toAbsolutePath(), p))
                                .orElse(f.helpUri()))
                    .render(findings));
            lines.add("lockjaw check: " + summary + ".");
            yield String.join("\n", lines) + "\n";
          }
        };
    return new Main.Report(text, summary, fresh > 0 ? Main.FINDINGS : Main.OK);
  }

  /** Applies the fixes; the lines that say what was fixed. */
  private List<String> fix(
      List<Path> sources,
      List<String> classpath,
      List<String> javacOptions,
      Charset charset,
      Function<Finding, String> relativePath)
      throws CliException {
    FixApplier applier =
        new FixApplier(
            charset,
            relativePath,
            new FixApplier.Log() {
              @Override
              public void warn(String message) {
                progress.println(message);
              }

              @Override
              public void error(String message) {
                progress.println(message);
              }
            });
    FixApplier.Analyzer analyzer =
        runChecks -> {
          try {
            SourceTreeAnalysis.Result r =
                analysis.analyse(sources, classpath, javacOptions, charset, List.of(), runChecks);
            return r.compiles()
                ? FixApplier.Analysis.of(r.findings())
                : FixApplier.Analysis.failed(String.join("\n", r.errors()), null);
          } catch (IOException e) {
            return FixApplier.Analysis.failed(IoProblems.describe(e), e);
          }
        };
    FixApplier.Result fixed;
    try {
      fixed = applier.apply(sources, f -> true, analyzer, "the sources");
    } catch (FixApplier.FixFailure e) {
      if (e.beforeAnyFix() && !(e.getCause() instanceof IOException)) {
        // the first analysis: the sources themselves do not compile; the analysis below says so
        return List.of();
      }
      throw new CliException(e.isIo() ? Main.INPUT_ERROR : Main.FAILURE, e.getMessage());
    }
    List<String> lines = new ArrayList<>();
    fixed.report().values().forEach(lines::addAll);
    lines.add(
        "lockjaw: fixed "
            + fixed.fixed().size()
            + " file(s); the sources still compile."
            + (fixed.pending() > 0
                ? " "
                    + fixed.pending()
                    + " fix(es) are still pending (they change code other fixes changed);"
                    + " run check --fix again to apply them."
                : ""));
    progress.println(lines.get(lines.size() - 1));
    return lines;
  }

  private static String analysedWithout(Set<String> missing) {
    return "lockjaw: analysed without: "
        + String.join(", ", missing)
        + " (not on the class path; add their jars with --classpath to analyse the code that uses"
        + " them too).";
  }

  private static String doesNotCompile(SourceTreeAnalysis.Result result, CheckOptions check) {
    return "lockjaw cannot analyse these sources: they do not compile"
        + (check.release() == null
            ? " at the running Java's release (" + Runtime.version().feature() + ")"
            : " at --release " + check.release())
        + ", and not only for want of classes. javac's first errors:\n  "
        + String.join("\n  ", result.errors())
        + "\nFix these errors, or give the release the code is written for with --release N"
        + " (and its library jars with --classpath); lockjaw analyses only code that compiles.";
  }

  private Baseline readBaseline(CheckOptions check) throws CliException {
    if (check.baseline() == null || check.writeBaseline()) {
      return Baseline.empty();
    }
    if (!Files.exists(check.baseline())) {
      throw new CliException(
          Main.INPUT_ERROR,
          "--baseline names "
              + check.baseline()
              + ", which does not exist. Correct the path, or create it with the same command and"
              + " --write-baseline.");
    }
    try {
      return Baseline.read(check.baseline());
    } catch (Baseline.BaselineException e) {
      throw new CliException(Main.INPUT_ERROR, e.getMessage());
    }
  }

  private Main.Report writeBaseline(
      Path file,
      List<Finding> findings,
      Map<Finding, String> fingerprints,
      Function<Finding, String> relativePath)
      throws CliException {
    List<Baseline.Entry> entries = new ArrayList<>();
    for (Finding f : findings) {
      entries.add(
          new Baseline.Entry(
              fingerprints.get(f),
              f.check(),
              relativePath.apply(f),
              f.enclosingClass(),
              f.member(),
              f.line()));
    }
    String summary = "wrote " + entries.size() + " finding(s) to the baseline " + file;
    if (entries.isEmpty() && !Files.exists(file)) {
      return new Main.Report(
          "lockjaw: no findings; no baseline written.\n", "no findings, no baseline", Main.OK);
    }
    try {
      Baseline.write(file, entries);
    } catch (IOException e) {
      throw new CliException(
          Main.INPUT_ERROR,
          "lockjaw cannot write the baseline " + file + ": " + IoProblems.describe(e) + ".");
    }
    return new Main.Report(
        "lockjaw: " + summary + "; check --baseline " + file + " now reports only new ones.\n",
        summary,
        Main.OK);
  }

  /**
   * The checks' pages: next to the report when it goes to a file ({@code lockjaw-docs/}), else in
   * the temporary directory.
   */
  private CheckPages pages(Path output, List<String> checks) {
    if (output == null) {
      return CheckPages.inTemporaryDirectory(checks, AuditCommand.version());
    }
    Path dir = output.toAbsolutePath().getParent().resolve("lockjaw-docs");
    try {
      return CheckPages.writeTo(dir, checks);
    } catch (IOException e) {
      progress.println(
          "lockjaw: cannot write the checks' pages to " + dir + ": " + IoProblems.describe(e));
      return CheckPages.none();
    }
  }

  /** The directory findings' paths are relative to: the repository's root, else this one. */
  static Path root() {
    Path here = Path.of("").toAbsolutePath();
    for (Path dir = here; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return here;
  }

  /** A path relative to {@code base} when it is under it, else absolute. */
  static String display(Path base, Path path) {
    Path file = path.toAbsolutePath().normalize();
    return file.startsWith(base)
        ? base.relativize(file).toString().replace('\\', '/')
        : file.toString();
  }

  /** A link from a report in {@code base} to a page: relative when under it, else a file: URI. */
  private static String link(Path base, Path page) {
    Path file = page.toAbsolutePath().normalize();
    return file.startsWith(base)
        ? base.relativize(file).toString().replace('\\', '/')
        : file.toUri().toString();
  }
}
