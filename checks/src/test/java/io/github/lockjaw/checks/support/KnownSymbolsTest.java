package io.github.lockjaw.checks.support;

import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.errorprone.BugPattern;
import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodInvocationTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.NewClassTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tests of the matching layer itself: a test-only checker reports, on every call and every {@code
 * new}, which knowledge kinds {@link KnownSymbols} matches, one matching rule per kind.
 */
class KnownSymbolsTest {

  /** Reports the kinds a call or a construction matches. */
  @BugPattern(summary = "Prints what KnownSymbols matches", severity = WARNING)
  public static final class KnownSymbolsPrinter extends BugChecker
      implements MethodInvocationTreeMatcher, NewClassTreeMatcher {

    private static final KnowledgeIndex POLLED = KnowledgeIndex.of(Kind.Blocking.POLLED_STATE);
    private static final KnowledgeIndex CHECKS = KnowledgeIndex.of(Kind.Maps.CHECK_METHOD);
    private static final KnowledgeIndex FACTORIES =
        KnowledgeIndex.of(Kind.Maps.COARSELY_LOCKING_FACTORY);
    private static final KnowledgeIndex CLIENT_FACTORIES =
        KnowledgeIndex.of(Kind.HttpClients.CLIENT_FACTORY);
    private static final KnowledgeIndex REQUESTS =
        KnowledgeIndex.of(Kind.HttpClients.REQUEST_METHOD);
    private static final KnowledgeIndex CONCURRENT = KnowledgeIndex.of(Kind.Maps.CONCURRENT_TYPE);
    private static final KnowledgeIndex PLAIN = KnowledgeIndex.of(Kind.Maps.PLAIN_TYPE);
    private static final KnowledgeIndex CLIENTS =
        KnowledgeIndex.of(Kind.HttpClients.CLIENT_CONSTRUCTOR);

    @Override
    public Description matchMethodInvocation(MethodInvocationTree tree, VisitorState state) {
      MethodSymbol method = ASTHelpers.getSymbol(tree);
      List<String> kinds = new ArrayList<>();
      KnownSymbols.methodOfSubtype(POLLED, method, state).ifPresent(e -> kinds.add("polled-state"));
      KnownSymbols.overridingMethod(CHECKS, method, state)
          .ifPresent(e -> kinds.add("check-method"));
      KnownSymbols.declaredMethod(FACTORIES, method)
          .ifPresent(e -> kinds.add("coarsely-locking-factory"));
      KnownSymbols.staticMethod(CLIENT_FACTORIES, method)
          .ifPresent(e -> kinds.add("client-factory"));
      KnownSymbols.instanceMethod(REQUESTS, method, state)
          .ifPresent(e -> kinds.add("request-method " + e.owner() + "#" + e.name()));
      return report(tree, kinds);
    }

    @Override
    public Description matchNewClass(NewClassTree tree, VisitorState state) {
      Type type = ASTHelpers.getType(tree);
      List<String> kinds = new ArrayList<>();
      KnownSymbols.supertypeEntry(CONCURRENT, type, state)
          .ifPresent(e -> kinds.add("concurrent-type " + e.binaryName()));
      KnownSymbols.sameTypeEntry(PLAIN, type, state)
          .ifPresent(e -> kinds.add("plain-type " + e.binaryName()));
      KnownSymbols.exactClass(CLIENTS, type == null ? null : type.tsym)
          .ifPresent(e -> kinds.add("client-constructor " + e.binaryName()));
      return report(tree, kinds);
    }

    private Description report(com.sun.source.tree.Tree tree, List<String> kinds) {
      return kinds.isEmpty()
          ? Description.NO_MATCH
          : buildDescription(tree).setMessage("matches " + String.join(", ", kinds)).build();
    }
  }

  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(KnownSymbolsPrinter.class, getClass());

  @Test
  void methodsMatchTheirEntryTypeTheWayEachKindAsks() {
    compilation
        .addSourceLines(
            "Calls.java",
            """
            import java.util.Collections;
            import java.util.HashMap;
            import java.util.Map;
            import java.util.concurrent.Future;
            class Calls {
              static class Worker extends Thread {}
              static class NotAMap {
                Object get(Object key) {
                  return key;
                }
              }
              static class IsAliveLookalike {
                boolean isAlive() {
                  return true;
                }
              }
              void calls(Worker worker, Future<?> future, HashMap<String, String> map, NotAMap notAMap,
                  Map<String, String> any, IsAliveLookalike lookalike) {
                // a subclass's call of the entry type's method
                // BUG: Diagnostic contains: matches polled-state
                worker.isAlive();
                // BUG: Diagnostic contains: matches polled-state
                future.isDone();
                // an override of Map#get in HashMap
                // BUG: Diagnostic contains: matches check-method
                map.get("k");
                // the same names on unrelated types match nothing
                notAMap.get("k");
                lookalike.isAlive();
                // BUG: Diagnostic contains: matches coarsely-locking-factory
                Collections.synchronizedMap(any);
                Collections.unmodifiableMap(any);
              }
            }
            """)
        .doTest();
  }

  @Test
  void staticFactoriesMatchExactlyAndWildcardEntriesMatchWhatTheirTypeDeclares() {
    compilation
        .addSourceLines(
            "Http.java",
            """
            import org.apache.http.client.methods.HttpGet;
            import org.apache.http.impl.client.CloseableHttpClient;
            import org.apache.http.impl.client.HttpClients;
            import org.springframework.web.client.RestTemplate;
            class Http {
              static class Lookalike {
                String getForObject(String url, Class<String> type) {
                  return url;
                }
              }
              void calls(RestTemplate rest, Lookalike lookalike) throws Exception {
                // BUG: Diagnostic contains: matches client-factory
                CloseableHttpClient client = HttpClients.createDefault();
                // BUG: Diagnostic contains: matches request-method org.apache.http.client.HttpClient#execute
                client.execute(new HttpGet("http://example.org"));
                // BUG: Diagnostic contains: matches request-method org.springframework.web.client.RestOperations#*
                rest.getForObject("http://example.org", String.class);
                lookalike.getForObject("http://example.org", String.class);
                rest.setErrorHandler(null);
              }
            }
            """)
        .doTest();
  }

  @Test
  void typesMatchAsSupertypesAsTheSameTypeOrByExactBinaryName() {
    compilation
        .addSourceLines(
            "Types.java",
            """
            import java.util.HashMap;
            import java.util.LinkedHashMap;
            import java.util.concurrent.ConcurrentHashMap;
            import java.util.concurrent.ConcurrentSkipListMap;
            import org.apache.http.impl.client.DefaultHttpClient;
            class Types {
              static class MyClient extends DefaultHttpClient {}
              void types() {
                // BUG: Diagnostic contains: matches concurrent-type java.util.concurrent.ConcurrentMap
                new ConcurrentHashMap<String, String>();
                // BUG: Diagnostic contains: matches concurrent-type java.util.concurrent.ConcurrentMap
                new ConcurrentSkipListMap<String, String>();
                // BUG: Diagnostic contains: matches plain-type java.util.HashMap
                new HashMap<String, String>();
                // the same type only: an anonymous subclass of LinkedHashMap is no plain-type entry
                new LinkedHashMap<String, String>() {};
                // BUG: Diagnostic contains: matches client-constructor org.apache.http.impl.client.DefaultHttpClient
                new DefaultHttpClient();
                new MyClient();
              }
            }
            """)
        .doTest();
  }
}
