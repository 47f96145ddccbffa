package io.github.lockjaw.checks.readmostly;

import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.List;

/** The view of {@code read-mostly.txt}: accessor names, read-only calls and copying calls. */
final class ReadMostlyKnowledge {
  static final ApiCatalog CATALOG = ApiCatalog.named("read-mostly");
  private static final List<String> ACCESSOR_PREFIXES = CATALOG.values("accessor-prefix");
  static final CatalogMethods READ_CALLS = CatalogMethods.of("read-mostly", "read-call");
  static final CatalogMethods COPY_CALLS = CatalogMethods.of("read-mostly", "copy-call");
  static final List<String> COPY_CONSTRUCTOR_PACKAGES = CATALOG.values("copy-constructor-package");

  private static final List<String> QUIET_WRITER_PREFIXES = CATALOG.values("quiet-writer-prefix");

  private ReadMostlyKnowledge() {}

  /** Whether a writer of this name only sets a property or a lifecycle flag. */
  static boolean isQuietWriterName(String name) {
    return Lifecycle.hasPrefix(name, QUIET_WRITER_PREFIXES);
  }

  /** Whether a method of this name answers a question: {@code getBeanFactory}, {@code isActive}. */
  static boolean isAccessorName(String name) {
    return Lifecycle.hasPrefix(name, ACCESSOR_PREFIXES);
  }
}
