package io.github.lockjaw.model.query;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A read or write of a container by key ({@code maps.txt}: {@code check-method}, {@code
 * act-method}): {@code cache.get(k)}, {@code cache.containsKey(k)}, {@code cache.put(k, v)}.
 *
 * @param op the call
 * @param container the map (the call's receiver)
 * @param key the key argument
 * @param isWrite whether it puts
 * @param returnsValue for a read, whether it returns the value (get) rather than a boolean
 */
public record KeyedAccess(
    Op op, Value container, Value key, boolean isWrite, boolean returnsValue) {
  private static final KnowledgeIndex CHECKS = Kind.Maps.CHECK_METHOD.index();
  private static final KnowledgeIndex ACTS = Kind.Maps.ACT_METHOD.index();

  /** The keyed access an operation is, or empty. */
  public static Optional<KeyedAccess> of(Program program, Op op) {
    if (op.kind() != Op.Kind.INVOKE_VIRTUAL || op.receiver() == null || op.args().isEmpty()) {
      return Optional.empty();
    }
    Optional<KnowledgeIndex.MethodEntry> check = program.match(CHECKS, op.method());
    if (check.isPresent() && op.args().size() == 1) {
      return Optional.of(
          new KeyedAccess(
              op,
              op.receiver(),
              op.arg(0),
              false,
              check.get().entry().hasAttribute("returns-value")));
    }
    Optional<KnowledgeIndex.MethodEntry> act = program.match(ACTS, op.method());
    if (act.isPresent() && op.args().size() == 2) {
      return Optional.of(new KeyedAccess(op, op.receiver(), op.arg(0), true, false));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code guard} holds exactly when this read missed: {@code get(k) == null} or {@code
   * !containsKey(k)}.
   */
  public boolean isMiss(Guard guard) {
    if (isWrite || !(guard.subject() instanceof Value.Result result) || result.op() != op.index()) {
      return false;
    }
    return returnsValue
        ? guard.test() == Guard.Test.NULL && guard.outcome()
        : guard.test() == Guard.Test.TRUE && !guard.outcome();
  }

  /** Whether an operation runs only when this read missed. */
  public boolean guardsAsMiss(Op other) {
    for (Guard guard : other.context().guards()) {
      if (isMiss(guard)) {
        return true;
      }
    }
    return false;
  }

  /** The reads and writes among a method's operations. */
  public static List<KeyedAccess> in(Program program, MethodFacts method) {
    List<KeyedAccess> accesses = new ArrayList<>();
    for (Op op : method.ops()) {
      of(program, op).ifPresent(accesses::add);
    }
    return accesses;
  }
}
