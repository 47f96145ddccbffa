package io.github.lockjaw.checks.dao;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * A monitor that several members of a class can hold: the instance monitor ({@code synchronized}
 * methods, {@code synchronized (this)}), the class monitor ({@code static synchronized}, {@code
 * synchronized (Foo.class)}) or a lock held in a field ({@code synchronized (LOCK)}). Locks on
 * parameters, locals or computed values are not tracked: lockjaw cannot tell who shares them.
 *
 * @param kind what the monitor is
 * @param symbol the class (instance and class monitors) or the field (lock fields)
 */
public record SharedMonitor(Kind kind, Symbol symbol) {

  /** What a monitor is. */
  public enum Kind {
    /** The {@code this} of one class. */
    INSTANCE,
    /** The {@code Class} object of one class. */
    CLASS,
    /** The object held in one field. */
    FIELD
  }

  /**
   * A region that holds the monitor.
   *
   * @param path the {@code synchronized} method or block
   * @param name how a message names it, e.g. {@code getConnection()}
   */
  public record Member(TreePath path, String name) {
    /** The region's root: a {@link MethodTree} or a {@link SynchronizedTree}. */
    public Tree tree() {
      return path.getLeaf();
    }
  }

  /** The monitor a {@code synchronized} method holds; empty for other methods. */
  public static Optional<SharedMonitor> ofMethod(MethodTree tree) {
    if (!tree.getModifiers().getFlags().contains(Modifier.SYNCHRONIZED)) {
      return Optional.empty();
    }
    MethodSymbol symbol = ASTHelpers.getSymbol(tree);
    if (symbol == null || !(symbol.owner instanceof Symbol.ClassSymbol owner)) {
      return Optional.empty();
    }
    return Optional.of(
        new SharedMonitor(ASTHelpers.isStatic(symbol) ? Kind.CLASS : Kind.INSTANCE, owner));
  }

  /** The monitor a {@code synchronized} block locks, if lockjaw can tell who shares it. */
  public static Optional<SharedMonitor> ofBlock(SynchronizedTree tree) {
    ExpressionTree lock = ASTHelpers.stripParentheses(tree.getExpression());
    if (isThis(lock)) {
      Type type = ASTHelpers.getType(lock);
      return type != null && type.tsym instanceof Symbol.ClassSymbol owner
          ? Optional.of(new SharedMonitor(Kind.INSTANCE, owner))
          : Optional.empty();
    }
    if (lock instanceof MemberSelectTree select && select.getIdentifier().contentEquals("class")) {
      Symbol owner = ASTHelpers.getSymbol(select.getExpression());
      return owner instanceof Symbol.ClassSymbol
          ? Optional.of(new SharedMonitor(Kind.CLASS, owner))
          : Optional.empty();
    }
    if (lock instanceof IdentifierTree || lock instanceof MemberSelectTree) {
      Symbol symbol = ASTHelpers.getSymbol(lock);
      if (symbol != null && symbol.getKind() == ElementKind.FIELD) {
        return Optional.of(new SharedMonitor(Kind.FIELD, symbol));
      }
    }
    return Optional.empty();
  }

  /** The monitor a region root (method or block) holds. */
  public static Optional<SharedMonitor> of(Tree region) {
    if (region instanceof MethodTree method) {
      return ofMethod(method);
    }
    if (region instanceof SynchronizedTree block) {
      return ofBlock(block);
    }
    return Optional.empty();
  }

  /** How a message names this monitor. */
  public String describe() {
    return switch (kind) {
      case INSTANCE ->
          symbol.getSimpleName().isEmpty()
              ? "the monitor of this anonymous class's instance"
              : "the monitor of the " + symbol.getSimpleName() + " instance";
      case CLASS -> "the " + symbol.getSimpleName() + ".class monitor";
      case FIELD -> "the monitor of lock field '" + symbol.getSimpleName() + "'";
    };
  }

  /**
   * Whether a region already runs under this monitor because an enclosing {@code synchronized}
   * method or block of the same method holds it (a reentrant lock adds no queue of its own).
   */
  public boolean isHeldAround(TreePath region) {
    for (TreePath path = region.getParentPath(); path != null; path = path.getParentPath()) {
      Tree leaf = path.getLeaf();
      if (leaf instanceof SynchronizedTree block
          && ofBlock(block).filter(this::equals).isPresent()) {
        return true;
      }
      if (leaf instanceof MethodTree method) {
        return ofMethod(method).filter(this::equals).isPresent();
      }
      if (leaf instanceof LambdaExpressionTree || leaf instanceof ClassTree) {
        return false;
      }
    }
    return false;
  }

  /** Every method and block in the compilation unit that holds this monitor, in source order. */
  public List<Member> membersIn(TreePath compilationUnit) {
    List<Member> members = new ArrayList<>();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethod(MethodTree tree, Void unused) {
        if (ofMethod(tree).filter(SharedMonitor.this::equals).isPresent()) {
          members.add(new Member(getCurrentPath(), tree.getName() + "()"));
        }
        return super.visitMethod(tree, unused);
      }

      @Override
      public Void visitSynchronized(SynchronizedTree tree, Void unused) {
        if (ofBlock(tree).filter(SharedMonitor.this::equals).isPresent()
            && !isHeldAround(getCurrentPath())) {
          members.add(new Member(getCurrentPath(), blockName(getCurrentPath())));
        }
        return super.visitSynchronized(tree, unused);
      }
    }.scan(compilationUnit, null);
    return members;
  }

  /** The method a region belongs to, or null in an initializer. */
  public static MethodTree enclosingMethod(TreePath region) {
    return MoreTrees.enclosingMethod(region);
  }

  private static String blockName(TreePath block) {
    MethodTree method = enclosingMethod(block);
    if (method == null) {
      return "an initializer's synchronized block";
    }
    String name =
        method.getName().contentEquals("<init>") ? "constructor" : method.getName() + "()";
    return "the synchronized block in " + name;
  }

  private static boolean isThis(ExpressionTree tree) {
    return (tree instanceof IdentifierTree id && id.getName().contentEquals("this"))
        || (tree instanceof MemberSelectTree select
            && select.getIdentifier().contentEquals("this"));
  }
}
