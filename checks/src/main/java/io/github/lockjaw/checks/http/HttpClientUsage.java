package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * The fix's view of a client the query found per request: the trees that hold it (its variable,
 * each use, the statements that close it), which {@link HoistHttpClientFix} rewrites. Empty when
 * the trees show a shape the fix cannot rewrite with certainty (the client escapes, or is
 * captured).
 */
public final class HttpClientUsage {
  /** Where the new client lives. */
  public enum Shape {
    /** used directly: {@code HttpClients.createDefault().execute(get)} */
    INLINE,
    /** a local variable */
    LOCAL_VARIABLE,
    /** a try-with-resources resource */
    RESOURCE
  }

  private final Shape shape;
  private final TreePath creationPath;
  private final TreePath scope;
  private final VariableTree declaration;
  private final TreePath declarationPath;
  private final Symbol variable;
  private final List<TreePath> uses = new ArrayList<>();
  private final List<TreePath> closeStatements = new ArrayList<>();
  private boolean tornDown;
  private boolean closedInExpression;
  private boolean sent;
  private boolean passed;
  private boolean escaped;
  private boolean nested;
  private boolean reassigned;

  private HttpClientUsage(
      Shape shape,
      TreePath creationPath,
      TreePath scope,
      VariableTree declaration,
      TreePath declarationPath,
      Symbol variable) {
    this.shape = shape;
    this.creationPath = creationPath;
    this.scope = scope;
    this.declaration = declaration;
    this.declarationPath = declarationPath;
    this.variable = variable;
  }

  public Shape shape() {
    return shape;
  }

  /** The local variable declaration holding the client (LOCAL_VARIABLE, RESOURCE); else null. */
  public VariableTree declaration() {
    return declaration;
  }

  public TreePath declarationPath() {
    return declarationPath;
  }

  /** The paths of the variable's uses (identifiers). */
  public List<TreePath> uses() {
    return uses;
  }

  /** Statements {@code client.close();} or {@code closeQuietly(client);}. */
  /** Whether the code ends a part of the client ({@code client.connectionPool().evictAll()}). */
  public boolean tornDown() {
    return tornDown;
  }

  public List<TreePath> closeStatements() {
    return closeStatements;
  }

  /** Whether the client is closed somewhere other than a plain statement. */
  public boolean closedInExpression() {
    return closedInExpression;
  }

  public boolean reassigned() {
    return reassigned;
  }

  /** The method or lambda whose body holds the creation. */
  public TreePath scope() {
    return scope;
  }

  public TreePath creationPath() {
    return creationPath;
  }

  /**
   * The usage of the client created at {@code creationPath} if it is created for one request and
   * thrown away; empty if it escapes, is not used for a request, or the shape is not understood.
   */
  public static Optional<HttpClientUsage> of(TreePath creationPath, VisitorState state) {
    TreePath scope = scopeOf(creationPath);
    if (scope == null) {
      return Optional.empty(); // a field initializer or an initializer block: set-up code
    }
    TreePath current = creationPath;
    while (true) {
      TreePath parentPath = current.getParentPath();
      Tree parent = parentPath.getLeaf();
      if (parent instanceof ParenthesizedTree || parent instanceof TypeCastTree) {
        current = parentPath;
        continue;
      }
      if (parent instanceof MemberSelectTree select
          && parentPath.getParentPath().getLeaf() instanceof MethodInvocationTree call
          && call.getMethodSelect() == select) {
        MethodSymbol method = ASTHelpers.getSymbol(call);
        if (HttpClientKnowledge.isRequestMethod(method, state)) {
          HttpClientUsage usage =
              new HttpClientUsage(Shape.INLINE, creationPath, scope, null, null, null);
          return Optional.of(usage);
        }
        if (HttpClientKnowledge.isFluentClientMethod(method, state)) {
          current = parentPath.getParentPath();
          continue;
        }
        return Optional.empty();
      }
      if (parent instanceof VariableTree variableTree
          && variableTree.getInitializer() == current.getLeaf()) {
        Symbol symbol = ASTHelpers.getSymbol(variableTree);
        if (symbol == null) {
          return Optional.empty();
        }
        Shape shape;
        if (symbol.getKind() == ElementKind.RESOURCE_VARIABLE) {
          shape = Shape.RESOURCE;
        } else if (symbol.getKind() == ElementKind.LOCAL_VARIABLE) {
          shape = Shape.LOCAL_VARIABLE;
        } else {
          return Optional.empty();
        }
        return analyse(
            new HttpClientUsage(shape, creationPath, scope, variableTree, parentPath, symbol),
            state);
      }
      if (parent instanceof AssignmentTree assignment
          && assignment.getExpression() == current.getLeaf()) {
        Symbol symbol = ASTHelpers.getSymbol(assignment.getVariable());
        if (symbol == null || symbol.getKind() != ElementKind.LOCAL_VARIABLE) {
          return Optional.empty();
        }
        HttpClientUsage usage =
            new HttpClientUsage(Shape.LOCAL_VARIABLE, creationPath, scope, null, null, symbol);
        usage.reassigned = true; // declared apart from its creation: no fix
        return analyse(usage, state);
      }
      return Optional.empty();
    }
  }

  private static Optional<HttpClientUsage> analyse(HttpClientUsage usage, VisitorState state) {
    Tree scopeLeaf = usage.scope.getLeaf();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        if (usage.variable.equals(ASTHelpers.getSymbol(node))) {
          usage.uses.add(getCurrentPath());
          usage.classify(getCurrentPath(), scopeLeaf, state);
        }
        return null;
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        Symbol target = ASTHelpers.getSymbol(node.getVariable());
        if (usage.variable.equals(target) && node.getExpression() != usage.creationPath.getLeaf()) {
          usage.reassigned = true;
          scan(node.getExpression(), null);
          return null;
        }
        if (usage.variable.equals(target)) {
          scan(node.getExpression(), null);
          return null;
        }
        return super.visitAssignment(node, null);
      }
    }.scan(usage.scope, null);

    boolean closed =
        usage.shape == Shape.RESOURCE
            || !usage.closeStatements.isEmpty()
            || usage.closedInExpression;
    if (usage.escaped || (usage.passed && !closed) || (usage.nested && !closed)) {
      return Optional.empty();
    }
    if (usage.sent || (closed && usage.passed)) {
      return Optional.of(usage);
    }
    return Optional.empty();
  }

  /** Classifies one use of the variable (or of a fluent call on it). */
  private void classify(TreePath use, Tree scopeLeaf, VisitorState state) {
    if (crossesNestedCode(use, scopeLeaf)) {
      nested = true;
    }
    TreePath current = use;
    TreePath parentPath = current.getParentPath();
    while (parentPath.getLeaf() instanceof ParenthesizedTree
        || parentPath.getLeaf() instanceof TypeCastTree) {
      current = parentPath;
      parentPath = parentPath.getParentPath();
    }
    Tree parent = parentPath.getLeaf();
    Tree leaf = current.getLeaf();
    if (parent instanceof MemberSelectTree select
        && parentPath.getParentPath().getLeaf() instanceof MethodInvocationTree call
        && call.getMethodSelect() == select) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (HttpClientKnowledge.isRequestMethod(method, state)) {
        sent = true;
      } else if (HttpClientKnowledge.isCloseMethod(method, state)) {
        recordClose(parentPath.getParentPath());
      } else if (HttpClientKnowledge.isFluentClientMethod(method, state)) {
        classify(parentPath.getParentPath(), scopeLeaf, state);
      } else if (tearsDownAPart(parentPath.getParentPath(), state)) {
        tornDown = true;
      }
      return;
    }
    if (parent instanceof MemberSelectTree) {
      return; // a field of the client, e.g. client.params
    }
    if (parent instanceof MethodInvocationTree call && call.getArguments().contains(leaf)) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (method != null && HttpClientKnowledge.isCloseHelper(method)) {
        recordClose(parentPath);
      } else {
        passed = true;
      }
      return;
    }
    if (parent instanceof NewClassTree newClass && newClass.getArguments().contains(leaf)) {
      passed = true;
      return;
    }
    if (parent instanceof AssignmentTree assignment && assignment.getVariable() == leaf) {
      return; // reassignment, recorded by the scanner
    }
    if (parent instanceof BinaryTree || parent instanceof InstanceOfTree) {
      return; // client == null, client instanceof Closeable
    }
    if (parent instanceof MemberReferenceTree) {
      nested = true;
      return;
    }
    escaped = true; // returned, stored, aliased, or a shape lockjaw does not follow
  }

  /**
   * Whether a call on the client, such as {@code client.dispatcher()}, is the start of a chain that
   * ends a part of it: {@code client.dispatcher().executorService().shutdown()}.
   */
  private static boolean tearsDownAPart(TreePath callPath, VisitorState state) {
    TreePath current = callPath;
    while (current.getParentPath().getLeaf() instanceof MemberSelectTree select
        && current.getParentPath().getParentPath().getLeaf() instanceof MethodInvocationTree call
        && call.getMethodSelect() == select) {
      current = current.getParentPath().getParentPath();
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (method != null && HttpClientKnowledge.isTeardownMethod(method, state)) {
        return true;
      }
    }
    return false;
  }

  private void recordClose(TreePath callPath) {
    Tree parent = callPath.getParentPath().getLeaf();
    if (parent instanceof ExpressionStatementTree) {
      closeStatements.add(callPath.getParentPath());
    } else {
      closedInExpression = true;
    }
  }

  /** Whether {@code use} sits in a lambda, method reference or class nested in the scope. */
  private static boolean crossesNestedCode(TreePath use, Tree scopeLeaf) {
    for (TreePath p = use; p != null && p.getLeaf() != scopeLeaf; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof LambdaExpressionTree
          || leaf instanceof ClassTree
          || leaf instanceof MemberReferenceTree) {
        return true;
      }
    }
    return false;
  }

  /** The nearest enclosing method or lambda, or null when a class body is reached first. */
  static TreePath scopeOf(TreePath path) {
    for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof MethodTree || leaf instanceof LambdaExpressionTree) {
        return p;
      }
      if (leaf instanceof ClassTree) {
        return null;
      }
    }
    return null;
  }

  /** The try statements whose try-block (or resources) contain {@code path}, innermost first. */
  public static List<TryTree> enclosingTryBlocks(TreePath path, Tree scopeLeaf) {
    List<TryTree> tries = new ArrayList<>();
    Tree child = path.getLeaf();
    for (TreePath p = path.getParentPath();
        p != null && p.getLeaf() != scopeLeaf;
        p = p.getParentPath()) {
      if (p.getLeaf() instanceof TryTree tryTree
          && (tryTree.getBlock() == child || tryTree.getResources().contains(child))) {
        tries.add(tryTree);
      }
      if (p.getLeaf() instanceof LambdaExpressionTree || p.getLeaf() instanceof ClassTree) {
        break;
      }
      child = p.getLeaf();
    }
    return tries;
  }

  /** The expression without parentheses and casts around it. */
  public static ExpressionTree strip(ExpressionTree tree) {
    while (tree instanceof ParenthesizedTree || tree instanceof TypeCastTree) {
      tree =
          tree instanceof ParenthesizedTree p
              ? p.getExpression()
              : ((TypeCastTree) tree).getExpression();
    }
    return tree;
  }
}
