package io.github.lockjaw.checks.statistics;

import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a locked region does, when all it does is update statistics, as facts of the model: counters
 * and sums (a numeric field written with a value computed from it, {@code hits++}, {@code total +=
 * elapsed}), maxima and minima ({@code max = Math.max(max, x)}, or {@code if (x > max) max = x}: a
 * field read, then written under a condition) and counters per key ({@code counts.merge(key, 1,
 * Integer::sum)}, or a {@code put} of a computed count after a read of the same key). Anything else
 * in the region means the lock guards more than statistics: another call, an object created, a
 * value handed back, an array touched (its element writes are not in the model), a reference or
 * flag written, a nested lock, or a counter bumped only when its own value passes a test (an
 * admission counter: a compare-and-increment that a {@code LongAdder} cannot do).
 */
final class CounterUpdates {

  /** What a statistic keeps. */
  enum Kind {
    COUNT_OR_SUM,
    EXTREMUM,
    PER_KEY
  }

  /**
   * One update: the field (the map, for a counter per key), what it keeps, and the operation that
   * writes it.
   */
  record Update(FieldRef field, Kind kind, int op) {}

  private CounterUpdates() {}

  /** The updates, when the region does nothing but update statistics; empty otherwise. */
  static Optional<List<Update>> of(Program program, MethodFacts method, Region region) {
    if (hasNestedRegion(method, region)) {
      return Optional.empty();
    }
    List<Op> ops = method.opsIn(region.id());
    List<Update> updates = new ArrayList<>();
    for (Op op : ops) {
      Optional<Update> update;
      switch (op.kind()) {
        case GET_FIELD -> {
          if (op.field().descriptor().startsWith("[")) {
            return Optional.empty(); // an array: its element writes are not in the model
          }
          continue;
        }
        case PUT_FIELD -> update = fieldUpdate(program, ops, op);
        case INVOKE_STATIC, INVOKE_VIRTUAL, INVOKE_SPECIAL -> {
          if (isComputation(program, op)) {
            continue;
          }
          update = mapUpdate(program, ops, op);
        }
        case RETURN -> {
          if (!op.args().isEmpty()) {
            return Optional.empty(); // hands a value out: the lock keeps it consistent
          }
          continue;
        }
        default -> update = Optional.empty(); // NEW, THROW
      }
      if (update.isEmpty()) {
        return Optional.empty();
      }
      updates.add(update.get());
    }
    if (updates.isEmpty() || returnsWhatItComputed(method, ops)) {
      return Optional.empty();
    }
    return Optional.of(updates);
  }

  private static boolean hasNestedRegion(MethodFacts method, Region region) {
    for (Region other : method.regions()) {
      for (int parent = other.parent();
          parent >= 0;
          parent = method.regions().get(parent).parent()) {
        if (parent == region.id()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A write of a numeric field: a count or sum (a computed value), a maximum or minimum (the result
   * of {@code Math.max(field, x)}, or a value stored under a condition after the field was read),
   * or nothing this check knows (a gauge set, a reset, a flag).
   */
  private static Optional<Update> fieldUpdate(Program program, List<Op> region, Op put) {
    FieldRef field = put.field();
    if (!isNumeric(field.descriptor())) {
      return Optional.empty();
    }
    Value value = put.arg(0);
    if (value instanceof Value.Computed) {
      if (readBeforeCondition(region, put) || isControlState(program, field)) {
        return Optional.empty(); // code acts on its exact value: no statistic
      }
      return Optional.of(new Update(field, Kind.COUNT_OR_SUM, put.index()));
    }
    Op producer = producer(region, value);
    if (producer != null
        && program.match(StatisticsKnowledge.EXTREMUM_CALLS, producer.method()).isPresent()
        && producer.args().stream()
            .anyMatch(a -> a instanceof Value.FieldValue f && f.field().equals(field))) {
      return Optional.of(new Update(field, Kind.EXTREMUM, put.index()));
    }
    if (readBeforeCondition(region, put)) {
      return Optional.of(new Update(field, Kind.EXTREMUM, put.index()));
    }
    return Optional.empty();
  }

  /**
   * Whether code of the field's class (nested classes included) acts on the counter's exact value,
   * anywhere, so that every update of it belongs to that logic, which a {@code LongAdder} (whose
   * sum is no snapshot) cannot keep:
   *
   * <ul>
   *   <li>it bumps the field only when its own value passes a test: an admission counter's
   *       compare-and-increment, whose release is then no statistic either;
   *   <li>it tests the field and acts on the outcome: a reference count whose release destroys the
   *       object at zero ({@code if (useCount <= 0) destroy()}), a hand-made reader count that an
   *       exclusive lock waits on ({@code while (readers > 0) wait()}).
   * </ul>
   *
   * Reading the counter to report it decides nothing: a getter, a message, an average's zero test
   * before it divides ({@code count == 0 ? 0 : total / count}).
   */
  private static boolean isControlState(Program program, FieldRef field) {
    String owner = field.owner();
    String topLevel = owner.contains("$") ? owner.substring(0, owner.indexOf('$')) : owner;
    for (ClassFacts c : program.classes()) {
      if (!c.name().equals(topLevel) && !c.name().startsWith(topLevel + "$")) {
        continue;
      }
      for (MethodFacts method : c.methods()) {
        List<Op> ops = method.ops();
        for (int i = 0; i < ops.size(); i++) {
          Op op = ops.get(i);
          if (op.kind() == Op.Kind.PUT_FIELD
              && op.field().equals(field)
              && op.arg(0) instanceof Value.Computed
              && readBeforeCondition(ops, op)) {
            return true;
          }
          if (op.kind() == Op.Kind.GET_FIELD
              && op.field().equals(field)
              && (decides(program, op, i + 1 < ops.size() ? ops.get(i + 1) : null)
                  || (i > 0
                      && isLoopCondition(op, ops.get(i - 1))
                      && decides(program, op, ops.get(i - 1))))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether a read just after {@code before} in code order may be the condition of the loop both
   * are in: javac tests a loop's condition after its body, so the body's last operation comes
   * first.
   */
  private static boolean isLoopCondition(Op read, Op before) {
    return !read.context().loops().isEmpty()
        && read.context().loops().equals(before.context().loops());
  }

  /**
   * Whether {@code next}, next to a read of a counter in code order (after it, or before it when
   * the read is a loop's condition), is an action that runs only when a test of that read comes out
   * one way: it holds one condition more than the read, a comparison (which the model leaves
   * opaque) or a test of the counter itself, and it does more than compute or read (a call, a
   * write, a throw).
   */
  private static boolean decides(Program program, Op read, Op next) {
    if (next == null) {
      return false;
    }
    List<Guard> before = read.context().guards();
    List<Guard> after = next.context().guards();
    if (after.size() != before.size() + 1 || !after.subList(0, before.size()).equals(before)) {
      return false;
    }
    Value tested = after.get(before.size()).subject();
    if (!tested.isOpaque()
        && !(tested instanceof Value.FieldValue f && f.field().equals(read.field()))) {
      return false; // another condition, tested after the read
    }
    return switch (next.kind()) {
      case INVOKE_STATIC, INVOKE_VIRTUAL, INVOKE_SPECIAL -> !isComputation(program, next);
      case PUT_FIELD, THROW -> true;
      default -> false;
    };
  }

  /**
   * Whether the region reads the written field before a condition the write depends on: {@code if
   * (x > max) max = x} (a maximum) or {@code if (active < limit) active++} (an admission counter).
   */
  private static boolean readBeforeCondition(List<Op> region, Op put) {
    int guards = put.context().guards().size();
    for (Op op : region) {
      if (op.index() >= put.index()) {
        break;
      }
      if (op.kind() == Op.Kind.GET_FIELD
          && op.field().equals(put.field())
          && op.context().guards().size() < guards) {
        return true;
      }
    }
    return false;
  }

  /**
   * A call that only computes a value: a pure call ({@code Math}, {@code System.nanoTime()}), a
   * read of a counter map, or an accessor on an object the method was given or made ({@code
   * stopWatch.getTotalTimeMillis()}, {@code joinPoint.toShortString()}).
   */
  private static boolean isComputation(Program program, Op call) {
    if (hasLambda(call)) {
      return false;
    }
    if (program.match(StatisticsKnowledge.PURE_CALLS, call.method()).isPresent()) {
      return true;
    }
    if (call.receiver() instanceof Value.FieldValue
        && program.match(StatisticsKnowledge.MAP_READS, call.method()).isPresent()) {
      return true;
    }
    return call.kind() != Op.Kind.INVOKE_STATIC
        && (call.receiver() instanceof Value.Param || call.receiver() instanceof Value.Result)
        && Lifecycle.hasPrefix(call.method().name(), StatisticsKnowledge.LOCAL_ACCESSOR_PREFIXES);
  }

  /**
   * A counter per key: {@code merge(key, n, Integer::sum)} with a pure function, or {@code put(key,
   * count)} of a number computed after the region read the same key of the same map.
   */
  private static Optional<Update> mapUpdate(Program program, List<Op> region, Op call) {
    if (!(call.receiver() instanceof Value.FieldValue map)
        || call.args().size() < 2
        || program.match(StatisticsKnowledge.MAP_WRITES, call.method()).isEmpty()) {
      return Optional.empty();
    }
    Value key = call.arg(0);
    Value count = call.arg(1);
    boolean counted;
    if (call.method().name().equals("merge")) {
      counted =
          call.args().size() == 3
              && isNumber(count)
              && call.arg(2) instanceof Value.Lambda function
              && program.match(StatisticsKnowledge.PURE_CALLS, function.body()).isPresent();
    } else {
      counted =
          call.args().size() == 2
              && (isNumber(count) || count.isOpaque())
              && readsKey(program, region, call, map, key);
    }
    return counted
        ? Optional.of(new Update(map.field(), Kind.PER_KEY, call.index()))
        : Optional.empty();
  }

  private static boolean readsKey(
      Program program, List<Op> region, Op put, Value.FieldValue map, Value key) {
    if (key.isOpaque()) {
      return false;
    }
    for (Op op : region) {
      if (op.index() >= put.index()) {
        break;
      }
      if (op.isCall()
          && map.equals(op.receiver())
          && key.equals(op.arg(0))
          && program.match(StatisticsKnowledge.MAP_READS, op.method()).isPresent()) {
        return true;
      }
    }
    return false;
  }

  /** A number: a numeric constant, or a value computed in the method. */
  private static boolean isNumber(Value value) {
    if (value instanceof Value.Computed) {
      return true;
    }
    if (value instanceof Value.Constant constant && !constant.isNull()) {
      try {
        Long.parseLong(constant.text());
        return true;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return false;
  }

  private static boolean hasLambda(Op call) {
    return call.args().stream().anyMatch(a -> a instanceof Value.Lambda);
  }

  private static Op producer(List<Op> region, Value value) {
    if (value instanceof Value.Result result) {
      for (Op op : region) {
        if (op.index() == result.op()) {
          return op;
        }
      }
    }
    return null;
  }

  /**
   * Whether a {@code synchronized} block returns what it computed: a {@code return} with a value
   * that follows the block's last operation on the same line ({@code synchronized (this) { return
   * ++sequence; }}); the return instruction itself runs after the monitor is released.
   */
  private static boolean returnsWhatItComputed(MethodFacts method, List<Op> region) {
    Op last = region.get(region.size() - 1);
    for (Op op : method.ops()) {
      if (op.index() > last.index()
          && op.kind() == Op.Kind.RETURN
          && !op.args().isEmpty()
          && op.line() == last.line()
          && op.line() > 0) {
        return true;
      }
    }
    return false;
  }

  /** A numeric primitive (not {@code boolean}). */
  static boolean isNumeric(String descriptor) {
    return switch (descriptor) {
      case "J", "I", "S", "B", "C", "F", "D" -> true;
      default -> false;
    };
  }
}
