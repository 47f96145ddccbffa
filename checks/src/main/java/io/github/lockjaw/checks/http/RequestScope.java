package io.github.lockjaw.checks.http;

import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.Reachability.Origin;
import io.github.lockjaw.model.query.QueryContext;
import java.util.List;
import java.util.Set;

/**
 * How often code runs, as this check needs to know, decided by the model's reachability: once per
 * request (the request path, or a lambda the code hands out for others to call), once per pass of a
 * loop, or only at start-up, in a scheduled background job, for an administrator or in tests (where
 * a client made per call costs nothing under load).
 */
final class RequestScope {
  /** How often an operation runs. */
  enum Pace {
    PER_REQUEST,
    PER_LOOP_PASS
  }

  private final QueryContext context;
  private final boolean includeTests;

  RequestScope(QueryContext context, boolean includeTests) {
    this.context = context;
    this.includeTests = includeTests;
  }

  QueryContext context() {
    return context;
  }

  /** How often {@code op} of {@code method} runs, or {@code null} when not under request load. */
  Pace paceOf(MethodFacts method, Op op) {
    if (op.context().isInLoop() && loopsCount(method)) {
      return Pace.PER_LOOP_PASS;
    }
    return perRequest(method) ? Pace.PER_REQUEST : null;
  }

  /** Whether requests run the method: it is on a request path or handed out as a function. */
  boolean perRequest(MethodFacts method) {
    Reachability reachability = context.reachability();
    if (reachability.isOnRequestPath(method.ref())) {
      return true;
    }
    Set<Origin> origins = reachability.originsOf(method.ref());
    if (includeTests && origins.contains(Origin.TEST)) {
      return true;
    }
    return origins.isEmpty() && isHandedOutLambda(method);
  }

  /**
   * A loop that makes a client per pass costs connections wherever it runs, a load driver's {@code
   * main} included, except in a scheduled job, an administrator's operation or a test.
   */
  private boolean loopsCount(MethodFacts method) {
    Set<Origin> origins = context.reachability().originsOf(method.ref());
    if (origins.isEmpty()
        || origins.contains(Origin.REQUEST)
        || origins.contains(Origin.LIFECYCLE)) {
      return true;
    }
    return includeTests && origins.contains(Origin.TEST);
  }

  /**
   * A lambda body nothing in the analysed code calls or hands to a thread, written in reached code:
   * it is stored or returned, and whoever holds it calls it ({@code static final Function<URI,
   * Integer> PROBE = uri -> ...}).
   */
  private boolean isHandedOutLambda(MethodFacts method) {
    if (!method.ref().isLambdaBody() || method.enclosing() == null) {
      return false;
    }
    Set<Origin> enclosing = context.reachability().originsOf(method.enclosing());
    if (enclosing.isEmpty()) {
      return false;
    }
    return includeTests || !enclosing.equals(Set.of(Origin.TEST));
  }

  /** Whether the method is test code only. */
  boolean isTestOnly(MethodFacts method) {
    return !includeTests
        && context.reachability().originsOf(method.ref()).equals(Set.of(Origin.TEST));
  }

  /** The request path to the method, entry point first, or empty. */
  List<String> requestPath(MethodFacts method) {
    return context.reachability().requestPath(method.ref());
  }

  /**
   * The request path as a message names it: {@code OrderServlet.doGet() → Quotes.price()}, or the
   * public API entry ({@code public API: Quotes.price()}); empty when requests do not reach it.
   */
  String pathText(MethodFacts method) {
    List<String> path = requestPath(method);
    if (path.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder(path.get(0));
    for (String step : path.subList(1, path.size())) {
      int calls = step.indexOf(" calls ");
      text.append(" → ").append(calls < 0 ? step : step.substring(calls + " calls ".length()));
    }
    return text.toString();
  }
}
