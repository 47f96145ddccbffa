package io.github.lockjaw.checks.heavyweight;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which methods run once per request, from the model's reachability: a method requests reach, not
 * only through code that caches what it builds (a lambda given to {@code ThreadLocal.withInitial}
 * or {@code computeIfAbsent}, a {@code ThreadLocal.initialValue()} override), from a framework
 * entry point (a handler, filter, listener) or from a method that sends an HTTP request on every
 * call through a client it keeps; not from a library's public API alone, whose callers may call it
 * once.
 */
final class PerRequestCalls {
  private static final KnowledgeIndex REQUEST_METHODS = Kind.HttpClients.REQUEST_METHOD.index();
  private static final KnowledgeIndex CLIENT_CREATIONS =
      KnowledgeIndex.of(
          Kind.HttpClients.CLIENT_FACTORY,
          Kind.HttpClients.CLIENT_BUILD_METHOD,
          Kind.HttpClients.CLIENT_BUILDER_START);

  /** A call of a method: the calling method and the operation. */
  record Site(MethodFacts caller, Op op) {}

  private final QueryContext context;
  private final Program program;
  private final Map<MethodRef, List<Site>> methodReferenceSites = new HashMap<>();
  private final Map<MethodRef, Boolean> perRequest = new HashMap<>();

  /** For a method found per request: the caller that makes it so ({@code null} at an entry). */
  private final Map<MethodRef, MethodRef> via = new HashMap<>();

  /** For a method found per request because it sends a request on every call: what it sends. */
  private final Map<MethodRef, Effects.Effect> sends = new HashMap<>();

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
    // the outermost method that sends a request is the one a message names (OpenFgaApi.check(),
    // not the retry helper it calls), so callers are asked first
    Optional<Effects.Effect> send = requestSentThroughAKeptClient(method);
    send.ifPresent(effect -> sends.put(method.ref(), effect));
    return send.isPresent();
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
    Effects.Effect send = sends.get(current);
    path.add(
        0,
        current.display()
            + "()"
            + (send == null
                ? ""
                : ", which sends an HTTP request on every call ("
                    + send.chainText(current.owner())
                    + ")"));
    return path;
  }

  /**
   * Whether the request path of {@code method} starts at a method that sends a request per call.
   */
  boolean startsAtAnOutgoingRequest(MethodFacts method) {
    MethodRef current = method.ref();
    for (int guard = 0; guard < 50 && via.containsKey(current); guard++) {
      current = via.get(current);
    }
    return sends.containsKey(current);
  }

  /**
   * The request a method sends on every call through an HTTP client it keeps or is given, not one
   * it builds: a client's operation (an SDK's {@code check()}, {@code getOrder()}) runs once for
   * each request it sends, so what it builds per call is built per request, whoever calls it. A
   * method that builds its own client for the exchange (a configuration fetched once) is not one.
   */
  private Optional<Effects.Effect> requestSentThroughAKeptClient(MethodFacts method) {
    for (Effects.Effect effect : context.effects().summary(method.ref())) {
      Effects.Step last = effect.chain().get(effect.chain().size() - 1);
      if (effect.kind() != Effects.EffectKind.BLOCKING_IO
          || last.callee() == null
          || program.match(REQUEST_METHODS, last.callee()).isEmpty()) {
        continue;
      }
      MethodFacts sender = program.method(last.in());
      if (sender != null
          && last.op() < sender.ops().size()
          && !isBuiltHere(sender, sender.ops().get(last.op()).receiver())) {
        return Optional.of(effect);
      }
    }
    return Optional.empty();
  }

  /** Whether the client {@code value} is created in {@code method}: constructed or built there. */
  private boolean isBuiltHere(MethodFacts method, Value client) {
    if (!(client instanceof Value.Result)) {
      return false; // a field, a parameter: a client kept for many requests
    }
    Op producer = method.producer(client);
    return producer == null
        || producer.method() == null
        || producer.kind() == Op.Kind.NEW
        || program.match(CLIENT_CREATIONS, producer.method()).isPresent();
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
