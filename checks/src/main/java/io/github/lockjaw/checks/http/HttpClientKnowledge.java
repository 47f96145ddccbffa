package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.KnowledgeIndex.TypeEntry;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP checks' view of {@code http-clients.txt}: which expressions create an HTTP client,
 * which calls send a request or close a client, and what stops a connection from being reused.
 * Types in the file are binary names ({@code okhttp3.OkHttpClient$Builder}). Matching goes through
 * {@link KnownSymbols}.
 */
public final class HttpClientKnowledge {
  private static final KnowledgeIndex CLIENT_CONSTRUCTORS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_CONSTRUCTOR);
  private static final KnowledgeIndex CLIENT_FACTORIES =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_FACTORY);
  private static final KnowledgeIndex BUILDER_STARTS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_BUILDER_START);
  private static final KnowledgeIndex BUILD_METHODS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_BUILD_METHOD);
  private static final KnowledgeIndex STATELESS_CONFIG =
      KnowledgeIndex.of(Kind.HttpClients.STATELESS_CONFIG);
  private static final KnowledgeIndex REQUEST_METHODS =
      KnowledgeIndex.of(Kind.HttpClients.REQUEST_METHOD);
  private static final KnowledgeIndex FLUENT_METHODS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_FLUENT_METHOD);
  private static final KnowledgeIndex CLOSE_METHODS =
      KnowledgeIndex.of(Kind.HttpClients.CLOSE_METHOD);
  private static final KnowledgeIndex CLOSE_HELPERS =
      KnowledgeIndex.of(Kind.HttpClients.CLOSE_HELPER);
  private static final KnowledgeIndex HOISTABLE_ARGUMENT_FACTORIES =
      KnowledgeIndex.of(Kind.HttpClients.HOISTABLE_ARGUMENT_FACTORY);
  private static final KnowledgeIndex CONNECTION_POOL_TYPES =
      KnowledgeIndex.of(Kind.HttpClients.CONNECTION_POOL_TYPE);
  private static final KnowledgeIndex URL_CONNECTION_TYPES =
      KnowledgeIndex.of(Kind.HttpClients.URL_CONNECTION_TYPE);
  private static final KnowledgeIndex URL_CONNECTION_OPEN =
      KnowledgeIndex.of(Kind.HttpClients.URL_CONNECTION_OPEN);
  private static final KnowledgeIndex DISCONNECT_METHODS =
      KnowledgeIndex.of(Kind.HttpClients.DISCONNECT_METHOD);
  private static final KnowledgeIndex HEADER_METHODS =
      KnowledgeIndex.of(Kind.HttpClients.HEADER_METHOD);
  private static final KnowledgeIndex REQUEST_TYPES =
      KnowledgeIndex.of(Kind.HttpClients.REQUEST_TYPE);
  private static final KnowledgeIndex PROPERTY_SETTERS =
      KnowledgeIndex.of(Kind.HttpClients.SYSTEM_PROPERTY_SETTER);

  private HttpClientKnowledge() {}

  /** The {@code client-constructor} entry for {@code new T(...)} of exactly this class. */
  public static Optional<ApiCatalog.Entry> clientConstructor(Symbol constructedClass) {
    return KnownSymbols.exactClass(CLIENT_CONSTRUCTORS, constructedClass).map(TypeEntry::entry);
  }

  /** The {@code client-factory} entry for a static factory call, e.g. HttpClients.createDefault. */
  public static Optional<ApiCatalog.Entry> clientFactory(MethodSymbol method) {
    return KnownSymbols.entry(KnownSymbols.staticMethod(CLIENT_FACTORIES, method));
  }

  /** The {@code client-builder-start} entry of a static builder factory, e.g. HttpClients.custom. */
  public static Optional<ApiCatalog.Entry> builderStartMethod(MethodSymbol method) {
    return KnownSymbols.entry(KnownSymbols.staticMethod(BUILDER_STARTS, method));
  }

  /** The {@code client-builder-start} entry of a builder constructor, e.g. new OkHttpClient.Builder(). */
  public static Optional<ApiCatalog.Entry> builderStartConstructor(Symbol constructedClass) {
    return KnownSymbols.exactClass(BUILDER_STARTS, constructedClass).map(TypeEntry::entry);
  }

  public static boolean isBuildMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(BUILD_METHODS, method, state).isPresent();
  }

  public static boolean isStatelessConfig(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(STATELESS_CONFIG, method, state).isPresent();
  }

  public static boolean isRequestMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(REQUEST_METHODS, method, state).isPresent();
  }

  public static boolean isFluentClientMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(FLUENT_METHODS, method, state).isPresent();
  }

  public static boolean isCloseMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(CLOSE_METHODS, method, state).isPresent();
  }

  public static boolean isCloseHelper(MethodSymbol method) {
    return KnownSymbols.staticMethod(CLOSE_HELPERS, method).isPresent();
  }

  public static boolean isHoistableArgumentFactory(MethodSymbol method) {
    return KnownSymbols.staticMethod(HOISTABLE_ARGUMENT_FACTORIES, method).isPresent();
  }

  /** True for {@code new PoolingHttpClientConnectionManager()} and the other pool types. */
  public static boolean isConnectionPoolType(Symbol constructedClass) {
    return KnownSymbols.exactClass(CONNECTION_POOL_TYPES, constructedClass).isPresent();
  }

  public static boolean isUrlConnection(Type type, VisitorState state) {
    return KnownSymbols.isSubtypeOfAny(URL_CONNECTION_TYPES, type, state);
  }

  public static boolean isOpenConnection(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(URL_CONNECTION_OPEN, method, state).isPresent();
  }

  public static boolean isDisconnect(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(DISCONNECT_METHODS, method, state).isPresent();
  }

  public static boolean isHeaderMethod(MethodSymbol method, VisitorState state) {
    return KnownSymbols.instanceMethod(HEADER_METHODS, method, state).isPresent();
  }

  /** Whether a header set on a receiver of this type is a request header (not a response's). */
  public static boolean isRequestType(Type type, VisitorState state) {
    return type != null && KnownSymbols.isSubtypeOfAny(REQUEST_TYPES, type, state);
  }

  public static boolean isSystemPropertySetter(MethodSymbol method) {
    return KnownSymbols.staticMethod(PROPERTY_SETTERS, method).isPresent();
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
