package io.github.lockjaw.bytecode;

import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The knowledge files ({@code knowledge/*.txt}, read through {@link ApiCatalog}) as the bytecode
 * detectors need them: type names in JVM internal form ({@code java/util/Map}) and method entries
 * indexed by method name, so a detector asks about an invoke instruction in one map look-up.
 *
 * <p>Plain Java: no SpotBugs or Error Prone types, so it can be unit-tested and reused.
 */
public final class BytecodeKnowledge {

  /** One {@code type#method} entry: the declaring type in internal form, and its attributes. */
  public record MethodEntry(String kind, String owner, String name, ApiCatalog.Entry entry) {
    /** The value of a {@code key=value} attribute, or empty. */
    public Optional<String> attribute(String key) {
      String prefix = key + "=";
      return entry.attributes().stream()
          .filter(a -> a.startsWith(prefix))
          .map(a -> a.substring(prefix.length()))
          .findFirst();
    }

    /** The simple name of the owner and the method, e.g. {@code DriverManager.getConnection()}. */
    public String display() {
      return simpleName(owner) + "." + name + "()";
    }
  }

  /** Method entries of several kinds, indexed by method name. */
  public static final class MethodSet {
    private final Map<String, List<MethodEntry>> byName = new HashMap<>();
    private final List<MethodEntry> wildcards = new ArrayList<>();

    void add(MethodEntry entry) {
      if (entry.name().equals("*")) {
        wildcards.add(entry);
      } else {
        byName.computeIfAbsent(entry.name(), k -> new ArrayList<>()).add(entry);
      }
    }

    /** The entries named {@code name} (plus {@code type#*} entries), to be checked by owner. */
    public List<MethodEntry> candidates(String name) {
      List<MethodEntry> named = byName.getOrDefault(name, List.of());
      if (wildcards.isEmpty()) {
        return named;
      }
      List<MethodEntry> all = new ArrayList<>(named);
      all.addAll(wildcards);
      return all;
    }

    public boolean isEmpty() {
      return byName.isEmpty() && wildcards.isEmpty();
    }
  }

  private BytecodeKnowledge() {}

  /** The {@code type#method} entries of the given kinds in one catalog. */
  public static MethodSet methods(String catalog, String... kinds) {
    MethodSet set = new MethodSet();
    addMethods(set, catalog, kinds);
    return set;
  }

  /** Adds the {@code type#method} entries of the given kinds in {@code catalog} to {@code set}. */
  public static MethodSet addMethods(MethodSet set, String catalog, String... kinds) {
    ApiCatalog api = ApiCatalog.named(catalog);
    for (String kind : kinds) {
      for (ApiCatalog.Entry entry : api.entries(kind)) {
        if (!entry.method().isEmpty()) {
          set.add(new MethodEntry(kind, internalName(entry.type()), entry.method(), entry));
        }
      }
    }
    return set;
  }

  /** Adds every call of every role in {@code catalog} ({@link ApiCatalog#roleCalls}) to {@code set}. */
  public static MethodSet addRoleCalls(MethodSet set, String catalog) {
    ApiCatalog api = ApiCatalog.named(catalog);
    for (String role : api.roles()) {
      for (ApiCatalog.Entry entry : api.roleCalls(role)) {
        set.add(new MethodEntry(entry.kind(), internalName(entry.type()), entry.method(), entry));
      }
    }
    return set;
  }

  /** The values of one kind that name types (no {@code #}), in internal form. */
  public static List<String> types(String catalog, String kind) {
    List<String> types = new ArrayList<>();
    for (ApiCatalog.Entry entry : ApiCatalog.named(catalog).entries(kind)) {
      if (entry.method().isEmpty()) {
        types.add(internalName(entry.value()));
      }
    }
    return types;
  }

  /**
   * A Java name as the JVM spells it: {@code java.lang.System.Logger} becomes {@code
   * java/lang/System$Logger}, {@code okhttp3.Request$Builder} stays nested. Package segments are
   * the lower-case ones before the first capitalised segment.
   */
  public static String internalName(String javaName) {
    String[] parts = javaName.split("\\.");
    StringBuilder name = new StringBuilder();
    boolean inType = false;
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        name.append(inType ? '$' : '/');
      }
      name.append(parts[i]);
      if (!parts[i].isEmpty() && Character.isUpperCase(parts[i].charAt(0))) {
        inType = true;
      }
    }
    return name.toString();
  }

  /** {@code java/util/Map$Entry} → {@code Map.Entry}. */
  public static String simpleName(String internalName) {
    String name = internalName.substring(internalName.lastIndexOf('/') + 1);
    return name.replace('$', '.');
  }

  /** {@code java/util/Map$Entry} → {@code java.util.Map$Entry} (a binary name, for reports). */
  public static String binaryName(String internalName) {
    return internalName.replace('/', '.');
  }

  /** Words written with '-' for blanks in an attribute value. */
  public static String words(String value) {
    return value.replace('-', ' ');
  }
}
