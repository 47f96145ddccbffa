package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code type#method} entries of some kinds of one knowledge file, matched against a called
 * method in source: the method has the entry's name (or the entry is {@code type#*}) and its owner
 * is the entry's type or a subtype of it.
 */
public final class CatalogMethods {
  private final List<ApiCatalog.Entry> entries;
  private final Set<String> names;
  private final boolean wildcard;

  private CatalogMethods(List<ApiCatalog.Entry> entries) {
    this.entries = List.copyOf(entries);
    this.names = entries.stream().map(ApiCatalog.Entry::method).collect(Collectors.toUnmodifiableSet());
    this.wildcard = names.contains("*");
  }

  /** The method entries of the given kinds of {@code catalog}, in file order. */
  public static CatalogMethods of(String catalog, String... kinds) {
    ApiCatalog api = ApiCatalog.named(catalog);
    List<ApiCatalog.Entry> entries = new ArrayList<>();
    for (String kind : kinds) {
      for (ApiCatalog.Entry entry : api.entries(kind)) {
        if (!entry.method().isEmpty()) {
          entries.add(entry);
        }
      }
    }
    return new CatalogMethods(entries);
  }

  /** The first entry that {@code method} is, or overrides, or empty. */
  public Optional<ApiCatalog.Entry> match(MethodSymbol method, VisitorState state) {
    if (method == null || !(method.owner instanceof Symbol.ClassSymbol owner)) {
      return Optional.empty();
    }
    String name = method.getSimpleName().toString();
    if (!wildcard && !names.contains(name)) {
      return Optional.empty();
    }
    for (ApiCatalog.Entry entry : entries) {
      if (!entry.method().equals(name) && !entry.method().equals("*")) {
        continue;
      }
      Type declared = state.getTypeFromString(entry.type().replace('$', '.'));
      if (declared != null
          && state.getTypes().isSubtype(
              state.getTypes().erasure(owner.type), state.getTypes().erasure(declared))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code method} is, or overrides, one of the entries. */
  public boolean matches(MethodSymbol method, VisitorState state) {
    return match(method, state).isPresent();
  }
}
