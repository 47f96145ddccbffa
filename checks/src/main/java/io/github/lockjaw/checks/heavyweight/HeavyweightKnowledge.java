package io.github.lockjaw.checks.heavyweight;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import java.util.Optional;

/**
 * What {@code heavyweight.txt} says: which creations and look-ups are costly, whether their result
 * may be shared, which calls use a shared object without reconfiguring it, and which calls cache
 * what their lambda builds.
 */
final class HeavyweightKnowledge {
  static final KnowledgeIndex COSTLY = Kind.Heavyweight.COSTLY_CREATION.index();
  static final KnowledgeIndex SHARED_USE = Kind.Heavyweight.SHARED_USE.index();
  static final KnowledgeIndex FLUENT = Kind.Heavyweight.FLUENT_CONFIGURATION.index();
  static final KnowledgeIndex MEMOISING_CALLS = Kind.Heavyweight.MEMOISING_CALL.index();
  static final KnowledgeIndex MEMOISING_OVERRIDES = Kind.Heavyweight.MEMOISING_OVERRIDE.index();
  static final KnowledgeIndex REQUEST_METHODS = Kind.EntryPoints.REQUEST_ENTRY_METHOD.index();
  static final KnowledgeIndex GENERIC_INTERCEPTION = Kind.Heavyweight.GENERIC_INTERCEPTION.index();
  static final KnowledgeIndex REQUEST_ANNOTATIONS =
      Kind.EntryPoints.REQUEST_ENTRY_ANNOTATION.index();

  /** Whether the result of a costly creation may be shared, and how. */
  enum Share {
    /** Thread-safe once configured: one {@code private static final} instance. */
    STATIC,
    /** A registry hands out the same instance anyway: a field only saves the look-up. */
    REGISTRY,
    /** Not thread-safe: share a factory or template, make the product per call. */
    NONE
  }

  private HeavyweightKnowledge() {}

  /**
   * The costly-creation entry an operation is: a {@code new T(...)} of an entry's {@code
   * type#<init>}, or a call of an entry's method (a constructor chain is not a creation).
   */
  static Optional<KnowledgeIndex.MethodEntry> costly(Program program, Op op) {
    if (!op.isCall()) {
      return Optional.empty();
    }
    boolean constructor = op.method().isConstructor();
    if (constructor != (op.kind() == Op.Kind.NEW)) {
      return Optional.empty();
    }
    return program.match(COSTLY, op.method());
  }

  static Share share(KnowledgeIndex.MethodEntry entry) {
    return switch (entry.attribute("share").orElse("none")) {
      case "static" -> Share.STATIC;
      case "registry" -> Share.REGISTRY;
      default -> Share.NONE;
    };
  }

  static boolean inLoopOnly(KnowledgeIndex.MethodEntry entry) {
    return entry.entry().hasAttribute("in-loop");
  }

  static boolean isLookup(KnowledgeIndex.MethodEntry entry) {
    return entry.entry().hasAttribute("lookup");
  }

  /** An attribute written with '-' for blanks, as words. */
  static String words(KnowledgeIndex.MethodEntry entry, String attribute) {
    return entry.attribute(attribute).map(w -> w.replace('-', ' ')).orElse("");
  }

  static boolean isSharedUse(Program program, MethodRef call) {
    return program.match(SHARED_USE, call).isPresent();
  }

  static boolean isFluentConfiguration(Program program, MethodRef call) {
    return program.match(FLUENT, call).isPresent();
  }

  static boolean isMemoisingCall(Program program, MethodRef call) {
    return program.match(MEMOISING_CALLS, call).isPresent();
  }
}
