package io.github.lockjaw.checks.polling;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * The cap of a polling loop bounded by a pass counter: {@code int count = 0; while (t.isAlive() &&
 * count < 100) { Thread.sleep(20); count++; }} waits at most 100 × 20 ms. The advice keeps that cap
 * ({@code t.join(2000)}), so a wait that gives up never becomes one that waits for ever.
 */
final class CappedWait {
  private CappedWait() {}

  /**
   * The most milliseconds the loop waits, when its condition is {@code poll && counter < N} (or
   * {@code <=}), its body sleeps a constant {@code Thread.sleep(P)} and counts {@code counter++}
   * once per pass, and the counter starts from a constant in the statement before the loop.
   */
  static Optional<Long> millis(TreePath loopPath) {
    if (!(loopPath.getLeaf() instanceof WhileLoopTree loop)
        || !(loop.getStatement() instanceof BlockTree body)) {
      return Optional.empty();
    }
    ExpressionTree condition = ASTHelpers.stripParentheses(loop.getCondition());
    if (!(condition instanceof BinaryTree and) || and.getKind() != Tree.Kind.CONDITIONAL_AND) {
      return Optional.empty();
    }
    ExpressionTree bound = ASTHelpers.stripParentheses(and.getRightOperand());
    if (!(bound instanceof BinaryTree compare)
        || (compare.getKind() != Tree.Kind.LESS_THAN
            && compare.getKind() != Tree.Kind.LESS_THAN_EQUAL)) {
      return Optional.empty();
    }
    Symbol counter = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(compare.getLeftOperand()));
    Long limit = intConstant(compare.getRightOperand());
    if (counter == null || counter.getKind() != ElementKind.LOCAL_VARIABLE || limit == null) {
      return Optional.empty();
    }
    Long start = initialValue(loopPath, counter);
    Long pause = null;
    int increments = 0;
    for (StatementTree statement : body.getStatements()) {
      if (!(statement instanceof ExpressionStatementTree expression)) {
        return Optional.empty();
      }
      ExpressionTree e = expression.getExpression();
      if (e instanceof UnaryTree unary
          && (unary.getKind() == Tree.Kind.POSTFIX_INCREMENT
              || unary.getKind() == Tree.Kind.PREFIX_INCREMENT)
          && counter.equals(ASTHelpers.getSymbol(unary.getExpression()))) {
        increments++;
      } else if (e instanceof MethodInvocationTree call
          && isThreadSleep(call)
          && pause == null
          && call.getArguments().size() == 1) {
        Object constant = ASTHelpers.constValue(call.getArguments().get(0));
        pause =
            constant instanceof Number n
                    && !(constant instanceof Double)
                    && !(constant instanceof Float)
                ? Long.valueOf(n.longValue())
                : null;
        if (pause == null) {
          return Optional.empty();
        }
      } else {
        return Optional.empty(); // other work: the cap is not passes × pause
      }
    }
    if (start == null || pause == null || increments != 1) {
      return Optional.empty();
    }
    long passes = limit - start + (compare.getKind() == Tree.Kind.LESS_THAN_EQUAL ? 1 : 0);
    return passes > 0 && pause > 0 ? Optional.of(passes * pause) : Optional.empty();
  }

  private static boolean isThreadSleep(MethodInvocationTree call) {
    Symbol method = ASTHelpers.getSymbol(call);
    return method != null
        && method.getSimpleName().contentEquals("sleep")
        && method.owner != null
        && method.owner.getQualifiedName().contentEquals("java.lang.Thread");
  }

  /** The constant the counter is declared with in the statement just before the loop. */
  private static Long initialValue(TreePath loopPath, Symbol counter) {
    TreePath parent = loopPath.getParentPath();
    if (parent == null || !(parent.getLeaf() instanceof BlockTree block)) {
      return null;
    }
    List<? extends StatementTree> statements = block.getStatements();
    int index = statements.indexOf(loopPath.getLeaf());
    if (index > 0
        && statements.get(index - 1) instanceof VariableTree variable
        && counter.equals(ASTHelpers.getSymbol(variable))
        && variable.getInitializer() != null) {
      return intConstant(variable.getInitializer());
    }
    return null;
  }

  private static Long intConstant(ExpressionTree tree) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof LiteralTree literal && literal.getValue() instanceof Number number) {
      return number.longValue();
    }
    return null;
  }
}
