package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * An expression that creates a new HTTP client: {@code new OkHttpClient()}, {@code
 * HttpClients.createDefault()}, or the {@code build()} at the end of a chain that starts with a
 * fresh builder ({@code HttpClient.newBuilder()...build()}), per {@code http-clients.txt}.
 *
 * @param expression the creating expression
 * @param entry the knowledge entry of the constructor, factory or builder start
 * @param hoistable whether the whole expression uses only compile-time constants, enum constants
 *     and constant values, so that it can move to a static field unchanged
 * @param statelessConfigured whether the builder turns the client's cookie store off (the model's
 *     reading of the code around it)
 */
public record HttpClientCreation(
    ExpressionTree expression,
    ApiCatalog.Entry entry,
    boolean hoistable,
    boolean statelessConfigured) {

  /** Whether a shared instance of this client serves concurrent callers. */
  public boolean threadSafe() {
    return entry.hasAttribute("thread-safe");
  }

  /** Whether a shared instance keeps no per-caller state (cookies). */
  public boolean stateless() {
    return statelessConfigured || entry.hasAttribute("stateless");
  }

  /** Whether the client must be started and stopped around its use. */
  public boolean needsLifecycle() {
    return entry.hasAttribute("lifecycle");
  }

  /** Whether hoisting to a {@code private static final} field keeps behaviour. */
  public boolean canHoist() {
    return hoistable
        && threadSafe()
        && stateless()
        && !needsLifecycle()
        && !entry.hasAttribute("impl-defined");
  }

  /**
   * The creation that {@code tree} is, if it is one, as the fix sees it. {@code path} is the path
   * to {@code tree}; {@code statelessConfigured} is what the model read of the builder's cookie
   * settings.
   */
  public static Optional<HttpClientCreation> of(
      ExpressionTree tree, TreePath path, boolean statelessConfigured, VisitorState state) {
    if (tree instanceof NewClassTree newClass) {
      Symbol type = ASTHelpers.getSymbol(newClass.getIdentifier());
      Optional<ApiCatalog.Entry> entry = HttpClientKnowledge.clientConstructor(type);
      if (entry.isEmpty()) {
        return Optional.empty();
      }
      boolean hoistable =
          newClass.getClassBody() == null && newClass.getEnclosingExpression() == null;
      return Optional.of(
          build(tree, entry.get(), newClass.getArguments(), hoistable, false, state));
    }
    if (!(tree instanceof MethodInvocationTree invocation)) {
      return Optional.empty();
    }
    MethodSymbol method = ASTHelpers.getSymbol(invocation);
    if (method == null) {
      return Optional.empty();
    }
    Optional<ApiCatalog.Entry> factory = HttpClientKnowledge.clientFactory(method);
    if (factory.isPresent()) {
      return Optional.of(
          build(tree, factory.get(), invocation.getArguments(), true, statelessConfigured, state));
    }
    if (!HttpClientKnowledge.isBuildMethod(method, state)) {
      return Optional.empty();
    }
    // Walk the builder chain back to a fresh builder, collecting the arguments the fix would move.
    List<ExpressionTree> args = new ArrayList<>(invocation.getArguments());
    boolean followedVariable = false;
    ExpressionTree current = ASTHelpers.getReceiver(invocation);
    for (int steps = 0; current != null && steps < 64; steps++) {
      current = ASTHelpers.stripParentheses(current);
      if (current instanceof MethodInvocationTree call) {
        MethodSymbol callSymbol = ASTHelpers.getSymbol(call);
        if (callSymbol == null) {
          return Optional.empty();
        }
        args.addAll(call.getArguments());
        Optional<ApiCatalog.Entry> start = HttpClientKnowledge.builderStartMethod(callSymbol);
        if (start.isPresent()) {
          return Optional.of(
              build(tree, start.get(), args, !followedVariable, statelessConfigured, state));
        }
        if (callSymbol.isStatic()) {
          return Optional.empty();
        }
        current = ASTHelpers.getReceiver(call);
      } else if (current instanceof NewClassTree newBuilder) {
        Symbol type = ASTHelpers.getSymbol(newBuilder.getIdentifier());
        Optional<ApiCatalog.Entry> start = HttpClientKnowledge.builderStartConstructor(type);
        if (start.isEmpty()) {
          return Optional.empty();
        }
        args.addAll(newBuilder.getArguments());
        boolean hoistable =
            newBuilder.getClassBody() == null
                && newBuilder.getEnclosingExpression() == null
                && !followedVariable;
        return Optional.of(build(tree, start.get(), args, hoistable, statelessConfigured, state));
      } else if (current instanceof IdentifierTree identifier && !followedVariable) {
        // A builder held in a local variable: follow its initializer once (no fix: the builder's
        // other statements stay behind).
        Symbol variable = ASTHelpers.getSymbol(identifier);
        if (variable == null || variable.getKind() != ElementKind.LOCAL_VARIABLE) {
          return Optional.empty();
        }
        ExpressionTree initializer = localInitializer(variable, path);
        if (initializer == null) {
          return Optional.empty();
        }
        followedVariable = true;
        current = initializer;
      } else {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static HttpClientCreation build(
      ExpressionTree tree,
      ApiCatalog.Entry entry,
      List<? extends ExpressionTree> args,
      boolean hoistable,
      boolean stateless,
      VisitorState state) {
    boolean allConstant = hoistable;
    for (ExpressionTree arg : args) {
      allConstant &= isHoistableValue(arg, state);
    }
    return new HttpClientCreation(tree, entry, allConstant, stateless);
  }

  /** Whether an expression names any variable that is not a static field. */
  private static boolean mentionsVariable(Tree tree) {
    return MoreTrees.anyMatch(
        tree,
        node -> {
          if (!(node instanceof IdentifierTree identifier)) {
            return false;
          }
          Symbol symbol = ASTHelpers.getSymbol(identifier);
          return symbol != null
              && (symbol.getKind() == ElementKind.LOCAL_VARIABLE
                  || symbol.getKind() == ElementKind.PARAMETER
                  || (symbol.getKind() == ElementKind.FIELD && !symbol.isStatic()));
        });
  }

  /** Compile-time constants, enum constants, class literals, constant Durations, fresh pools. */
  static boolean isHoistableValue(ExpressionTree arg, VisitorState state) {
    ExpressionTree tree = ASTHelpers.stripParentheses(arg);
    if (tree instanceof LiteralTree) {
      return true;
    }
    if (tree instanceof IdentifierTree || tree instanceof MemberSelectTree) {
      if (tree instanceof MemberSelectTree select
          && select.getIdentifier().contentEquals("class")) {
        return true;
      }
      // A name must still mean the same in a static field of the top-level class: an enum
      // constant or a static constant, never a local or an instance field (even a final one).
      Symbol symbol = ASTHelpers.getSymbol(tree);
      return symbol != null
          && (symbol.getKind() == ElementKind.ENUM_CONSTANT
              || (symbol.getKind() == ElementKind.FIELD
                  && symbol.isStatic()
                  && ASTHelpers.constValue(tree) != null));
    }
    if (ASTHelpers.constValue(tree) != null && !mentionsVariable(tree)) {
      return true; // e.g. 10 * 1000, "ms" + "x"
    }
    if (tree instanceof MethodInvocationTree call) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      return method != null
          && HttpClientKnowledge.isHoistableArgumentFactory(method)
          && call.getArguments().stream().allMatch(a -> isHoistableValue(a, state));
    }
    if (tree instanceof NewClassTree newClass) {
      return newClass.getClassBody() == null
          && newClass.getEnclosingExpression() == null
          && HttpClientKnowledge.isConnectionPoolType(
              ASTHelpers.getSymbol(newClass.getIdentifier()))
          && newClass.getArguments().stream().allMatch(a -> isHoistableValue(a, state));
    }
    return false;
  }

  /** The initializer of a local variable declared in the method enclosing {@code path}. */
  private static ExpressionTree localInitializer(Symbol variable, TreePath path) {
    MethodTree method = ASTHelpers.findEnclosingNode(path, MethodTree.class);
    if (method == null || method.getBody() == null) {
      return null;
    }
    ExpressionTree[] found = new ExpressionTree[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        if (variable.equals(ASTHelpers.getSymbol(node))) {
          found[0] = node.getInitializer();
        }
        return super.visitVariable(node, null);
      }
    }.scan(method.getBody(), null);
    return found[0];
  }
}
