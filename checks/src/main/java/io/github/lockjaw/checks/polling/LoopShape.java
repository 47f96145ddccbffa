package io.github.lockjaw.checks.polling;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.WhileLoopTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@code while}, {@code do} or {@code for} loop taken apart: the conditions it needs to keep
 * going (from its header and its exit tests), the rest of its body, and its for-clauses.
 */
final class LoopShape {

  /** One condition the loop needs to keep going; {@code negated} when it reads {@code !expr}. */
  record Atom(ExpressionTree expr, boolean negated) {}

  private final List<StatementTree> body = new ArrayList<>();
  private final List<Atom> atoms = new ArrayList<>();
  private final List<ExpressionTree> updates = new ArrayList<>();
  private int exitIfs;
  private ReturnTree exitReturn;
  private boolean forClauses;

  private LoopShape() {}

  /**
   * The shape of {@code loop}, or empty when it is no while/do/for loop, has no body, or runs
   * forever without an exit test.
   */
  static Optional<LoopShape> of(StatementTree loop) {
    LoopShape shape = new LoopShape();
    return shape.read(loop) ? Optional.of(shape) : Optional.empty();
  }

  /** The statements of the body, without the exit tests (their other branches included). */
  List<StatementTree> body() {
    return body;
  }

  /** The conditions that must all hold for the loop to go on. */
  List<Atom> atoms() {
    return atoms;
  }

  /** The expressions of a for loop's update clause. */
  List<ExpressionTree> updates() {
    return updates;
  }

  /** How many exit tests the body has. */
  int exitIfs() {
    return exitIfs;
  }

  /** The {@code return} an exit test leaves through, or null. */
  ReturnTree exitReturn() {
    return exitReturn;
  }

  /** Whether a for loop has an initializer or an update clause. */
  boolean forClauses() {
    return forClauses;
  }

  private boolean read(StatementTree loop) {
    ExpressionTree condition;
    StatementTree statement;
    if (loop instanceof WhileLoopTree w) {
      condition = w.getCondition();
      statement = w.getStatement();
    } else if (loop instanceof DoWhileLoopTree d) {
      condition = d.getCondition();
      statement = d.getStatement();
    } else if (loop instanceof ForLoopTree f) {
      condition = f.getCondition();
      statement = f.getStatement();
      forClauses = !f.getInitializer().isEmpty() || !f.getUpdate().isEmpty();
      for (ExpressionStatementTree update : f.getUpdate()) {
        updates.add(update.getExpression());
      }
    } else {
      return false;
    }
    if (statement == null) {
      return false;
    }
    boolean infinite = condition == null || Boolean.TRUE.equals(ASTHelpers.constValue(condition));
    if (!infinite) {
      conjuncts(condition, false, atoms);
    }
    for (StatementTree s : statements(statement)) {
      Optional<LoopExits.ExitTest> exit = LoopExits.exitTest(s);
      if (exit.isEmpty()) {
        body.add(s);
        continue;
      }
      exitIfs++;
      conjuncts(exit.get().condition(), exit.get().exitOnTrue(), atoms);
      if (exit.get().exit() instanceof ReturnTree r) {
        exitReturn = r;
      }
      if (exit.get().rest() != null) {
        body.addAll(statements(exit.get().rest()));
      }
    }
    return !(infinite && exitIfs == 0);
  }

  private static List<StatementTree> statements(StatementTree statement) {
    if (statement instanceof BlockTree block) {
      return new ArrayList<>(block.getStatements());
    }
    List<StatementTree> single = new ArrayList<>();
    single.add(statement);
    return single;
  }

  /** Splits {@code expr} (or its negation) into conditions that must all hold. */
  private static void conjuncts(ExpressionTree expr, boolean negated, List<Atom> out) {
    ExpressionTree e = ASTHelpers.stripParentheses(expr);
    if (e instanceof UnaryTree u && e.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      conjuncts(u.getExpression(), !negated, out);
      return;
    }
    if (e instanceof BinaryTree b) {
      if ((!negated && e.getKind() == Tree.Kind.CONDITIONAL_AND)
          || (negated && e.getKind() == Tree.Kind.CONDITIONAL_OR)) {
        conjuncts(b.getLeftOperand(), negated, out);
        conjuncts(b.getRightOperand(), negated, out);
        return;
      }
    }
    out.add(new Atom(e, negated));
  }
}
