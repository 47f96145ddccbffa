package io.github.lockjaw.checks.polling;

import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.LocalStore;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.LoopExit;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * ThreadAliveBusyWait as a query over the model: a loop that is left when a polled state says the
 * awaited event happened ({@code Thread.isAlive()} false, {@code Future.isDone()} true, a latch's
 * count zero; read directly, through a helper in any class, through a flag the loop stores it in,
 * or for every element of a collection) and does nothing between polls but pause briefly or work
 * that does not block. Silent when a pass blocks, calls code lockjaw cannot see, or sleeps a
 * watchdog interval; when the polled object changes from pass to pass; and for waits that only
 * set-up, shutdown or test code reaches ({@link SetUpOnly}).
 */
public final class BusyWaitQuery implements ModelQuery {

  @Override
  public String check() {
    return "ThreadAliveBusyWait";
  }

  /** A way out of the loop: a jump out, or a {@code return} or {@code throw} in it. */
  private record Way(List<Guard> guards, List<LocalStore> stores, int returnOp) {
    Guard deciding() {
      return guards.isEmpty() ? null : guards.get(guards.size() - 1);
    }
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    List<ModelFinding> findings = new ArrayList<>();
    if (method.loops().isEmpty()) {
      return findings;
    }
    Program program = context.program();
    for (Loop loop : method.loops()) {
      Optional<BusyWait> found = analyse(program, method, loop);
      if (found.isEmpty() || SetUpOnly.holds(context, method)) {
        continue;
      }
      BusyWait wait = found.get();
      Op poll = method.ops().get(wait.poll());
      findings.add(
          new ModelFinding(
              check(),
              method,
              -1,
              wait.poll(),
              poll.line() > 0 ? poll.line() : loop.line(),
              wait.message(modelSubject(method, wait), "the collection", 0, null),
              context.reachability().requestPath(method.ref()),
              null,
              wait));
    }
    return findings;
  }

  static Optional<BusyWait> analyse(Program program, MethodFacts method, Loop loop) {
    List<Way> ways = ways(method, loop);
    Way exit = null;
    PolledTest test = null;
    for (Way way : ways) {
      Optional<PolledTest> read =
          PolledTest.of(program, method, loop, way.deciding(), way.stores());
      if (read.isEmpty()) {
        continue;
      }
      if (!read.get().done()) {
        return Optional.empty(); // left while the event is still pending: another kind of loop
      }
      if (test == null) {
        exit = way;
        test = read.get();
      }
    }
    if (test == null || !in(test.poll(), loop)) {
      return Optional.empty();
    }
    if (test.shape() == PolledTest.Shape.SINGLE && !stable(program, method, loop, test)) {
      return Optional.empty();
    }
    Set<Integer> polling = new HashSet<>();
    polling.add(test.poll().index());
    if (test.shape() == PolledTest.Shape.SINGLE) {
      producers(method, test.subject(), polling, 0);
    }
    for (Op op : method.ops()) {
      if (in(op, loop) && PassWork.isPause(program, op)) {
        for (Value arg : op.args()) {
          producers(method, arg, polling, 0); // Duration.ofMillis(10): how long, not work
        }
      }
    }
    PassWork.Work work = PassWork.Work.SPIN;
    for (Op op : method.ops()) {
      if (!in(op, loop) || polling.contains(op.index()) || afterTheWait(op, exit, test)) {
        continue;
      }
      work = work.max(PassWork.of(program, method, op));
    }
    if (work.ordinal() >= PassWork.Work.SLOW.ordinal()) {
      return Optional.empty();
    }
    boolean onlyWaits =
        test.shape() == PolledTest.Shape.SINGLE && ways.size() == 1 && work == PassWork.Work.SPIN;
    return Optional.of(
        new BusyWait(
            loop.id(),
            loop.line(),
            test.poll().index(),
            test.polled(),
            test.shape(),
            test.subject(),
            test.helper(),
            test.flag(),
            work,
            onlyWaits,
            exit.returnOp()));
  }

  /** The calls that compute the polled object ({@code movers.get(0)}, {@code job.thread()}). */
  private static void producers(MethodFacts method, Value value, Set<Integer> into, int depth) {
    Op producer = method.producer(value);
    if (producer == null || depth > 4 || !into.add(producer.index())) {
      return;
    }
    producers(method, producer.receiver(), into, depth + 1);
    for (Value arg : producer.args()) {
      producers(method, arg, into, depth + 1);
    }
  }

  private static List<Way> ways(MethodFacts method, Loop loop) {
    List<Way> ways = new ArrayList<>();
    for (LoopExit exit : loop.exits()) {
      ways.add(new Way(exit.guards(), exit.stores(), -1));
    }
    for (Op op : method.ops()) {
      if ((op.kind() == Op.Kind.RETURN || op.kind() == Op.Kind.THROW)
          && op.context() != Context.NONE
          && !op.context().inHandler()
          && in(op, loop)) {
        ways.add(
            new Way(
                op.context().guards(), List.of(), op.kind() == Op.Kind.RETURN ? op.index() : -1));
      }
    }
    return ways;
  }

  private static boolean in(Op op, Loop loop) {
    return op.context().loops().contains(loop.id());
  }

  /** An operation that runs only once the poll said done: on the way out, not on each pass. */
  private static boolean afterTheWait(Op op, Way exit, PolledTest test) {
    Guard deciding = exit.deciding();
    return deciding != null
        && test.shape() == PolledTest.Shape.SINGLE
        && !test.flag()
        && op.context().guards().contains(deciding);
  }

  /**
   * Whether the polled object is the same on every pass: the call does not read a local the loop
   * assigns, the loop does not store the field it reads, and a receiver computed by a call is a
   * collection element or a record component of stable objects.
   */
  private static boolean stable(Program program, MethodFacts method, Loop loop, PolledTest test) {
    if (loop.varying().contains(test.poll().index())) {
      return false;
    }
    return stableValue(program, method, loop, test.subject(), 0);
  }

  private static boolean stableValue(
      Program program, MethodFacts method, Loop loop, Value value, int depth) {
    if (value == null || depth > 4) {
      return false;
    }
    if (value instanceof Value.FieldValue field) {
      for (Op op : method.ops()) {
        if (op.kind() == Op.Kind.PUT_FIELD && in(op, loop) && op.field().equals(field.field())) {
          return false;
        }
      }
      return field.base() == null || stableValue(program, method, loop, field.base(), depth + 1);
    }
    Op producer = method.producer(value);
    if (producer == null || !in(producer, loop)) {
      return true; // this, a parameter, a captured value, a value computed before the loop
    }
    if (!producer.isCall() || loop.varying().contains(producer.index())) {
      return false;
    }
    boolean accessor =
        producer.kind() != Op.Kind.INVOKE_STATIC
            && producer.method().parameterCount() == 0
            && PolledTest.isRecord(program, producer.method().owner());
    boolean element =
        producer.kind() == Op.Kind.INVOKE_VIRTUAL
            && producer.method().name().equals("get")
            && PassWork.isNonBlocking(program, producer.method())
            && !PassWork.blocks(program, producer.method());
    if (!accessor && !element) {
      return false; // Thread.currentThread(), a factory: not the same object on every pass
    }
    for (Value arg : producer.args()) {
      if (!stableValue(program, method, loop, arg, depth + 1)) {
        return false;
      }
    }
    return stableValue(program, method, loop, producer.receiver(), depth + 1);
  }

  /** The polled object as the bytecode engine names it: a field, or the polled type. */
  private static String modelSubject(MethodFacts method, BusyWait wait) {
    Value subject = wait.subject();
    if (subject instanceof Value.This) {
      return "";
    }
    if (subject instanceof Value.FieldValue field) {
      return field.field().name() + ".";
    }
    return wait.polled().typeSimpleName() + ".";
  }
}
