package io.github.lockjaw.corpus;

import io.github.lockjaw.corpus.CorpusCompiler.Mode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Wall time and CPU time of javac on the wide corpus, in four set-ups run alternately (A B C D A B
 * C D ...) per library: plain javac; Error Prone with every check disabled; Error Prone with only
 * the lockjaw checks; Error Prone with its default checks. Prints medians and ratios to plain
 * javac, one table for wall time and one for the compiling thread's CPU time (which other processes
 * and the garbage collector do not inflate), and writes them to target/corpus/benchmark.md. Not
 * part of `mvn verify`: run scripts/benchmark-compile.sh (mvn -Pbenchmark).
 *
 * <p>All runs share one warm JVM (javac in-process, as in a Maven build with an in-process
 * compiler); one warm-up round is run and discarded ({@code -Dlockjaw.benchmark.warmup=N}). {@code
 * -Dlockjaw.benchmark.modes=EP_NO_CHECKS,LOCKJAW} runs only those set-ups (Error Prone's default
 * checks take most of the time), {@code -Dlockjaw.benchmark.libraries=commons-pool2,...} only those
 * wide libraries. The last column is issue 21's measure: Error Prone with only the lockjaw checks
 * over Error Prone with every check off.
 */
@Tag("benchmark")
class CompileBenchmark {

  @Test
  void compileOverhead() throws Exception {
    int rounds = Integer.getInteger("lockjaw.benchmark.rounds", 3);
    int warmup = Integer.getInteger("lockjaw.benchmark.warmup", 1);
    List<Mode> modes = selectedModes();
    List<String> wanted = listProperty("lockjaw.benchmark.libraries");
    Corpus corpus = new Corpus();
    CorpusCompiler compiler = new CorpusCompiler();
    List<Corpus.Prepared> libraries = new ArrayList<>();
    for (Manifest.Library library : corpus.manifest.libraries()) {
      if (library.kind() == Manifest.Kind.WIDE
          && (wanted.isEmpty() || wanted.contains(library.id()))) {
        libraries.add(corpus.prepare(library));
      }
    }
    Map<String, Map<Mode, long[]>> times = perLibrary(libraries, modes, rounds);
    Map<String, Map<Mode, long[]>> cpuTimes = perLibrary(libraries, modes, rounds);
    for (int round = -warmup; round < rounds; round++) {
      for (Corpus.Prepared p : libraries) {
        for (Mode mode : modes) {
          System.gc();
          CorpusCompiler.Result result =
              compiler.compile(
                  p.sources(), p.classpath(), p.library().release(), p.library().encoding(), mode);
          if (!result.crashes().isEmpty()) {
            throw new AssertionError(p.library().id() + " " + mode + ": " + result.crashes());
          }
          if (round >= 0) {
            times.get(p.library().id()).get(mode)[round] = result.nanos();
            cpuTimes.get(p.library().id()).get(mode)[round] = result.cpuNanos();
          }
          System.out.printf(
              "benchmark: round %d %-22s %-18s %6.2f s (CPU %6.2f s)%n",
              round + 1,
              p.library().id(),
              mode.label,
              result.nanos() / 1e9,
              result.cpuNanos() / 1e9);
        }
      }
    }

    String text =
        table(
                String.format(
                    "Median wall time of %d rounds (after %d warm-up), seconds", rounds, warmup),
                libraries,
                modes,
                times)
            + "\n"
            + table(
                "Median CPU time of the compiling thread, the same rounds (javac, Error Prone and"
                    + " the checks run in that one thread; garbage collection and other processes"
                    + " do not count), seconds",
                libraries,
                modes,
                cpuTimes);
    System.out.println(text);
    Files.writeString(corpus.work.resolve("benchmark.md"), text);
  }

  private static Map<String, Map<Mode, long[]>> perLibrary(
      List<Corpus.Prepared> libraries, List<Mode> modes, int rounds) {
    Map<String, Map<Mode, long[]>> times = new LinkedHashMap<>();
    for (Corpus.Prepared p : libraries) {
      Map<Mode, long[]> perMode = new EnumMap<>(Mode.class);
      for (Mode mode : modes) {
        perMode.put(mode, new long[rounds]);
      }
      times.put(p.library().id(), perMode);
    }
    return times;
  }

  /** One table: a row per library and a total, each set-up's median, and lockjaw's own cost. */
  private static String table(
      String caption,
      List<Corpus.Prepared> libraries,
      List<Mode> modes,
      Map<String, Map<Mode, long[]>> times) {
    int rounds = times.values().iterator().next().get(modes.get(0)).length;
    StringBuilder table = new StringBuilder();
    table
        .append(caption)
        .append(modes.contains(Mode.PLAIN) ? "; ratio to plain javac in brackets" : "")
        .append(".\n\n");
    table.append("| library | lines |");
    for (Mode mode : modes) {
      table.append(' ').append(mode.label).append(" |");
    }
    table.append(" lockjaw's own cost | lockjaw / EP, no checks |\n|---|---:|");
    for (int i = 0; i <= modes.size() + 1; i++) {
      table.append("---:|");
    }
    table.append('\n');
    Map<Mode, long[]> totals = new EnumMap<>(Mode.class);
    for (Mode mode : modes) {
      totals.put(mode, new long[rounds]);
    }
    long lines = 0;
    for (Corpus.Prepared p : libraries) {
      Map<Mode, long[]> perMode = times.get(p.library().id());
      for (Mode mode : modes) {
        for (int r = 0; r < rounds; r++) {
          totals.get(mode)[r] += perMode.get(mode)[r];
        }
      }
      lines += p.lines();
      row(table, p.library().id(), p.lines(), perMode);
    }
    row(table, "**total**", lines, totals);
    return table.toString();
  }

  /**
   * Which lockjaw check costs what: Error Prone with no checks, then with each lockjaw check alone,
   * alternating, on a few libraries ({@code -Dlockjaw.benchmark.libraries=guava,...}). Run with
   * -Dtest=CompileBenchmark#perCheckCost.
   */
  @Test
  void perCheckCost() throws Exception {
    int rounds = Integer.getInteger("lockjaw.benchmark.rounds", 3);
    List<String> wanted =
        List.of(
            System.getProperty("lockjaw.benchmark.libraries", "guava,mybatis-3.5,tomcat-embed-core")
                .split(","));
    Corpus corpus = new Corpus();
    CorpusCompiler compiler = new CorpusCompiler();
    List<Corpus.Prepared> libraries = new ArrayList<>();
    for (Manifest.Library library : corpus.manifest.libraries()) {
      if (wanted.contains(library.id())) {
        libraries.add(corpus.prepare(library));
      }
    }
    List<String> setups = new ArrayList<>();
    setups.add("none");
    setups.addAll(CorpusCompiler.LOCKJAW_CHECKS);
    setups.add("all lockjaw");
    Map<String, long[]> times = new LinkedHashMap<>();
    setups.forEach(s -> times.put(s, new long[rounds]));
    for (int round = -1; round < rounds; round++) {
      for (String setup : setups) {
        long total = 0;
        for (Corpus.Prepared p : libraries) {
          List<String> checks =
              switch (setup) {
                case "none" -> List.of();
                case "all lockjaw" -> CorpusCompiler.LOCKJAW_CHECKS;
                default -> List.of(setup);
              };
          System.gc();
          total +=
              compiler
                  .compile(
                      p.sources(),
                      p.classpath(),
                      p.library().release(),
                      p.library().encoding(),
                      Mode.LOCKJAW,
                      checks)
                  .nanos();
        }
        if (round >= 0) {
          times.get(setup)[round] = total;
        }
        System.out.printf("per-check: round %d %-22s %6.2f s%n", round + 1, setup, total / 1e9);
      }
    }
    double none = median(times.get("none"));
    StringBuilder text =
        new StringBuilder("| lockjaw checks enabled | median s | minus none |\n|---|---:|---:|\n");
    for (String setup : setups) {
      double m = median(times.get(setup));
      text.append(String.format("| %s | %.2f | %+.2f |%n", setup, m, m - none));
    }
    System.out.println("per-check on " + wanted + ":\n" + text);
    Files.writeString(corpus.work.resolve("per-check.md"), text.toString());
  }

  private static void row(StringBuilder table, String name, long lines, Map<Mode, long[]> perMode) {
    Double plain = perMode.containsKey(Mode.PLAIN) ? median(perMode.get(Mode.PLAIN)) : null;
    table.append("| ").append(name).append(" | ").append(String.format("%,d", lines)).append(" |");
    for (Mode mode : perMode.keySet()) {
      double m = median(perMode.get(mode));
      table.append(
          plain == null
              ? String.format(" %.2f |", m)
              : String.format(" %.2f (%.2f) |", m, m / plain));
    }
    if (perMode.containsKey(Mode.LOCKJAW) && perMode.containsKey(Mode.EP_NO_CHECKS)) {
      double lockjaw = median(perMode.get(Mode.LOCKJAW));
      double none = median(perMode.get(Mode.EP_NO_CHECKS));
      double own = lockjaw - none;
      table.append(
          plain == null
              ? String.format(" %+.2f s |", own)
              : String.format(" %+.2f s (%+.1f %%) |", own, 100 * own / plain));
      table.append(String.format(" %.2f× |%n", lockjaw / none));
    } else {
      table.append(" — | — |\n");
    }
  }

  /** The set-ups {@code -Dlockjaw.benchmark.modes} names (all four when it is absent). */
  private static List<Mode> selectedModes() {
    List<String> names = listProperty("lockjaw.benchmark.modes");
    if (names.isEmpty()) {
      return List.of(Mode.values());
    }
    List<Mode> modes = new ArrayList<>();
    for (Mode mode : Mode.values()) {
      if (names.contains(mode.name())) {
        modes.add(mode);
      }
    }
    if (modes.size() != names.size()) {
      throw new IllegalArgumentException(
          "-Dlockjaw.benchmark.modes=" + names + ": use " + Arrays.toString(Mode.values()));
    }
    return modes;
  }

  private static List<String> listProperty(String name) {
    String value = System.getProperty(name, "").trim();
    return value.isEmpty() ? List.of() : List.of(value.split("\\s*,\\s*"));
  }

  private static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double m = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    return m / 1e9;
  }
}
