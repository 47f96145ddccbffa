package io.github.lockjaw.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.lockjaw.corpus.CorpusCompiler.Finding;
import io.github.lockjaw.corpus.CorpusCompiler.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Compiles every library of the corpus manifest ({@code testdata/corpus/libraries.txt}) with the
 * lockjaw checks and asserts, per library:
 *
 * <ul>
 *   <li>no check crashes, and the sources compile without errors (so every unit was analysed);
 *   <li>recall: each {@code expect} line is flagged by its check at that class and member;
 *   <li>silence: no {@code silent} class draws a finding from its check;
 *   <li>agreement: for a targeted library, the bytecode detectors report the same findings (check,
 *       class, member) in the compiled classes of the library's binary jar as the source checks.
 * </ul>
 *
 * Every finding is written to {@code target/corpus/triage.md} for a person to judge; a finding
 * alone never fails the test.
 */
@Tag("corpus")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CorpusTest {

  /** The wide corpus must stay wide. */
  static final long MINIMUM_WIDE_LINES = 500_000;

  private static Corpus corpus;
  private static final CorpusCompiler COMPILER = new CorpusCompiler();
  private static final List<Report> REPORTS = new ArrayList<>();

  record Report(Corpus.Prepared prepared, CorpusCompiler.Result result) {}

  @BeforeAll
  static void readManifest() throws IOException {
    corpus = new Corpus();
  }

  @TestFactory
  @Order(1)
  Stream<DynamicTest> eachLibrary() {
    return corpus.manifest.libraries().stream()
        .map(
            library ->
                DynamicTest.dynamicTest(
                    library.id() + " (" + library.coordinates() + ")", () -> check(library)));
  }

  private static void check(Manifest.Library library) throws Exception {
    Corpus.Prepared prepared = corpus.prepare(library);
    CorpusCompiler.Result result =
        COMPILER.compile(
            prepared.sources(),
            prepared.classpath(),
            library.release(),
            library.encoding(),
            Mode.LOCKJAW);
    synchronized (REPORTS) {
      REPORTS.add(new Report(prepared, result));
    }
    System.out.printf(
        "corpus: %-22s %5d files %8d lines %6.1f s  %d findings%s%n",
        library.id(),
        prepared.sources().size(),
        prepared.lines(),
        result.nanos() / 1e9,
        result.findings().size(),
        prepared.missing().isEmpty() ? "" : "  (not on Central: " + prepared.missing() + ")");

    if (!result.crashes().isEmpty()) {
      fail(library.id() + ": a check crashed:\n" + String.join("\n", result.crashes()));
    }
    if (!result.errors().isEmpty()) {
      Path log = corpus.work.resolve("errors-" + library.id() + ".txt");
      Files.write(log, result.errors());
      fail(
          library.id()
              + ": javac reported "
              + result.errors().size()
              + " errors, so not every unit was analysed (fix the manifest: classpath/exclude; all in "
              + log
              + "):\n"
              + String.join(
                  "\n", result.errors().subList(0, Math.min(20, result.errors().size()))));
    }
    List<String> problems = new ArrayList<>();
    for (Manifest.Expectation expected : library.expect()) {
      if (!flagged(result, expected)) {
        problems.add("missed: " + expected + "; findings were " + describe(result.findings()));
      }
    }
    for (Manifest.Expectation gap : library.gaps()) {
      if (flagged(result, gap)) {
        problems.add("a known gap is now flagged: turn 'gap' into 'expect' for " + gap);
      } else {
        System.out.println("corpus: known gap (not flagged yet): " + gap);
      }
    }
    for (Manifest.Silence silence : library.silent()) {
      for (Finding f : result.findings()) {
        boolean check = silence.check().equals("*") || silence.check().equals(f.check());
        boolean inClass =
            f.className().equals(silence.className())
                || f.className().startsWith(silence.className() + "$");
        if (check && inClass) {
          problems.add("not silent: " + silence + ", but " + describe(List.of(f)));
        }
      }
    }
    if (library.kind() == Manifest.Kind.TARGETED) {
      // the same classes through the bytecode detectors, from the library's own jar
      EngineAgreement.Result engines = EngineAgreement.compare(prepared, result.findings());
      System.out.printf(
          "corpus: %-22s source %s, bytecode %s%n",
          library.id(), engines.source(), engines.bytecode());
      // a known gap of the bytecode detectors (source-only lines): reported, not failed, until
      // the detectors find it too, when the line must go
      Set<String> knownSourceOnly = new TreeSet<>();
      for (Manifest.Expectation e : library.sourceOnly()) {
        knownSourceOnly.add(e.check() + " " + e.className() + "#" + e.member());
      }
      Set<String> sourceOnly = new TreeSet<>(engines.sourceOnly());
      for (String known : knownSourceOnly) {
        if (engines.bytecode().contains(known)) {
          problems.add("the bytecode detectors now flag " + known + ": drop its source-only line");
        } else if (!engines.source().contains(known)) {
          problems.add("source-only " + known + " is not flagged by the source checks either");
        }
      }
      sourceOnly.removeAll(knownSourceOnly);
      // a known gap of the source checks (bytecode-only lines): reported, not failed, until the
      // source checks find it too, when the line must become an expect
      Set<String> knownBytecodeOnly = new TreeSet<>();
      for (Manifest.Expectation e : library.bytecodeOnly()) {
        knownBytecodeOnly.add(e.check() + " " + e.className() + "#" + e.member());
      }
      Set<String> bytecodeOnly = new TreeSet<>(engines.bytecodeOnly());
      for (String known : knownBytecodeOnly) {
        if (engines.source().contains(known)) {
          problems.add(
              "the source checks now flag " + known + ": turn its bytecode-only line into expect");
        } else if (!engines.bytecode().contains(known)) {
          problems.add(
              "bytecode-only " + known + " is not flagged by the bytecode detectors either");
        } else {
          System.out.println("corpus: known source gap (bytecode only): " + known);
        }
      }
      bytecodeOnly.removeAll(knownBytecodeOnly);
      if (!sourceOnly.isEmpty() || !bytecodeOnly.isEmpty()) {
        problems.add(
            "the engines disagree on the same classes: only the source checks flag "
                + sourceOnly
                + "; only the bytecode detectors flag "
                + bytecodeOnly);
      }
    }
    if (!problems.isEmpty()) {
      fail(library.id() + ":\n  " + String.join("\n  ", problems));
    }
  }

  private static boolean flagged(CorpusCompiler.Result result, Manifest.Expectation expected) {
    return result.findings().stream()
        .anyMatch(
            f ->
                f.check().equals(expected.check())
                    && f.className().equals(expected.className())
                    && f.member().equals(expected.member()));
  }

  private static String describe(List<Finding> findings) {
    if (findings.isEmpty()) {
      return "none";
    }
    StringBuilder text = new StringBuilder();
    for (Finding f : findings) {
      text.append("\n    ")
          .append(f.check())
          .append(" at ")
          .append(f.className())
          .append('#')
          .append(f.member())
          .append(" (")
          .append(Path.of(f.file()).getFileName())
          .append(':')
          .append(f.line())
          .append(") ")
          .append(f.message());
    }
    return text.toString();
  }

  @Test
  @Order(2)
  void wideCorpusIsWide() {
    long lines = 0;
    synchronized (REPORTS) {
      for (Report report : REPORTS) {
        if (report.prepared().library().kind() == Manifest.Kind.WIDE) {
          lines += report.prepared().lines();
        }
      }
    }
    System.out.printf("corpus: wide corpus compiled: %,d lines%n", lines);
    assertTrue(
        lines >= MINIMUM_WIDE_LINES,
        "the wide corpus compiled "
            + lines
            + " lines; it must have at least "
            + MINIMUM_WIDE_LINES);
  }

  /** target/corpus/triage.md: every finding, with its location and line, for a person to judge. */
  @AfterAll
  static void writeTriageReport() throws IOException {
    if (corpus == null) {
      return;
    }
    StringBuilder md = new StringBuilder();
    StringBuilder tsv =
        new StringBuilder("library\tcheck\tclass\tmember\tfile\tline\tsnippet\tmessage\n");
    Map<String, Integer> perCheck = new TreeMap<>();
    int total = 0;
    long seconds = 0;
    md.append("# lockjaw corpus triage\n\n")
        .append(
            "Every finding of the lockjaw checks on the corpus of testdata/corpus/libraries.txt.\n")
        .append(
            "Judge each: true (the anti-pattern, on a path that runs under load), or false (say why).\n\n");
    md.append("| library | files | lines | findings | seconds |\n|---|---:|---:|---:|---:|\n");
    synchronized (REPORTS) {
      for (Report report : REPORTS) {
        md.append("| ")
            .append(report.prepared().library().id())
            .append(" | ")
            .append(report.prepared().sources().size())
            .append(" | ")
            .append(report.prepared().lines())
            .append(" | ")
            .append(report.result().findings().size())
            .append(" | ")
            .append(String.format("%.1f", report.result().nanos() / 1e9))
            .append(" |\n");
        seconds += report.result().nanos() / 1_000_000_000L;
      }
      md.append("\n");
      for (Report report : REPORTS) {
        Path root = corpus.work.resolve("src").resolve(report.prepared().library().id());
        for (Finding f : report.result().findings()) {
          total++;
          perCheck.merge(f.check(), 1, Integer::sum);
          String file = relative(root, f.file());
          md.append("## ")
              .append(f.check())
              .append(" — ")
              .append(report.prepared().library().id())
              .append(" `")
              .append(f.className())
              .append('#')
              .append(f.member())
              .append("`\n\n")
              .append(file)
              .append(':')
              .append(f.line())
              .append("\n\n")
              .append("```java\n")
              .append(f.snippet())
              .append("\n```\n\n")
              .append("> ")
              .append(f.message().replace("\n", " "))
              .append("\n\n");
          tsv.append(report.prepared().library().id())
              .append('\t')
              .append(f.check())
              .append('\t')
              .append(f.className())
              .append('\t')
              .append(f.member())
              .append('\t')
              .append(file)
              .append('\t')
              .append(f.line())
              .append('\t')
              .append(f.snippet().replace('\t', ' '))
              .append('\t')
              .append(f.message().replace('\t', ' ').replace('\n', ' '))
              .append('\n');
        }
      }
    }
    md.append("Total: ").append(total).append(" findings ").append(perCheck).append("\n");
    Files.writeString(corpus.work.resolve("triage.md"), md);
    Files.writeString(corpus.work.resolve("findings.tsv"), tsv);
    synchronized (REPORTS) {
      Files.writeString(corpus.work.resolve("fix-coverage.md"), FixCoverage.markdown(REPORTS));
      System.out.println(
          "corpus: findings with a fix, by check: "
              + FixCoverage.summary(REPORTS)
              + "; reasons: "
              + corpus.work.resolve("fix-coverage.md"));
    }
    System.out.println(
        "corpus: "
            + total
            + " findings "
            + perCheck
            + " in ~"
            + seconds
            + " s of javac; triage report: "
            + corpus.work.resolve("triage.md"));
  }

  private static String relative(Path root, String file) {
    try {
      return root.relativize(Path.of(file)).toString();
    } catch (IllegalArgumentException e) {
      return file;
    }
  }
}
