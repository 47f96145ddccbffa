package io.github.lockjaw.checks.polling;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreeScanner;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.List;
import java.util.Optional;

/**
 * How a polling loop is left: the exit test in its body ({@code if (done) break;}, {@code if (busy)
 * {...} else return x;}) and whether anything else leaves it.
 */
final class LoopExits {

  /**
   * An {@code if} in the loop body that leaves the loop: {@code condition} (taken as is when {@code
   * exitOnTrue}, negated otherwise) ends the wait; {@code rest} is the other branch, if any.
   */
  record ExitTest(
      ExpressionTree condition, boolean exitOnTrue, StatementTree exit, StatementTree rest) {}

  private LoopExits() {}

  /** Recognises {@code if (done) break;}, {@code if (busy) {...} else break;} and return forms. */
  static Optional<ExitTest> exitTest(StatementTree s) {
    if (!(s instanceof IfTree ifTree)) {
      return Optional.empty();
    }
    StatementTree thenPart = unwrap(ifTree.getThenStatement());
    StatementTree elsePart =
        ifTree.getElseStatement() == null ? null : unwrap(ifTree.getElseStatement());
    if (isExit(thenPart)) {
      return Optional.of(
          new ExitTest(ifTree.getCondition(), true, thenPart, ifTree.getElseStatement()));
    }
    if (elsePart != null && isExit(elsePart)) {
      return Optional.of(
          new ExitTest(ifTree.getCondition(), false, elsePart, ifTree.getThenStatement()));
    }
    return Optional.empty();
  }

  private static StatementTree unwrap(StatementTree s) {
    if (s instanceof BlockTree block && block.getStatements().size() == 1) {
      return block.getStatements().get(0);
    }
    return s;
  }

  private static boolean isExit(StatementTree s) {
    return (s instanceof BreakTree b && b.getLabel() == null) || s instanceof ReturnTree;
  }

  /**
   * break, return or throw in {@code body} other than the recognised exit test; the catch of {@code
   * interruptTry} (may be null) does not count: the fix keeps or reproduces that catch.
   */
  static boolean hasOtherExits(List<StatementTree> body, TryTree interruptTry) {
    boolean[] found = {false};
    // the Integer is how many loops and switches (which a plain break leaves) enclose the node
    TreeScanner<Void, Integer> scanner =
        new TreeScanner<>() {
          @Override
          public Void scan(Tree node, Integer nested) {
            if (node instanceof BreakTree b) {
              found[0] |= b.getLabel() != null || nested == 0;
            } else if (node instanceof ContinueTree c) {
              found[0] |= c.getLabel() != null;
            } else if (node instanceof ReturnTree || node instanceof ThrowTree) {
              found[0] = true;
            } else if (node instanceof YieldTree || MoreTrees.DEFERRED_CODE.test(node)) {
              // leaves only a switch expression, or runs elsewhere
            } else if (node instanceof WhileLoopTree
                || node instanceof DoWhileLoopTree
                || node instanceof ForLoopTree
                || node instanceof EnhancedForLoopTree
                || node instanceof SwitchTree
                || node instanceof SwitchExpressionTree) {
              return super.scan(node, nested + 1);
            } else {
              return super.scan(node, nested);
            }
            return null;
          }
        };
    for (StatementTree s : body) {
      if (s == interruptTry) {
        scanner.scan(interruptTry.getBlock(), 0);
        continue; // its catch may leave; the fix keeps or reproduces that catch
      }
      scanner.scan(s, 0);
    }
    return found[0];
  }
}
