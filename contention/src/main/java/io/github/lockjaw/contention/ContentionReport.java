package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The observed lock sites ranked by how much they made threads wait, each with the lockjaw findings
 * that cover it (none: "no finding"), and the findings no thread was seen waiting on.
 *
 * @param rows the sites, most contended first
 * @param unobserved the findings that cover no observed site, in the order given
 * @param observations what was read
 */
public record ContentionReport(
    List<Row> rows, List<StaticFinding> unobserved, Observations observations) {

  /** One ranked site and the findings that cover it. */
  public record Row(int rank, ObservedSite site, List<StaticFinding> findings) {
    public boolean hasFinding() {
      return !findings.isEmpty();
    }

    /**
     * Whether the holders' frames run in the finding's code: the lock was held there, which is the
     * evidence the finding describes (a DAO method in a socket read under its monitor).
     */
    public boolean holderConfirms(StaticFinding finding) {
      HolderTally.Group top = site.holders().top();
      if (top == null) {
        return false;
      }
      for (Frame frame : top.holder().applicationFrames()) {
        if (finding.covers(frame)) {
          return true;
        }
      }
      return false;
    }
  }

  /** Most blocked time first (JFR), then most waiting threads over the dumps, then most waits. */
  public static final Comparator<ObservedSite> RANKING =
      Comparator.comparingLong(ObservedSite::totalNanos)
          .reversed()
          .thenComparing(Comparator.comparingLong(ObservedSite::dumpThreads).reversed())
          .thenComparing(Comparator.comparingLong(ObservedSite::events).reversed())
          .thenComparing(s -> s.frame().qualified());

  /**
   * Joins observations with findings: a finding covers a site when its member holds the waiting
   * frame. Threads sleeping or parked without a lock count only inside code a busy-wait check flags
   * ({@code sleep-evidence-check}): there they are the evidence of the polling loop; anywhere else
   * they are not contention and are left out.
   */
  public static ContentionReport correlate(
      Observations observations, List<StaticFinding> findings) {
    List<ObservedSite> sites = new ArrayList<>(observations.sites());
    sites.sort(RANKING);
    List<Row> rows = new ArrayList<>();
    Set<StaticFinding> used = new HashSet<>();
    List<String> sleepChecks = RuntimeFrames.sleepEvidenceChecks();
    int rank = 1;
    for (ObservedSite site : sites) {
      List<StaticFinding> covering = new ArrayList<>();
      for (StaticFinding finding : findings) {
        boolean counts = site.kind() != WaitKind.SLEEP || sleepChecks.contains(finding.check());
        if (counts && finding.covers(site.frame())) {
          covering.add(finding);
        }
      }
      if (site.kind() == WaitKind.SLEEP && covering.isEmpty()) {
        continue; // a thread sleeping outside a flagged loop: not contention
      }
      used.addAll(covering);
      rows.add(new Row(rank++, site, List.copyOf(covering)));
    }
    List<StaticFinding> unobserved = findings.stream().filter(f -> !used.contains(f)).toList();
    return new ContentionReport(List.copyOf(rows), unobserved, observations);
  }

  /** The row of the site a finding covers, the highest ranked; null when no thread waited there. */
  public Row rowOf(StaticFinding finding) {
    for (Row row : rows) {
      if (row.findings().contains(finding)) {
        return row;
      }
    }
    return null;
  }
}
