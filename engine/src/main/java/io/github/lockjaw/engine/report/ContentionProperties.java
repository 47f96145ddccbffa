package io.github.lockjaw.engine.report;

import io.github.lockjaw.contention.ContentionReport;
import io.github.lockjaw.contention.HolderTally;
import io.github.lockjaw.contention.ObservedSite;
import io.github.lockjaw.contention.StaticFinding;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The observed figures of a finding's contended site, as SARIF result properties (keys prefixed
 * {@code lockjaw/}), so code scanning and scripts can sort findings by what a load test saw.
 */
public final class ContentionProperties {
  private ContentionProperties() {}

  /**
   * The properties of one finding; {@code lockjaw/observed=false} when no thread waited where it
   * is.
   */
  public static Map<String, Object> of(ContentionReport report, StaticFinding finding) {
    Map<String, Object> properties = new LinkedHashMap<>();
    if (finding == null) {
      return properties;
    }
    ContentionReport.Row row = report.rowOf(finding);
    properties.put("lockjaw/observed", row != null);
    if (row == null) {
      return properties;
    }
    ObservedSite site = row.site();
    properties.put("lockjaw/contentionRank", row.rank());
    properties.put("lockjaw/contendedSite", site.frame().qualified());
    properties.put("lockjaw/waitKind", site.kind().label());
    if (!site.monitor().isEmpty()) {
      properties.put("lockjaw/monitor", site.monitor());
    }
    HolderTally.Group holder = site.holders().top();
    if (holder != null) {
      properties.put("lockjaw/heldBy", holder.holder().summary());
    }
    if (!report.observations().recordings().isEmpty()) {
      properties.put("lockjaw/blockedMillis", Math.round(site.totalNanos() / 1e6 * 10) / 10.0);
      properties.put("lockjaw/waits", site.events());
      properties.put("lockjaw/longestWaitMillis", Math.round(site.maxNanos() / 1e6 * 10) / 10.0);
    }
    if (report.observations().dumps() > 0) {
      properties.put("lockjaw/waitingThreadsInDumps", site.dumpThreads());
      properties.put("lockjaw/dumpsWithWaits", site.dumps());
      properties.put("lockjaw/dumps", report.observations().dumps());
    }
    return properties;
  }
}
