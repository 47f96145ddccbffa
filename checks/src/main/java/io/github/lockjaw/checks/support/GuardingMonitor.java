package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import javax.lang.model.element.Modifier;

/**
 * The monitor that guards a region of code: a {@code synchronized} block or method. Regions nest:
 * a lambda or class body inside a {@code synchronized} block runs later, unguarded.
 */
public enum GuardingMonitor {
  /** {@code synchronized (Foo.class)}, {@code synchronized (clazz)}, {@code static synchronized}. */
  CLASS,
  /** {@code synchronized (this)}, {@code synchronized (lock)}, a {@code synchronized} method. */
  OBJECT,
  /** Code that holds no monitor of its own. */
  NONE;

  /** The monitor a region root guards its body with. */
  public static GuardingMonitor of(Tree regionRoot, VisitorState state) {
    if (regionRoot instanceof SynchronizedTree sync) {
      return isClassValued(sync.getExpression(), state) ? CLASS : OBJECT;
    }
    if (regionRoot instanceof MethodTree method) {
      if (!method.getModifiers().getFlags().contains(Modifier.SYNCHRONIZED)) {
        return NONE;
      }
      MethodSymbol symbol = ASTHelpers.getSymbol(method);
      return symbol != null && ASTHelpers.isStatic(symbol) ? CLASS : OBJECT;
    }
    return NONE;
  }

  /** Whether a tree starts a region of its own (and ends the enclosing one). */
  public static boolean isRegionRoot(Tree tree) {
    return tree instanceof SynchronizedTree
        || tree instanceof MethodTree
        || tree instanceof LambdaExpressionTree
        || tree instanceof com.sun.source.tree.ClassTree;
  }

  /** Whether the expression's type is {@code java.lang.Class}. */
  public static boolean isClassValued(ExpressionTree expression, VisitorState state) {
    Type type = ASTHelpers.getType(expression);
    Type classType = state.getSymtab().classType;
    return type != null
        && state.getTypes().isSameType(state.getTypes().erasure(type), state.getTypes().erasure(classType));
  }

  /** How a diagnostic names this monitor. */
  public String describe(Tree regionRoot, VisitorState state) {
    if (regionRoot instanceof SynchronizedTree sync) {
      return "the monitor of '" + state.getSourceForNode(ASTHelpers.stripParentheses(sync.getExpression())) + "'";
    }
    return this == CLASS ? "the class monitor (static synchronized)" : "the instance monitor (synchronized method)";
  }
}
