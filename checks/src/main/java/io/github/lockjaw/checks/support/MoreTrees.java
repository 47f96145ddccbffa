package io.github.lockjaw.checks.support;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnionTypeTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Small searches over a syntax tree that the checks and fixes share, in the spirit of
 * error-prone-support's {@code MoreASTHelpers}: one scanner each, instead of an anonymous {@link
 * TreeScanner} (with a {@code boolean[]} or a {@code reduce}) in every class that needs one.
 */
public final class MoreTrees {

  /** Prunes code that does not run where it is written: lambda bodies and class bodies. */
  public static final Predicate<Tree> DEFERRED_CODE =
      node -> node instanceof LambdaExpressionTree || node instanceof ClassTree;

  private MoreTrees() {}

  /** Whether any node of {@code tree}, {@code tree} itself included, passes {@code test}. */
  public static boolean anyMatch(Tree tree, Predicate<? super Tree> test) {
    return findFirst(tree, node -> false, test).isPresent();
  }

  /**
   * Whether any node of {@code tree} passes {@code test}, looking neither at nor into the nodes
   * {@code prune} accepts (e.g. {@link #DEFERRED_CODE}).
   */
  public static boolean anyMatch(
      Tree tree, Predicate<? super Tree> prune, Predicate<? super Tree> test) {
    return findFirst(tree, prune, test).isPresent();
  }

  /**
   * The first node of {@code tree} (in source order, a node before its children) of {@code type}
   * that passes {@code test}.
   */
  public static <T extends Tree> Optional<T> findFirst(
      Tree tree, Class<T> type, Predicate<? super T> test) {
    return findFirst(
            tree, node -> false, node -> type.isInstance(node) && test.test(type.cast(node)))
        .map(type::cast);
  }

  /**
   * The first node of {@code tree} (in source order, a node before its children) that passes {@code
   * test}, looking neither at nor into the nodes {@code prune} accepts.
   */
  public static Optional<Tree> findFirst(
      Tree tree, Predicate<? super Tree> prune, Predicate<? super Tree> test) {
    Tree[] found = {null};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree node, Void unused) {
        if (node == null || found[0] != null || prune.test(node)) {
          return null;
        }
        if (test.test(node)) {
          found[0] = node;
          return null;
        }
        return super.scan(node, unused);
      }
    }.scan(tree, null);
    return Optional.ofNullable(found[0]);
  }

  /**
   * The types a catch clause names: the alternatives of {@code catch (A | B e)}, or its one type.
   */
  public static List<Tree> caughtTypes(CatchTree catchTree) {
    Tree type = catchTree.getParameter().getType();
    return type instanceof UnionTypeTree union
        ? List.copyOf(union.getTypeAlternatives())
        : List.of(type);
  }

  /** Whether {@code inner} (the same node, not an equal one) is part of {@code outer}. */
  public static boolean contains(Tree outer, Tree inner) {
    return anyMatch(outer, node -> node == inner);
  }

  /**
   * Every simple name {@code tree} declares as a variable or mentions as an identifier, so that a
   * fix can pick a new name that neither shadows nor is shadowed by one of them.
   */
  public static Set<String> names(Tree tree) {
    Set<String> names = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        names.add(node.getName().toString());
        return super.visitVariable(node, unused);
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        names.add(node.getName().toString());
        return null;
      }
    }.scan(tree, null);
    return names;
  }

  /**
   * The methods and constructors declared in {@code tree} (a compilation unit, say), those of
   * nested and local classes included, by symbol: the bodies an analysis follows calls into.
   */
  public static Map<MethodSymbol, MethodTree> declaredMethods(Tree tree) {
    Map<MethodSymbol, MethodTree> methods = new HashMap<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethod(MethodTree node, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null) {
          methods.put(symbol, node);
        }
        return super.visitMethod(node, unused);
      }
    }.scan(tree, null);
    return methods;
  }

  /**
   * The nearest method at or above {@code path}, crossing lambdas but not classes; null in an
   * initializer or a field's initializer.
   */
  public static MethodTree enclosingMethod(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof MethodTree method) {
        return method;
      }
      if (p.getLeaf() instanceof ClassTree) {
        return null;
      }
    }
    return null;
  }
}
