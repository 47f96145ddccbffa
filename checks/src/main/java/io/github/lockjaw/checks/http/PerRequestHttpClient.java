package io.github.lockjaw.checks.http;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import java.util.Optional;
import javax.inject.Inject;

/**
 * An HTTP client, or an HTTP connection, created for one request and thrown away: a client built in
 * code requests run (or in a loop) and closed or dropped after one exchange, a client field given a
 * new client on every call, a client built by an object that lives for one request, {@code
 * Connection: close}, {@code HttpURLConnection.disconnect()} after each exchange, a socket per
 * call, {@code http.keepAlive=false}. Each request then opens a new TCP (and TLS) connection, and
 * the server holds the old ones open until their keep-alive timeout. The query is {@link
 * PerRequestHttpClientQuery}, shared with the bytecode engine; the fix ({@link HoistHttpClientFix})
 * moves a shareable client to a static field.
 *
 * <p>Test code is skipped unless {@code -XepOpt:PerRequestHttpClient:IncludeTests=true}.
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
public final class PerRequestHttpClient extends ModelChecker {

  static final String INCLUDE_TESTS_FLAG = "PerRequestHttpClient:IncludeTests";

  private final ModelQuery query;

  public PerRequestHttpClient() {
    this(ErrorProneFlags.empty());
  }

  @Inject
  public PerRequestHttpClient(ErrorProneFlags flags) {
    this.query = new PerRequestHttpClientQuery(flags.getBoolean(INCLUDE_TESTS_FLAG).orElse(false));
  }

  @Override
  protected ModelQuery query() {
    return query;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    if (finding.detail() instanceof PerRequestHttpClientQuery.ClientDetail client
        && anchor.getLeaf() instanceof ExpressionTree creation) {
      return Resilience.orElse(
          () -> describeClient(client, creation, anchor, state),
          buildDescription(anchor.getLeaf()).setMessage(finding.message()).build());
    }
    return super.describe(finding, anchor, state);
  }

  /**
   * A client per request, reported on the declaration of the variable that holds it (or on the
   * creation when it is used inline), with the fix when the client can move to a static field.
   */
  private Description describeClient(
      PerRequestHttpClientQuery.ClientDetail client,
      ExpressionTree creation,
      TreePath origin,
      VisitorState state) {
    // the path through every enclosing tree, as the fix walks it (the model's paths may skip some)
    TreePath anchor = TreePath.getPath(state.getPath().getCompilationUnit(), creation);
    if (anchor == null) {
      anchor = origin;
    }
    Optional<HttpClientCreation> tree =
        client.creation().helper()
            ? Optional.empty()
            : HttpClientCreation.of(
                creation, anchor, client.creation().statelessConfigured(), state);
    Optional<HoistHttpClientFix.Hoist> hoist = Optional.empty();
    if (tree.isPresent()) {
      Optional<HttpClientUsage> usage = HttpClientUsage.of(anchor, state);
      if (usage.isPresent()) {
        hoist = HoistHttpClientFix.build(tree.get(), usage.get(), state);
      }
    }
    String reason = HttpMessages.noFixReason(client.creation());
    if (reason.isEmpty()) {
      reason =
          tree.isPresent() && !tree.get().hoistable()
              ? HttpMessages.NOT_HOISTABLE
              : HttpMessages.CANNOT_MOVE;
    }
    Description.Builder description =
        buildDescription(declarationOf(anchor))
            .setMessage(
                HttpMessages.clientPerRequest(
                    client.creation(),
                    client.inLoop(),
                    client.closed(),
                    hoist.map(HoistHttpClientFix.Hoist::fieldName),
                    reason,
                    client.evidence()));
    hoist.ifPresent(h -> description.addFix(h.fix()));
    return description.build();
  }

  /** The local variable declaration whose initializer the creation is, or the creation. */
  private static Tree declarationOf(TreePath creation) {
    TreePath current = creation;
    TreePath parent = current.getParentPath();
    while (parent != null
        && (parent.getLeaf() instanceof ParenthesizedTree
            || parent.getLeaf() instanceof TypeCastTree)) {
      current = parent;
      parent = parent.getParentPath();
    }
    if (parent != null
        && parent.getLeaf() instanceof VariableTree variable
        && variable.getInitializer() == current.getLeaf()) {
      return variable;
    }
    return creation.getLeaf();
  }
}
