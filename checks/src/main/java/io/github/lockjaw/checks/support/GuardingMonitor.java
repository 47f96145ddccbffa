package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.common.MonitorKind;
import javax.lang.model.element.Modifier;

/**
 * The monitor that guards a region of code: a {@code synchronized} block or method. Regions nest: a
 * lambda or class body inside a {@code synchronized} block runs later, unguarded.
 */
public final class GuardingMonitor {

  private GuardingMonitor() {}

  /** The monitor a region root guards its body with. */
  public static MonitorKind of(Tree regionRoot, VisitorState state) {
    if (regionRoot instanceof SynchronizedTree sync) {
      return isClassValued(sync.getExpression(), state) ? MonitorKind.CLASS : MonitorKind.OBJECT;
    }
    if (regionRoot instanceof MethodTree method) {
      if (!method.getModifiers().getFlags().contains(Modifier.SYNCHRONIZED)) {
        return MonitorKind.NONE;
      }
      MethodSymbol symbol = ASTHelpers.getSymbol(method);
      return symbol != null && ASTHelpers.isStatic(symbol) ? MonitorKind.CLASS : MonitorKind.OBJECT;
    }
    return MonitorKind.NONE;
  }

  /** Whether a tree starts a region of its own (and ends the enclosing one). */
  public static boolean isRegionRoot(Tree tree) {
    return tree instanceof SynchronizedTree
        || tree instanceof MethodTree
        || tree instanceof LambdaExpressionTree
        || tree instanceof ClassTree;
  }

  /** Whether the expression's type is {@code java.lang.Class}. */
  public static boolean isClassValued(ExpressionTree expression, VisitorState state) {
    Type type = ASTHelpers.getType(expression);
    Type classType = state.getSymtab().classType;
    return type != null
        && state
            .getTypes()
            .isSameType(state.getTypes().erasure(type), state.getTypes().erasure(classType));
  }

  /** How a diagnostic names the monitor of kind {@code kind} that {@code regionRoot} takes. */
  public static String describe(MonitorKind kind, Tree regionRoot, VisitorState state) {
    if (regionRoot instanceof SynchronizedTree sync) {
      return "the monitor of '"
          + state.getSourceForNode(ASTHelpers.stripParentheses(sync.getExpression()))
          + "'";
    }
    return kind == MonitorKind.CLASS
        ? "the class monitor (static synchronized)"
        : "the instance monitor (synchronized method)";
  }
}
