package io.github.lockjaw.checks.polling;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What a polling loop does on each pass besides polling, read from the model: pauses (and how long,
 * from their constant arguments), calls known not to block, calls that block, and calls into code
 * of the program, classified a few calls deep. Code in {@code catch} clauses runs on a failure (an
 * interrupt), not on every pass.
 */
final class PassWork {
  /** What the loop does between two polls, from the least to the most reason to stay silent. */
  enum Work {
    /** Nothing, or only yield / onSpinWait / a short sleep. */
    SPIN,
    /** Non-blocking work as well: progress output, clocks, counters. */
    OTHER,
    /** Sleeps a watchdog interval or longer (or for a length lockjaw cannot tell). */
    SLOW,
    /** Calls something lockjaw cannot see into: it may block, or be the loop's real job. */
    UNKNOWN,
    /** Blocks: on the same thread (join), on a lock or condition, or on I/O. */
    BLOCKS;

    Work max(Work other) {
      return other.ordinal() > ordinal() ? other : this;
    }
  }

  private static final KnowledgeIndex SPINS = Kind.Blocking.SPIN_CALL.index();
  private static final KnowledgeIndex BLOCKING = Kind.Blocking.BLOCKING_CALL.index();
  private static final KnowledgeIndex NON_BLOCKING_METHODS =
      Kind.Blocking.NON_BLOCKING_METHOD.index();
  private static final KnowledgeIndex POLLS = Kind.Blocking.POLLED_STATE.index();
  private static final List<String> NON_BLOCKING_TYPES = Kind.Blocking.NON_BLOCKING_TYPE.values();
  private static final List<String> CONSTRUCTOR_PACKAGES =
      Kind.Blocking.NON_BLOCKING_CONSTRUCTOR_PACKAGE.values();

  private PassWork() {}

  /** Whether a call is a pause: sleep, yield, onSpinWait, parkNanos. */
  static boolean isPause(Program program, Op op) {
    return op.isCall() && program.match(SPINS, op.method()).isPresent();
  }

  /** What one operation of a pass does. */
  static Work of(Program program, MethodFacts method, Op op) {
    return of(program, method, op, new HashSet<>(), 0);
  }

  private static Work of(
      Program program, MethodFacts method, Op op, Set<MethodRef> visiting, int depth) {
    if (op.context().inHandler()) {
      return Work.SPIN; // a failure path: runs on an interrupt, not on every pass
    }
    return switch (op.kind()) {
      case GET_FIELD, RETURN, THROW -> Work.SPIN;
      case PUT_FIELD -> Work.OTHER;
      case NEW -> constructor(program, op);
      default -> call(program, method, op, visiting, depth);
    };
  }

  private static Work constructor(Program program, Op op) {
    String owner = op.method().owner();
    int dot = owner.lastIndexOf('.');
    String pkg = dot < 0 ? "" : owner.substring(0, dot);
    return CONSTRUCTOR_PACKAGES.contains(pkg) && owner.indexOf('$') < 0 ? Work.OTHER : Work.UNKNOWN;
  }

  private static Work call(
      Program program, MethodFacts method, Op op, Set<MethodRef> visiting, int depth) {
    MethodRef call = op.method();
    Optional<KnowledgeIndex.MethodEntry> spin = program.match(SPINS, call);
    if (spin.isPresent()) {
      Long millis = pauseMillis(program, method, op, spin.get());
      return millis == null || millis >= watchdogIntervalMillis() ? Work.SLOW : Work.SPIN;
    }
    Optional<KnowledgeIndex.MethodEntry> blocking = program.match(BLOCKING, call);
    if (blocking.isPresent()
        && call.parameterCount()
            >= Integer.parseInt(blocking.get().attribute("min-args").orElse("0"))) {
      return Work.BLOCKS;
    }
    if (isNonBlocking(program, call)) {
      return Work.OTHER;
    }
    List<MethodFacts> targets = program.targets(op);
    if (targets.isEmpty() || depth >= 3) {
      return Work.UNKNOWN;
    }
    Work work = Work.SPIN;
    for (MethodFacts target : targets) {
      if (!visiting.add(target.ref())) {
        return Work.UNKNOWN;
      }
      for (Op inner : target.ops()) {
        if (inner.context() != Context.NONE) {
          work = work.max(of(program, target, inner, visiting, depth + 1));
        }
      }
      visiting.remove(target.ref());
    }
    return work == Work.SPIN ? Work.OTHER : work;
  }

  /** Whether a call parks the thread until something happens ({@code blocking-call}). */
  static boolean blocks(Program program, MethodRef call) {
    Optional<KnowledgeIndex.MethodEntry> blocking = program.match(BLOCKING, call);
    return blocking.isPresent()
        && call.parameterCount()
            >= Integer.parseInt(blocking.get().attribute("min-args").orElse("0"));
  }

  /** Whether a method is known to return without waiting for another thread. */
  static boolean isNonBlocking(Program program, MethodRef call) {
    if (program.match(NON_BLOCKING_METHODS, call).isPresent()
        || program.match(POLLS, call).isPresent()) {
      return true;
    }
    if (NON_BLOCKING_TYPES.contains(call.owner())) {
      return true;
    }
    if (!call.owner().startsWith("java.")) {
      return false; // a user type may override anything with code that blocks
    }
    for (String type : NON_BLOCKING_TYPES) {
      if (program.isSubtype(call.owner(), type)) {
        return true;
      }
    }
    return false;
  }

  /** Pauses at least this long between polls make a loop a watchdog rather than a spin. */
  static long watchdogIntervalMillis() {
    List<String> values = Kind.Blocking.WATCHDOG_INTERVAL_MILLIS.values();
    try {
      return values.isEmpty() ? 1000L : Long.parseLong(values.get(0));
    } catch (NumberFormatException e) {
      return 1000L;
    }
  }

  /**
   * How long a pause waits, in milliseconds, from its constant arguments ({@code duration}: none,
   * millis (a long or a {@code Duration}), nanos (the last argument), unit (a {@code TimeUnit}
   * constant receiver)); {@code null} when lockjaw cannot tell.
   */
  static Long pauseMillis(
      Program program, MethodFacts method, Op op, KnowledgeIndex.MethodEntry entry) {
    String duration = entry.attribute("duration").orElse("none");
    switch (duration) {
      case "none":
        return 0L;
      case "millis":
        {
          if (op.args().isEmpty()) {
            return null;
          }
          Long constant = constant(op.arg(0));
          if (constant != null) {
            return constant;
          }
          Duration d = durationOf(method, op.arg(0));
          return d == null ? null : d.toMillis();
        }
      case "nanos":
        {
          if (op.args().isEmpty()) {
            return null;
          }
          Long nanos = constant(op.arg(op.args().size() - 1));
          return nanos == null ? null : TimeUnit.NANOSECONDS.toMillis(nanos);
        }
      case "unit":
        {
          Long amount = constant(op.arg(0));
          if (amount == null
              || !(op.receiver() instanceof Value.FieldValue unit)
              || !unit.field().owner().equals("java.util.concurrent.TimeUnit")) {
            return null;
          }
          try {
            return TimeUnit.valueOf(unit.field().name()).toMillis(amount);
          } catch (IllegalArgumentException e) {
            return null;
          }
        }
      default:
        return null;
    }
  }

  private static Long constant(Value value) {
    if (value instanceof Value.Constant constant) {
      try {
        return Long.parseLong(constant.text());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  /** {@code Duration.ofMillis(10)}, {@code Duration.ofSeconds(1)}, ... with a constant argument. */
  private static Duration durationOf(MethodFacts method, Value value) {
    Op producer = method.producer(value);
    if (producer == null
        || producer.kind() != Op.Kind.INVOKE_STATIC
        || !producer.method().owner().equals("java.time.Duration")
        || producer.args().size() != 1) {
      return null;
    }
    Long amount = constant(producer.arg(0));
    if (amount == null) {
      return null;
    }
    return switch (producer.method().name()) {
      case "ofNanos" -> Duration.ofNanos(amount);
      case "ofMillis" -> Duration.ofMillis(amount);
      case "ofSeconds" -> Duration.ofSeconds(amount);
      case "ofMinutes" -> Duration.ofMinutes(amount);
      default -> null;
    };
  }
}
