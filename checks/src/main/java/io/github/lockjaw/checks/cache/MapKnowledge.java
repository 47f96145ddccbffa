package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex.TypeEntry;
import java.util.Optional;

/**
 * The source fix's view of {@code maps.txt} on javac trees ({@link ComputeIfAbsentFix}, {@link
 * CacheField}): which maps lock coarsely, which are concurrent, what a rewrite may use. Matching
 * goes through {@link KnownSymbols}; the queries read the same entries from the model ({@link
 * MapLockings}, {@code KeyedAccess}).
 */
public final class MapKnowledge {

  private MapKnowledge() {}

  /** True when the type is already a concurrent map; such caches are never flagged. */
  public static boolean isConcurrent(Type type, VisitorState state) {
    return KnownSymbols.supertypeEntry(Kind.Maps.CONCURRENT_TYPE.index(), type, state).isPresent();
  }

  /** The {@code coarsely-locked-type} entry the type belongs to, e.g. Hashtable. */
  public static Optional<ApiCatalog.Entry> coarselyLockedType(Type type, VisitorState state) {
    return KnownSymbols.supertypeEntry(Kind.Maps.COARSELY_LOCKED_TYPE.index(), type, state)
        .map(TypeEntry::entry);
  }

  /** The {@code plain-type} entry of exactly this class, e.g. HashMap. */
  public static Optional<ApiCatalog.Entry> plainType(Type type, VisitorState state) {
    return KnownSymbols.sameTypeEntry(Kind.Maps.PLAIN_TYPE.index(), type, state)
        .map(TypeEntry::entry);
  }

  /** Whether the call is a factory such as {@code Collections.synchronizedMap(...)}. */
  public static boolean isCoarselyLockingFactory(ExpressionTree tree) {
    if (!(tree instanceof MethodInvocationTree invocation)) {
      return false;
    }
    MethodSymbol method = ASTHelpers.getSymbol(invocation);
    return KnownSymbols.declaredMethod(Kind.Maps.COARSELY_LOCKING_FACTORY.index(), method)
        .isPresent();
  }

  /**
   * The {@code atomic-method} entry for a call, if the call is a single operation that a
   * ConcurrentHashMap performs atomically too.
   */
  public static Optional<ApiCatalog.Entry> atomicMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.entry(
        KnownSymbols.overridingMethod(Kind.Maps.ATOMIC_METHOD.index(), method, state));
  }

  /**
   * Whether a call is a JDK call a fill may run inside computeIfAbsent ({@code computed-value}): it
   * returns a value that is never null, changes nothing and throws no checked exception.
   */
  public static boolean isComputedValue(MethodSymbol method, VisitorState state) {
    return KnownSymbols.overridingMethod(Kind.Maps.COMPUTED_VALUE.index(), method, state)
        .isPresent();
  }

  /** The fully qualified name of the map a fix moves a cache to. */
  public static String replacementType() {
    return Kind.Maps.REPLACEMENT.values().get(0);
  }

  /** Whether a field declared with this type can hold the replacement map unchanged. */
  public static boolean canHoldReplacement(Type declared) {
    if (declared == null || declared.tsym == null) {
      return false;
    }
    String name = declared.tsym.getQualifiedName().toString();
    return Kind.Maps.REPLACEMENT_SUPERTYPE.values().contains(name);
  }

  /** The class that {@code new X<>(...)} creates, with its plain-type or locked-type entry. */
  public static Optional<ApiCatalog.Entry> constructedMapEntry(
      NewClassTree tree, VisitorState state) {
    Type type = ASTHelpers.getType(tree);
    Optional<ApiCatalog.Entry> plain = plainType(type, state);
    return plain.isPresent()
        ? plain
        : KnownSymbols.sameTypeEntry(Kind.Maps.COARSELY_LOCKED_TYPE.index(), type, state)
            .map(TypeEntry::entry);
  }
}
