package io.github.lockjaw.checks.readmostly;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.MethodRef;
import java.util.List;

/** The view of {@code read-mostly.txt}: read-only calls, copying calls, containers. */
final class ReadMostlyKnowledge {
  private static final List<String> PUBLISHING_WRITER_PREFIXES =
      Kind.ReadMostly.PUBLISHING_WRITER_PREFIX.values();
  private static final List<String> SETTER_PREFIXES =
      Kind.EntryPoints.CONFIGURATION_SETTER.values();
  static final List<String> ACCESS_ORDERED_TYPES =
      Kind.ReadMostly.ACCESS_ORDERED_TYPE.index().typeNames();
  static final KnowledgeIndex READ_CALLS = Kind.ReadMostly.READ_CALL.index();
  static final KnowledgeIndex COPY_CALLS = Kind.ReadMostly.COPY_CALL.index();
  static final List<String> COPY_CONSTRUCTOR_PACKAGES =
      Kind.ReadMostly.COPY_CONSTRUCTOR_PACKAGE.values();
  static final List<String> CONTAINER_TYPES = Kind.ReadMostly.CONTAINER_TYPE.index().typeNames();

  private ReadMostlyKnowledge() {}

  /**
   * Whether a method is a JavaBean property setter ({@code configuration-setter} in {@code
   * entry-points.txt}: one parameter, {@code void}): the property is configuration, applied when
   * components are built and read when they build themselves, which lockjaw cannot tell from a
   * request.
   */
  static boolean isPropertySetter(MethodRef method) {
    return method.parameterCount() == 1
        && method.returnType().equals("void")
        && Lifecycle.hasPrefix(method.name(), SETTER_PREFIXES);
  }

  /** Whether a writer of this name registers, refreshes or reloads what it writes. */
  static boolean isPublishingWriterName(String name) {
    return Lifecycle.hasPrefix(name, PUBLISHING_WRITER_PREFIXES);
  }
}
