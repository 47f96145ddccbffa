package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP checks' view of {@code http-clients.txt}: which expressions create an HTTP client,
 * which calls send a request or close a client, and what stops a connection from being reused.
 * Types in the file are binary names ({@code okhttp3.OkHttpClient$Builder}).
 */
public final class HttpClientKnowledge {
  private static final ApiCatalog HTTP = ApiCatalog.named("http-clients");

  private HttpClientKnowledge() {}

  /** The {@code client-constructor} entry for {@code new T(...)} of exactly this class. */
  public static Optional<ApiCatalog.Entry> clientConstructor(Symbol constructedClass) {
    return typeEntry("client-constructor", constructedClass);
  }

  /** The {@code client-factory} entry for a static factory call, e.g. HttpClients.createDefault. */
  public static Optional<ApiCatalog.Entry> clientFactory(MethodSymbol method) {
    return staticMethodEntry("client-factory", method);
  }

  /** The {@code client-builder-start} entry of a static builder factory, e.g. HttpClients.custom. */
  public static Optional<ApiCatalog.Entry> builderStartMethod(MethodSymbol method) {
    return staticMethodEntry("client-builder-start", method);
  }

  /** The {@code client-builder-start} entry of a builder constructor, e.g. new OkHttpClient.Builder(). */
  public static Optional<ApiCatalog.Entry> builderStartConstructor(Symbol constructedClass) {
    return typeEntry("client-builder-start", constructedClass);
  }

  public static boolean isBuildMethod(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("client-build-method", method, state).isPresent();
  }

  public static boolean isStatelessConfig(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("stateless-config", method, state).isPresent();
  }

  public static boolean isRequestMethod(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("request-method", method, state).isPresent();
  }

  public static boolean isFluentClientMethod(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("client-fluent-method", method, state).isPresent();
  }

  public static boolean isCloseMethod(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("close-method", method, state).isPresent();
  }

  /** A call that ends a part of a client (its executor, pool, manager) for all its users. */
  public static boolean isTeardownMethod(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("teardown-method", method, state).isPresent() || isCloseMethod(method, state);
  }

  public static boolean isCloseHelper(MethodSymbol method) {
    return staticMethodEntry("close-helper", method).isPresent();
  }

  public static boolean isHoistableArgumentFactory(MethodSymbol method) {
    return staticMethodEntry("hoistable-argument-factory", method).isPresent();
  }

  /** True for {@code new PoolingHttpClientConnectionManager()} and the other pool types. */
  public static boolean isConnectionPoolType(Symbol constructedClass) {
    return typeEntry("connection-pool-type", constructedClass).isPresent();
  }

  public static boolean isUrlConnection(Type type, VisitorState state) {
    return HTTP.values("url-connection-type").stream()
        .anyMatch(name -> isSubtypeOf(type, name, state));
  }

  public static boolean isOpenConnection(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("url-connection-open", method, state).isPresent();
  }

  public static boolean isDisconnect(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("disconnect-method", method, state).isPresent();
  }

  public static boolean isHeaderMethod(MethodSymbol method, VisitorState state) {
    return instanceMethodEntry("header-method", method, state).isPresent();
  }

  /** Whether a header set on a receiver of this type is a request header (not a response's). */
  public static boolean isRequestType(Type type, VisitorState state) {
    return type != null
        && HTTP.values("request-type").stream().anyMatch(name -> isSubtypeOf(type, name, state));
  }

  public static boolean isSystemPropertySetter(MethodSymbol method) {
    return staticMethodEntry("system-property-setter", method).isPresent();
  }

  public static List<String> keepAliveProperties() {
    return HTTP.values("keep-alive-property");
  }

  /** The binary name of a class ({@code a.b.Outer$Inner}), or null. */
  public static String binaryName(Symbol symbol) {
    if (symbol instanceof ClassSymbol classSymbol) {
      return classSymbol.flatName().toString();
    }
    return null;
  }

  /** The simple name of a binary or qualified type name. */
  public static String simpleName(String binaryName) {
    int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
    return binaryName.substring(cut + 1);
  }

  /** Whether {@code type} is, extends or implements the class with this binary name. */
  public static boolean isSubtypeOf(Type type, String binaryName, VisitorState state) {
    return supertypeNamed(type, binaryName, state) != null;
  }

  private static ClassSymbol supertypeNamed(Type type, String binaryName, VisitorState state) {
    if (type == null || !(type.tsym instanceof ClassSymbol)) {
      return null;
    }
    for (Type supertype : state.getTypes().closure(type)) {
      if (supertype.tsym instanceof ClassSymbol c && c.flatName().contentEquals(binaryName)) {
        return c;
      }
    }
    return null;
  }

  private static Optional<ApiCatalog.Entry> typeEntry(String kind, Symbol classSymbol) {
    String name = binaryName(classSymbol);
    if (name == null) {
      return Optional.empty();
    }
    return HTTP.entries(kind).stream()
        .filter(e -> e.method().isEmpty() && e.type().equals(name))
        .findFirst();
  }

  private static Optional<ApiCatalog.Entry> staticMethodEntry(String kind, MethodSymbol method) {
    if (method == null || !method.isStatic()) {
      return Optional.empty();
    }
    String owner = binaryName(method.owner);
    String name = method.getSimpleName().toString();
    return HTTP.entries(kind).stream()
        .filter(e -> e.type().equals(owner) && e.method().equals(name))
        .findFirst();
  }

  /**
   * The entry of {@code kind} for an instance method: the method's class is (or extends) the
   * entry's type and has the entry's name; {@code type#*} matches any method the type declares.
   */
  private static Optional<ApiCatalog.Entry> instanceMethodEntry(
      String kind, MethodSymbol method, VisitorState state) {
    if (method == null || method.isStatic() || method.owner == null) {
      return Optional.empty();
    }
    String name = method.getSimpleName().toString();
    for (ApiCatalog.Entry entry : HTTP.entries(kind)) {
      boolean any = entry.method().equals("*");
      if (!any && !entry.method().equals(name)) {
        continue;
      }
      ClassSymbol declared = supertypeNamed(method.owner.type, entry.type(), state);
      if (declared == null) {
        continue;
      }
      if (!any || declared.members().findFirst(method.getSimpleName(), s -> s instanceof MethodSymbol) != null) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }
}
