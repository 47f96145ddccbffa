package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * This run against an earlier one (the baseline), site by site, with both figures normalised so
 * runs of different lengths compare: blocked milliseconds per second of recording (JFR), or waiting
 * threads per dump (thread dumps). A site is the same in both runs when its kind, class and method
 * are (lines move when a fix changes the file, and the lock may change with the fix). Each site is
 * marked new, worse, better, gone or unchanged; a change counts only when it is at least double (or
 * half) and at least {@link Measure#floor()} in absolute terms, so noise stays unchanged, and a
 * site is worse only when the monitor it waits for is waited on more in all.
 *
 * @param measure what both runs are measured in
 * @param entries one per site of either run: this run's by rank, then the gone ones
 */
public record ContentionComparison(Measure measure, List<Entry> entries) {
  /**
   * The factor a site must grow or shrink by to be worse or better: a load test's blocked time
   * varies by half between two runs of the same code (a monitor is not fair), so only a doubling or
   * a halving counts.
   */
  static final double FACTOR = 2.0;

  /** What a run's sites are measured in. */
  public enum Measure {
    /** Blocked milliseconds per second of recording. */
    JFR("ms/s", 50.0),
    /** Waiting threads per dump. */
    DUMPS("threads/dump", 0.5);

    private final String unit;
    private final double floor;

    Measure(String unit, double floor) {
      this.unit = unit;
      this.floor = floor;
    }

    public String unit() {
      return unit;
    }

    /**
     * The smallest change that counts: 50 ms/s (5 % of one thread's time), half a waiting thread
     * per dump.
     */
    public double floor() {
      return floor;
    }
  }

  /** How a site changed since the baseline. */
  public enum Mark {
    NEW,
    WORSE,
    BETTER,
    GONE,
    UNCHANGED;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One site in either run.
   *
   * @param row this run's row, null when the site is gone
   * @param baselineRow the baseline's row, null when the site is new
   */
  public record Entry(
      Mark mark,
      ContentionReport.Row row,
      ContentionReport.Row baselineRow,
      double rate,
      double baselineRate) {
    /** The site as this run or, when gone, as the baseline saw it. */
    public ObservedSite site() {
      return row != null ? row.site() : baselineRow.site();
    }

    /** The findings that cover the site, in this run or the baseline. */
    public List<StaticFinding> findings() {
      return row != null ? row.findings() : baselineRow.findings();
    }
  }

  /**
   * Compares two reports made with the same findings.
   *
   * @throws EvidenceException when one is a recording and the other only dumps
   */
  public static ContentionComparison compare(ContentionReport current, ContentionReport baseline)
      throws EvidenceException {
    Measure measure = measure(current.observations());
    Measure before = measure(baseline.observations());
    if (measure != before) {
      throw new EvidenceException(
          "The baseline is "
              + (before == Measure.JFR ? "a JFR recording" : "thread dumps")
              + " and this run is "
              + (measure == Measure.JFR ? "a JFR recording" : "thread dumps")
              + ": lockjaw compares blocked time per second between recordings and waiting threads"
              + " per dump between dumps. Record both runs the same way.");
    }
    Map<String, List<ContentionReport.Row>> now = byIdentity(current.rows());
    Map<String, List<ContentionReport.Row>> then = byIdentity(baseline.rows());
    List<Entry> entries = new ArrayList<>();
    for (Map.Entry<String, List<ContentionReport.Row>> site : now.entrySet()) {
      List<ContentionReport.Row> earlier = then.get(site.getKey());
      double rate = rate(site.getValue(), current.observations(), measure);
      if (earlier == null) {
        entries.add(new Entry(Mark.NEW, site.getValue().get(0), null, rate, 0));
        continue;
      }
      double baselineRate = rate(earlier, baseline.observations(), measure);
      Mark mark = mark(rate, baselineRate, measure);
      if (mark == Mark.WORSE && !lockGotWorse(site.getValue().get(0), current, baseline, measure)) {
        mark = Mark.UNCHANGED; // its share of one monitor's waits moved, not the waits
      }
      entries.add(new Entry(mark, site.getValue().get(0), earlier.get(0), rate, baselineRate));
    }
    List<Entry> gone = new ArrayList<>();
    for (Map.Entry<String, List<ContentionReport.Row>> site : then.entrySet()) {
      if (!now.containsKey(site.getKey())) {
        double baselineRate = rate(site.getValue(), baseline.observations(), measure);
        gone.add(new Entry(Mark.GONE, null, site.getValue().get(0), 0, baselineRate));
      }
    }
    gone.sort(Comparator.comparingDouble(Entry::baselineRate).reversed());
    entries.addAll(gone);
    return new ContentionComparison(measure, List.copyOf(entries));
  }

  /** JFR when the run has a recording, else dumps. */
  static Measure measure(Observations observations) {
    return observations.recordings().isEmpty() ? Measure.DUMPS : Measure.JFR;
  }

  static Mark mark(double rate, double baselineRate, Measure measure) {
    if (rate >= baselineRate * FACTOR && rate - baselineRate >= measure.floor()) {
      return Mark.WORSE;
    }
    if (rate * FACTOR <= baselineRate && baselineRate - rate >= measure.floor()) {
      return Mark.BETTER;
    }
    return Mark.UNCHANGED;
  }

  /** The site's normalised figure in one run: all its rows (lines of one method) together. */
  /**
   * Whether the monitor a site waits for is waited on more in all: the waits of the call sites of
   * one monitor (two DAO methods on the same instance) shift between them from run to run, so one
   * site doubling while its monitor's total stays is no regression.
   */
  private static boolean lockGotWorse(
      ContentionReport.Row row,
      ContentionReport current,
      ContentionReport baseline,
      Measure measure) {
    String monitor = row.site().monitor();
    if (monitor == null || monitor.isEmpty()) {
      return true;
    }
    double now = rate(onMonitor(current.rows(), row), current.observations(), measure);
    double then = rate(onMonitor(baseline.rows(), row), baseline.observations(), measure);
    return mark(now, then, measure) == Mark.WORSE;
  }

  private static List<ContentionReport.Row> onMonitor(
      List<ContentionReport.Row> rows, ContentionReport.Row like) {
    List<ContentionReport.Row> same = new ArrayList<>();
    for (ContentionReport.Row row : rows) {
      if (row.site().kind() == like.site().kind()
          && like.site().monitor().equals(row.site().monitor())) {
        same.add(row);
      }
    }
    return same;
  }

  static double rate(List<ContentionReport.Row> rows, Observations observations, Measure measure) {
    if (measure == Measure.JFR) {
      double seconds = observations.recordingSeconds();
      long nanos = rows.stream().mapToLong(r -> r.site().totalNanos()).sum();
      return seconds <= 0 ? 0 : nanos / 1e6 / seconds;
    }
    int dumps = observations.dumps();
    long threads = rows.stream().mapToLong(r -> r.site().dumpThreads()).sum();
    return dumps == 0 ? 0 : (double) threads / dumps;
  }

  private static Map<String, List<ContentionReport.Row>> byIdentity(
      List<ContentionReport.Row> rows) {
    Map<String, List<ContentionReport.Row>> map = new LinkedHashMap<>();
    for (ContentionReport.Row row : rows) {
      map.computeIfAbsent(row.site().identity(), k -> new ArrayList<>()).add(row);
    }
    return map;
  }

  /** The entry of this run's row, or null. */
  public Entry entryOf(ContentionReport.Row row) {
    for (Entry entry : entries) {
      if (entry.row() != null && entry.row().site().identity().equals(row.site().identity())) {
        return entry;
      }
    }
    return null;
  }

  /** The sites of the baseline this run no longer has. */
  public List<Entry> gone() {
    return entries.stream().filter(e -> e.mark() == Mark.GONE).toList();
  }

  /** {@code 1,170 ms/s}, {@code 2.5 threads/dump}. */
  public String format(double rate) {
    return measure == Measure.JFR
        ? String.format(Locale.ROOT, "%,.0f %s", rate, measure.unit())
        : String.format(Locale.ROOT, "%.1f %s", rate, measure.unit());
  }

  /** {@code new}, {@code gone (1,170 ms/s before)}, {@code better (1,170 -> 12 ms/s)}. */
  public String describe(Entry entry) {
    return switch (entry.mark()) {
      case NEW -> "new (" + format(entry.rate()) + ")";
      case GONE -> "gone (" + format(entry.baselineRate()) + " before)";
      default ->
          entry.mark().label()
              + " ("
              + format(entry.baselineRate()).replace(" " + measure.unit(), "")
              + " -> "
              + format(entry.rate())
              + ")";
    };
  }
}
