package io.github.lockjaw.checks.readmostly;

import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.List;

/** The view of {@code read-mostly.txt}: accessor names, read-only calls and copying calls. */
final class ReadMostlyKnowledge {
  private static final List<String> ACCESSOR_PREFIXES = Kind.ReadMostly.ACCESSOR_PREFIX.values();
  private static final List<String> PUBLISHING_WRITER_PREFIXES =
      Kind.ReadMostly.PUBLISHING_WRITER_PREFIX.values();
  static final List<String> ACCESS_ORDERED_TYPES =
      Kind.ReadMostly.ACCESS_ORDERED_TYPE.index().typeNames();
  static final CatalogMethods READ_CALLS = CatalogMethods.of(Kind.ReadMostly.READ_CALL);
  static final CatalogMethods COPY_CALLS = CatalogMethods.of(Kind.ReadMostly.COPY_CALL);
  static final List<String> COPY_CONSTRUCTOR_PACKAGES =
      Kind.ReadMostly.COPY_CONSTRUCTOR_PACKAGE.values();
  static final List<String> CONTAINER_TYPES = Kind.ReadMostly.CONTAINER_TYPE.index().typeNames();

  private ReadMostlyKnowledge() {}

  /** Whether a method of this name answers a question: {@code getBeanFactory}, {@code isActive}. */
  static boolean isAccessorName(String name) {
    return Lifecycle.hasPrefix(name, ACCESSOR_PREFIXES);
  }

  /** Whether a writer of this name registers, refreshes or reloads what it writes. */
  static boolean isPublishingWriterName(String name) {
    return Lifecycle.hasPrefix(name, PUBLISHING_WRITER_PREFIXES);
  }
}
