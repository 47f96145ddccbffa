package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex.TypeEntry;
import java.util.Optional;

/**
 * The fix's view of {@code http-clients.txt} on javac symbols: which expressions create an HTTP
 * client, which calls send a request through it, close it or tear part of it down, and which
 * arguments a static field can take unchanged. (The query reads the same file through {@link
 * HttpCalls}.) Types in the file are binary names ({@code okhttp3.OkHttpClient$Builder}). Matching
 * goes through {@link KnownSymbols}.
 */
public final class HttpClientKnowledge {
  private HttpClientKnowledge() {}

  /** The {@code client-constructor} entry for {@code new T(...)} of exactly this class. */
  public static Optional<ApiCatalog.Entry> clientConstructor(Symbol constructedClass) {
    return KnownSymbols.exactClass(Kind.HttpClients.CLIENT_CONSTRUCTOR.index(), constructedClass)
        .map(TypeEntry::entry);
  }

  /** The {@code client-factory} entry for a static factory call, e.g. HttpClients.createDefault. */
  public static Optional<ApiCatalog.Entry> clientFactory(MethodSymbol method) {
    return KnownSymbols.entry(
        KnownSymbols.staticMethod(Kind.HttpClients.CLIENT_FACTORY.index(), method));
  }

  /**
   * The {@code client-builder-start} entry of a static builder factory, e.g. HttpClients.custom.
   */
  public static Optional<ApiCatalog.Entry> builderStartMethod(MethodSymbol method) {
    return KnownSymbols.entry(
        KnownSymbols.staticMethod(Kind.HttpClients.CLIENT_BUILDER_START.index(), method));
  }

  /**
   * The {@code client-builder-start} entry of a builder constructor, e.g. new
   * OkHttpClient.Builder().
   */
  public static Optional<ApiCatalog.Entry> builderStartConstructor(Symbol constructedClass) {
    return KnownSymbols.exactClass(Kind.HttpClients.CLIENT_BUILDER_START.index(), constructedClass)
        .map(TypeEntry::entry);
  }

  public static boolean isBuildMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.CLIENT_BUILD_METHOD.index(), method, state)
        .isPresent();
  }

  public static boolean isRequestMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.REQUEST_METHOD.index(), method, state)
        .isPresent();
  }

  public static boolean isFluentClientMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.CLIENT_FLUENT_METHOD.index(), method, state)
        .isPresent();
  }

  public static boolean isCloseMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.CLOSE_METHOD.index(), method, state)
        .isPresent();
  }

  /** A call that ends a part of a client (its executor, pool, manager) for all its users. */
  public static boolean isTeardownMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.TEARDOWN_METHOD.index(), method, state)
            .isPresent()
        || isCloseMethod(method, state);
  }

  public static boolean isCloseHelper(MethodSymbol method) {
    return KnownSymbols.staticMethod(Kind.HttpClients.CLOSE_HELPER.index(), method).isPresent();
  }

  public static boolean isHoistableArgumentFactory(MethodSymbol method) {
    return KnownSymbols.staticMethod(Kind.HttpClients.HOISTABLE_ARGUMENT_FACTORY.index(), method)
        .isPresent();
  }

  /** True for {@code new PoolingHttpClientConnectionManager()} and the other pool types. */
  public static boolean isConnectionPoolType(Symbol constructedClass) {
    return KnownSymbols.exactClass(Kind.HttpClients.CONNECTION_POOL_TYPE.index(), constructedClass)
        .isPresent();
  }
}
