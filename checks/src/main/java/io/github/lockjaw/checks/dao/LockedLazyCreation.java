package io.github.lockjaw.checks.dao;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.FieldFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A lazy creation that holds a shared monitor for its whole body and that a method handing out
 * connections ({@code connection-acquisition} in {@code jdbc.txt}: {@code DataSource#getConnection}
 * and the like) calls on every call: commons-dbcp 1.x {@code BasicDataSource}, whose {@code
 * getConnection()} is {@code createDataSource().getConnection()} and whose {@code synchronized
 * createDataSource()} tests {@code dataSource} for null under the monitor, then creates the pool
 * and opens connections. Every request takes that monitor; the first opens connections while it
 * holds it; and when the creation fails the field stays null, so every later request retries it,
 * connect timeouts included, under the lock.
 *
 * <p>Silent when the field is read before the lock is taken (the double-checked form of
 * commons-dbcp2), when the creation does no blocking I/O, and when no connection-acquisition method
 * of the class calls the creation on every call (a creation reached from {@code init()} only, or
 * behind the caller's own test).
 */
final class LockedLazyCreation {
  private static final KnowledgeIndex ACQUISITION = Kind.Jdbc.CONNECTION_ACQUISITION.index();

  /**
   * A locked lazy creation on the path of every connection.
   *
   * @param field the lazily created field
   * @param isVolatile whether the field is volatile already
   * @param io the first blocking I/O of the creation
   * @param callers the connection-acquisition methods that call the creation on every call
   */
  record Finding(String field, boolean isVolatile, Effects.Effect io, List<Caller> callers) {}

  /** A connection-acquisition method that calls the creation on every call. */
  record Caller(MethodFacts method) {}

  private LockedLazyCreation() {}

  /** The finding for a region, if it is such a creation. */
  static Optional<Finding> find(
      QueryContext context, RecurringIo io, MethodFacts method, Region region) {
    if (!region.wholeMethod() && !holdsTheRestOfTheMethod(method, region)) {
      return Optional.empty();
    }
    for (Op op : method.ops()) {
      if (!op.isIn(region.id()) || op.context().inHandler() || !op.isCall()) {
        continue;
      }
      Optional<FieldRef> field = io.once().lazyField(method, op);
      if (field.isEmpty()) {
        continue;
      }
      Optional<Effects.Effect> blocking = io.anyOf(method, op, true);
      if (blocking.isEmpty()) {
        continue;
      }
      if (readBeforeTheLock(method, region, field.get())) {
        return Optional.empty(); // double-checked: the field is read before the lock
      }
      List<Caller> callers = callersOnEveryCall(context.program(), method);
      if (callers.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          new Finding(
              field.get().name(),
              isVolatile(context.program(), field.get()),
              blocking.get(),
              callers));
    }
    return Optional.empty();
  }

  /**
   * A block that is a statement of its method's body (not inside a branch or a loop), after which
   * the method does nothing but return what the block returns, and before which it neither returns
   * nor reads the field (checked by the caller).
   */
  private static boolean holdsTheRestOfTheMethod(MethodFacts method, Region region) {
    for (Op op : method.ops()) {
      if (op.isIn(region.id())) {
        return op.context().guards().isEmpty() && op.context().loops().isEmpty();
      }
    }
    return false;
  }

  private static boolean readBeforeTheLock(MethodFacts method, Region region, FieldRef field) {
    for (Op op : method.ops()) {
      if (op.isIn(region.id())) {
        return false;
      }
      if (op.kind() == Op.Kind.RETURN
          || (op.isFieldAccess() && op.field().name().equals(field.name()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The connection-acquisition methods of the creation's class that call it on {@code this} on
   * every call: with no test, loop or {@code catch} clause around the call and no return before it.
   */
  private static List<Caller> callersOnEveryCall(Program program, MethodFacts creation) {
    List<Caller> callers = new ArrayList<>();
    ClassFacts owner = program.classFacts(creation.ref().owner());
    if (owner == null) {
      return callers;
    }
    for (MethodFacts caller : owner.methods()) {
      MethodRef ref = caller.ref();
      if (caller == creation
          || caller.isStatic()
          || caller.isAbstract()
          || ref.isLambdaBody()
          || (caller.access() & 0x1000) != 0
          || program.match(ACQUISITION, ref).isEmpty()) {
        continue;
      }
      for (Op op : caller.ops()) {
        if (op.isCall()
            && op.receiver() instanceof Value.This
            && op.context().guards().isEmpty()
            && op.context().loops().isEmpty()
            && !op.context().inHandler()
            && program.targets(op).stream().anyMatch(t -> t.ref().equals(creation.ref()))) {
          callers.add(new Caller(caller));
          break;
        }
      }
    }
    return callers;
  }

  private static boolean isVolatile(Program program, FieldRef field) {
    ClassFacts owner = program.classFacts(field.owner());
    for (int depth = 0; owner != null && depth < 8; depth++) {
      FieldFacts declared = owner.field(field.name());
      if (declared != null) {
        return declared.isVolatile();
      }
      owner = owner.superName() == null ? null : program.classFacts(owner.superName());
    }
    return false;
  }
}
