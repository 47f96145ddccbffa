package io.github.lockjaw.knowledge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The entries of one or more {@link Kind}s, indexed for matching: {@code type#method} entries by
 * method name (a caller asks about one call in one map look-up, then checks the owner its own way),
 * type entries with their binary names. Both engines read the knowledge files through this index:
 * the source checks through {@code io.github.lockjaw.checks.support.KnownSymbols} (javac symbols),
 * the bytecode detectors with the JVM's internal names. Plain Java, built once per set of kinds.
 */
public final class KnowledgeIndex {
  private static final Map<List<Kind>, KnowledgeIndex> BUILT = new ConcurrentHashMap<>();
  private static final Map<Kind, KnowledgeIndex> SINGLE = new ConcurrentHashMap<>();

  /**
   * The calls that block on a database or another host, for the I/O-under-lock checks: JDBC,
   * network, and the calls a pool makes on its object and connection factories (by role).
   */
  public static final List<Kind> BLOCKING_IO_CALLS =
      List.of(
          Kind.Jdbc.CONNECTION_SOURCE,
          Kind.Jdbc.DATABASE_CALL,
          Kind.Io.NETWORK_CALL,
          Kind.Pools.OBJECT_FACTORY_CALL,
          Kind.Pools.CONNECTION_FACTORY_CALL);

  /** One {@code type#method} entry: the declaring type's binary name, the method name. */
  public record MethodEntry(Kind kind, String owner, String name, ApiCatalog.Entry entry) {
    /** The declaring type in the JVM's internal form, e.g. {@code java/sql/DriverManager}. */
    public String internalOwner() {
      return owner.replace('.', '/');
    }

    /** Whether the entry is {@code type#*}: any method the type itself declares. */
    public boolean isWildcard() {
      return name.equals("*");
    }

    /** The value of a {@code key=value} attribute, or empty. */
    public Optional<String> attribute(String key) {
      return entry.attribute(key);
    }

    /** The simple name of the owner and the method, e.g. {@code DriverManager.getConnection()}. */
    public String display() {
      return JavaNames.simpleName(internalOwner()) + "." + name + "()";
    }
  }

  /** One entry that names a type: its binary name. */
  public record TypeEntry(Kind kind, String binaryName, ApiCatalog.Entry entry) {
    public String internalName() {
      return binaryName.replace('.', '/');
    }
  }

  private final List<Kind> kinds;
  private final Map<String, List<MethodEntry>> byName = new HashMap<>();
  private final List<MethodEntry> wildcards = new ArrayList<>();
  private final List<TypeEntry> types = new ArrayList<>();

  private KnowledgeIndex(List<Kind> kinds) {
    this.kinds = kinds;
    for (Kind kind : kinds) {
      for (ApiCatalog.Entry entry : kind.entries()) {
        if (entry.method().isEmpty()) {
          types.add(new TypeEntry(kind, JavaNames.binaryName(entry.value()), entry));
          continue;
        }
        MethodEntry method = entryOf(kind, entry);
        if (method.isWildcard()) {
          wildcards.add(method);
        } else {
          byName.computeIfAbsent(method.name(), k -> new ArrayList<>()).add(method);
        }
      }
    }
  }

  /** The index of one kind ({@link Kind#index()}): a cheap look-up on a hot path. */
  public static KnowledgeIndex of(Kind kind) {
    return SINGLE.computeIfAbsent(kind, k -> of(List.of(k)));
  }

  /** The index of these kinds, in this order (first entries of the first kind). */
  public static KnowledgeIndex of(Kind... kinds) {
    return of(List.of(kinds));
  }

  /** The index of these kinds, in this order (first entries of the first kind). */
  public static KnowledgeIndex of(List<Kind> kinds) {
    return BUILT.computeIfAbsent(List.copyOf(kinds), KnowledgeIndex::new);
  }

  public List<Kind> kinds() {
    return kinds;
  }

  /**
   * The method entries named {@code name}, in kind and file order, then the {@code type#*} ones.
   */
  public List<MethodEntry> candidates(String name) {
    List<MethodEntry> named = byName.getOrDefault(name, List.of());
    if (wildcards.isEmpty()) {
      return named;
    }
    List<MethodEntry> all = new ArrayList<>(named);
    all.addAll(wildcards);
    return all;
  }

  /**
   * The method entries named {@code name} (not the {@code type#*} ones), in kind and file order.
   */
  public List<MethodEntry> named(String name) {
    return byName.getOrDefault(name, List.of());
  }

  /** Every method entry, {@code type#*} ones included, in kind and file order. */
  public List<MethodEntry> methods() {
    return kinds.stream()
        .flatMap(
            kind ->
                kind.entries().stream()
                    .filter(e -> !e.method().isEmpty())
                    .map(e -> entryOf(kind, e)))
        .toList();
  }

  private static MethodEntry entryOf(Kind kind, ApiCatalog.Entry entry) {
    return new MethodEntry(kind, JavaNames.binaryName(entry.type()), entry.method(), entry);
  }

  /** Every method name an entry names (a cheap filter before type look-ups). */
  public Set<String> methodNames() {
    return Collections.unmodifiableSet(byName.keySet());
  }

  /** The entries that name types, in kind and file order. */
  public List<TypeEntry> types() {
    return Collections.unmodifiableList(types);
  }

  /** The binary names of the types, in kind and file order, without repeats. */
  public List<String> typeNames() {
    Set<String> names = new LinkedHashSet<>();
    types.forEach(t -> names.add(t.binaryName()));
    return List.copyOf(names);
  }

  /** The internal names of the types, in kind and file order. */
  public List<String> internalTypeNames() {
    return types.stream().map(TypeEntry::internalName).toList();
  }

  public boolean isEmpty() {
    return byName.isEmpty() && wildcards.isEmpty();
  }
}
