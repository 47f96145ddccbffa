package io.github.lockjaw.checks.http;

import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PerRequestHttpClient as a query over the model: HTTP clients and connections that live for one
 * request. A client created in code requests run (or in a loop) that sends through it and lets it
 * go; a client field given a new client on every call; a client built by the constructor of an
 * object a request creates and drops; an {@code HttpURLConnection} disconnected after each exchange
 * (in the method, a helper, or its wrapper's {@code close()}); a socket opened and closed per call;
 * {@code Connection: close} on requests and {@code http.keepAlive=false}. Whether code runs per
 * request is the model's reachability: start-up, scheduled, administrative and test code is not.
 */
public final class PerRequestHttpClientQuery implements ModelQuery {
  static final String CHECK = "PerRequestHttpClient";

  private final boolean includeTests;

  /**
   * @param includeTests whether test code counts as code requests run
   */
  public PerRequestHttpClientQuery(boolean includeTests) {
    this.includeTests = includeTests;
  }

  public PerRequestHttpClientQuery() {
    this(false);
  }

  /** What the source engine needs to add its fix to a client finding. */
  record ClientDetail(ClientCreation creation, boolean inLoop, boolean closed, String evidence) {}

  @Override
  public String check() {
    return CHECK;
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    RequestScope scope = new RequestScope(context, includeTests);
    List<ModelFinding> findings = new ArrayList<>();
    if (method.isAbstract() || scope.isTestOnly(method)) {
      return findings;
    }
    clients(scope, method, findings);
    connections(scope, method, findings);
    headersAndProperties(scope, method, findings);
    return findings;
  }

  // ---- clients ---------------------------------------------------------------------------------

  private void clients(RequestScope scope, MethodFacts method, List<ModelFinding> findings) {
    Program program = scope.context().program();
    for (ClientCreation creation : ClientCreation.in(program, method)) {
      if (creation.onSharedManager()) {
        continue; // borrows pooled connections from a manager shared by all calls
      }
      ClientLifetime life = ClientLifetime.of(program, method, creation);
      if (!life.ownFieldStores.isEmpty()) {
        if (!life.escaped) {
          fieldStore(scope, method, creation, life, findings);
        }
        continue;
      }
      if (!life.isThrownAway()) {
        continue;
      }
      RequestScope.Pace pace = scope.paceOf(method, creation.op());
      if (pace == null) {
        continue;
      }
      boolean inLoop = pace == RequestScope.Pace.PER_LOOP_PASS;
      boolean closed = life.closed;
      String evidence =
          HttpMessages.evidence(creation.display(), method.ref().display(), scope.pathText(method));
      String message =
          HttpMessages.clientPerRequest(
              creation,
              inLoop,
              closed,
              Optional.empty(),
              HttpMessages.noFixReason(creation),
              evidence);
      findings.add(
          finding(
              scope,
              method,
              creation.op(),
              creation.line(),
              message,
              new ClientDetail(creation, inLoop, closed, evidence)));
    }
  }

  /** A new client stored in a field of the creating object or class. */
  private void fieldStore(
      RequestScope scope,
      MethodFacts method,
      ClientCreation creation,
      ClientLifetime life,
      List<ModelFinding> findings) {
    Program program = scope.context().program();
    String client = ClientCreation.simpleName(creation.clientType());
    if (method.ref().isConstructor()) {
      for (Op store : life.ownFieldStores) {
        if (!(store.receiver() instanceof Value.This)
            || !PerRequestObjects.sendsThrough(program, method.ref().owner(), store.field())) {
          continue;
        }
        Optional<Program.CallSite> site =
            new PerRequestObjects(scope).perRequestCreation(method.ref());
        if (site.isEmpty()) {
          return;
        }
        MethodFacts creator = site.get().caller();
        String evidence =
            HttpMessages.evidence(
                creation.display(), method.ref().display(), scope.pathText(creator));
        findings.add(
            finding(
                scope,
                method,
                creation.op(),
                HttpMessages.clientOfPerRequestObject(
                    client,
                    ClientCreation.typeDisplay(method.ref().owner()),
                    store.field().name(),
                    creator.ref().display(),
                    site.get().op().line(),
                    evidence),
                null));
        return;
      }
      return;
    }
    if (method.ref().isStaticInitializer()
        || method.ref().isLambdaBody()
        || !scope.perRequest(method)) {
      return;
    }
    for (Op store : life.ownFieldStores) {
      if (runsOnEveryCall(store) && sendsThroughLater(program, method, store)) {
        findings.add(
            finding(
                scope,
                method,
                creation.op(),
                HttpMessages.fieldReassigned(
                    client,
                    store.field().name(),
                    method.ref().name(),
                    HttpMessages.evidence(
                        creation.display(), method.ref().display(), scope.pathText(method))),
                null));
        return;
      }
    }
  }

  /** Not under a condition (lazy initialisation, a rebuild), in a loop or a catch clause. */
  private static boolean runsOnEveryCall(Op op) {
    return op.context().guards().isEmpty() && !op.context().isInLoop() && !op.context().inHandler();
  }

  private static boolean sendsThroughLater(Program program, MethodFacts method, Op store) {
    for (Op op : method.ops()) {
      if (op.index() > store.index()
          && op.receiver() instanceof Value.FieldValue held
          && held.field().equals(store.field())
          && (held.base() == null || held.base() instanceof Value.This)
          && HttpCalls.isRequest(program, op)) {
        return true;
      }
    }
    return false;
  }

  // ---- connections -----------------------------------------------------------------------------

  private void connections(RequestScope scope, MethodFacts method, List<ModelFinding> findings) {
    PerCallConnections connections = new PerCallConnections(scope.context().program());
    for (Op op : method.ops()) {
      PerCallConnections.Kind kind = connections.opens(op);
      if (kind == null) {
        continue;
      }
      Value connection = new Value.Result(op.index());
      Optional<PerCallConnections.Release> release =
          connections.releaseOf(method, connection, kind);
      if (release.isEmpty()) {
        continue;
      }
      String evidence = HttpMessages.evidence("", method.ref().display(), scope.pathText(method));
      if (kind == PerCallConnections.Kind.URL_CONNECTION) {
        Op reported =
            release.get().isDirect() ? method.ops().get(release.get().chain().get(0).op()) : op;
        if (scope.paceOf(method, reported) == null) {
          continue;
        }
        String message =
            release.get().isDirect()
                ? HttpMessages.DISCONNECT
                : HttpMessages.disconnectElsewhere(release.get().text());
        findings.add(finding(scope, method, reported, message + " " + evidence, null));
      } else {
        RequestScope.Pace pace = scope.paceOf(method, op);
        if (pace == null
            || PerCallConnections.escapes(method, connection)
            || !connections.exchangesThrough(method, connection)) {
          continue;
        }
        String socket =
            op.kind() == Op.Kind.NEW
                ? ClientCreation.typeDisplay(op.method().owner())
                : ClientCreation.typeDisplay(op.method().returnType());
        findings.add(
            finding(
                scope,
                method,
                op,
                HttpMessages.socketPerCall(
                        socket, release.get().text(), pace == RequestScope.Pace.PER_LOOP_PASS)
                    + " "
                    + evidence,
                null));
      }
    }
  }

  // ---- headers and JVM settings ----------------------------------------------------------------

  private void headersAndProperties(
      RequestScope scope, MethodFacts method, List<ModelFinding> findings) {
    Program program = scope.context().program();
    for (Op op : method.ops()) {
      if (!op.isCall() || op.args().size() != 2) {
        continue;
      }
      String name = constant(op.arg(0));
      String value = constant(op.arg(1));
      if (name == null || value == null) {
        continue;
      }
      if (name.equalsIgnoreCase("Connection")
          && value.trim().equalsIgnoreCase("close")
          && HttpCalls.isRequestHeader(program, op)
          && scope.paceOf(method, op) != null) {
        findings.add(
            finding(
                scope,
                method,
                op,
                HttpMessages.CONNECTION_CLOSE
                    + " "
                    + HttpMessages.evidence("", method.ref().display(), scope.pathText(method)),
                null));
      } else if (HttpCalls.keepAliveProperties().contains(name)
          && value.trim().equalsIgnoreCase("false")
          && HttpCalls.isSystemPropertySetter(program, op)) {
        findings.add(finding(scope, method, op, HttpMessages.keepAliveOff(name), null));
      }
    }
  }

  private static String constant(Value value) {
    return value instanceof Value.Constant constant && !constant.isNull() ? constant.text() : null;
  }

  private static ModelFinding finding(
      RequestScope scope, MethodFacts method, Op op, String message, Object detail) {
    return finding(scope, method, op, op.line(), message, detail);
  }

  private static ModelFinding finding(
      RequestScope scope, MethodFacts method, Op op, int line, String message, Object detail) {
    return new ModelFinding(
        CHECK, method, -1, op.index(), line, message, scope.requestPath(method), null, detail);
  }
}
