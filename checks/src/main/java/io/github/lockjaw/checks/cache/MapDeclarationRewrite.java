package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The new declaration of a cache map that becomes a {@code ConcurrentHashMap}, shared by the cache
 * fixes ({@link ComputeIfAbsentFix}, {@link ConcurrentMapSwap}, {@link ClassValueFix}): the
 * construction swapped with its type and capacity arguments kept, the declared type changed only
 * when it cannot hold the new map, and only the imports the change left unused removed.
 */
final class MapDeclarationRewrite {
  private MapDeclarationRewrite() {}

  /**
   * Adds to {@code fix} the field's new declaration: {@code construction} becomes a {@code new
   * ConcurrentHashMap} with the same type and capacity arguments, and a declared type that cannot
   * hold one ({@code HashMap}, {@code Hashtable}) becomes {@code ConcurrentHashMap}; imports the
   * change leaves unused go. Returns why it cannot, or {@code null}.
   */
  static String rewrite(
      SuggestedFix.Builder fix, CacheField field, NewClassTree construction, VisitorState state) {
    String chm = SuggestedFixes.qualifyType(state, fix, MapKnowledge.replacementType());
    VariableTree declaration = field.declaration().orElseThrow();
    fix.replace(declaration.getInitializer(), newConcurrentMap(construction, chm, state));
    Type declaredType = ASTHelpers.getType(declaration.getType());
    List<Tree> replaced = new ArrayList<>(List.of(declaration.getInitializer()));
    if (!MapKnowledge.canHoldReplacement(declaredType)) {
      if (sharesTypeWithAnotherField(declaration, state)) {
        // 'HashMap<K, V> a = ..., b = ...': retyping one would retype both
        return "'"
            + field.symbol().getSimpleName()
            + "' is declared together with another field, and retyping it would retype both";
      }
      Tree typeName =
          declaration.getType() instanceof ParameterizedTypeTree p
              ? p.getType()
              : declaration.getType();
      fix.replace(typeName, chm);
      replaced.add(typeName);
    }
    removeImportsLeftUnused(fix, replaced, state);
    return null;
  }

  private static boolean sharesTypeWithAnotherField(VariableTree declaration, VisitorState state) {
    boolean[] shared = new boolean[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        if (node != declaration && node.getType() == declaration.getType()) {
          shared[0] = true;
        }
        return super.visitVariable(node, unused);
      }
    }.scan(state.getPath().getCompilationUnit(), null);
    return shared[0];
  }

  private static String newConcurrentMap(
      NewClassTree construction, String chm, VisitorState state) {
    String typeArguments = "";
    if (construction.getIdentifier() instanceof ParameterizedTypeTree parameterized) {
      typeArguments =
          parameterized.getTypeArguments().stream()
              .map(state::getSourceForNode)
              .collect(Collectors.joining(", ", "<", ">"));
    }
    String arguments =
        construction.getArguments().stream()
            .map(state::getSourceForNode)
            .collect(Collectors.joining(", "));
    return "new " + chm + typeArguments + "(" + arguments + ")";
  }

  /** Drops imports of the old map classes when the rewritten code was their only user. */
  static void removeImportsLeftUnused(
      SuggestedFix.Builder fix, List<Tree> replaced, VisitorState state) {
    Set<ClassSymbol> candidates = new HashSet<>();
    for (Tree tree : replaced) {
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitIdentifier(IdentifierTree node, Void unused) {
          if (ASTHelpers.getSymbol(node) instanceof ClassSymbol c) {
            candidates.add(c);
          }
          return null;
        }
      }.scan(tree, null);
    }
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    for (ClassSymbol candidate : candidates) {
      boolean usedElsewhere =
          MoreTrees.anyMatch(
              unit,
              ImportTree.class::isInstance,
              node ->
                  node instanceof IdentifierTree identifier
                      && candidate.equals(ASTHelpers.getSymbol(identifier))
                      && !inside(identifier, replaced, state));
      if (!usedElsewhere
          && unit.getImports().stream()
              .anyMatch(
                  i ->
                      !i.isStatic()
                          && state
                              .getSourceForNode(i.getQualifiedIdentifier())
                              .equals(candidate.getQualifiedName().toString()))) {
        fix.removeImport(candidate.getQualifiedName().toString());
      }
    }
  }

  private static boolean inside(Tree node, List<Tree> replaced, VisitorState state) {
    int position = ASTHelpers.getStartPosition(node);
    for (Tree tree : replaced) {
      if (position >= ASTHelpers.getStartPosition(tree) && position < state.getEndPosition(tree)) {
        return true;
      }
    }
    return false;
  }
}
