package io.github.lockjaw.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.knowledge.KnowledgeIndex.MethodEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

class KnowledgeIndexTest {

  @Test
  void methodEntriesAreFoundByNameWithTheirOwnerInBinaryAndInternalForm() {
    KnowledgeIndex polls = KnowledgeIndex.of(Kind.Blocking.POLLED_STATE);
    List<MethodEntry> isAlive = polls.candidates("isAlive");
    assertTrue(
        isAlive.stream().anyMatch(e -> e.owner().equals("java.lang.Thread")), isAlive.toString());
    MethodEntry thread =
        isAlive.stream()
            .filter(e -> e.owner().equals("java.lang.Thread"))
            .findFirst()
            .orElseThrow();
    assertEquals("java/lang/Thread", thread.internalOwner());
    assertEquals("Thread.isAlive()", thread.display());
    assertEquals(Kind.Blocking.POLLED_STATE, thread.kind());
    assertTrue(polls.candidates("noSuchMethod").isEmpty());
    assertTrue(polls.methodNames().contains("isDone"));
  }

  @Test
  void wildcardEntriesComeAfterTheNamedOnesForEveryName() {
    KnowledgeIndex requests = KnowledgeIndex.of(Kind.HttpClients.REQUEST_METHOD);
    List<MethodEntry> any = requests.candidates("someMethodNoEntryNames");
    assertTrue(any.stream().allMatch(MethodEntry::isWildcard), any.toString());
    assertTrue(
        any.stream()
            .anyMatch(e -> e.owner().equals("org.springframework.web.client.RestOperations")),
        any.toString());
    assertTrue(requests.named("someMethodNoEntryNames").isEmpty());
    List<MethodEntry> execute = requests.candidates("execute");
    assertTrue(execute.size() > any.size(), execute.toString());
    assertTrue(execute.get(execute.size() - 1).isWildcard());
    assertTrue(!execute.get(0).isWildcard());
  }

  @Test
  void entriesFollowTheOrderOfTheKindsGiven() {
    KnowledgeIndex io = KnowledgeIndex.of(KnowledgeIndex.BLOCKING_IO_CALLS);
    assertEquals(KnowledgeIndex.BLOCKING_IO_CALLS, io.kinds());
    List<Kind> order = io.methods().stream().map(MethodEntry::kind).distinct().toList();
    assertEquals(KnowledgeIndex.BLOCKING_IO_CALLS, order);
    assertSame(io, KnowledgeIndex.of(KnowledgeIndex.BLOCKING_IO_CALLS), "built once per kind list");
  }

  @Test
  void typeEntriesKeepTheirBinaryAndInternalNames() {
    KnowledgeIndex types = KnowledgeIndex.of(Kind.Maps.COARSELY_LOCKED_TYPE);
    assertTrue(types.typeNames().contains("java.util.Hashtable"), types.typeNames().toString());
    assertTrue(types.internalTypeNames().contains("java/util/Hashtable"));
    assertTrue(types.isEmpty(), "a type kind has no method entries");
    assertTrue(KnowledgeIndex.of(Kind.Maps.CHECK_METHOD).types().isEmpty());
  }

  @Test
  void javaNamesConvertNestedTypesByTheCapitalisedSegment() {
    assertEquals("java.lang.System$Logger", JavaNames.binaryName("java.lang.System.Logger"));
    assertEquals("okhttp3.Request$Builder", JavaNames.binaryName("okhttp3.Request$Builder"));
    assertEquals("java/util/Map$Entry", JavaNames.internalName("java.util.Map.Entry"));
    assertEquals("Map.Entry", JavaNames.simpleName("java/util/Map$Entry"));
    assertEquals("java.util.Map$Entry", JavaNames.binaryNameOfInternal("java/util/Map$Entry"));
    assertEquals("the thread ends", JavaNames.words("the-thread-ends"));
  }
}
