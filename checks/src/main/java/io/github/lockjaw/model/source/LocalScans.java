package io.github.lockjaw.model.source;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import java.util.HashSet;
import java.util.Set;

/** Scans of a statement that the source front-end needs before it reads the statement. */
final class LocalScans {
  private LocalScans() {}

  /** The locals a statement assigns (declared outside it or in it), not in lambdas or classes. */
  static Set<Symbol> assignedLocals(Tree tree) {
    Set<Symbol> assigned = new HashSet<>();
    new TreeScanner<Void, Void>() {
      private void add(ExpressionTree target) {
        if (target instanceof IdentifierTree) {
          Symbol symbol = TreeInfo.symbol((JCTree) target);
          if (symbol != null && symbol.owner instanceof Symbol.MethodSymbol) {
            assigned.add(symbol);
          }
        }
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        add(node.getVariable());
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        add(node.getVariable());
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              add(node.getExpression());
          default -> {}
        }
        return super.visitUnary(node, unused);
      }

      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        Symbol symbol = TreeInfo.symbolFor((JCTree) node);
        if (symbol != null) {
          assigned.add(symbol);
        }
        return super.visitVariable(node, unused);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null;
      }
    }.scan(tree, null);
    return assigned;
  }

  /**
   * Whether the body of a loop (or a labeled statement) has a {@code break} that leaves it: an
   * unlabeled one outside nested loops and switches, or one naming {@code label}.
   */
  static boolean breaksOut(Tree body, String label) {
    boolean[] found = {false};
    new TreeScanner<Void, Integer>() {
      @Override
      public Void visitBreak(BreakTree node, Integer depth) {
        if (node.getLabel() == null
            ? depth == 0
            : node.getLabel().contentEquals(label == null ? "" : label)) {
          found[0] = true;
        }
        return null;
      }

      @Override
      public Void visitWhileLoop(WhileLoopTree node, Integer depth) {
        return super.visitWhileLoop(node, depth + 1);
      }

      @Override
      public Void visitDoWhileLoop(DoWhileLoopTree node, Integer depth) {
        return super.visitDoWhileLoop(node, depth + 1);
      }

      @Override
      public Void visitForLoop(ForLoopTree node, Integer depth) {
        return super.visitForLoop(node, depth + 1);
      }

      @Override
      public Void visitEnhancedForLoop(EnhancedForLoopTree node, Integer depth) {
        return super.visitEnhancedForLoop(node, depth + 1);
      }

      @Override
      public Void visitSwitch(SwitchTree node, Integer depth) {
        return super.visitSwitch(node, depth + 1);
      }

      @Override
      public Void visitSwitchExpression(SwitchExpressionTree node, Integer depth) {
        return super.visitSwitchExpression(node, depth + 1);
      }

      @Override
      public Void visitLabeledStatement(LabeledStatementTree node, Integer depth) {
        return super.visitLabeledStatement(node, depth);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Integer depth) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Integer depth) {
        return null;
      }
    }.scan(body, 0);
    return found[0];
  }
}
