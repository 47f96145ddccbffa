package io.github.lockjaw.model;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What calls do, composed across the program: a call's own effect from the knowledge files (a JDBC
 * statement, a socket connect, a class-path lookup, a wait), and the effects of the methods it may
 * run, through helpers, superclasses in other files or jars, implementations behind interfaces and
 * lambdas run on the spot. Each effect keeps its chain of calls. Code in {@code catch} clauses of a
 * callee (a failure path) does not count.
 */
public final class Effects {
  /** The kinds of effect the checks ask about. */
  public enum EffectKind {
    /** JDBC, JNDI, sockets, HTTP: waiting on another host. */
    BLOCKING_IO,
    /** Class-path, jar, servlet-context or file-tree lookups. */
    RESOURCE_LOOKUP,
    /** Waiting for another thread: join, Future.get, a blocking queue, a latch. */
    BLOCKING_WAIT,
    /** Sleeping: Thread.sleep, TimeUnit.sleep, parkNanos. */
    SLEEP
  }

  /**
   * One call of a chain: where it is and what it calls.
   *
   * @param in the calling method
   * @param op the call's operation index in it
   * @param line the call's line
   * @param callee the called method
   * @param call the call as people read it, e.g. {@code DataSource.getConnection()}
   */
  public record Step(MethodRef in, int op, int line, MethodRef callee, String call) {
    /**
     * The call as a message names it: a method of the class the chain starts in by its name ({@code
     * candidates()}), others with their class ({@code File.listFiles()}).
     */
    public String callFrom(String className) {
      return callee != null && callee.owner().equals(className) && !callee.isConstructor()
          ? callee.name() + "()"
          : call;
    }
  }

  /**
   * An effect and how it is reached: the first step is the call in the method asked about, the last
   * the call that has the effect.
   *
   * @param what the effect's call as people read it, e.g. {@code DataSource.getConnection()}
   * @param entry the knowledge entry that names it ({@code null} for a connecting constructor)
   */
  public record Effect(
      EffectKind kind, String what, KnowledgeIndex.MethodEntry entry, List<Step> chain) {
    /** {@code load() → fetch() → DataSource.getConnection()}, as read from {@code className}. */
    public String chainText(String className) {
      return String.join(" → ", calls(className));
    }

    /** Each call of the chain as a message names it, read from {@code className}. */
    public List<String> calls(String className) {
      List<String> parts = new ArrayList<>();
      for (Step step : chain) {
        parts.add(step.callFrom(className));
      }
      return parts;
    }
  }

  private static final KnowledgeIndex BLOCKING_IO =
      KnowledgeIndex.of(
          Kind.Jdbc.CONNECTION_SOURCE,
          Kind.Jdbc.DATABASE_CALL,
          Kind.Io.NETWORK_CALL,
          Kind.Pools.OBJECT_FACTORY_CALL,
          Kind.Pools.CONNECTION_FACTORY_CALL,
          Kind.HttpClients.REQUEST_METHOD);
  private static final List<String> CONNECTING_TYPES =
      Kind.Io.CONNECTING_CONSTRUCTOR.index().typeNames();
  private static final KnowledgeIndex LOOKUPS = Kind.Resources.RESOURCE_LOOKUP.index();
  private static final KnowledgeIndex WAITS = Kind.Blocking.BLOCKING_CALL.index();
  private static final KnowledgeIndex SLEEPS = Kind.Blocking.SPIN_CALL.index();
  private static final KnowledgeIndex HAND_OFFS = Kind.EntryPoints.TASK_HAND_OFF.index();

  private final Program program;
  private final Map<MethodRef, List<Effect>> summaries = new HashMap<>();
  private final Set<MethodRef> inProgress = new HashSet<>();

  public Effects(Program program) {
    this.program = program;
  }

  public Program program() {
    return program;
  }

  /** The effect of the call itself, from the knowledge files; empty for other operations. */
  public Optional<Effect> direct(MethodFacts method, Op op) {
    if (!op.isCall()) {
      return Optional.empty();
    }
    MethodRef call = op.method();
    if (op.kind() == Op.Kind.NEW) {
      Optional<String> connecting = program.matchType(CONNECTING_TYPES, call.owner());
      if (connecting.isPresent() && !call.descriptor().startsWith("()")) {
        return Optional.of(
            effect(
                EffectKind.BLOCKING_IO, null, method, op, "new " + simple(call.owner()) + "(…)"));
      }
      return Optional.empty();
    }
    Optional<KnowledgeIndex.MethodEntry> io = program.match(BLOCKING_IO, call);
    if (io.isPresent()) {
      return Optional.of(effect(EffectKind.BLOCKING_IO, io.get(), method, op, display(call)));
    }
    Optional<KnowledgeIndex.MethodEntry> lookup = program.match(LOOKUPS, call);
    if (lookup.isPresent()) {
      return Optional.of(
          effect(EffectKind.RESOURCE_LOOKUP, lookup.get(), method, op, display(call)));
    }
    Optional<KnowledgeIndex.MethodEntry> wait = program.match(WAITS, call);
    if (wait.isPresent() && hasMinimumArgs(wait.get(), call)) {
      return Optional.of(effect(EffectKind.BLOCKING_WAIT, wait.get(), method, op, display(call)));
    }
    Optional<KnowledgeIndex.MethodEntry> sleep = program.match(SLEEPS, call);
    if (sleep.isPresent() && !sleep.get().attribute("duration").orElse("").equals("none")) {
      return Optional.of(effect(EffectKind.SLEEP, sleep.get(), method, op, display(call)));
    }
    return Optional.empty();
  }

  private static boolean hasMinimumArgs(KnowledgeIndex.MethodEntry entry, MethodRef call) {
    Optional<String> min = entry.attribute("min-args");
    return min.isEmpty() || call.parameterCount() >= Integer.parseInt(min.get());
  }

  private static Effect effect(
      EffectKind kind, KnowledgeIndex.MethodEntry entry, MethodFacts method, Op op, String what) {
    return new Effect(
        kind,
        what,
        entry,
        List.of(new Step(method.ref(), op.index(), op.line(), op.method(), what)));
  }

  /**
   * Everything a call may do: its own effect, the effects of the methods it may run, and of the
   * lambdas and anonymous objects it is given, unless it hands them to another thread.
   */
  public List<Effect> of(MethodFacts method, Op op) {
    List<Effect> effects = new ArrayList<>();
    direct(method, op).ifPresent(effects::add);
    if (!op.isCall()) {
      return effects;
    }
    Step step = new Step(method.ref(), op.index(), op.line(), op.method(), display(op.method()));
    for (MethodFacts target : program.targets(op)) {
      if (Lifecycle.isConfigurationName(target.ref().name())) {
        continue; // deploying, registering, refreshing: set-up work, not part of the call's cost
      }
      for (Effect inner : summary(target.ref())) {
        if (inner.chain().size() < MAX_CHAIN) {
          effects.add(prefixed(step, inner));
        }
      }
    }
    if (!isHandOff(op.method())) {
      for (MethodRef body : runnablesPassed(method, op)) {
        for (Effect inner : summary(body)) {
          if (inner.chain().size() < MAX_CHAIN) {
            effects.add(prefixed(step, inner));
          }
        }
      }
    }
    return effects;
  }

  /**
   * The most calls a chain may have. Longer chains (a lookup ten calls away) are in code that runs
   * under conditions lockjaw cannot see through, behind dispatch it over-approximates: no evidence.
   */
  public static final int MAX_CHAIN = 5;

  /** Whether a call runs its task argument on another thread ({@code task-hand-off}). */
  public boolean isHandOff(MethodRef call) {
    return program.match(HAND_OFFS, call).isPresent();
  }

  /** Whether a call schedules its task argument on a timer ({@code task-hand-off scheduled}). */
  public boolean isScheduling(MethodRef call) {
    return program
        .match(HAND_OFFS, call)
        .map(e -> e.entry().hasAttribute("scheduled"))
        .orElse(false);
  }

  /**
   * The code a call is given to run: lambda bodies among its arguments, and the methods of
   * anonymous or local classes created in this method and passed to it.
   */
  public List<MethodRef> runnablesPassed(MethodFacts method, Op op) {
    List<MethodRef> bodies = new ArrayList<>();
    List<Value> values = new ArrayList<>();
    List<String> parameters = Descriptors.parameterTypes(op.method().descriptor());
    boolean platform = program.isPlatformClass(op.method().owner());
    for (int i = 0; i < op.args().size(); i++) {
      // a JDK method that takes an Object (list.add(task)) keeps the task; it does not run it
      if (!(platform && i < parameters.size() && parameters.get(i).equals("java.lang.Object"))) {
        values.add(op.args().get(i));
      }
    }
    if (op.receiver() != null) {
      values.add(op.receiver());
    }
    for (Value arg : values) {
      if (arg instanceof Value.Lambda lambda) {
        bodies.add(lambda.body());
      } else if (arg instanceof Value.Result result && result.op() != op.index()) {
        Op created = method.producer(result);
        if (created == null || created.kind() != Op.Kind.NEW) {
          continue;
        }
        boolean local = isLocalClass(created.method().owner());
        ClassFacts passed = program.classFacts(created.method().owner());
        if (passed == null) {
          continue;
        }
        for (MethodFacts m : passed.methods()) {
          // an anonymous or local object is there for its code; a named one for its task method
          if (!m.ref().isConstructor()
              && !m.ref().isStaticInitializer()
              && (local || isTaskMethod(m.ref()))) {
            bodies.add(m.ref());
          }
        }
      }
    }
    return bodies;
  }

  /** {@code run()} of a Runnable or a thread, {@code call()} of a Callable. */
  private static boolean isTaskMethod(MethodRef method) {
    return (method.name().equals("run") && method.descriptor().equals("()V"))
        || (method.name().equals("call") && method.descriptor().equals("()Ljava/lang/Object;"));
  }

  private static boolean isLocalClass(String name) {
    int dollar = name.lastIndexOf('$');
    return dollar >= 0 && dollar + 1 < name.length() && Character.isDigit(name.charAt(dollar + 1));
  }

  private static Effect prefixed(Step step, Effect inner) {
    List<Step> chain = new ArrayList<>(inner.chain().size() + 1);
    chain.add(step);
    chain.addAll(inner.chain());
    return new Effect(inner.kind(), inner.what(), inner.entry(), chain);
  }

  /**
   * The effects of a method's code, composed through the methods it calls, on its normal paths (not
   * in {@code catch} clauses). At most one effect per kind and call, the first found.
   */
  public List<Effect> summary(MethodRef ref) {
    List<Effect> known = summaries.get(ref);
    if (known != null) {
      return known;
    }
    MethodFacts method = program.method(ref);
    if (method == null || !inProgress.add(ref)) {
      return List.of(); // unknown code, or a cycle: what the cycle does is found at its head
    }
    List<Effect> effects = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    try {
      for (Op op : method.ops()) {
        if (!op.isCall() || op.context().inHandler()) {
          continue;
        }
        for (Effect effect : of(method, op)) {
          if (seen.add(effect.kind() + " " + op.index())) {
            effects.add(effect);
          }
        }
      }
    } finally {
      inProgress.remove(ref);
    }
    List<Effect> result = List.copyOf(effects);
    summaries.put(ref, result);
    return result;
  }

  /** {@code DataSource.getConnection()}. */
  public static String display(MethodRef call) {
    return call.isConstructor() ? "new " + simple(call.owner()) + "()" : call.display() + "()";
  }

  private static String simple(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1).replace('$', '.');
  }
}
