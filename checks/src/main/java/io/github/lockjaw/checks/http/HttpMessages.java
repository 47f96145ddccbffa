package io.github.lockjaw.checks.http;

import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.Optional;

/** Every message PerRequestHttpClient reports, in one place, for both engines. */
final class HttpMessages {
  private HttpMessages() {}

  /**
   * A client created for one request (or one loop pass) and thrown away: what happens, then the fix
   * (the field the source fix adds) or what to do and why there is no fix, then the evidence.
   */
  static String clientPerRequest(
      ClientCreation creation,
      boolean inLoop,
      boolean closed,
      Optional<String> hoistedField,
      String noFixReason,
      String evidence) {
    StringBuilder message = new StringBuilder();
    message
        .append("A new ")
        .append(ClientCreation.simpleName(creation.clientType()))
        .append(inLoop ? " is created on every loop iteration" : " is created for one request")
        .append(creation.perCallPool() ? ", with its own connection pool," : "")
        .append(" and thrown away")
        .append(closed ? " (closed after the exchange)" : "")
        .append(": no connection is reused, so every request pays a new TCP and TLS handshake and")
        .append(" the server holds the abandoned connections open until their keep-alive timeout.");
    if (hoistedField.isPresent()) {
      message
          .append(" Create one client and share it: the fix moves it to the private static final")
          .append(" field '")
          .append(hoistedField.get())
          .append("' and drops the per-call close.");
    } else {
      message.append(shareAdvice(creation.entry()));
      if (!noFixReason.isEmpty()) {
        message.append(' ').append(noFixReason);
      }
    }
    return message.append(' ').append(evidence).toString();
  }

  private static String shareAdvice(ApiCatalog.Entry entry) {
    StringBuilder advice =
        new StringBuilder(
            " Build the client once, share it (a field or an injected bean) and size its"
                + " connection pool (connections per route and in total) for the expected"
                + " concurrency.");
    entry
        .attribute("pool")
        .ifPresent(
            pool ->
                advice
                    .append(" This client's default connection manager serves one request at a")
                    .append(" time; give the shared client a ")
                    .append(ClientCreation.simpleName(pool))
                    .append("."));
    return advice.toString();
  }

  /**
   * Why the source fix does not apply, from what the knowledge file says of the client and how it
   * is created; empty when only the source's view of the code can tell.
   */
  static String noFixReason(ClientCreation creation) {
    ApiCatalog.Entry entry = creation.entry();
    if (entry.hasAttribute("impl-defined")) {
      return "(No automatic fix: pooling and thread safety depend on the implementation or"
          + " connector behind this API; share one configured instance.)";
    }
    if (!entry.hasAttribute("thread-safe")) {
      return "(No automatic fix: this client, as created here, is not safe to share between"
          + " threads.)";
    }
    if (entry.hasAttribute("lifecycle")) {
      return "(No automatic fix: the client must be started once and stopped at shutdown.)";
    }
    if (!creation.statelessConfigured() && !entry.hasAttribute("stateless")) {
      return "(No automatic fix: a shared client keeps one cookie store for all callers; build it"
          + " with disableCookieManagement() or give each request its own context.)";
    }
    if (creation.helper()) {
      return "(No automatic fix: "
          + creation.display()
          + " builds the client; call it once and keep what it returns.)";
    }
    return "";
  }

  static final String NOT_HOISTABLE =
      "(No automatic fix: the client is configured from values that cannot move to a static field"
          + " unchanged.)";

  static final String CANNOT_MOVE =
      "(No automatic fix: lockjaw cannot move the client out of this code without changing what it"
          + " does.)";

  /** Where the client is made and how requests reach it: {@code (X in Y(); requests reach ...)}. */
  static String evidence(String what, String method, String path) {
    return "("
        + (what.isEmpty() ? "" : what + " ")
        + "in "
        + method
        + "()"
        + (path.isEmpty() ? "" : "; requests reach it from " + path)
        + ".)";
  }

  static String fieldReassigned(String client, String field, String method, String evidence) {
    return "The field '"
        + field
        + "' gets a new "
        + client
        + " on every call of "
        + method
        + "(), which then sends its request through it: the field looks shared but holds a"
        + " per-request client, so no connection is reused, every request pays a new TCP and TLS"
        + " handshake, and the previous client is dropped with its connection pool still open."
        + " Create the client once (in the constructor or the field's initializer, or inject it)"
        + " and only use it here. (No automatic fix: other methods may read the field.) "
        + evidence;
  }

  static String clientOfPerRequestObject(
      String client, String owner, String field, String creator, int line, String evidence) {
    return "A new "
        + client
        + " is created whenever a "
        + owner
        + " is, and kept in its field '"
        + field
        + "'; but "
        + creator
        + "() creates a "
        + owner
        + " for each request"
        + (line > 0 ? " (line " + line + ")" : "")
        + " and drops it after the call, so the client lives for one request: no connection is"
        + " reused, every request pays a new TCP and TLS handshake, and the server holds the"
        + " abandoned connections open until their keep-alive timeout. Create the client once and"
        + " share it: a static field, or one client injected into every "
        + owner
        + ". (No automatic fix: the client's owner must change.) "
        + evidence;
  }

  static final String CONNECTION_CLOSE =
      "'Connection: close' makes the server close the connection after this response, so"
          + " the next request opens a new TCP and TLS connection instead of reusing this one."
          + " Remove the header and let keep-alive reuse the connection (with"
          + " HttpURLConnection: read the response stream to the end and close it; with a"
          + " client library: share one pooled client). (No automatic fix: the header may be"
          + " there on purpose for one server.)";

  static final String DISCONNECT =
      "disconnect() closes the socket instead of returning it to the JDK keep-alive cache,"
          + " so every request opens a new TCP and TLS connection. Read the response stream"
          + " (or the error stream) to the end and close() it, and do not call disconnect():"
          + " the JDK then reuses the connection for the next request to the same host"
          + " (up to http.maxConnections per host). (No automatic fix: the stream handling"
          + " around it must change too.)";

  static String disconnectElsewhere(String release) {
    return "This HttpURLConnection is opened for one call and disconnected after it ("
        + release
        + "): "
        + DISCONNECT;
  }

  static String socketPerCall(String socket, String release, boolean inLoop) {
    return "A new "
        + socket
        + " connection is opened "
        + (inLoop ? "on every loop iteration" : "for one request")
        + " and closed after the exchange ("
        + release
        + "): no connection is reused, so every request pays a new TCP (and TLS) handshake and the"
        + " server sees one connection per request. Keep connections open and reuse them: a"
        + " connection pool shared by all calls, or a client library that pools. (No automatic"
        + " fix: which pool, and how long a connection may stay open, is a design choice.)";
  }

  static String keepAliveOff(String property) {
    return "Setting "
        + property
        + "=false turns HTTP keep-alive off for the whole JVM: every"
        + " HttpURLConnection request opens a new TCP and TLS connection and the server"
        + " sees one connection per request. Remove it, read each response stream to the"
        + " end and close it, so that connections are reused. (No automatic fix: the setting"
        + " applies to every HttpURLConnection in the JVM, and a response stream left unread"
        + " anywhere would then hold its connection.)";
  }
}
