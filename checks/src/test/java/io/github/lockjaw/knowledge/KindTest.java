package io.github.lockjaw.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every kind of every shipped knowledge file is a {@link Kind} constant, and the reverse. */
class KindTest {

  /** Every {@code Kind} constant, read from the nested classes of {@link Kind}. */
  private static List<Kind> declaredKinds() throws IllegalAccessException {
    List<Kind> kinds = new ArrayList<>();
    for (Class<?> group : Kind.class.getDeclaredClasses()) {
      for (Field field : group.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == Kind.class) {
          kinds.add((Kind) field.get(null));
        }
      }
    }
    return kinds;
  }

  /** The knowledge files shipped in the jar, by name without {@code .txt}. */
  private static Set<String> shippedCatalogs() throws IOException, URISyntaxException {
    // the directory of one known file: test classes share the package but hold no .txt
    Path directory =
        Path.of(ApiCatalog.class.getResource("/io/github/lockjaw/knowledge/maps.txt").toURI())
            .getParent();
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".txt"))
          .map(name -> name.substring(0, name.length() - ".txt".length()))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void everyKindWrittenInAShippedFileIsAConstant() throws Exception {
    Set<String> declared =
        declaredKinds().stream().map(k -> k.catalog() + " " + k.name()).collect(Collectors.toSet());
    Set<String> shipped = shippedCatalogs();
    assertTrue(shipped.size() >= 9, "knowledge files found: " + shipped);
    for (String catalog : shipped) {
      for (String kind : ApiCatalog.named(catalog).kinds()) {
        assertTrue(
            declared.contains(catalog + " " + kind),
            catalog + ".txt kind '" + kind + "' has no Kind constant: nothing reads it");
      }
    }
  }

  @Test
  void everyConstantHasEntriesInItsFile() throws Exception {
    List<Kind> kinds = declaredKinds();
    assertEquals(126, kinds.size(), "a Kind constant was added or removed: update this count");
    for (Kind kind : kinds) {
      assertFalse(kind.entries().isEmpty(), kind + " has no entry");
      assertEquals(kind.values().size(), kind.entries().size(), kind.toString());
    }
  }

  @Test
  void constantsAreGroupedByTheirFile() throws Exception {
    for (Class<?> group : Kind.class.getDeclaredClasses()) {
      String catalog = (String) group.getField("CATALOG").get(null);
      for (Field field : group.getDeclaredFields()) {
        if (field.getType() == Kind.class) {
          Kind kind = (Kind) field.get(null);
          assertEquals(catalog, kind.catalog(), group.getSimpleName() + "." + field.getName());
          assertEquals(
              kind.name().toUpperCase(java.util.Locale.ROOT).replace('-', '_'),
              field.getName(),
              "constant name of " + kind);
        }
      }
    }
  }
}
