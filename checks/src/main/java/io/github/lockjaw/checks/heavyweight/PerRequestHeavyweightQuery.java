package io.github.lockjaw.checks.heavyweight;

import io.github.lockjaw.checks.heavyweight.HeavyweightKnowledge.Share;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * PerRequestHeavyweightObject as a query over the model: code that requests reach builds, per call,
 * an object that is costly to build and meant to be shared ({@code new ObjectMapper()}, {@code
 * JAXBContext.newInstance}, a JAXP factory), or makes a per-call look-up that takes a lock every
 * caller shares (a logger, {@code Class.forName}); {@code heavyweight.txt} says which. The object
 * is followed to where it goes: built and dropped in the method, returned to callers that use it
 * once, or kept by an object that is itself created per request. Silent where it is kept: static
 * initialisers, fields, singletons' constructors, {@code ThreadLocal.withInitial}, {@code
 * computeIfAbsent}; and off the request path: start-up, {@code main}, tests.
 */
public final class PerRequestHeavyweightQuery implements ModelQuery {
  private static final int MAX_HOPS = 6;
  private static final Map<QueryContext, PerRequestCalls> CALLS =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * What the source fix needs: the knowledge entry, and whether the object is built and dropped in
   * the flagged method itself (only then can the method use a shared one instead).
   */
  public record Creation(KnowledgeIndex.MethodEntry entry, boolean builtAndDroppedHere) {
    /** Whether the created object may be shared, by the knowledge: a fix is possible. */
    public boolean isShareable() {
      return HeavyweightKnowledge.share(entry) != Share.NONE
          && !HeavyweightKnowledge.inLoopOnly(entry);
    }

    /** Whether it is a registry's instance (a logger): every use of it stays correct shared. */
    public boolean isRegistryInstance() {
      return HeavyweightKnowledge.share(entry) == Share.REGISTRY;
    }
  }

  /**
   * How the object ends up built once per request: the hops, the method that uses it, and how
   * requests reach that method.
   */
  private record Trace(List<String> hops, MethodFacts user, List<String> requestPath) {}

  @Override
  public String check() {
    return "PerRequestHeavyweightObject";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    if (method.isAbstract() || method.ops().isEmpty()) {
      return List.of();
    }
    PerRequestCalls calls = CALLS.computeIfAbsent(context, PerRequestCalls::new);
    List<ModelFinding> findings = new ArrayList<>();
    for (Op op : method.ops()) {
      Optional<ModelFinding> finding = findingAt(context, calls, method, op);
      if (finding.isPresent() && !reportedInEarlierConstructor(context, calls, method, op)) {
        findings.add(finding.get());
      }
    }
    return findings;
  }

  private Optional<ModelFinding> findingAt(
      QueryContext context, PerRequestCalls calls, MethodFacts method, Op op) {
    Program program = context.program();
    Optional<KnowledgeIndex.MethodEntry> costly = HeavyweightKnowledge.costly(program, op);
    if (costly.isEmpty() || method.isOnFailurePath(op)) {
      return Optional.empty(); // built per failed call, not per call
    }
    KnowledgeIndex.MethodEntry entry = costly.get();
    if (isOwnLibrary(method, entry)) {
      return Optional.empty(); // the library that provides the type builds it as part of its API
    }
    if (context.runsOnce().isOnce(method, op)) {
      return Optional.empty(); // built once, or once per key, then kept
    }
    Value created = new Value.Result(op.index());
    Optional<Trace> trace;
    if (HeavyweightKnowledge.inLoopOnly(entry)) {
      trace =
          op.context().isInLoop()
                  && ValueFate.of(program, method, created) == ValueFate.PER_CALL
                  && calls.isPerRequest(method)
              ? Optional.of(new Trace(List.of(), method, calls.requestPath(method)))
              : Optional.empty();
    } else {
      trace = trace(context, calls, method, created, 0, new HashSet<>());
    }
    if (trace.isEmpty()) {
      return Optional.empty();
    }
    boolean here = trace.get().hops().isEmpty() && trace.get().user() == method;
    return Optional.of(
        new ModelFinding(
            check(),
            method,
            -1,
            op.index(),
            op.line(),
            message(
                method,
                op,
                entry,
                trace.get(),
                calls.startsAtAnOutgoingRequest(trace.get().user())),
            trace.get().requestPath(),
            null,
            new Creation(entry, here)));
  }

  /**
   * How the object made in {@code method} (held by {@code value}) is built once per request, or
   * empty when it is kept or nothing per request builds it.
   */
  private Optional<Trace> trace(
      QueryContext context,
      PerRequestCalls calls,
      MethodFacts method,
      Value value,
      int hops,
      Set<String> seen) {
    if (hops > MAX_HOPS || !seen.add(method.ref() + " " + value)) {
      return Optional.empty();
    }
    Op producer = method.producer(value);
    if (hops > 0 && producer != null && context.runsOnce().isOnce(method, producer)) {
      return Optional.empty(); // the caller keeps what it is given, once or once per key
    }
    return switch (ValueFate.of(context.program(), method, value)) {
      case CACHED -> Optional.empty();
      case PER_CALL ->
          calls.isPerRequest(method)
              ? Optional.of(new Trace(List.of(), method, calls.requestPath(method)))
              : Optional.empty();
      case RETURNED -> {
        for (PerRequestCalls.Site site : calls.sites(method.ref())) {
          if (calls.isMemoising(site, method.ref())) {
            continue;
          }
          Optional<Trace> up =
              trace(
                  context,
                  calls,
                  site.caller(),
                  new Value.Result(site.op().index()),
                  hops + 1,
                  seen);
          if (up.isPresent()) {
            yield Optional.of(
                prepend(
                    name(method)
                        + " returns it to "
                        + site.caller().ref().display()
                        + "()"
                        + (up.get().hops().isEmpty() ? ", which uses it for one call only" : ""),
                    up.get()));
          }
        }
        yield Optional.empty();
      }
      case OBJECT_FIELD ->
          objectTrace(context, calls, method, hops, seen)
              .map(t -> prepend("each " + simple(method.ref().owner()) + " keeps its own", t));
    };
  }

  /** How an object whose constructor is {@code constructor} comes to be created per request. */
  private Optional<Trace> objectTrace(
      QueryContext context,
      PerRequestCalls calls,
      MethodFacts constructor,
      int hops,
      Set<String> seen) {
    for (PerRequestCalls.Site site : calls.sites(constructor.ref())) {
      Op op = site.op();
      if (op.kind() == Op.Kind.NEW) {
        Optional<Trace> up =
            trace(context, calls, site.caller(), new Value.Result(op.index()), hops + 1, seen);
        if (up.isPresent()) {
          return Optional.of(
              prepend(
                  site.caller().ref().display()
                      + "() creates a "
                      + (up.get().hops().isEmpty() ? "new " : "")
                      + simple(constructor.ref().owner())
                      + (up.get().hops().isEmpty() ? " every time it runs" : ""),
                  up.get()));
        }
      } else if (op.receiver() instanceof Value.This && site.caller().ref().isConstructor()) {
        // super(...) or this(...): the object is the one the calling constructor builds
        Optional<Trace> up = objectTrace(context, calls, site.caller(), hops + 1, seen);
        if (up.isPresent()) {
          return up;
        }
      }
    }
    return Optional.empty();
  }

  private static Trace prepend(String hop, Trace trace) {
    List<String> hops = new ArrayList<>();
    hops.add(hop);
    hops.addAll(trace.hops());
    return new Trace(hops, trace.user(), trace.requestPath());
  }

  /**
   * Field initialisers run in every constructor that calls {@code super(...)}: a creation there is
   * reported once, in the first such constructor that makes it per request.
   */
  private boolean reportedInEarlierConstructor(
      QueryContext context, PerRequestCalls calls, MethodFacts method, Op op) {
    if (!method.ref().isConstructor()) {
      return false;
    }
    ClassFacts owner = context.owner(method);
    if (owner == null) {
      return false;
    }
    for (MethodFacts other : owner.methods()) {
      if (other == method) {
        return false;
      }
      if (!other.ref().isConstructor()) {
        continue;
      }
      for (Op twin : other.ops()) {
        if (twin.line() == op.line()
            && twin.kind() == op.kind()
            && twin.method() != null
            && twin.method().equals(op.method())
            && findingAt(context, calls, other, twin).isPresent()) {
          return true;
        }
      }
    }
    return false;
  }

  /** Code of the library that provides the type (Jackson building its own mappers). */
  private static boolean isOwnLibrary(MethodFacts method, KnowledgeIndex.MethodEntry entry) {
    String[] parts = entry.owner().split("\\.");
    int segments = Math.min(3, parts.length - 1);
    if (segments < 2) {
      return false;
    }
    String prefix = String.join(".", List.of(parts).subList(0, segments)) + ".";
    return method.ref().owner().startsWith(prefix);
  }

  // ------------------------------------------------------------------- messages

  private static String message(
      MethodFacts method, Op op, KnowledgeIndex.MethodEntry entry, Trace trace, boolean outgoing) {
    String type = createdType(op);
    String what = HeavyweightKnowledge.words(entry, "what");
    String subject = name(method);
    StringBuilder text =
        new StringBuilder(subject.startsWith("the ") ? capitalised(subject) : subject);
    boolean lookup = op.kind() != Op.Kind.NEW && HeavyweightKnowledge.isLookup(entry);
    if (HeavyweightKnowledge.inLoopOnly(entry)) {
      text.append(" calls ")
          .append(Effects.display(op.method()))
          .append(" for every iteration of a loop (it ")
          .append(what)
          .append("; before JDK 12 under one JVM-wide lock, JDK-7092821)");
    } else if (lookup) {
      text.append(" calls ").append(Effects.display(op.method())).append(" every time it runs");
      text.append(" (it ").append(what).append(")");
    } else {
      text.append(op.kind() == Op.Kind.NEW ? " creates a new " : " builds a new ")
          .append(type)
          .append(op.kind() == Op.Kind.NEW ? "" : " with " + Effects.display(op.method()))
          .append(" every time it runs (it ")
          .append(what)
          .append(")");
    }
    if (!trace.hops().isEmpty()) {
      text.append("; ").append(String.join(", and ", trace.hops()));
    }
    String entryPoint = trace.requestPath().get(0);
    text.append(", and ")
        .append(
            outgoing
                ? "it runs once for every outgoing request: " + entryPoint
                : "requests reach it from " + entryPoint)
        .append(". ");
    text.append(advice(entry, type));
    return text.toString();
  }

  private static String advice(KnowledgeIndex.MethodEntry entry, String type) {
    String tip = HeavyweightKnowledge.words(entry, "tip");
    String product = entry.attribute("product").orElse(type);
    if (HeavyweightKnowledge.inLoopOnly(entry)) {
      return "Create one "
          + product
          + " before the loop and reuse it for each record ("
          + product
          + " is not thread-safe, so keep it local rather than in a shared field).";
    }
    return switch (HeavyweightKnowledge.share(entry)) {
      case STATIC ->
          "Build one and keep it in a private static final field: "
              + type
              + " is thread-safe once configured"
              + (tip.isEmpty() ? "." : "; " + tip + ".");
      case REGISTRY ->
          "Keep it in a private static final field: the look-up returns the same "
              + type
              + " every time.";
      case NONE -> {
        Optional<String> advice = entry.attribute("advice");
        if (advice.isPresent()) {
          yield capitalised(advice.get().replace('-', ' '))
              + ". (No automatic fix: the name may differ per call.)";
        }
        String keep = entry.attribute("keep").orElse(type);
        String perCall = entry.attribute("per-call").orElse("");
        yield "Keep one "
            + keep
            + ", built and configured once, in a static final field and call "
            + perCall
            + " on it per call: "
            + withArticle(product)
            + " is not thread-safe (or keep one "
            + product
            + " per thread in a ThreadLocal). (No automatic fix: "
            + product
            + " must not be shared.)";
      }
    };
  }

  /** {@code a Transformer}, {@code an XMLStreamWriter}: the article as the name is spoken. */
  private static String withArticle(String type) {
    return ("AEIOX".indexOf(type.charAt(0)) >= 0 ? "an " : "a ") + type;
  }

  /** The simple name of the object a creation makes: the constructed or returned type. */
  static String createdType(Op op) {
    String binary = op.kind() == Op.Kind.NEW ? op.method().owner() : op.method().returnType();
    return simple(binary);
  }

  private static String name(MethodFacts method) {
    if (method.ref().isLambdaBody()) {
      return "the lambda in " + method.enclosing().name() + "()";
    }
    if (method.ref().isConstructor()) {
      return "the " + simple(method.ref().owner()) + " constructor";
    }
    if (method.ref().isStaticInitializer()) {
      return "the static initialiser of " + simple(method.ref().owner());
    }
    return method.ref().name() + "()";
  }

  private static String simple(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1).replace('$', '.');
  }

  private static String capitalised(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
