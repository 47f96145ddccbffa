package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * A client field given a new client on every call of a request method: {@code this.client =
 * HttpClients.createDefault();} as a plain statement of a method that then sends a request through
 * {@code this.client}. The field looks shared but holds a per-request client: every call opens new
 * connections and drops the previous client with its pool.
 *
 * <p>Not this: an assignment under a condition (lazy initialisation {@code if (client == null)}, a
 * rebuild when a setting changed), in a {@code catch} or {@code finally} block (a rebuild after a
 * failure), in a loop, a lambda or a nested class, in a constructor, or in a method that sends no
 * request through the field (a setter, {@code init()}, {@code reconnect()}).
 *
 * @param field the client field
 * @param method the request method that assigns it
 */
record FieldClientPerRequest(Symbol field, MethodTree method) {

  /** The field reassignment {@code creationPath} is part of, if it is one per request. */
  static Optional<FieldClientPerRequest> of(TreePath creationPath, VisitorState state) {
    TreePath current = creationPath;
    TreePath parentPath = current.getParentPath();
    while (parentPath.getLeaf() instanceof ParenthesizedTree
        || parentPath.getLeaf() instanceof TypeCastTree) {
      current = parentPath;
      parentPath = parentPath.getParentPath();
    }
    if (!(parentPath.getLeaf() instanceof AssignmentTree assignment)
        || assignment.getExpression() != current.getLeaf()
        || !(parentPath.getParentPath().getLeaf() instanceof ExpressionStatementTree)) {
      return Optional.empty();
    }
    Symbol field = ASTHelpers.getSymbol(assignment.getVariable());
    if (field == null
        || field.getKind() != ElementKind.FIELD
        || !isOwnField(assignment.getVariable())) {
      return Optional.empty();
    }
    MethodTree method = unconditionalIn(parentPath.getParentPath());
    if (method == null || method.getBody() == null) {
      return Optional.empty();
    }
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    if (symbol == null || symbol.isConstructor() || symbol.isStatic() != field.isStatic()) {
      return Optional.empty();
    }
    if (!sendsThrough(field, method, assignment, state)) {
      return Optional.empty();
    }
    return Optional.of(new FieldClientPerRequest(field, method));
  }

  /** {@code client} or {@code this.client}: not a field of another object. */
  private static boolean isOwnField(ExpressionTree target) {
    if (target instanceof IdentifierTree) {
      return true;
    }
    return target instanceof MemberSelectTree select
        && select.getExpression() instanceof IdentifierTree receiver
        && receiver.getName().contentEquals("this");
  }

  /**
   * The method whose body runs the statement at {@code statement} on every call: only blocks, try
   * bodies, synchronized blocks and labels lie between them. Null otherwise.
   */
  private static MethodTree unconditionalIn(TreePath statement) {
    Tree child = statement.getLeaf();
    for (TreePath p = statement.getParentPath(); p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof MethodTree method) {
        return method.getBody() == child ? method : null;
      }
      boolean plain =
          leaf instanceof BlockTree
              || leaf instanceof LabeledStatementTree
              || (leaf instanceof SynchronizedTree sync && sync.getBlock() == child)
              || (leaf instanceof TryTree tryTree && tryTree.getBlock() == child);
      if (!plain) {
        return null; // if, loop, switch, catch, finally, lambda, class...
      }
      child = leaf;
    }
    return null;
  }

  /** Whether the method sends a request through the field after assigning it. */
  private static boolean sendsThrough(
      Symbol field, MethodTree method, AssignmentTree assignment, VisitorState state) {
    int assignedAt = ASTHelpers.getStartPosition(assignment);
    boolean[] sends = new boolean[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        ExpressionTree receiver = ASTHelpers.getReceiver(call);
        if (receiver != null
            && ASTHelpers.getStartPosition(call) > assignedAt
            && field.equals(ASTHelpers.getSymbol(HttpClientUsage.strip(receiver)))
            && isOwnField(HttpClientUsage.strip(receiver))
            && HttpClientKnowledge.isRequestMethod(ASTHelpers.getSymbol(call), state)) {
          sends[0] = true;
        }
        return super.visitMethodInvocation(call, null);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null; // may run later, on another thread
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null;
      }
    }.scan(method.getBody(), null);
    return sends[0];
  }
}
