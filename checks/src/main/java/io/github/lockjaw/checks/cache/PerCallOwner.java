package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.NestingKind;

/**
 * Whether a map field belongs to an object that is created per call and never published: then its
 * monitor is per call too, and nobody else can queue on it (a parser or a request-scoped helper
 * that memoises in its own {@code Hashtable}).
 *
 * <p>The evidence must all be in this file: the field is an instance field of a private nested or a
 * local class; every {@code new Owner(...)} is either the receiver of a call ({@code new
 * Owner().parse(text)}) or the initializer of a local variable that is only ever a receiver ({@code
 * owner.parse(text)}, {@code owner.field}); and the class never hands out {@code this} (as an
 * argument, a return value or an assigned value). Anything else is taken as published.
 */
final class PerCallOwner {
  private PerCallOwner() {}

  static boolean owns(VarSymbol field, VisitorState state) {
    if (field == null
        || field.isStatic()
        || !(field.owner instanceof ClassSymbol owner)
        || !(owner.getNestingKind() == NestingKind.LOCAL
            || (owner.getNestingKind() == NestingKind.MEMBER && owner.isPrivate()))) {
      return false;
    }
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    boolean[] published = {false};
    int[] creations = {0};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitNewClass(NewClassTree tree, Void unused) {
        if (owner.equals(ASTHelpers.getSymbol(tree.getIdentifier()))) {
          creations[0]++;
          if (!staysLocal(getCurrentPath(), unit)) {
            published[0] = true;
          }
        }
        return super.visitNewClass(tree, null);
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        if (tree.getName().contentEquals("this")
            && owner.equals(enclosingClass(getCurrentPath()))
            && !isReceiver(getCurrentPath())) {
          published[0] = true; // 'this' handed out from inside the class
        }
        return super.visitIdentifier(tree, null);
      }
    }.scan(unit, null);
    return creations[0] > 0 && !published[0];
  }

  /** A new instance used only as a receiver, directly or through a local variable. */
  private static boolean staysLocal(TreePath creation, CompilationUnitTree unit) {
    if (isReceiver(creation)) {
      return true;
    }
    Tree parent = creation.getParentPath().getLeaf();
    if (!(parent instanceof VariableTree local)
        || local.getInitializer() != creation.getLeaf()
        || !(ASTHelpers.getSymbol(local) instanceof VarSymbol variable)
        || variable.getKind() != ElementKind.LOCAL_VARIABLE) {
      return false;
    }
    boolean[] escapes = {false};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        if (variable.equals(ASTHelpers.getSymbol(tree)) && !isReceiver(getCurrentPath())) {
          escapes[0] = true;
        }
        return null;
      }
    }.scan(unit, null);
    return !escapes[0];
  }

  /**
   * The expression is the receiver of a method call or a field access: {@code x.m()}, {@code x.f}.
   */
  private static boolean isReceiver(TreePath path) {
    TreePath parentPath = path.getParentPath();
    Tree parent = parentPath == null ? null : parentPath.getLeaf();
    if (!(parent instanceof MemberSelectTree select) || select.getExpression() != path.getLeaf()) {
      return false;
    }
    Tree grandParent = parentPath.getParentPath().getLeaf();
    // x.f is a read of the field; x.m(...) a call; x.m alone would be a method reference
    return grandParent instanceof MethodInvocationTree call
        ? call.getMethodSelect() == select
        : ASTHelpers.getSymbol(select) instanceof VarSymbol;
  }

  private static Symbol enclosingClass(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof ClassTree type) {
        return ASTHelpers.getSymbol(type);
      }
    }
    return null;
  }
}
