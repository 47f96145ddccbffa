package io.github.lockjaw.checks.statistics;

import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.List;

/** The view of {@code statistics.txt}. */
final class StatisticsKnowledge {
  static final ApiCatalog CATALOG = ApiCatalog.named("statistics");
  static final CatalogMethods PURE_CALLS = CatalogMethods.of("statistics", "pure-call");
  static final CatalogMethods MAP_READS = CatalogMethods.of("statistics", "counter-map-read");
  static final CatalogMethods MAP_WRITES = CatalogMethods.of("statistics", "counter-map-write");
  static final List<String> LOCAL_ACCESSOR_PREFIXES = CATALOG.values("local-accessor-prefix");

  private StatisticsKnowledge() {}
}
