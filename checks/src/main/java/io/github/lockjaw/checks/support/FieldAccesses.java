package io.github.lockjaw.checks.support;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.ElementKind;

/**
 * Every use of every field in one compilation unit, with the method it is in: what the lock checks
 * need to tell who writes a field, whether its writers only assign it, and whether every access is
 * one a fix can rewrite.
 */
public final class FieldAccesses {

  /** How code uses a field. */
  public enum Kind {
    /** read as a value. */
    READ,
    /** the target of {@code f = e}. */
    ASSIGN,
    /** the target of {@code f += e} and kin. */
    COMPOUND,
    /** the operand of {@code f++}, {@code --f} and kin. */
    INCREMENT,
    /** the receiver of a method call ({@code names.add(x)}), or an array whose element is set. */
    RECEIVER
  }

  /**
   * One use of a field.
   *
   * @param path the identifier or member select naming the field
   * @param kind how it is used
   * @param method the method it is in, or null in a field initializer or initializer block
   */
  public record Access(TreePath path, Kind kind, MethodTree method) {
    public Tree tree() {
      return path.getLeaf();
    }

    /** Whether it runs while the object is built: a constructor or an initializer. */
    public boolean inConstruction() {
      return method == null
          || ASTHelpers.getSymbol(method) == null
          || ASTHelpers.getSymbol(method).isConstructor();
    }

    /** Whether it is a write: an assignment, compound assignment or increment. */
    public boolean isWrite() {
      return kind == Kind.ASSIGN || kind == Kind.COMPOUND || kind == Kind.INCREMENT;
    }
  }

  private final Map<VarSymbol, List<Access>> byField;
  private final Map<VarSymbol, VariableTree> declarations;

  private FieldAccesses(
      Map<VarSymbol, List<Access>> byField, Map<VarSymbol, VariableTree> declarations) {
    this.byField = byField;
    this.declarations = declarations;
  }

  /** Every field use in the compilation unit. */
  public static FieldAccesses of(TreePath compilationUnit) {
    Map<VarSymbol, List<Access>> byField = new LinkedHashMap<>();
    Map<VarSymbol, VariableTree> declarations = new HashMap<>();
    new TreePathScanner<Void, MethodTree>() {
      @Override
      public Void visitClass(ClassTree tree, MethodTree method) {
        return super.visitClass(tree, null);
      }

      @Override
      public Void visitMethod(MethodTree tree, MethodTree method) {
        return super.visitMethod(tree, tree);
      }

      @Override
      public Void visitVariable(VariableTree tree, MethodTree method) {
        Symbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol instanceof VarSymbol var && var.getKind() == ElementKind.FIELD) {
          declarations.put(var, tree);
        }
        return super.visitVariable(tree, method);
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, MethodTree method) {
        note(getCurrentPath(), method);
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, MethodTree method) {
        note(getCurrentPath(), method);
        return super.visitMemberSelect(tree, method);
      }

      private void note(TreePath path, MethodTree method) {
        Symbol symbol = ASTHelpers.getSymbol(path.getLeaf());
        if (!(symbol instanceof VarSymbol var)
            || var.getKind() != ElementKind.FIELD
            || isThisOrSuper(var)) {
          return;
        }
        byField
            .computeIfAbsent(var, k -> new ArrayList<>())
            .add(new Access(path, kindOf(path), method));
      }
    }.scan(compilationUnit, null);
    return new FieldAccesses(byField, declarations);
  }

  private static Kind kindOf(TreePath path) {
    // (hits)++ and (f) = x write the field as hits++ and f = x do: classify the outermost parens
    while (path.getParentPath().getLeaf() instanceof ParenthesizedTree) {
      path = path.getParentPath();
    }
    Tree leaf = path.getLeaf();
    Tree parent = path.getParentPath().getLeaf();
    if (parent instanceof AssignmentTree assignment && assignment.getVariable() == leaf) {
      return Kind.ASSIGN;
    }
    if (parent instanceof CompoundAssignmentTree compound && compound.getVariable() == leaf) {
      return Kind.COMPOUND;
    }
    if (parent instanceof UnaryTree unary && isIncrement(unary)) {
      return Kind.INCREMENT;
    }
    if (parent instanceof MemberSelectTree select
        && select.getExpression() == leaf
        && path.getParentPath().getParentPath().getLeaf() instanceof MethodInvocationTree call
        && call.getMethodSelect() == select) {
      return Kind.RECEIVER;
    }
    if (parent instanceof ArrayAccessTree array && array.getExpression() == leaf) {
      Tree grand = path.getParentPath().getParentPath().getLeaf();
      if ((grand instanceof AssignmentTree a && a.getVariable() == parent)
          || (grand instanceof CompoundAssignmentTree c && c.getVariable() == parent)
          || (grand instanceof UnaryTree u && isIncrement(u))) {
        return Kind.RECEIVER;
      }
    }
    return Kind.READ;
  }

  /** Whether a unary tree is {@code ++} or {@code --}, prefix or postfix. */
  public static boolean isIncrement(UnaryTree unary) {
    return switch (unary.getKind()) {
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT -> true;
      default -> false;
    };
  }

  /** The uses of one field, in source order. */
  public List<Access> of(VarSymbol field) {
    return byField.getOrDefault(field, List.of());
  }

  /** The declaration of a field of this compilation unit, or null. */
  public VariableTree declaration(VarSymbol field) {
    return declarations.get(field);
  }

  /** The field an expression names ({@code f}, {@code this.f}, {@code Type.f}), or null. */
  public static VarSymbol fieldOf(ExpressionTree expression) {
    ExpressionTree stripped = ASTHelpers.stripParentheses(expression);
    if (!(stripped instanceof IdentifierTree) && !(stripped instanceof MemberSelectTree)) {
      return null;
    }
    Symbol symbol = ASTHelpers.getSymbol(stripped);
    return symbol instanceof VarSymbol var
            && var.getKind() == ElementKind.FIELD
            && !isThisOrSuper(var)
        ? var
        : null;
  }

  /**
   * The field of the object or class itself that an expression names: {@code f}, {@code this.f},
   * {@code Outer.this.f} or {@code Type.f}; null for a field of another object ({@code entry.f}).
   */
  public static VarSymbol ownFieldOf(ExpressionTree expression) {
    ExpressionTree stripped = ASTHelpers.stripParentheses(expression);
    if (stripped instanceof MemberSelectTree select) {
      ExpressionTree receiver = ASTHelpers.stripParentheses(select.getExpression());
      Symbol symbol = ASTHelpers.getSymbol(receiver);
      boolean self =
          (receiver instanceof IdentifierTree id && id.getName().contentEquals("this"))
              || (receiver instanceof MemberSelectTree outer
                  && outer.getIdentifier().contentEquals("this"))
              || symbol instanceof Symbol.ClassSymbol;
      if (!self) {
        return null;
      }
    }
    return fieldOf(stripped);
  }

  /** javac models {@code this} and {@code super} as fields of the class; they are none. */
  public static boolean isThisOrSuper(VarSymbol symbol) {
    return symbol.getSimpleName().contentEquals("this")
        || symbol.getSimpleName().contentEquals("super");
  }
}
