package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The gate for CI, off unless asked for: fails when a site tied to a lockjaw finding blocks threads
 * for more than a share of the recording ({@code failAbove}; 100 % is one thread blocked the whole
 * time; from dumps, one waiting thread per dump), and, with a baseline and {@code
 * failOnRegression}, when a site is new or worse and blocks at least the comparison's floor (5 % of
 * the recording, half a waiting thread per dump).
 *
 * @param failAbove the share, 0.10 for 10 %; negative when that check is off
 * @param failOnRegression whether new and worse sites fail
 */
public record ContentionGate(double failAbove, boolean failOnRegression) {
  /** No gate: the report never fails. */
  public static final ContentionGate OFF = new ContentionGate(-1, false);

  /** The gate's verdict and its reasons, one line each. */
  public record Verdict(boolean failed, List<String> reasons) {}

  public boolean isOn() {
    return failAbove >= 0 || failOnRegression;
  }

  /**
   * Parses a share given as a percentage: {@code 10%}, {@code 10 %}, {@code 10}, {@code 150%}.
   *
   * @throws IllegalArgumentException with a message that says what to write
   */
  public static double parseShare(String text) {
    String value = text.strip();
    if (value.endsWith("%")) {
      value = value.substring(0, value.length() - 1).strip();
    }
    double number;
    try {
      number = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      number = Double.NaN;
    }
    if (Double.isNaN(number) || Double.isInfinite(number) || number < 0) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a share of the recording: write a percentage such as 10% (one tenth of one"
              + " thread's time blocked at a site), or 150% for one and a half threads.");
    }
    return number / 100;
  }

  /**
   * The share of the run a site blocked threads for: blocked time / length, or threads per dump.
   */
  public static double share(ObservedSite site, Observations observations) {
    if (!observations.recordings().isEmpty()) {
      double seconds = observations.recordingSeconds();
      return seconds <= 0 ? 0 : site.totalNanos() / 1e9 / seconds;
    }
    return observations.dumps() == 0 ? 0 : (double) site.dumpThreads() / observations.dumps();
  }

  public Verdict judge(ContentionReport report, ContentionComparison comparison) {
    List<String> reasons = new ArrayList<>();
    Observations seen = report.observations();
    if (failAbove >= 0) {
      for (ContentionReport.Row row : report.rows()) {
        double share = share(row.site(), seen);
        if (row.hasFinding() && share > failAbove) {
          reasons.add(
              row.site().frame().display()
                  + " ("
                  + checks(row.findings())
                  + ") blocked threads for "
                  + percent(share)
                  + " of the "
                  + (seen.recordings().isEmpty() ? "dumps" : "recording")
                  + ", above the limit of "
                  + percent(failAbove));
        }
      }
    }
    if (failOnRegression && comparison != null) {
      for (ContentionComparison.Entry entry : comparison.entries()) {
        boolean regression =
            entry.mark() == ContentionComparison.Mark.NEW
                || entry.mark() == ContentionComparison.Mark.WORSE;
        if (regression && entry.rate() >= comparison.measure().floor()) {
          reasons.add(
              entry.site().frame().display()
                  + (entry.findings().isEmpty() ? "" : " (" + checks(entry.findings()) + ")")
                  + " is "
                  + comparison.describe(entry)
                  + " against the baseline");
        }
      }
    }
    return new Verdict(!reasons.isEmpty(), List.copyOf(reasons));
  }

  private static String checks(List<StaticFinding> findings) {
    return String.join(", ", findings.stream().map(StaticFinding::check).distinct().toList());
  }

  static String percent(double share) {
    return String.format(Locale.ROOT, share * 100 >= 10 ? "%.0f%%" : "%.1f%%", share * 100);
  }
}
