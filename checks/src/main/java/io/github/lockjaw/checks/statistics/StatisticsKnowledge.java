package io.github.lockjaw.checks.statistics;

import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import java.util.List;

/** The view of {@code statistics.txt}. */
final class StatisticsKnowledge {
  static final CatalogMethods PURE_CALLS = CatalogMethods.of(Kind.Statistics.PURE_CALL);
  static final CatalogMethods MAP_READS = CatalogMethods.of(Kind.Statistics.COUNTER_MAP_READ);
  static final CatalogMethods MAP_WRITES = CatalogMethods.of(Kind.Statistics.COUNTER_MAP_WRITE);
  static final CatalogMethods EXTREMUM_CALLS = CatalogMethods.of(Kind.Statistics.EXTREMUM_CALL);
  static final CatalogMethods MONITOR_SIGNAL_CALLS =
      CatalogMethods.of(Kind.Statistics.MONITOR_SIGNAL_CALL);
  static final List<String> LOCAL_ACCESSOR_PREFIXES =
      Kind.Statistics.LOCAL_ACCESSOR_PREFIX.values();

  private StatisticsKnowledge() {}

  /** The type the fix moves a statistic of this kind to ({@code for=count-or-sum}, ...). */
  static String replacement(String statistic) {
    for (ApiCatalog.Entry entry : Kind.Statistics.REPLACEMENT.entries()) {
      if (entry.attribute("for").filter(statistic::equals).isPresent()) {
        return entry.value();
      }
    }
    throw new IllegalStateException("statistics.txt has no replacement for=" + statistic);
  }
}
