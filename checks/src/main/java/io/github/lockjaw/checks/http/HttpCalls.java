package io.github.lockjaw.checks.http;

import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import java.util.List;
import java.util.Optional;

/**
 * What {@code http-clients.txt} (and {@code io.txt} for sockets) says about one operation of the
 * model, the same for both engines: which operations create a client or open a connection, which
 * send a request, close a client or release a connection. The fix's view of the same file, on javac
 * symbols, is {@link HttpClientKnowledge}.
 */
final class HttpCalls {
  private static final List<String> POOL_TYPES =
      Kind.HttpClients.CONNECTION_POOL_TYPE.index().typeNames();
  private static final List<String> URL_CONNECTION_TYPES =
      Kind.HttpClients.URL_CONNECTION_TYPE.index().typeNames();
  private static final List<String> REQUEST_TYPES =
      Kind.HttpClients.REQUEST_TYPE.index().typeNames();
  private static final List<String> SOCKET_TYPES =
      Kind.HttpClients.SOCKET_CONNECTION.index().typeNames();

  private HttpCalls() {}

  /** The entry of {@code new T(...)} for a client type (exactly that class), or empty. */
  static Optional<ApiCatalog.Entry> clientConstructor(Op op) {
    return op.kind() == Op.Kind.NEW ? typeEntry(Kind.HttpClients.CLIENT_CONSTRUCTOR, op) : none();
  }

  /** The entry of a static factory whose every call creates a client, or empty. */
  static Optional<ApiCatalog.Entry> clientFactory(Program program, Op op) {
    return op.kind() == Op.Kind.INVOKE_STATIC
        ? methodEntry(program, Kind.HttpClients.CLIENT_FACTORY, op.method())
        : none();
  }

  /** The entry of a call or constructor that starts a fresh client builder, or empty. */
  static Optional<ApiCatalog.Entry> builderStart(Program program, Op op) {
    if (op.kind() == Op.Kind.NEW) {
      return typeEntry(Kind.HttpClients.CLIENT_BUILDER_START, op);
    }
    return op.kind() == Op.Kind.INVOKE_STATIC
        ? methodEntry(program, Kind.HttpClients.CLIENT_BUILDER_START, op.method())
        : none();
  }

  static boolean isBuild(Program program, Op op) {
    return isInstanceCall(op) && is(program, Kind.HttpClients.CLIENT_BUILD_METHOD, op.method());
  }

  static boolean isStatelessConfig(Program program, Op op) {
    return is(program, Kind.HttpClients.STATELESS_CONFIG, op.method());
  }

  static boolean isConnectionManagerSetter(Program program, Op op) {
    return is(program, Kind.HttpClients.CONNECTION_MANAGER_SETTER, op.method());
  }

  static boolean isSharedManagerConfig(Program program, Op op) {
    return is(program, Kind.HttpClients.SHARED_MANAGER_CONFIG, op.method());
  }

  /** {@code new PoolingHttpClientConnectionManager(...)} and the other connection pools. */
  static boolean isPoolCreation(Op op) {
    return op != null && op.kind() == Op.Kind.NEW && POOL_TYPES.contains(op.method().owner());
  }

  /** A call that sends a request through its receiver, a client. */
  static boolean isRequest(Program program, Op op) {
    return isInstanceCall(op) && is(program, Kind.HttpClients.REQUEST_METHOD, op.method());
  }

  /** A call on a client that returns the same client, configured. */
  static boolean isFluent(Program program, Op op) {
    return isInstanceCall(op) && is(program, Kind.HttpClients.CLIENT_FLUENT_METHOD, op.method());
  }

  /** A call that ends its receiver's life: a client's pool and threads, or a connection. */
  static boolean isClose(Program program, Op op) {
    return isInstanceCall(op) && is(program, Kind.HttpClients.CLOSE_METHOD, op.method());
  }

  /** A static helper that closes its argument quietly. */
  static boolean isCloseHelper(Program program, Op op) {
    return op.kind() == Op.Kind.INVOKE_STATIC
        && is(program, Kind.HttpClients.CLOSE_HELPER, op.method());
  }

  /** {@code url.openConnection()}: a new per-exchange connection. */
  static boolean isUrlConnectionOpen(Program program, Op op) {
    return isInstanceCall(op) && is(program, Kind.HttpClients.URL_CONNECTION_OPEN, op.method());
  }

  /** {@code connection.disconnect()}: closes the socket instead of returning it for reuse. */
  static boolean isDisconnect(Program program, Op op) {
    return isInstanceCall(op)
        && is(program, Kind.HttpClients.DISCONNECT_METHOD, op.method())
        && program.matchType(URL_CONNECTION_TYPES, op.method().owner()).isPresent();
  }

  /**
   * A socket connected to a remote address by its creation: {@code new Socket(host, port)}, a
   * socket factory's {@code createSocket(host, port)}, {@code SocketChannel.open(address)}.
   */
  static boolean isSocketOpen(Program program, Op op) {
    if (op.kind() == Op.Kind.NEW) {
      return SOCKET_TYPES.contains(op.method().owner()) && op.method().parameterCount() > 0;
    }
    return op.isCall()
        && op.method().parameterCount() > 0
        && is(program, Kind.HttpClients.SOCKET_CONNECTION, op.method());
  }

  /**
   * Whether a method's declared return type can hold a connection: a connection or socket type, a
   * subtype, or a supertype ({@code URLConnection}, what {@code openConnection()} declares), so
   * that a helper returning anything else is not read.
   */
  static boolean returnsConnectionType(Program program, MethodRef method) {
    String type = method.returnType();
    if (type == null) {
      return false;
    }
    for (String connection : URL_CONNECTION_TYPES) {
      if (program.isSubtype(type, connection) || program.isSubtype(connection, type)) {
        return !type.equals("java.lang.Object");
      }
    }
    return program.matchType(SOCKET_TYPES, type).isPresent();
  }

  /** Reading or writing through a socket: its streams, or a channel's read and write. */
  static boolean isSocketExchange(Program program, Op op) {
    return isInstanceCall(op) && is(program, Kind.HttpClients.SOCKET_EXCHANGE, op.method());
  }

  /** A request header set from {@code (name, value)} on a request (not on a server's response). */
  static boolean isRequestHeader(Program program, Op op) {
    return isInstanceCall(op)
        && op.args().size() == 2
        && is(program, Kind.HttpClients.HEADER_METHOD, op.method())
        && program.matchType(REQUEST_TYPES, op.method().owner()).isPresent();
  }

  static boolean isSystemPropertySetter(Program program, Op op) {
    return op.kind() == Op.Kind.INVOKE_STATIC
        && op.args().size() == 2
        && is(program, Kind.HttpClients.SYSTEM_PROPERTY_SETTER, op.method());
  }

  static List<String> keepAliveProperties() {
    return Kind.HttpClients.KEEP_ALIVE_PROPERTY.values();
  }

  private static boolean isInstanceCall(Op op) {
    return op.kind() == Op.Kind.INVOKE_VIRTUAL || op.kind() == Op.Kind.INVOKE_SPECIAL;
  }

  private static boolean is(Program program, Kind kind, MethodRef call) {
    return methodEntry(program, kind, call).isPresent();
  }

  /**
   * The entry a call matches: the call's class is the entry's type or a subtype of it; a {@code
   * type#*} entry matches only methods that type declares (a {@code RestTemplate}'s {@code
   * getForObject} is a {@code RestOperations} method, its {@code getMessageConverters} is not).
   */
  private static Optional<ApiCatalog.Entry> methodEntry(
      Program program, Kind kind, MethodRef call) {
    Optional<KnowledgeIndex.MethodEntry> match = program.match(kind.index(), call);
    if (match.isEmpty()) {
      return none();
    }
    if (match.get().isWildcard() && !declares(program, match.get().owner(), call)) {
      return none();
    }
    return Optional.of(match.get().entry());
  }

  private static boolean declares(Program program, String type, MethodRef call) {
    ClassFacts facts = program.classFacts(type);
    if (facts == null) {
      return false; // cannot tell: stay silent
    }
    for (MethodFacts method : facts.methods()) {
      if (method.ref().name().equals(call.name())
          && method.ref().descriptor().equals(call.descriptor())) {
        return true;
      }
    }
    return false;
  }

  private static Optional<ApiCatalog.Entry> typeEntry(Kind kind, Op op) {
    String type = op.method().owner();
    for (KnowledgeIndex.TypeEntry entry : kind.index().types()) {
      if (entry.binaryName().equals(type)) {
        return Optional.of(entry.entry());
      }
    }
    return none();
  }

  private static Optional<ApiCatalog.Entry> none() {
    return Optional.empty();
  }
}
