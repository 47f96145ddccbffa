package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex.TypeEntry;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP checks' view of {@code http-clients.txt}: which expressions create an HTTP client, which
 * calls send a request or close a client, and what stops a connection from being reused. Types in
 * the file are binary names ({@code okhttp3.OkHttpClient$Builder}). Matching goes through {@link
 * KnownSymbols}.
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

  public static boolean isStatelessConfig(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.STATELESS_CONFIG.index(), method, state)
        .isPresent();
  }

  public static boolean isConnectionManagerSetter(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(
            Kind.HttpClients.CONNECTION_MANAGER_SETTER.index(), method, state)
        .isPresent();
  }

  public static boolean isSharedManagerConfig(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(
            Kind.HttpClients.SHARED_MANAGER_CONFIG.index(), method, state)
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

  public static boolean isUrlConnection(Type type, VisitorState state) {
    return KnownSymbols.isSubtypeOfAny(Kind.HttpClients.URL_CONNECTION_TYPE.index(), type, state);
  }

  public static boolean isOpenConnection(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.URL_CONNECTION_OPEN.index(), method, state)
        .isPresent();
  }

  public static boolean isDisconnect(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.DISCONNECT_METHOD.index(), method, state)
        .isPresent();
  }

  public static boolean isHeaderMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(Kind.HttpClients.HEADER_METHOD.index(), method, state)
        .isPresent();
  }

  /** Whether a header set on a receiver of this type is a request header (not a response's). */
  public static boolean isRequestType(Type type, VisitorState state) {
    return type != null
        && KnownSymbols.isSubtypeOfAny(Kind.HttpClients.REQUEST_TYPE.index(), type, state);
  }

  public static boolean isSystemPropertySetter(MethodSymbol method) {
    return KnownSymbols.staticMethod(Kind.HttpClients.SYSTEM_PROPERTY_SETTER.index(), method)
        .isPresent();
  }

  public static List<String> keepAliveProperties() {
    return Kind.HttpClients.KEEP_ALIVE_PROPERTY.values();
  }

  /** The binary name of a class ({@code a.b.Outer$Inner}), or null. */
  public static String binaryName(Symbol symbol) {
    return KnownSymbols.binaryName(symbol);
  }

  /** The simple name of a binary or qualified type name. */
  public static String simpleName(String binaryName) {
    int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
    return binaryName.substring(cut + 1);
  }
}
