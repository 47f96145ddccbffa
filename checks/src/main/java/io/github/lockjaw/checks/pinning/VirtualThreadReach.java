package io.github.lockjaw.checks.pinning;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which methods run on virtual threads: the tasks the program hands to a virtual-thread executor,
 * builder or factory ({@link VirtualThreadValues}), or starts with {@code
 * Thread.startVirtualThread}, and what they call (through helpers, superclasses, implementations,
 * lambdas run on the spot; not tasks they hand to other executors); and, when the server runs
 * request handlers on virtual threads (the program gives Tomcat or Jetty a virtual-thread executor,
 * or the build says so: Spring Boot's {@code spring.threads.virtual.enabled}), every method
 * requests reach. Each has a reason, which a finding's message names.
 */
final class VirtualThreadReach {
  private static final KnowledgeIndex STARTS = Kind.EntryPoints.VIRTUAL_THREAD_START.index();
  private static final KnowledgeIndex REQUEST_EXECUTORS =
      Kind.EntryPoints.VIRTUAL_REQUEST_EXECUTOR.index();
  private static final KnowledgeIndex REQUEST_SWITCHES =
      Kind.EntryPoints.VIRTUAL_REQUEST_SWITCH.index();

  private final Program program;
  private final Effects effects;
  private final VirtualThreadValues values;

  /** For each task root, how it is started: {@code "Jobs.runAll() hands %s to X"}. */
  private final Map<MethodRef, String> reason = new HashMap<>();

  private final Map<MethodRef, MethodRef> parent = new HashMap<>();
  private String requestsOnVirtualThreads;

  VirtualThreadReach(QueryContext context) {
    this.program = context.program();
    this.effects = context.effects();
    this.values = new VirtualThreadValues(program);
    Deque<MethodRef> work = new ArrayDeque<>();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        for (Op op : m.ops()) {
          if (op.isCall()) {
            roots(m, op, work);
          }
        }
      }
    }
    while (!work.isEmpty()) {
      MethodRef ref = work.poll();
      MethodFacts method = program.method(ref);
      if (method == null) {
        continue;
      }
      for (Op op : method.ops()) {
        if (!op.isCall()) {
          continue;
        }
        List<MethodRef> next = new ArrayList<>();
        for (MethodFacts target : program.targets(op)) {
          next.add(target.ref());
        }
        if (!effects.isHandOff(op.method())) {
          next.addAll(effects.runnablesPassed(method, op)); // lambdas run on the spot
        }
        for (MethodRef callee : next) {
          if (program.isAnalysed(callee.owner())
              && !reason.containsKey(callee)
              && !parent.containsKey(callee)) {
            parent.put(callee, ref);
            work.add(callee);
          }
        }
      }
    }
  }

  /** The tasks {@code op} starts on virtual threads, and whether it puts requests on them. */
  private void roots(MethodFacts method, Op op, Deque<MethodRef> work) {
    String where = method.ref().display() + "()";
    if (program.match(STARTS, op.method()).isPresent()) {
      for (MethodRef task : tasks(method, op)) {
        root(task, where + " starts %s with " + VirtualThreadValues.display(op.method()), work);
      }
      return;
    }
    if (effects.isHandOff(op.method())) {
      Optional<String> source = virtualOperand(method, op);
      if (source.isPresent()) {
        for (MethodRef task : tasks(method, op)) {
          root(task, where + " hands %s to " + source.get(), work);
        }
      }
      return;
    }
    if (program.match(REQUEST_EXECUTORS, op.method()).isPresent()
        && virtualOperand(method, op).isPresent()) {
      requestsOnVirtualThreads =
          "request handlers run on virtual threads: "
              + where
              + " gives the server "
              + virtualOperand(method, op).get();
    } else if (program.match(REQUEST_SWITCHES, op.method()).isPresent()
        && op.args().size() == 1
        && op.arg(0) instanceof Value.Constant constant
        && (constant.text().equals("true") || constant.text().equals("1"))) {
      requestsOnVirtualThreads =
          "request handlers run on virtual threads: "
              + where
              + " calls "
              + VirtualThreadValues.display(op.method())
              + " with true";
    }
  }

  private Optional<String> virtualOperand(MethodFacts method, Op op) {
    if (op.receiver() != null) {
      Optional<String> source = values.sourceOf(method, op.receiver());
      if (source.isPresent()) {
        return source;
      }
    }
    for (Value arg : op.args()) {
      Optional<String> source = values.sourceOf(method, arg);
      if (source.isPresent()) {
        return source;
      }
    }
    return Optional.empty();
  }

  private void root(MethodRef task, String why, Deque<MethodRef> work) {
    if (program.isAnalysed(task.owner()) && !reason.containsKey(task)) {
      reason.put(task, why);
      parent.remove(task);
      work.add(task);
    }
  }

  /**
   * The code a hand-off runs: lambdas and anonymous classes given to it, and the {@code run()} or
   * {@code call()} of an object of a named class created for it (or of {@code this}).
   */
  private List<MethodRef> tasks(MethodFacts method, Op op) {
    Set<MethodRef> tasks = new LinkedHashSet<>(effects.runnablesPassed(method, op));
    for (Value arg : op.args()) {
      String type = null;
      if (arg instanceof Value.This) {
        type = method.ref().owner();
      } else if (method.producer(arg) instanceof Op created && created.kind() == Op.Kind.NEW) {
        type = created.method().owner();
      }
      if (type == null) {
        continue;
      }
      for (MethodRef entry :
          List.of(
              new MethodRef(type, "run", "()V"),
              new MethodRef(type, "call", "()Ljava/lang/Object;"),
              new MethodRef(type, "get", "()Ljava/lang/Object;"))) {
        MethodFacts resolved = program.resolve(entry);
        if (resolved != null && !resolved.isAbstract()) {
          tasks.add(resolved.ref());
        }
      }
    }
    return List.copyOf(tasks);
  }

  /**
   * Why {@code method} runs on virtual threads, or empty; {@code requestsConfigured}: the build
   * says request handlers (and scheduled and async tasks) run on them.
   */
  Optional<String> why(
      MethodFacts method, Reachability reachability, Optional<String> requestsConfigured) {
    if (reason.containsKey(method.ref()) || parent.containsKey(method.ref())) {
      return Optional.of(path(method.ref()));
    }
    Set<Reachability.Origin> origins = reachability.originsOf(method.ref());
    if (requestsOnVirtualThreads != null && origins.contains(Reachability.Origin.REQUEST)) {
      return Optional.of(requestsOnVirtualThreads);
    }
    if (requestsConfigured.isPresent()
        && (origins.contains(Reachability.Origin.REQUEST)
            || origins.contains(Reachability.Origin.BACKGROUND))) {
      return requestsConfigured;
    }
    return Optional.empty();
  }

  /**
   * {@code Jobs.runAll() hands Task.run() to Executors.newVirtualThreadPerTaskExecutor(), and
   * Task.run() calls Store.save()}: how a task started on a virtual thread reaches the method.
   */
  private String path(MethodRef method) {
    List<String> calls = new ArrayList<>();
    MethodRef current = method;
    int guard = 0;
    while (parent.containsKey(current) && guard++ < 20) {
      MethodRef caller = parent.get(current);
      calls.add(0, caller.display() + "() calls " + current.display() + "()");
      current = caller;
    }
    String task = current.isLambdaBody() ? "a lambda" : current.display() + "()";
    return reason.getOrDefault(current, "%s runs on a virtual thread").formatted(task)
        + (calls.isEmpty() ? "" : ", and " + String.join(", ", calls));
  }
}
