package io.github.lockjaw.checks.polling;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.LocalStore;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;

/**
 * What a test on a loop's way out says about a polled state ({@code blocking.txt}: {@code
 * polled-state}): {@code t.isAlive()} came out false, a helper that returns {@code t.isAlive()}
 * did, a flag the loop stores the poll in did on the previous pass, no element of a stream is alive
 * any more, or a flag that a nested loop sets while an element is alive was not set.
 *
 * @param poll the polling call (for a stream, the match call; for a flag set per element, the poll
 *     in the nested loop)
 * @param polled what it polls
 * @param done whether the test says the awaited event happened (the loop can stop waiting)
 * @param shape one object, or every element of a collection
 * @param helper the helper the poll is read through, or {@code null}
 * @param flag whether the poll is read through a local flag
 * @param subject the polled object as the model names it (the helper's argument for a helper)
 */
record PolledTest(
    Op poll,
    BlockingKnowledge.PolledState polled,
    boolean done,
    Shape shape,
    MethodRef helper,
    boolean flag,
    Value subject) {

  /** How the waiting ends. */
  enum Shape {
    /** One thread, future, process, executor or latch. */
    SINGLE,
    /** Every element of a collection, polled in a nested loop or a stream. */
    EACH
  }

  private static final KnowledgeIndex POLLS = Kind.Blocking.POLLED_STATE.index();
  private static final KnowledgeIndex STREAM_MATCHES = Kind.Blocking.STREAM_MATCH.index();

  /** What {@code guard}, tested on the way out of {@code loop}, says about a poll, if anything. */
  static Optional<PolledTest> of(
      Program program, MethodFacts method, Loop loop, Guard guard, List<LocalStore> stores) {
    if (guard == null || guard.test() == Guard.Test.NULL) {
      return Optional.empty();
    }
    Op producer = method.producer(guard.subject());
    if (producer != null && producer.isCall()) {
      Optional<PolledTest> direct = direct(program, producer, guard, false);
      if (direct.isPresent()) {
        return direct;
      }
      Optional<PolledTest> helper = helper(program, producer, guard);
      if (helper.isPresent()) {
        return helper;
      }
      return stream(program, method, producer, guard);
    }
    if (guard.subject() instanceof Value.Unknown && !stores.isEmpty()) {
      Optional<PolledTest> flag = flag(program, method, stores, guard);
      return flag.isPresent() ? flag : eachFlag(program, method, loop, stores, guard);
    }
    return Optional.empty();
  }

  /** The polled state a call reads, for a virtual call without arguments. */
  static Optional<BlockingKnowledge.PolledState> polledState(Program program, Op call) {
    if (call.kind() != Op.Kind.INVOKE_VIRTUAL
        || call.receiver() == null
        || !call.args().isEmpty()
        || call.method().parameterCount() != 0) {
      return Optional.empty();
    }
    return program
        .match(POLLS, call.method())
        .map(e -> new BlockingKnowledge.PolledState(e.entry()));
  }

  /** Whether the test {@code (test, outcome)} of a value of {@code polled} says it is done. */
  static Optional<Boolean> saysDone(
      BlockingKnowledge.PolledState polled, Guard.Test test, boolean outcome) {
    return switch (polled.busy()) {
      case "true" -> test == Guard.Test.TRUE ? Optional.of(!outcome) : Optional.empty();
      case "false" -> test == Guard.Test.TRUE ? Optional.of(outcome) : Optional.empty();
      case "nonzero" -> Optional.of(!outcome); // != 0 and > 0 alike for a count
      default -> Optional.empty();
    };
  }

  private static Optional<PolledTest> direct(Program program, Op call, Guard guard, boolean flag) {
    Optional<BlockingKnowledge.PolledState> polled = polledState(program, call);
    if (polled.isEmpty()) {
      return Optional.empty();
    }
    return saysDone(polled.get(), guard.test(), guard.outcome())
        .map(
            done ->
                new PolledTest(
                    call, polled.get(), done, Shape.SINGLE, null, flag, call.receiver()));
  }

  /**
   * A helper in the program whose code returns a poll of its one parameter ({@code return
   * t.isAlive();}), or that calls {@code p.exitValue()} and returns false, and true when that
   * throws ({@code busy=throws}: the process has not exited).
   */
  private static Optional<PolledTest> helper(Program program, Op call, Guard guard) {
    if (call.args().size() != 1 || !call.method().returnType().equals("boolean")) {
      return Optional.empty();
    }
    List<MethodFacts> targets = program.targets(call);
    if (targets.size() != 1 || !isHelperKind(call, targets.get(0))) {
      return Optional.empty();
    }
    MethodFacts helper = targets.get(0);
    Op poll = null;
    Value returned = null;
    boolean returnsFalseNormally = false;
    boolean returnsTrueOnFailure = false;
    for (Op op : helper.ops()) {
      if (op.context() == Context.NONE) {
        continue;
      }
      if (op.kind() == Op.Kind.RETURN) {
        Value value = op.arg(0);
        if (op.context().inHandler()) {
          returnsTrueOnFailure |= value.equals(new Value.Constant("1"));
          continue;
        }
        if (returned != null) {
          return Optional.empty(); // more than one way back
        }
        returned = value;
        returnsFalseNormally = value.equals(new Value.Constant("0"));
        continue;
      }
      if (op.isCall() && poll == null && polledState(program, op).isPresent()) {
        poll = op;
        continue;
      }
      if (op.isCall() || op.kind() == Op.Kind.PUT_FIELD || op.kind() == Op.Kind.THROW) {
        return Optional.empty(); // does more than poll
      }
    }
    if (poll == null || !(poll.receiver() instanceof Value.Param p) || p.index() != 0) {
      return Optional.empty();
    }
    BlockingKnowledge.PolledState polled = polledState(program, poll).orElseThrow();
    boolean pollReturned =
        returned instanceof Value.Result result
            && result.op() == poll.index()
            && !polled.busy().equals("throws");
    boolean exitValueIdiom =
        polled.busy().equals("throws") && returnsFalseNormally && returnsTrueOnFailure;
    if (!pollReturned && !exitValueIdiom) {
      return Optional.empty();
    }
    Optional<Boolean> done =
        exitValueIdiom
            ? (guard.test() == Guard.Test.TRUE ? Optional.of(!guard.outcome()) : Optional.empty())
            : saysDone(polled, guard.test(), guard.outcome());
    MethodRef helperRef = helper.ref();
    return done.map(
        d -> new PolledTest(call, polled, d, Shape.SINGLE, helperRef, false, call.arg(0)));
  }

  /** A private, static or final helper: what the call runs is that code. */
  private static boolean isHelperKind(Op call, MethodFacts helper) {
    return call.kind() != Op.Kind.INVOKE_VIRTUAL
        || helper.isPrivate()
        || helper.isStatic()
        || Modifier.isFinal(helper.access());
  }

  /** {@code while (alive) { ...; alive = t.isAlive(); }}: every store is the same poll. */
  private static Optional<PolledTest> flag(
      Program program, MethodFacts method, List<LocalStore> stores, Guard guard) {
    Op poll = null;
    for (LocalStore store : stores) {
      Op producer = method.producer(store.value());
      if (producer == null || (poll != null && producer.index() != poll.index())) {
        return Optional.empty();
      }
      poll = producer;
    }
    return poll == null ? Optional.empty() : direct(program, poll, guard, true);
  }

  /**
   * A flag (or count) that each pass resets and a nested loop sets (or counts up) only while an
   * element's poll says it is busy: the loop waits until every element is done.
   */
  private static Optional<PolledTest> eachFlag(
      Program program, MethodFacts method, Loop loop, List<LocalStore> stores, Guard guard) {
    boolean reset = false;
    Op poll = null;
    BlockingKnowledge.PolledState polled = null;
    for (LocalStore store : stores) {
      if (store.value().equals(new Value.Constant("0"))
          && store.guards().stream().noneMatch(g -> pollOf(program, method, g) != null)) {
        reset = true;
        continue;
      }
      Op set = null;
      for (Guard g : store.guards()) {
        Op candidate = pollOf(program, method, g);
        if (candidate != null
            && saysDone(polledState(program, candidate).orElseThrow(), g.test(), g.outcome())
                .equals(Optional.of(false))
            && inNestedLoop(method, loop, candidate)) {
          set = candidate;
        }
      }
      if (set == null || (poll != null && set.index() != poll.index())) {
        return Optional.empty();
      }
      poll = set;
      polled = polledState(program, set).orElseThrow();
    }
    if (!reset || poll == null) {
      return Optional.empty();
    }
    // the flag is true (or the count positive) while some element is busy
    boolean done = !guard.outcome();
    Op each = poll;
    BlockingKnowledge.PolledState state = polled;
    return Optional.of(new PolledTest(each, state, done, Shape.EACH, null, true, each.receiver()));
  }

  private static Op pollOf(Program program, MethodFacts method, Guard guard) {
    Op producer = method.producer(guard.subject());
    return producer != null && polledState(program, producer).isPresent() ? producer : null;
  }

  private static boolean inNestedLoop(MethodFacts method, Loop loop, Op op) {
    List<Integer> loops = op.context().loops();
    int at = loops.indexOf(loop.id());
    return at >= 0 && at < loops.size() - 1;
  }

  /**
   * {@code threads.stream().anyMatch(Thread::isAlive)}, {@code !futures.stream().allMatch(
   * Future::isDone)}: true while some element is busy.
   */
  private static Optional<PolledTest> stream(
      Program program, MethodFacts method, Op call, Guard guard) {
    if (guard.test() != Guard.Test.TRUE || call.args().size() != 1) {
      return Optional.empty();
    }
    Optional<String> holds =
        program.match(STREAM_MATCHES, call.method()).flatMap(e -> e.attribute("holds"));
    if (holds.isEmpty() || !(call.arg(0) instanceof Value.Lambda lambda)) {
      return Optional.empty();
    }
    Optional<BlockingKnowledge.PolledState> polled = predicatePoll(program, lambda.body());
    if (polled.isEmpty() || polled.get().busy().equals("nonzero")) {
      return Optional.empty();
    }
    boolean predicateIsBusy = polled.get().busy().equals("true");
    // someBusy as a function of the match's result r: any(busy) = r, all(done) = !r, none(busy) =
    // !r
    Boolean someBusyWhenTrue =
        switch (holds.get()) {
          case "any" -> predicateIsBusy ? Boolean.TRUE : null;
          case "all" -> predicateIsBusy ? null : Boolean.FALSE;
          case "none" -> predicateIsBusy ? Boolean.FALSE : null;
          default -> null;
        };
    if (someBusyWhenTrue == null) {
      return Optional.empty();
    }
    boolean someBusy = guard.outcome() == someBusyWhenTrue;
    return Optional.of(
        new PolledTest(call, polled.get(), !someBusy, Shape.EACH, null, false, call.receiver()));
  }

  /** The poll a stream predicate makes: a method reference to it, or a lambda returning it. */
  private static Optional<BlockingKnowledge.PolledState> predicatePoll(
      Program program, MethodRef body) {
    if (!body.isLambdaBody()) {
      Op asCall = new Op(0, Op.Kind.INVOKE_VIRTUAL, body, null, Value.THIS, List.of(), null, 0);
      return polledState(program, asCall);
    }
    MethodFacts lambda = program.method(body);
    if (lambda == null) {
      return Optional.empty();
    }
    for (Op op : lambda.ops()) {
      if (op.kind() == Op.Kind.RETURN) {
        Op producer = lambda.producer(op.arg(0));
        if (producer != null && producer.receiver() instanceof Value.Param) {
          return polledState(program, producer);
        }
      }
    }
    return Optional.empty();
  }

  /** Whether a class is a record (its accessors read final fields). */
  static boolean isRecord(Program program, String className) {
    ClassFacts facts = program.classFacts(className);
    return facts != null && "java.lang.Record".equals(facts.superName());
  }
}
