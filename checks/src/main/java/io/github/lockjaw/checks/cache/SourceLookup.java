package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
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
