package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.Optional;

/**
 * A call matched against the {@code type#method} entries of some kinds: the method has the entry's
 * name and belongs to its type or a subtype ({@link KnownSymbols#isMethodOfSubtype}), or the entry
 * is {@code type#*} and the method belongs to that type or a subtype (static or not: {@code
 * java.lang.Math#*}).
 */
public final class CatalogMethods {
  private final KnowledgeIndex index;

  private CatalogMethods(KnowledgeIndex index) {
    this.index = index;
  }

  public static CatalogMethods of(Kind... kinds) {
    return new CatalogMethods(KnowledgeIndex.of(kinds));
  }

  /** The first entry that {@code method} matches, or empty. */
  public Optional<KnowledgeIndex.MethodEntry> match(MethodSymbol method, VisitorState state) {
    if (method == null || !(method.owner instanceof Symbol.ClassSymbol owner)) {
      return Optional.empty();
    }
    for (KnowledgeIndex.MethodEntry entry : index.candidates(method.getSimpleName().toString())) {
      if (!entry.isWildcard()) {
        if (KnownSymbols.isMethodOfSubtype(method, entry, state)) {
          return Optional.of(entry);
        }
        continue;
      }
      Type declared = state.getTypeFromString(entry.entry().type());
      if (owner.getQualifiedName().contentEquals(entry.entry().type())
          || (declared != null && ASTHelpers.isSubtype(owner.type, declared, state))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  public boolean matches(MethodSymbol method, VisitorState state) {
    return match(method, state).isPresent();
  }
}
