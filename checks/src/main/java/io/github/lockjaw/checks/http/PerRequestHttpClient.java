package io.github.lockjaw.checks.http;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodInvocationTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.NewClassTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.support.EntryPoints;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.Optional;
import javax.inject.Inject;
import javax.lang.model.element.ElementKind;

/**
 * An HTTP client, or an HTTP connection, created for one request and thrown away: a client built
 * inside a request method (or a loop) and closed or dropped after one exchange, {@code Connection:
 * close}, {@code HttpURLConnection.disconnect()} after each exchange, {@code http.keepAlive=false}.
 * Each request then opens a new TCP (and TLS) connection, and the server holds the old ones open
 * until their keep-alive timeout. What counts as a client is data: {@code http-clients.txt}.
 *
 * <p>Test code (a path containing {@code /src/test/}, or a class with JUnit or TestNG test methods)
 * is skipped unless {@code -XepOpt:PerRequestHttpClient:IncludeTests=true}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "HTTP client or connection created for one request and thrown away: connections are not"
            + " reused",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "PerRequestHttpClient.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class PerRequestHttpClient extends BugChecker
    implements NewClassTreeMatcher, MethodInvocationTreeMatcher {

  static final String INCLUDE_TESTS_FLAG = "PerRequestHttpClient:IncludeTests";

  private final boolean includeTests;

  public PerRequestHttpClient() {
    this(ErrorProneFlags.empty());
  }

  @Inject
  public PerRequestHttpClient(ErrorProneFlags flags) {
    this.includeTests = flags.getBoolean(INCLUDE_TESTS_FLAG).orElse(false);
  }

  @Override
  public Description matchNewClass(NewClassTree tree, VisitorState state) {
    return Resilience.orElse(() -> matchCreation(tree, state), Description.NO_MATCH);
  }

  @Override
  public Description matchMethodInvocation(MethodInvocationTree tree, VisitorState state) {
    return Resilience.orElse(() -> matchInvocation(tree, state), Description.NO_MATCH);
  }

  private Description matchInvocation(MethodInvocationTree tree, VisitorState state) {
    Description creation = matchCreation(tree, state);
    if (creation != Description.NO_MATCH) {
      return creation;
    }
    MethodSymbol method = ASTHelpers.getSymbol(tree);
    if (method == null) {
      return Description.NO_MATCH;
    }
    if (HttpClientKnowledge.isHeaderMethod(method, state)) {
      return matchConnectionClose(tree, state);
    }
    if (HttpClientKnowledge.isDisconnect(method, state)) {
      return matchDisconnect(tree, state);
    }
    if (HttpClientKnowledge.isSystemPropertySetter(method)) {
      return matchKeepAliveOff(tree, state);
    }
    return Description.NO_MATCH;
  }

  // ---- clients -------------------------------------------------------------------------------

  private Description matchCreation(ExpressionTree tree, VisitorState state) {
    TreePath path = state.getPath();
    Optional<HttpClientCreation> found = HttpClientCreation.of(tree, path, state);
    if (found.isEmpty() || skippedAsTest(state)) {
      return Description.NO_MATCH;
    }
    HttpClientCreation creation = found.get();
    if (creation.onSharedManager()) {
      return Description.NO_MATCH; // borrows pooled connections from a manager shared by all calls
    }
    Optional<HttpClientUsage> perRequest = HttpClientUsage.perRequest(path, state);
    if (perRequest.isEmpty()) {
      return matchFieldPerRequest(tree, creation, state);
    }
    HttpClientUsage usage = perRequest.get();
    MethodTree method = HttpClientUsage.enclosingMethod(path);
    if (method != null) {
      if (EntryPoints.isSetUp(method, state)) {
        return Description.NO_MATCH;
      }
      if (!usage.inLoop() && isOneShot(method, state)) {
        return Description.NO_MATCH;
      }
    }
    Optional<HoistHttpClientFix.Hoist> hoist = HoistHttpClientFix.build(creation, usage, state);
    String client = HttpClientKnowledge.simpleName(clientTypeName(creation, state));
    // Report on the declaration line of a client held in a variable, else on the creation.
    Tree reported = usage.declaration() != null ? usage.declaration() : tree;
    Description.Builder description =
        buildDescription(reported)
            .setMessage(message(new ClientPerRequest(client, creation, usage, hoist)));
    hoist.ifPresent(h -> description.addFix(h.fix()));
    return description.build();
  }

  /**
   * {@code this.client = HttpClients.createDefault();} in the method that then sends through it.
   */
  private Description matchFieldPerRequest(
      ExpressionTree tree, HttpClientCreation creation, VisitorState state) {
    Optional<FieldClientPerRequest> found = FieldClientPerRequest.of(state.getPath(), state);
    if (found.isEmpty()) {
      return Description.NO_MATCH;
    }
    MethodTree method = found.get().method();
    if (EntryPoints.isSetUp(method, state) || isOneShot(method, state)) {
      return Description.NO_MATCH;
    }
    String client = HttpClientKnowledge.simpleName(clientTypeName(creation, state));
    return buildDescription(tree)
        .setMessage(
            message(
                new FieldReassigned(
                    client,
                    found.get().field().getSimpleName().toString(),
                    method.getName().toString())))
        .build();
  }

  /** What a finding is about, for {@link #message}. */
  private sealed interface Finding {}

  /** A client created for one request (or one loop pass) and thrown away. */
  private record ClientPerRequest(
      String client,
      HttpClientCreation creation,
      HttpClientUsage usage,
      Optional<HoistHttpClientFix.Hoist> hoist)
      implements Finding {}

  /** A client field given a new client in the request method that sends through it. */
  private record FieldReassigned(String client, String field, String method) implements Finding {}

  /** A {@code Connection: close} request header. */
  private record ConnectionCloseHeader() implements Finding {}

  /** {@code HttpURLConnection.disconnect()} after one exchange. */
  private record Disconnect() implements Finding {}

  /** A keep-alive system property set to false. */
  private record KeepAliveOff(String property) implements Finding {}

  /** Every message this check reports, in one place. */
  private static String message(Finding finding) {
    return switch (finding) {
      case ClientPerRequest(
              String client,
              HttpClientCreation creation,
              HttpClientUsage usage,
              Optional<HoistHttpClientFix.Hoist> hoist) -> {
        StringBuilder message = new StringBuilder();
        message
            .append("A new ")
            .append(client)
            .append(
                usage.inLoop()
                    ? " is created on every loop iteration"
                    : " is created for one request")
            .append(creation.perCallPool() ? ", with its own connection pool," : "")
            .append(" and thrown away")
            .append(
                usage.shape() == HttpClientUsage.Shape.RESOURCE
                        || !usage.closeStatements().isEmpty()
                    ? " (closed after the exchange)"
                    : "")
            .append(
                ": no connection is reused, so every request pays a new TCP and TLS handshake and")
            .append(
                " the server holds the abandoned connections open until their keep-alive timeout.");
        if (hoist.isPresent()) {
          message
              .append(
                  " Create one client and share it: the fix moves it to the private static final")
              .append(" field '")
              .append(hoist.get().fieldName())
              .append("' and drops the per-call close.");
        } else {
          message
              .append(" Build the client once, share it (a field or an injected bean) and size its")
              .append(" connection pool (connections per route and in total) for the expected")
              .append(" concurrency.");
          creation
              .entry()
              .attribute("pool")
              .ifPresent(
                  pool ->
                      message
                          .append(
                              " This client's default connection manager serves one request at a")
                          .append(" time; give the shared client a ")
                          .append(HttpClientKnowledge.simpleName(pool))
                          .append("."));
          message.append(" ").append(noFixReason(creation));
        }
        yield message.toString();
      }
      case FieldReassigned(String client, String field, String method) ->
          "The field '"
              + field
              + "' gets a new "
              + client
              + " on every call of "
              + method
              + "(), which"
              + " then sends its request through it: the field looks shared but holds a per-request"
              + " client, so no connection is reused, every request pays a new TCP and TLS handshake, and"
              + " the previous client is dropped with its connection pool still open. Create the client"
              + " once (in the constructor or the field's initializer, or inject it) and only use it"
              + " here. (No automatic fix: other methods may read the field.)";
      case ConnectionCloseHeader() ->
          "'Connection: close' makes the server close the connection after this response, so"
              + " the next request opens a new TCP and TLS connection instead of reusing this one."
              + " Remove the header and let keep-alive reuse the connection (with"
              + " HttpURLConnection: read the response stream to the end and close it; with a"
              + " client library: share one pooled client). (No automatic fix: the header may be"
              + " there on purpose for one server.)";
      case Disconnect() ->
          "disconnect() closes the socket instead of returning it to the JDK keep-alive cache,"
              + " so every request opens a new TCP and TLS connection. Read the response stream"
              + " (or the error stream) to the end and close() it, and do not call disconnect():"
              + " the JDK then reuses the connection for the next request to the same host"
              + " (up to http.maxConnections per host). (No automatic fix: the stream handling"
              + " around it must change too.)";
      case KeepAliveOff(String name) ->
          "Setting "
              + name
              + "=false turns HTTP keep-alive off for the whole JVM: every"
              + " HttpURLConnection request opens a new TCP and TLS connection and the server"
              + " sees one connection per request. Remove it, read each response stream to the"
              + " end and close it, so that connections are reused. (No automatic fix.)";
    };
  }

  private static String noFixReason(HttpClientCreation creation) {
    ApiCatalog.Entry entry = creation.entry();
    if (entry.hasAttribute("impl-defined")) {
      return "(No automatic fix: pooling and thread safety depend on the implementation or"
          + " connector behind this API; share one configured instance.)";
    }
    if (!creation.threadSafe()) {
      return "(No automatic fix: this client, as created here, is not safe to share between"
          + " threads.)";
    }
    if (creation.needsLifecycle()) {
      return "(No automatic fix: the client must be started once and stopped at shutdown.)";
    }
    if (!creation.stateless()) {
      return "(No automatic fix: a shared client keeps one cookie store for all callers; build it"
          + " with disableCookieManagement() or give each request its own context.)";
    }
    if (!creation.hoistable()) {
      return "(No automatic fix: the client is configured from values that cannot move to a"
          + " static field unchanged.)";
    }
    return "(No automatic fix: lockjaw cannot move the client out of this code without changing"
        + " what it does.)";
  }

  private static String clientTypeName(HttpClientCreation creation, VisitorState state) {
    Symbol type =
        ASTHelpers.getSymbol(creation.expression()) instanceof MethodSymbol m
            ? m.getReturnType().tsym
            : null;
    if (creation.expression() instanceof NewClassTree newClass) {
      type = ASTHelpers.getSymbol(newClass.getIdentifier());
    }
    String name = HttpClientKnowledge.binaryName(type);
    return name != null ? name : creation.entry().type();
  }

  // ---- connections that cannot be reused -----------------------------------------------------

  private Description matchConnectionClose(MethodInvocationTree tree, VisitorState state) {
    if (tree.getArguments().size() != 2) {
      return Description.NO_MATCH;
    }
    String name = ASTHelpers.constValue(tree.getArguments().get(0), String.class);
    String value = ASTHelpers.constValue(tree.getArguments().get(1), String.class);
    if (!"Connection".equalsIgnoreCase(name)
        || value == null
        || !value.trim().equalsIgnoreCase("close")) {
      return Description.NO_MATCH;
    }
    ExpressionTree receiver = ASTHelpers.getReceiver(tree);
    if (receiver == null
        || !HttpClientKnowledge.isRequestType(ASTHelpers.getType(receiver), state)) {
      return Description.NO_MATCH; // a server's response, or a message lockjaw cannot place
    }
    if (skippedAsTest(state) || inOneShotFlow(state)) {
      return Description.NO_MATCH;
    }
    return buildDescription(tree).setMessage(message(new ConnectionCloseHeader())).build();
  }

  private Description matchDisconnect(MethodInvocationTree tree, VisitorState state) {
    ExpressionTree receiver = ASTHelpers.getReceiver(tree);
    if (!(receiver instanceof IdentifierTree identifier)) {
      return Description.NO_MATCH;
    }
    Symbol connection = ASTHelpers.getSymbol(identifier);
    if (connection == null || connection.getKind() != ElementKind.LOCAL_VARIABLE) {
      return Description.NO_MATCH;
    }
    TreePath path = state.getPath();
    TreePath scope = HttpClientUsage.scopeOf(path);
    if (scope == null || inCatchBlock(path, scope.getLeaf())) {
      return Description.NO_MATCH; // dropping a broken connection on an error path is fine
    }
    if (!openedHere(connection, scope.getLeaf(), state)) {
      return Description.NO_MATCH;
    }
    if (skippedAsTest(state) || inOneShotFlow(state)) {
      return Description.NO_MATCH;
    }
    return buildDescription(tree).setMessage(message(new Disconnect())).build();
  }

  private Description matchKeepAliveOff(MethodInvocationTree tree, VisitorState state) {
    if (tree.getArguments().size() != 2) {
      return Description.NO_MATCH;
    }
    String name = ASTHelpers.constValue(tree.getArguments().get(0), String.class);
    String value = ASTHelpers.constValue(tree.getArguments().get(1), String.class);
    if (name == null
        || !HttpClientKnowledge.keepAliveProperties().contains(name)
        || !"false".equalsIgnoreCase(value)
        || skippedAsTest(state)) {
      return Description.NO_MATCH;
    }
    return buildDescription(tree).setMessage(message(new KeepAliveOff(name))).build();
  }

  /** Whether the local variable is assigned from {@code url.openConnection()} in this scope. */
  private static boolean openedHere(Symbol connection, Tree scope, VisitorState state) {
    if (!HttpClientKnowledge.isUrlConnection(connection.type, state)) {
      return false;
    }
    boolean[] opened = new boolean[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        if (connection.equals(ASTHelpers.getSymbol(node)) && isOpen(node.getInitializer())) {
          opened[0] = true;
        }
        return super.visitVariable(node, null);
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        if (connection.equals(ASTHelpers.getSymbol(node.getVariable()))
            && isOpen(node.getExpression())) {
          opened[0] = true;
        }
        return super.visitAssignment(node, null);
      }

      private boolean isOpen(ExpressionTree expression) {
        return HttpClientUsage.strip(expression) instanceof MethodInvocationTree call
            && HttpClientKnowledge.isOpenConnection(ASTHelpers.getSymbol(call), state);
      }
    }.scan(scope, null);
    return opened[0];
  }

  private static boolean inCatchBlock(TreePath path, Tree scope) {
    for (TreePath p = path; p != null && p.getLeaf() != scope; p = p.getParentPath()) {
      if (p.getLeaf() instanceof CatchTree) {
        return true;
      }
    }
    return false;
  }

  /** A per-exchange shape inside main (or a CLI flow) outside a loop is a one-shot program. */
  private static boolean inOneShotFlow(VisitorState state) {
    TreePath path = state.getPath();
    MethodTree method = HttpClientUsage.enclosingMethod(path);
    if (method == null || !isOneShot(method, state)) {
      return false;
    }
    TreePath methodPath = path;
    while (methodPath != null && methodPath.getLeaf() != method) {
      methodPath = methodPath.getParentPath();
    }
    return methodPath == null || !loopBetween(path, methodPath);
  }

  private static boolean loopBetween(TreePath path, TreePath methodPath) {
    for (TreePath p = path; p != null && p != methodPath; p = p.getParentPath()) {
      if (p.getLeaf() instanceof LambdaExpressionTree || p.getLeaf() instanceof ClassTree) {
        return false;
      }
    }
    return HttpClientUsage.isInLoop(path, methodPath);
  }

  private static boolean isOneShot(MethodTree method, VisitorState state) {
    return EntryPoints.isOneShot(method, state)
        || EntryPoints.isOnlyCalledFromOneShot(method, state);
  }

  private boolean skippedAsTest(VisitorState state) {
    return !includeTests && EntryPoints.isTestCode(state);
  }
}
