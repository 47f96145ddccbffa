package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.List;

/** Where an {@code InterruptedException} is caught, and where it may propagate. */
final class Interrupts {

  private Interrupts() {}

  /** Whether a catch clause catches InterruptedException (or a supertype of it). */
  static boolean catchesInterrupt(CatchTree c, VisitorState state) {
    Type interrupted = state.getTypeFromString("java.lang.InterruptedException");
    if (interrupted == null) {
      return false;
    }
    for (Tree alternative : MoreTrees.caughtTypes(c)) {
      Type type = ASTHelpers.getType(alternative);
      if (type != null && ASTHelpers.isSubtype(interrupted, type, state)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code InterruptedException} thrown at {@code path} is caught or may propagate. */
  static boolean mayBeThrownAt(TreePath path, VisitorState state) {
    Type interrupted = state.getTypeFromString("java.lang.InterruptedException");
    if (interrupted == null) {
      return false;
    }
    Tree child = null;
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof TryTree tryTree && child == tryTree.getBlock()) {
        for (CatchTree c : tryTree.getCatches()) {
          if (catchesInterrupt(c, state)) {
            return true;
          }
        }
      }
      if (leaf instanceof MethodTree method) {
        MethodSymbol symbol = ASTHelpers.getSymbol(method);
        return symbol != null && throwsAny(symbol.getThrownTypes(), interrupted, state);
      }
      if (leaf instanceof LambdaExpressionTree lambda) {
        Type type = ASTHelpers.getType(lambda);
        if (type == null) {
          return false;
        }
        Type descriptor = state.getTypes().findDescriptorType(type);
        return descriptor != null && throwsAny(descriptor.getThrownTypes(), interrupted, state);
      }
      if (leaf instanceof ClassTree) {
        return false;
      }
      child = leaf;
    }
    return false;
  }

  private static boolean throwsAny(List<Type> thrown, Type interrupted, VisitorState state) {
    for (Type type : thrown) {
      if (type != null && !type.isErroneous() && ASTHelpers.isSubtype(interrupted, type, state)) {
        return true;
      }
    }
    return false;
  }
}
