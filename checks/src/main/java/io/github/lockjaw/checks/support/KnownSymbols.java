package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.Types;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.KnowledgeIndex.MethodEntry;
import io.github.lockjaw.knowledge.KnowledgeIndex.TypeEntry;
import java.util.Optional;

/**
 * The source checks' one way to match javac symbols against the knowledge files: a {@link
 * KnowledgeIndex} finds the entries by method name, and these methods say how an entry's type must
 * relate to the symbol (declared there, inherited from it, overriding a method of it). The bytecode
 * detectors match the same index with internal names ({@code Program#match} in the model).
 *
 * <p>Two subtype tests differ on unresolved (erroneous) types: {@link #supertypeEntry} follows
 * Error Prone ({@code ASTHelpers.isSubtype}: an unresolved type is no subtype), {@link
 * #anySupertypeOrUnresolved} follows javac (an unresolved type is a subtype of everything), for
 * questions where "cannot tell" must keep a check silent.
 */
public final class KnownSymbols {

  private KnownSymbols() {}

  // --- names ------------------------------------------------------------------------------------

  /** The binary name of a class ({@code a.b.Outer$Inner}), or null for other symbols. */
  public static String binaryName(Symbol symbol) {
    if (symbol instanceof ClassSymbol classSymbol) {
      return classSymbol.flatName().toString();
    }
    return null;
  }

  /** Whether {@code type} is, extends or implements the class with this binary name. */
  public static boolean isSubtypeOf(Type type, String binaryName, VisitorState state) {
    return supertypeNamed(type, binaryName, state) != null;
  }

  /**
   * Whether {@code type} is, extends or implements one of the index's types (binary names, as
   * written).
   */
  public static boolean isSubtypeOfAny(KnowledgeIndex index, Type type, VisitorState state) {
    return index.types().stream().anyMatch(t -> isSubtypeOf(type, t.entry().value(), state));
  }

  private static ClassSymbol supertypeNamed(Type type, String binaryName, VisitorState state) {
    if (type == null || !(type.tsym instanceof ClassSymbol)) {
      return null;
    }
    for (Type supertype : state.getTypes().closure(type)) {
      if (supertype.tsym instanceof ClassSymbol c && c.flatName().contentEquals(binaryName)) {
        return c;
      }
    }
    return null;
  }

  // --- types ------------------------------------------------------------------------------------

  /** The type entry naming exactly this class (by binary name). */
  public static Optional<TypeEntry> exactClass(KnowledgeIndex index, Symbol classSymbol) {
    String name = binaryName(classSymbol);
    if (name == null) {
      return Optional.empty();
    }
    return index.types().stream().filter(t -> t.entry().value().equals(name)).findFirst();
  }

  /** How a type must relate to a type entry's type. */
  private interface TypeRelation {
    boolean holds(Type type, Type known, VisitorState state);
  }

  /** The first type entry whose type {@code type} relates to ({@code type} not null). */
  private static Optional<TypeEntry> firstTypeEntry(
      KnowledgeIndex index, Type type, VisitorState state, TypeRelation relation) {
    if (type == null) {
      return Optional.empty();
    }
    for (TypeEntry entry : index.types()) {
      Type known = state.getTypeFromString(entry.entry().value());
      if (known != null && relation.holds(type, known, state)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** The first type entry that {@code type} is (after erasure) the same type as. */
  public static Optional<TypeEntry> sameTypeEntry(
      KnowledgeIndex index, Type type, VisitorState state) {
    return firstTypeEntry(index, type, state, KnownSymbols::isSameErasure);
  }

  /** The first type entry that {@code type} is a subtype of; an unresolved type matches none. */
  public static Optional<TypeEntry> supertypeEntry(
      KnowledgeIndex index, Type type, VisitorState state) {
    return firstTypeEntry(index, type, state, ASTHelpers::isSubtype);
  }

  /**
   * The first type entry that {@code type} is a subtype of, as javac answers after erasure (an
   * unresolved type is a subtype of every type).
   */
  public static Optional<TypeEntry> supertypeEntryOrUnresolved(
      KnowledgeIndex index, Type type, VisitorState state) {
    return firstTypeEntry(index, type, state, KnownSymbols::isErasedSubtype);
  }

  /** Whether {@link #supertypeEntryOrUnresolved} finds an entry. */
  public static boolean anySupertypeOrUnresolved(
      KnowledgeIndex index, Type type, VisitorState state) {
    return supertypeEntryOrUnresolved(index, type, state).isPresent();
  }

  private static boolean isSameErasure(Type type, Type known, VisitorState state) {
    Types types = state.getTypes();
    return types.isSameType(types.erasure(type), types.erasure(known));
  }

  private static boolean isErasedSubtype(Type type, Type supertype, VisitorState state) {
    Types types = state.getTypes();
    return type != null
        && supertype != null
        && types.isSubtype(types.erasure(type), types.erasure(supertype));
  }

  /** Whether {@code symbol} carries one of the annotation types of the index. */
  public static boolean hasAnnotation(KnowledgeIndex index, Symbol symbol, VisitorState state) {
    for (TypeEntry entry : index.types()) {
      if (ASTHelpers.hasAnnotation(symbol, entry.entry().value().replace('$', '.'), state)) {
        return true;
      }
    }
    return false;
  }

  // --- methods ----------------------------------------------------------------------------------

  /** The entry for a static method declared in exactly the entry's type. */
  public static Optional<MethodEntry> staticMethod(KnowledgeIndex index, MethodSymbol method) {
    if (method == null || !method.isStatic()) {
      return Optional.empty();
    }
    String owner = binaryName(method.owner);
    return index.named(method.getSimpleName().toString()).stream()
        .filter(e -> e.entry().type().equals(owner))
        .findFirst();
  }

  /** The entry for a method (static or not) declared in exactly the entry's type. */
  public static Optional<MethodEntry> declaredMethod(KnowledgeIndex index, MethodSymbol method) {
    if (method == null) {
      return Optional.empty();
    }
    String owner = method.owner.getQualifiedName().toString();
    return index.named(method.getSimpleName().toString()).stream()
        .filter(e -> e.entry().type().equals(owner))
        .findFirst();
  }

  /**
   * The entry for an instance method: the method's class is (or extends) the entry's type and has
   * the entry's name; {@code type#*} matches any method the entry's type itself declares.
   */
  public static Optional<MethodEntry> instanceMethod(
      KnowledgeIndex index, MethodSymbol method, VisitorState state) {
    if (method == null || method.isStatic() || method.owner == null) {
      return Optional.empty();
    }
    for (MethodEntry entry : index.candidates(method.getSimpleName().toString())) {
      ClassSymbol declared = supertypeNamed(method.owner.type, entry.entry().type(), state);
      if (declared == null) {
        continue;
      }
      if (!entry.isWildcard()
          || declared.members().findFirst(method.getSimpleName(), s -> s instanceof MethodSymbol)
              != null) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /**
   * The entry for a method (static or not) of the entry's type or of a subtype of it: {@code
   * Thread#isAlive} matches {@code worker.isAlive()} on a {@code Thread} subclass.
   */
  public static Optional<MethodEntry> methodOfSubtype(
      KnowledgeIndex index, MethodSymbol method, VisitorState state) {
    if (method == null || method.owner == null) {
      return Optional.empty();
    }
    for (MethodEntry entry : index.named(method.getSimpleName().toString())) {
      if (isMethodOfSubtype(method, entry, state)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code method} has the entry's name and belongs to its type or a subtype of it. */
  public static boolean isMethodOfSubtype(
      MethodSymbol method, MethodEntry entry, VisitorState state) {
    if (method == null
        || method.owner == null
        || !method.getSimpleName().contentEquals(entry.name())) {
      return false;
    }
    String typeName = entry.entry().type();
    Symbol owner = method.owner;
    if (owner.getQualifiedName().contentEquals(typeName)) {
      return true;
    }
    Type declared = state.getTypeFromString(typeName);
    return declared != null
        && owner.type != null
        && ASTHelpers.isSubtype(owner.type, declared, state);
  }

  /**
   * The entry for a method declared in the entry's type, or overriding one declared there: a {@code
   * get} on a {@code HashMap} matches {@code java.util.Map#get}.
   */
  public static Optional<MethodEntry> overridingMethod(
      KnowledgeIndex index, MethodSymbol method, VisitorState state) {
    if (method == null) {
      return Optional.empty();
    }
    for (MethodEntry entry : index.named(method.getSimpleName().toString())) {
      String type = entry.entry().type();
      Symbol owner = method.owner;
      Type declared = state.getTypeFromString(type);
      if (declared == null || owner == null) {
        continue;
      }
      if (owner.getQualifiedName().contentEquals(type)
          || (ASTHelpers.isSubtype(owner.type, declared, state)
              && ASTHelpers.findSuperMethods(method, state.getTypes()).stream()
                  .anyMatch(m -> m.owner.getQualifiedName().contentEquals(type)))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code method} overrides a method of the index declared in exactly its type. */
  public static boolean overridesEntry(
      KnowledgeIndex index, MethodSymbol method, VisitorState state) {
    for (MethodSymbol superMethod : ASTHelpers.findSuperMethods(method, state.getTypes())) {
      String owner = binaryName(superMethod.owner);
      for (MethodEntry entry : index.named(superMethod.getSimpleName().toString())) {
        if (entry.entry().type().equals(owner)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The catalog entry behind an optional method entry. */
  public static Optional<ApiCatalog.Entry> entry(Optional<? extends MethodEntry> entry) {
    return entry.map(MethodEntry::entry);
  }
}
