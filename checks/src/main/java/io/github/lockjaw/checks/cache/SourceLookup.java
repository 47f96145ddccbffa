package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.source.Origins;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * A lookup the model found, as javac trees for {@link ComputeIfAbsentFix}: the map field, the first
 * read of the key and the put.
 *
 * @param map the map field
 * @param check the first {@code get}/{@code containsKey} of the key
 * @param put the {@code put} that fills the cache
 */
record SourceLookup(VarSymbol map, MethodInvocationTree check, MethodInvocationTree put) {

  /** The trees of a lookup made by the map's own calls on a map field, where origins know them. */
  static Optional<SourceLookup> of(Lookup lookup, Origins origins) {
    MethodRef ref = lookup.method().ref();
    TreePath check = origins.op(ref, lookup.check().op().index());
    TreePath put = origins.op(ref, lookup.put().op().index());
    if (check == null
        || put == null
        || !(check.getLeaf() instanceof MethodInvocationTree checkCall)
        || !(put.getLeaf() instanceof MethodInvocationTree putCall)
        || putCall.getArguments().size() != 2) {
      return Optional.empty();
    }
    VarSymbol map = receiverField(putCall);
    return map == null || !map.equals(receiverField(checkCall))
        ? Optional.empty()
        : Optional.of(new SourceLookup(map, checkCall, putCall));
  }

  /** The key expression of the {@code put}. */
  ExpressionTree key() {
    return put.getArguments().get(0);
  }

  /** The value expression of the {@code put}. */
  ExpressionTree value() {
    return put.getArguments().get(1);
  }

  /** The field a map call is made on ({@code cache.get(k)}, {@code this.cache.get(k)}), or null. */
  static VarSymbol receiverField(MethodInvocationTree call) {
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    if (receiver == null) {
      return null;
    }
    Symbol symbol = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(receiver));
    if (symbol instanceof VarSymbol var
        && symbol.getKind() == ElementKind.FIELD
        && !symbol.getSimpleName().contentEquals("this")
        && !symbol.getSimpleName().contentEquals("super")) {
      return var;
    }
    return null;
  }

  /** Whether two key expressions denote the same key: same variable, or the same code. */
  static boolean sameKey(ExpressionTree a, ExpressionTree b, VisitorState state) {
    ExpressionTree left = ASTHelpers.stripParentheses(a);
    ExpressionTree right = ASTHelpers.stripParentheses(b);
    Symbol leftSymbol = ASTHelpers.getSymbol(left);
    Symbol rightSymbol = ASTHelpers.getSymbol(right);
    if (leftSymbol instanceof VarSymbol
        && rightSymbol instanceof VarSymbol
        && !(left instanceof MemberSelectTree)
        && !(right instanceof MemberSelectTree)) {
      return leftSymbol.equals(rightSymbol);
    }
    String leftSource = state.getSourceForNode(left);
    String rightSource = state.getSourceForNode(right);
    return leftSource != null
        && rightSource != null
        && leftSource.replaceAll("\\s+", "").equals(rightSource.replaceAll("\\s+", ""));
  }

  /** The body whose statements a region guards. */
  /**
   * The statements a fix rewrites: a synchronized method's body after its leading argument checks
   * ({@code Objects.requireNonNull(user)}, {@code if (user == null) throw ...}), which read only
   * parameters and locals and so mean the same without the lock, and which the fix leaves in place;
   * otherwise every statement of the region.
   */
  static List<? extends StatementTree> rewrittenStatementsOf(Tree regionRoot) {
    List<? extends StatementTree> statements = statementsOf(regionRoot);
    if (!(regionRoot instanceof MethodTree)) {
      return statements;
    }
    int first = 0;
    while (first < statements.size() - 1 && isArgumentCheck(statements.get(first))) {
      first++;
    }
    return statements.subList(first, statements.size());
  }

  private static boolean isArgumentCheck(StatementTree statement) {
    if (statement instanceof ExpressionStatementTree expression
        && expression.getExpression() instanceof MethodInvocationTree call
        && ASTHelpers.getSymbol(call) instanceof Symbol.MethodSymbol method
        && method.owner.getQualifiedName().contentEquals("java.util.Objects")
        && method.getSimpleName().toString().startsWith("requireNonNull")) {
      return call.getArguments().stream().allMatch(SourceLookup::readsOnlyArguments);
    }
    return statement instanceof IfTree check
        && check.getElseStatement() == null
        && readsOnlyArguments(check.getCondition())
        && (check.getThenStatement() instanceof ThrowTree
            || (check.getThenStatement() instanceof BlockTree block
                && block.getStatements().size() == 1
                && block.getStatements().get(0) instanceof ThrowTree));
  }

  /** Whether an expression reads nothing but parameters, locals and literals. */
  private static boolean readsOnlyArguments(Tree tree) {
    boolean[] other = new boolean[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol == null
            || (symbol.getKind() != ElementKind.PARAMETER
                && symbol.getKind() != ElementKind.LOCAL_VARIABLE)) {
          other[0] = true;
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        other[0] = true;
        return null;
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        other[0] = true;
        return null;
      }
    }.scan(tree, null);
    return !other[0];
  }

  static List<? extends StatementTree> statementsOf(Tree regionRoot) {
    if (regionRoot instanceof SynchronizedTree sync) {
      return sync.getBlock().getStatements();
    }
    if (regionRoot instanceof MethodTree method && method.getBody() != null) {
      return method.getBody().getStatements();
    }
    if (regionRoot instanceof LambdaExpressionTree lambda
        && lambda.getBody() instanceof BlockTree block) {
      return block.getStatements();
    }
    return List.of();
  }
}
