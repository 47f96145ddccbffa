package io.github.lockjaw.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApiCatalogTest {

  private static ApiCatalog parse(String text) throws IOException {
    return ApiCatalog.parse("test", new BufferedReader(new StringReader(text)));
  }

  @Test
  void readsKindsValuesAndAttributesInFileOrder() throws IOException {
    ApiCatalog catalog =
        parse(
            """
            # a comment line
            factory   org.example.Clients#create   thread-safe pooled   # trailing comment
            factory   org.example.Clients#custom
            type      org.example.Client
            """);
    assertEquals(
        List.of("org.example.Clients#create", "org.example.Clients#custom"),
        catalog.values("factory"));
    ApiCatalog.Entry first = catalog.entries("factory").get(0);
    assertEquals("org.example.Clients", first.type());
    assertEquals("create", first.method());
    assertEquals(List.of("thread-safe", "pooled"), first.attributes());
    assertTrue(first.hasAttribute("pooled"));
    assertEquals("", catalog.entries("type").get(0).method());
    assertTrue(catalog.entries("missing-kind").isEmpty());
  }

  @Test
  void aHashInsideAValueIsNotAComment() throws IOException {
    ApiCatalog catalog = parse("method java.util.Map#get\n");
    assertEquals("get", catalog.entries("method").get(0).method());
  }

  @Test
  void aLineWithoutValueIsRejectedWithItsLineNumber() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> parse("kind value\n\nlonely\n"));
    assertTrue(e.getMessage().contains("line 3"), e.getMessage());
  }

  @Test
  void theShippedMapCatalogHasEveryKindTheCacheChecksRead() {
    ApiCatalog maps = ApiCatalog.named("maps");
    for (String kind :
        List.of(
            "coarsely-locked-type",
            "coarsely-locking-factory",
            "plain-type",
            "concurrent-type",
            "map-like-type",
            "key-accessor",
            "key-accessor-exclusion",
            "replacement",
            "check-method",
            "act-method",
            "atomic-method",
            "replacement-supertype")) {
      assertFalse(maps.entries(kind).isEmpty(), "maps.txt has no '" + kind + "' entry");
    }
    assertEquals("java.util.concurrent.ConcurrentHashMap", maps.values("replacement").get(0));
    assertTrue(maps.entries("coarsely-locked-type").get(0).hasAttribute("rejects-nulls"));
  }

  @Test
  void aMissingCatalogSaysWhichFile() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> ApiCatalog.named("no-such-catalog"));
    assertTrue(e.getMessage().contains("no-such-catalog.txt"), e.getMessage());
  }

  @Test
  void aRolePairsEveryTypeThatPlaysItWithEveryCallOfTheRole() throws IOException {
    ApiCatalog catalog =
        parse(
            """
            object-factory       org.example.v1.Factory
            object-factory       org.example.v2.Factory
            object-factory-call  make      does=opens
            object-factory-call  destroy
            lonely-kind          org.example.Other
            """);
    assertEquals(List.of("object-factory"), catalog.roles());
    List<ApiCatalog.Entry> calls = catalog.roleCalls("object-factory");
    assertEquals(
        List.of(
            "org.example.v1.Factory#make",
            "org.example.v1.Factory#destroy",
            "org.example.v2.Factory#make",
            "org.example.v2.Factory#destroy"),
        calls.stream().map(ApiCatalog.Entry::value).toList());
    assertEquals("object-factory-call", calls.get(0).kind());
    assertEquals("opens", calls.get(2).attribute("does").orElseThrow());
    assertTrue(catalog.roleCalls("lonely-kind").isEmpty());
  }

  @Test
  void theShippedPoolCatalogKnowsCommonsPool3ByRole() {
    List<String> calls =
        ApiCatalog.named("pools").roleCalls("object-factory").stream()
            .map(ApiCatalog.Entry::value)
            .toList();
    assertTrue(
        calls.contains("org.apache.commons.pool3.PooledObjectFactory#validateObject"),
        calls.toString());
    assertTrue(
        calls.contains("org.apache.commons.pool.KeyedPoolableObjectFactory#destroyObject"),
        calls.toString());
  }
}
