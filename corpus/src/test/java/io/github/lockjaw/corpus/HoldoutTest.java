package io.github.lockjaw.corpus;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The holdout evaluation set of issue 21 ({@code testdata/evaluation/holdout.txt}, same format as
 * the corpus manifest): real instances ({@code expect}) and look-alikes or fixed successors ({@code
 * silent}) in libraries nobody tuned lockjaw on, each decided by reading the source.
 *
 * <p>Not part of {@code mvn verify}: it runs only with {@code -Dlockjaw.holdout} (the {@code
 * holdout} profile of this module). It fails when a listed file does not compile cleanly against
 * its library's jar (a file with javac errors is a file Error Prone never analysed) or when a check
 * crashes; a miss or a false alarm never fails it, it is measured. The console gets the totals only
 * (found by each engine, negatives silent in each engine), so that someone running it while the
 * model is being built does not learn the classes; the row-by-row outcome goes to {@code
 * target/holdout/results.tsv} and every finding of both engines to {@code
 * target/holdout/findings.tsv}, to be read once the model is done.
 */
@Tag("holdout")
class HoldoutTest {

  private static final CorpusCompiler COMPILER = new CorpusCompiler();

  /** One expect or silent line and what each engine did with it. */
  record Outcome(
      String library, String kind, String check, String target, boolean source, boolean bytecode) {}

  @Test
  void holdout() throws Exception {
    Corpus corpus = new Corpus();
    List<Outcome> outcomes = new ArrayList<>();
    List<String> broken = new ArrayList<>();
    List<CorpusTest.Report> reports = new ArrayList<>();
    StringBuilder findings =
        new StringBuilder("library\tengine\tcheck\tclass#member\tline\tmessage\n");
    for (Manifest.Library library : corpus.manifest.libraries()) {
      Corpus.Prepared prepared = corpus.prepare(library);
      CorpusCompiler.Result result =
          COMPILER.compile(
              prepared.sources(),
              prepared.classpath(),
              library.release(),
              library.encoding(),
              Mode.LOCKJAW);
      if (!result.crashes().isEmpty()) {
        broken.add(library.id() + ": a check crashed: " + result.crashes().get(0));
        continue;
      }
      if (!result.errors().isEmpty()) {
        Path log = corpus.work.resolve("errors-" + library.id() + ".txt");
        Files.write(log, result.errors());
        broken.add(
            library.id()
                + ": javac reported "
                + result.errors().size()
                + " errors (all in "
                + log
                + "), first: "
                + result.errors().get(0));
        continue;
      }
      reports.add(new CorpusTest.Report(prepared, result));
      Set<String> bytecode = EngineAgreement.compare(prepared, result.findings()).bytecode();
      for (Finding f : result.findings()) {
        findings.append(
            String.format(
                "%s\tsource\t%s\t%s#%s\t%d\t%s%n",
                library.id(),
                f.check(),
                f.className(),
                f.member(),
                f.line(),
                f.message().replaceAll("\\s+", " ")));
      }
      for (String f : bytecode) {
        findings.append(library.id()).append("\tbytecode\t").append(f.replace(' ', '\t'));
        findings.append("\t\n");
      }
      for (Manifest.Expectation e : library.expect()) {
        String key = e.check() + " " + e.className() + "#" + e.member();
        boolean source =
            result.findings().stream()
                .anyMatch(
                    f ->
                        f.check().equals(e.check())
                            && f.className().equals(e.className())
                            && f.member().equals(e.member()));
        outcomes.add(
            new Outcome(
                library.id(),
                "real",
                e.check(),
                e.className() + "#" + e.member(),
                source,
                bytecode.contains(key)));
      }
      for (Manifest.Silence s : library.silent()) {
        boolean sourceQuiet = true;
        for (Finding f : result.findings()) {
          if (matches(s, f.check(), f.className())) {
            sourceQuiet = false;
          }
        }
        boolean bytecodeQuiet = true;
        for (String finding : bytecode) {
          String check = finding.substring(0, finding.indexOf(' '));
          String className = finding.substring(finding.indexOf(' ') + 1, finding.indexOf('#'));
          if (matches(s, check, className)) {
            bytecodeQuiet = false;
          }
        }
        outcomes.add(
            new Outcome(
                library.id(), "negative", s.check(), s.className(), sourceQuiet, bytecodeQuiet));
      }
    }
    Files.writeString(corpus.work.resolve("findings.tsv"), findings);
    // which true findings come with a fix, on code no fix was tuned on
    Files.writeString(
        corpus.work.resolve("fix-coverage.md"),
        FixCoverage.markdown("the " + corpus.work.getFileName() + " set", reports));
    report(corpus.work, outcomes);
    if (!broken.isEmpty()) {
      fail(
          "the holdout set must compile cleanly; fix testdata/evaluation/holdout.txt:\n  "
              + String.join("\n  ", broken));
    }
  }

  private static boolean matches(Manifest.Silence silence, String check, String className) {
    return (silence.check().equals("*") || silence.check().equals(check))
        && (className.equals(silence.className())
            || className.startsWith(silence.className() + "$"));
  }

  /** Totals on the console; every row in target/holdout/results.tsv. */
  private static void report(Path work, List<Outcome> outcomes) throws IOException {
    int real = 0;
    int realSource = 0;
    int realBytecode = 0;
    int realEither = 0;
    int negative = 0;
    int quietSource = 0;
    int quietBytecode = 0;
    Map<String, int[]> perCheck = new TreeMap<>();
    StringBuilder tsv = new StringBuilder("library\tkind\tcheck\ttarget\tsource\tbytecode\n");
    for (Outcome o : outcomes) {
      tsv.append(o.library())
          .append('\t')
          .append(o.kind())
          .append('\t')
          .append(o.check())
          .append('\t')
          .append(o.target())
          .append('\t')
          .append(o.kind().equals("real") ? found(o.source()) : quiet(o.source()))
          .append('\t')
          .append(o.kind().equals("real") ? found(o.bytecode()) : quiet(o.bytecode()))
          .append('\n');
      int[] counts = perCheck.computeIfAbsent(o.check(), k -> new int[6]);
      if (o.kind().equals("real")) {
        real++;
        realSource += o.source() ? 1 : 0;
        realBytecode += o.bytecode() ? 1 : 0;
        realEither += o.source() || o.bytecode() ? 1 : 0;
        counts[0]++;
        counts[1] += o.source() ? 1 : 0;
        counts[2] += o.bytecode() ? 1 : 0;
      } else {
        negative++;
        quietSource += o.source() ? 1 : 0;
        quietBytecode += o.bytecode() ? 1 : 0;
        counts[3]++;
        counts[4] += o.source() ? 1 : 0;
        counts[5] += o.bytecode() ? 1 : 0;
      }
    }
    tsv.append("\n# per check: real, found by source, found by bytecode, negatives, silent in")
        .append(" source, silent in bytecode\n");
    for (Map.Entry<String, int[]> e : perCheck.entrySet()) {
      int[] c = e.getValue();
      tsv.append("# ")
          .append(e.getKey())
          .append(String.format(" %d %d %d %d %d %d%n", c[0], c[1], c[2], c[3], c[4], c[5]));
    }
    Path results = work.resolve("results.tsv");
    Files.writeString(results, tsv);
    Set<String> libraries = new TreeSet<>();
    outcomes.forEach(o -> libraries.add(o.library()));
    System.out.printf(
        "holdout: %d releases, %d real instances, %d negatives%n",
        libraries.size(), real, negative);
    System.out.printf(
        "holdout: real instances found: source checks %d of %d, bytecode detectors %d of %d,"
            + " either %d of %d%n",
        realSource, real, realBytecode, real, realEither, real);
    System.out.printf(
        "holdout: negatives silent: source checks %d of %d, bytecode detectors %d of %d%n",
        quietSource, negative, quietBytecode, negative);
    System.out.println(
        "holdout: row by row in " + results + " (read it only once the model is done)");
  }

  private static String found(boolean yes) {
    return yes ? "found" : "missed";
  }

  private static String quiet(boolean yes) {
    return yes ? "silent" : "FLAGGED";
  }
}
