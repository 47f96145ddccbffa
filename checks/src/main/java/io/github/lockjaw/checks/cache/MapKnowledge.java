package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.List;
import java.util.Optional;

/** The cache checks' view of {@code maps.txt}: which maps lock coarsely, which are concurrent. */
public final class MapKnowledge {
  private static final ApiCatalog MAPS = ApiCatalog.named("maps");

  /** The names of the check and act methods ({@code get}, {@code containsKey}, {@code put}). */
  public static final java.util.Set<String> LOOKUP_METHOD_NAMES =
      java.util.stream.Stream.concat(MAPS.entries("check-method").stream(), MAPS.entries("act-method").stream())
          .map(ApiCatalog.Entry::method)
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  private MapKnowledge() {}

  /** True for {@code java.util.Map} and its subtypes. */
  public static boolean isMap(Type type, VisitorState state) {
    Type map = state.getTypeFromString("java.util.Map");
    return type != null && map != null && ASTHelpers.isSubtype(type, map, state);
  }

  /** True when the type is already a concurrent map; such caches are never flagged. */
  public static boolean isConcurrent(Type type, VisitorState state) {
    return firstSupertypeEntry("concurrent-type", type, state).isPresent();
  }

  /** The {@code coarsely-locked-type} entry the type belongs to, e.g. Hashtable. */
  public static Optional<ApiCatalog.Entry> coarselyLockedType(Type type, VisitorState state) {
    return firstSupertypeEntry("coarsely-locked-type", type, state);
  }

  /** The {@code plain-type} entry of exactly this class, e.g. HashMap. */
  public static Optional<ApiCatalog.Entry> plainType(Type type, VisitorState state) {
    return exactEntry("plain-type", type, state);
  }

  /** Whether the call is a factory such as {@code Collections.synchronizedMap(...)}. */
  public static boolean isCoarselyLockingFactory(ExpressionTree tree) {
    if (!(tree instanceof MethodInvocationTree invocation)) {
      return false;
    }
    MethodSymbol method = ASTHelpers.getSymbol(invocation);
    return matchesMethod("coarsely-locking-factory", method);
  }

  /** Whether {@code method} is one of the check calls (get, containsKey) of a lookup. */
  public static boolean isCheckMethod(MethodSymbol method, VisitorState state) {
    return overridesEntry("check-method", method, state).isPresent();
  }

  /** Whether {@code method} is the act call (put) of a lookup. */
  public static boolean isActMethod(MethodSymbol method, VisitorState state) {
    return overridesEntry("act-method", method, state).isPresent();
  }

  /**
   * The {@code atomic-method} entry for a call, if the call is a single operation that a
   * ConcurrentHashMap performs atomically too.
   */
  public static Optional<ApiCatalog.Entry> atomicMethod(MethodSymbol method, VisitorState state) {
    return overridesEntry("atomic-method", method, state);
  }

  /** The fully qualified name of the map a fix moves a cache to. */
  public static String replacementType() {
    return MAPS.values("replacement").get(0);
  }

  /** Whether a field declared with this type can hold the replacement map unchanged. */
  public static boolean canHoldReplacement(Type declared) {
    if (declared == null || declared.tsym == null) {
      return false;
    }
    String name = declared.tsym.getQualifiedName().toString();
    return MAPS.values("replacement-supertype").contains(name);
  }

  /** The class that {@code new X<>(...)} creates, with its plain-type or locked-type entry. */
  public static Optional<ApiCatalog.Entry> constructedMapEntry(NewClassTree tree, VisitorState state) {
    Type type = ASTHelpers.getType(tree);
    Optional<ApiCatalog.Entry> plain = plainType(type, state);
    return plain.isPresent() ? plain : exactEntry("coarsely-locked-type", type, state);
  }

  private static Optional<ApiCatalog.Entry> firstSupertypeEntry(
      String kind, Type type, VisitorState state) {
    if (type == null) {
      return Optional.empty();
    }
    for (ApiCatalog.Entry entry : MAPS.entries(kind)) {
      Type known = state.getTypeFromString(entry.value());
      if (known != null && ASTHelpers.isSubtype(type, known, state)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  private static Optional<ApiCatalog.Entry> exactEntry(String kind, Type type, VisitorState state) {
    if (type == null) {
      return Optional.empty();
    }
    for (ApiCatalog.Entry entry : MAPS.entries(kind)) {
      Type known = state.getTypeFromString(entry.value());
      if (known != null && state.getTypes().isSameType(state.getTypes().erasure(type), state.getTypes().erasure(known))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  private static boolean matchesMethod(String kind, MethodSymbol method) {
    if (method == null) {
      return false;
    }
    String owner = method.owner.getQualifiedName().toString();
    String name = method.getSimpleName().toString();
    return MAPS.entries(kind).stream()
        .anyMatch(e -> e.type().equals(owner) && e.method().equals(name));
  }

  /** The entry of {@code kind} naming {@code method} or a method it overrides. */
  private static Optional<ApiCatalog.Entry> overridesEntry(
      String kind, MethodSymbol method, VisitorState state) {
    if (method == null) {
      return Optional.empty();
    }
    String name = method.getSimpleName().toString();
    List<ApiCatalog.Entry> entries = MAPS.entries(kind);
    for (ApiCatalog.Entry entry : entries) {
      if (!entry.method().equals(name)) {
        continue;
      }
      Symbol owner = method.owner;
      Type declared = state.getTypeFromString(entry.type());
      if (declared == null || owner == null) {
        continue;
      }
      if (owner.getQualifiedName().contentEquals(entry.type())
          || (ASTHelpers.isSubtype(owner.type, declared, state)
              && !ASTHelpers.findSuperMethods(method, state.getTypes()).isEmpty()
              && ASTHelpers.findSuperMethods(method, state.getTypes()).stream()
                  .anyMatch(m -> m.owner.getQualifiedName().contentEquals(entry.type())))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }
}
