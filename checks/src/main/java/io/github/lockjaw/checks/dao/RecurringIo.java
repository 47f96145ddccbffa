package io.github.lockjaw.checks.dao;

import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.RunsOnce;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The blocking I/O (JDBC, JNDI, sockets, HTTP, a pool's factory calls: the model's {@code
 * BLOCKING_IO} effects) that code does on every call, composed across the program: through helpers,
 * superclass methods in other files or jars, the implementations behind the program's own
 * interfaces and abstract methods, and lambdas handed to the program's own methods. Left out: what
 * runs once ({@link RunsOnce}), {@code catch} clauses, tasks handed to another thread, and
 * overrides that a call on a method with a body of its own might reach (the call names that body;
 * an override somewhere is no evidence), and chains of more than {@link Effects#MAX_CHAIN} calls,
 * as the model's effects leave them out. JDK interfaces ({@code Runnable}, {@code Callable}) are
 * not followed into every implementation the program has.
 */
final class RecurringIo {
  private final Program program;
  private final Effects effects;
  private final RunsOnce once;
  private final Map<Summary, Found> summaries = new HashMap<>();
  private final Map<MethodRef, Integer> executions = new HashMap<>();
  private final Set<Summary> inProgress = new HashSet<>();
  private final Map<String, Boolean> perRequestObjects = new HashMap<>();
  private Map<String, List<Program.CallSite>> constructions;
  private final Map<String, List<MonitorScope.Member>> members = new HashMap<>();

  RecurringIo(QueryContext context) {
    this.program = context.program();
    this.effects = context.effects();
    this.once = context.runsOnce();
  }

  RunsOnce once() {
    return once;
  }

  /** The regions that hold a monitor around a class, computed once per monitor. */
  List<MonitorScope.Member> members(String key, Supplier<List<MonitorScope.Member>> compute) {
    List<MonitorScope.Member> known = members.get(key);
    if (known == null) {
      known = compute.get();
      members.put(key, known);
    }
    return known;
  }

  /** Whether a class's objects each serve one request, computed once per class. */
  boolean isPerRequestObject(QueryContext context, String className) {
    if (constructions == null) {
      constructions = MonitorScope.constructionsByClass(program);
    }
    return perRequestObjects.computeIfAbsent(
        className,
        name ->
            MonitorScope.isPerRequestObject(
                context, name, constructions.getOrDefault(name, List.of())));
  }

  /**
   * The first blocking I/O a region does on every call. Calls on {@code this} to a method without a
   * body of its own are left out: each override that does I/O is reported as running under the
   * inherited monitor ({@link InheritedTemplate}).
   */
  Optional<Effects.Effect> inRegion(MethodFacts method, Region region) {
    return inRegion(method, region, effect -> true);
  }

  /** The first blocking I/O a region does on every call that {@code counts} accepts. */
  Optional<Effects.Effect> inRegion(
      MethodFacts method, Region region, Predicate<Effects.Effect> counts) {
    String self = method.isStatic() ? null : method.ref().owner();
    for (Op op : method.ops()) {
      if (op.isIn(region.id()) && !op.context().inHandler()) {
        Optional<Effects.Effect> found = ofOp(method, op, true, self).named();
        if (found.isPresent() && counts.test(found.get())) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  /** The first blocking I/O a method does on every call. */
  Optional<Effects.Effect> inMethod(MethodRef ref) {
    return inMethod(ref, null).named();
  }

  /**
   * A method's summary for an object whose class is {@code self} or a subclass of it ({@code null}:
   * any class that has the method): calls on {@code this} in inherited code run that class's
   * overrides, not those of its sibling classes.
   */
  private record Summary(MethodRef method, String self) {}

  /**
   * What a method or a call does: its first blocking I/O in the order of the code, and the one with
   * the shortest chain. A chain of more than {@link Effects#MAX_CHAIN} calls is no evidence (each
   * call it passes through, above all each override guessed behind an interface, is a guess), so a
   * caller names the first unless its chain grows too long, and then the shortest.
   */
  private record Found(Effects.Effect first, Effects.Effect shortest) {
    static final Found NONE = new Found(null, null);

    /** The effect a message names when the chain may have at most {@code calls} calls. */
    Optional<Effects.Effect> within(int calls) {
      if (first != null && first.chain().size() <= calls) {
        return Optional.of(first);
      }
      return shortest != null && shortest.chain().size() <= calls
          ? Optional.of(shortest)
          : Optional.empty();
    }

    Optional<Effects.Effect> named() {
      return within(Effects.MAX_CHAIN);
    }

    /** This, with the effects of a later operation or target. */
    Found and(Found later) {
      Effects.Effect shorter = shortest;
      if (later.shortest != null
          && (shorter == null || later.shortest.chain().size() < shorter.chain().size())) {
        shorter = later.shortest;
      }
      return new Found(first != null ? first : later.first, shorter);
    }

    static Found of(Effects.Effect effect) {
      return new Found(effect, effect);
    }
  }

  private Found inMethod(MethodRef ref, String self) {
    Summary key = new Summary(ref, self);
    Found known = summaries.get(key);
    if (known != null) {
      return known;
    }
    MethodFacts method = program.method(ref);
    if (method == null || !inProgress.add(key)) {
      return Found.NONE; // unknown code, or a cycle: what the cycle does is found at its head
    }
    Found found = Found.NONE;
    try {
      for (Op op : method.ops()) {
        if (op.isCall() && !op.context().inHandler()) {
          found = found.and(ofOp(method, op, false, self));
          if (found.shortest() != null && found.shortest().chain().size() == 1) {
            break; // the method's own call: none comes first or is shorter
          }
        }
      }
    } finally {
      inProgress.remove(key);
    }
    summaries.put(key, found);
    return found;
  }

  private Found ofOp(MethodFacts method, Op op, boolean region, String self) {
    return once.isOnce(method, op) ? Found.NONE : anyOf(method, op, region, self);
  }

  /**
   * The blocking I/O an operation of a region does, whether or not the operation itself runs once
   * (what the code it calls does on every call of it).
   */
  Optional<Effects.Effect> anyOf(MethodFacts method, Op op, boolean region) {
    return anyOf(method, op, region, null).named();
  }

  private Found anyOf(MethodFacts method, Op op, boolean region, String self) {
    if (!op.isCall()) {
      return Found.NONE;
    }
    Optional<Effects.Effect> direct = effects.direct(method, op);
    if (direct.isPresent()) {
      return direct.get().kind() == Effects.EffectKind.BLOCKING_IO
          ? Found.of(direct.get())
          : Found.NONE;
    }
    Effects.Step step =
        new Effects.Step(
            method.ref(), op.index(), op.line(), op.method(), Effects.display(op.method()));
    boolean onThis = self != null && op.receiver() instanceof Value.This;
    List<MethodRef> code = new ArrayList<>();
    for (MethodFacts target : targets(op, region, onThis ? self : null)) {
      code.add(target.ref());
    }
    int called = code.size();
    if (!code.isEmpty() && !effects.isHandOff(op.method())) {
      code.addAll(effects.runnablesPassed(method, op));
    }
    Found found = Found.NONE;
    for (int i = 0; i < code.size(); i++) {
      Found inner = inMethod(code.get(i), onThis && i < called ? self : null);
      Effects.Effect first = inner.within(Effects.MAX_CHAIN - 1).orElse(null);
      Effects.Effect shortest = inner.shortest();
      if (shortest != null && shortest.chain().size() >= Effects.MAX_CHAIN) {
        shortest = null;
      }
      found =
          found.and(
              new Found(
                  first == null ? null : prefixed(step, first),
                  shortest == null ? null : prefixed(step, shortest)));
    }
    return found;
  }

  /**
   * The methods a call runs, as far as the program shows: the method it names when that has a body;
   * otherwise the program's implementations, unless the named type is the JDK's or, at the top of a
   * region, the call is on {@code this}.
   */
  private List<MethodFacts> targets(Op op, boolean region, String self) {
    if (isConfigurationStep(op.method().name())) {
      return List.of(); // registering, refreshing, setting a property: set-up work, not per call
    }
    if (op.kind() != Op.Kind.INVOKE_VIRTUAL) {
      return program.targets(op);
    }
    if (self != null && !(region && op.receiver() instanceof Value.This)) {
      return overridesFor(op, self);
    }
    MethodFacts declared = program.resolve(op.method());
    if (declared != null && !declared.isAbstract()) {
      return List.of(declared);
    }
    if (program.isPlatformClass(op.method().owner())
        || (region && op.receiver() instanceof Value.This)) {
      return List.of();
    }
    return program.targets(op);
  }

  /**
   * The methods a call on {@code this} runs when the object's class is {@code self} or a subclass:
   * the body {@code self} declares or inherits (as for any call that names a body, an override
   * somewhere is no evidence), or else the overrides in the analysed subclasses of {@code self}.
   */
  private List<MethodFacts> overridesFor(Op op, String self) {
    MethodRef named = op.method();
    MethodFacts own = program.resolve(new MethodRef(self, named.name(), named.descriptor()));
    if (own != null && !own.isAbstract()) {
      return List.of(own);
    }
    List<MethodFacts> found = new ArrayList<>();
    for (MethodFacts target : program.targets(op)) {
      String owner = target.ref().owner();
      if (!owner.equals(self) && program.isSubtype(owner, self) && !found.contains(target)) {
        found.add(target);
      }
    }
    return found;
  }

  /**
   * A method named for a configuration step ({@code configuration-prefix}: {@code setFactory},
   * {@code registerPool}, {@code refresh}), unless the prefix also names an operation of every call
   * on a pool or a DAO ({@code addObjectToPool}).
   */
  private static boolean isConfigurationStep(String name) {
    return !name.startsWith("<")
        && Lifecycle.isConfigurationName(name)
        && !RequestReach.isFollowedPerCallName(name);
  }

  private static Effects.Effect prefixed(Effects.Step step, Effects.Effect inner) {
    List<Effects.Step> chain = new ArrayList<>(inner.chain().size() + 1);
    chain.add(step);
    chain.addAll(inner.chain());
    return new Effects.Effect(inner.kind(), inner.what(), inner.entry(), chain);
  }

  /**
   * How many statements a region executes on every call: 0, 1, or 2 for more than one (a batch, a
   * statement in a loop, several statements).
   */
  int executions(MethodFacts method, Region region) {
    int count = 0;
    for (Op op : method.ops()) {
      if (op.isIn(region.id()) && !op.context().inHandler()) {
        count += executionsOf(method, op, true);
      }
    }
    return Math.min(count, 2);
  }

  private int executionsOf(MethodFacts method, Op op, boolean region) {
    if (!op.isCall() || once.isOnce(method, op)) {
      return 0;
    }
    Optional<Effects.Effect> direct = effects.direct(method, op);
    if (direct.isPresent()) {
      if (direct.get().entry() == null || !direct.get().entry().entry().hasAttribute("executes")) {
        return 0;
      }
      return direct.get().entry().entry().hasAttribute("batch") || op.context().isInLoop() ? 2 : 1;
    }
    int most = 0;
    for (MethodFacts target : targets(op, region, null)) {
      most = Math.max(most, executionsOfMethod(target.ref()));
    }
    return most > 0 && op.context().isInLoop() ? 2 : most;
  }

  private int executionsOfMethod(MethodRef ref) {
    Integer known = executions.get(ref);
    if (known != null) {
      return known;
    }
    executions.put(ref, 0); // a recursive call adds nothing new
    MethodFacts method = program.method(ref);
    int count = 0;
    if (method != null) {
      for (Op op : method.ops()) {
        if (!op.context().inHandler()) {
          count += executionsOf(method, op, false);
        }
      }
    }
    executions.put(ref, Math.min(count, 2));
    return Math.min(count, 2);
  }
}
