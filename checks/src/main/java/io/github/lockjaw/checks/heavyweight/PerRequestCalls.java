package io.github.lockjaw.checks.heavyweight;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which methods run once per request, from the model's reachability: a method requests reach, not
 * only through code that caches what it builds (a lambda given to {@code ThreadLocal.withInitial}
 * or {@code computeIfAbsent}, a {@code ThreadLocal.initialValue()} override), from a framework
 * entry point (a handler, filter, listener), not only from a library's public API, whose callers
 * may call it once.
 */
final class PerRequestCalls {
  /** A call of a method: the calling method and the operation. */
  record Site(MethodFacts caller, Op op) {}

  private final QueryContext context;
  private final Program program;
  private final Map<MethodRef, List<Site>> methodReferenceSites = new HashMap<>();
  private final Map<MethodRef, Boolean> perRequest = new HashMap<>();

  /** For a method found per request: the caller that makes it so ({@code null} at an entry). */
  private final Map<MethodRef, MethodRef> via = new HashMap<>();

  private int cycles;

  PerRequestCalls(QueryContext context) {
    this.context = context;
    this.program = context.program();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        for (Op op : m.ops()) {
          if (!op.isCall()) {
            continue;
          }
          for (Value arg : op.args()) {
            if (arg instanceof Value.Lambda lambda && !lambda.body().isLambdaBody()) {
              methodReferenceSites
                  .computeIfAbsent(lambda.body(), k -> new ArrayList<>())
                  .add(new Site(m, op));
            }
          }
        }
      }
    }
  }

  /** The calls of a method in the analysed code, method references handed to calls included. */
  List<Site> sites(MethodRef method) {
    List<Site> sites = new ArrayList<>();
    for (Program.CallSite site : program.callersOf(method)) {
      sites.add(new Site(site.caller(), site.op()));
    }
    sites.addAll(methodReferenceSites.getOrDefault(method, List.of()));
    return sites;
  }

  /**
   * Whether the site hands {@code method} to a call that runs it once per key or thread: a
   * memoising call, or a helper of the program that passes it on to one ({@code
   * MapUtil.computeIfAbsent(map, key, function)}).
   */
  boolean isMemoising(Site site, MethodRef method) {
    List<Value> args = site.op().args();
    for (int i = 0; i < args.size(); i++) {
      if (!(args.get(i) instanceof Value.Lambda lambda) || !lambda.body().equals(method)) {
        continue;
      }
      if (HeavyweightKnowledge.isMemoisingCall(program, site.op().method())) {
        return true;
      }
      List<MethodFacts> targets = program.targets(site.op());
      int parameter = i;
      if (!targets.isEmpty()
          && targets.stream().allMatch(t -> passesToMemoisingCall(t, parameter))) {
        return true;
      }
    }
    return false;
  }

  private boolean passesToMemoisingCall(MethodFacts helper, int parameter) {
    for (Op op : helper.ops()) {
      if (op.isCall()
          && op.args().contains(new Value.Param(parameter))
          && HeavyweightKnowledge.isMemoisingCall(program, op.method())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code method} runs once per request: a framework entry point (a handler, filter or
   * listener) leads to it. A library's public API alone does not: in the libraries a Spring Boot
   * application deploys, the public API methods that led to a mapper or a factory built per call
   * ran at configuration time in 11 of 13 cases (a builder, a static factory, a callback of a
   * start-up event; docs/evaluation.md).
   */
  boolean isPerRequest(MethodFacts method) {
    boolean result = isPerRequest(method, new HashSet<>());
    perRequest.put(method.ref(), result);
    return result;
  }

  private boolean isPerRequest(MethodFacts method, Set<MethodRef> seen) {
    Boolean known = perRequest.get(method.ref());
    if (known != null) {
      return known;
    }
    if (!seen.add(method.ref())) {
      cycles++;
      return false; // a cycle: what it does is decided where it was entered
    }
    int cyclesBefore = cycles;
    boolean result = decide(method, seen);
    if (result || cycles == cyclesBefore) {
      perRequest.put(method.ref(), result); // a false that rests on a cycle is not
    }
    return result;
  }

  private boolean decide(MethodFacts method, Set<MethodRef> seen) {
    Reachability reachability = context.reachability();
    if (!reachability.isOnRequestPath(method.ref()) || isMemoisingOverride(method)) {
      return false;
    }
    if (isFrameworkEntry(method)) {
      return true;
    }
    for (Site site : sites(method.ref())) {
      if (!isMemoising(site, method.ref()) && isPerRequest(site.caller(), seen)) {
        via.put(method.ref(), site.caller().ref());
        return true;
      }
    }
    return false;
  }

  /**
   * How requests reach a method {@link #isPerRequest} found per request, entry point first, each
   * call after it as {@code "A.b() calls C.d()"}.
   */
  List<String> requestPath(MethodFacts method) {
    List<String> path = new ArrayList<>();
    MethodRef current = method.ref();
    for (int guard = 0; guard < 50; guard++) {
      MethodRef caller = via.get(current);
      if (caller == null) {
        break;
      }
      path.add(0, caller.display() + "() calls " + current.display() + "()");
      current = caller;
    }
    path.add(0, current.display() + "()");
    return path;
  }

  /** A handler, filter or listener method: it runs for every request, message or call. */
  boolean isFrameworkEntry(MethodFacts method) {
    if (method.ref().isLambdaBody()) {
      return false;
    }
    for (String annotation : method.annotations()) {
      if (HeavyweightKnowledge.REQUEST_ANNOTATIONS.typeNames().contains(annotation)) {
        return true;
      }
    }
    return !method.isStatic()
        && program.match(HeavyweightKnowledge.REQUEST_METHODS, method.ref()).isPresent()
        && program.match(HeavyweightKnowledge.GENERIC_INTERCEPTION, method.ref()).isEmpty();
  }

  private boolean isMemoisingOverride(MethodFacts method) {
    return !method.isStatic()
        && !method.ref().isConstructor()
        && program.match(HeavyweightKnowledge.MEMOISING_OVERRIDES, method.ref()).isPresent();
  }
}
