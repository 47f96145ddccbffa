package io.github.lockjaw.checks.statistics;

import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.List;

/** The view of {@code statistics.txt}. */
final class StatisticsKnowledge {
  static final KnowledgeIndex PURE_CALLS = Kind.Statistics.PURE_CALL.index();
  static final KnowledgeIndex MAP_READS = Kind.Statistics.COUNTER_MAP_READ.index();
  static final KnowledgeIndex MAP_WRITES = Kind.Statistics.COUNTER_MAP_WRITE.index();
  static final KnowledgeIndex EXTREMUM_CALLS = Kind.Statistics.EXTREMUM_CALL.index();
  static final List<String> LOCAL_ACCESSOR_PREFIXES =
      Kind.Statistics.LOCAL_ACCESSOR_PREFIX.values();

  /** For the fix, which reads the file's trees: calls that wait on or signal a monitor. */
  static final CatalogMethods MONITOR_SIGNAL_CALLS =
      CatalogMethods.of(Kind.Statistics.MONITOR_SIGNAL_CALL);

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
