package io.github.lockjaw.checks.http;

import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An operation of the model that creates a new HTTP client, per {@code http-clients.txt}: {@code
 * new OkHttpClient()}, {@code HttpClients.createDefault()}, the {@code build()} of a chain that
 * starts with a fresh builder (also through a builder held in a local), or a call of a helper whose
 * every return is such a new client ({@code newClient()}).
 *
 * @param op the creating operation
 * @param entry the knowledge entry of the constructor, factory or builder start
 * @param clientType the created client's type (binary name)
 * @param display how a message names the creation: {@code HttpClients.createDefault()}
 * @param statelessConfigured whether the builder turns the client's cookie store off
 * @param perCallPool whether a connection pool is created for this client in the same method
 * @param onSharedManager whether the builder gives the client a connection manager held in a field
 *     or passed in and marks it shared ({@code setConnectionManagerShared(true)}): the client
 *     borrows that manager's pooled connections
 * @param helper whether a helper method creates the client (the fix cannot move it)
 * @param line the line the creation starts on (a builder chain's first line)
 */
record ClientCreation(
    Op op,
    ApiCatalog.Entry entry,
    String clientType,
    String display,
    boolean statelessConfigured,
    boolean perCallPool,
    boolean onSharedManager,
    boolean helper,
    int line) {

  private static final int HELPER_DEPTH = 3;

  /** The creations among a method's operations, in program order. */
  static List<ClientCreation> in(Program program, MethodFacts method) {
    List<ClientCreation> found = new ArrayList<>();
    for (Op op : method.ops()) {
      of(program, method, op, 0).ifPresent(found::add);
    }
    return found;
  }

  /** The creation {@code op} is, if it is one. */
  static Optional<ClientCreation> of(Program program, MethodFacts method, Op op, int depth) {
    if (!op.isCall()) {
      return Optional.empty();
    }
    Optional<ApiCatalog.Entry> constructor = HttpCalls.clientConstructor(op);
    if (constructor.isPresent()) {
      String type = op.method().owner();
      return Optional.of(
          plain(op, constructor.get(), type, "new " + typeDisplay(type) + "()", method, program));
    }
    Optional<ApiCatalog.Entry> factory = HttpCalls.clientFactory(program, op);
    if (factory.isPresent()) {
      return Optional.of(
          plain(
              op,
              factory.get(),
              op.method().returnType(),
              op.method().display() + "()",
              method,
              program));
    }
    if (HttpCalls.isBuild(program, op)) {
      return builtByChain(program, method, op);
    }
    if (depth < HELPER_DEPTH && op.kind() != Op.Kind.NEW && returnsObject(op)) {
      return byHelper(program, op, depth);
    }
    return Optional.empty();
  }

  private static ClientCreation plain(
      Op op,
      ApiCatalog.Entry entry,
      String type,
      String display,
      MethodFacts method,
      Program program) {
    boolean pool = false;
    for (Value arg : op.args()) {
      pool |= HttpCalls.isPoolCreation(method.producer(arg));
    }
    return new ClientCreation(op, entry, type, display, false, pool, false, false, op.line());
  }

  /** {@code build()} at the end of a chain (or a local) that starts with a fresh builder. */
  private static Optional<ClientCreation> builtByChain(
      Program program, MethodFacts method, Op build) {
    Set<Value> builders = new HashSet<>();
    Value current = build.receiver();
    Op start = null;
    ApiCatalog.Entry entry = null;
    for (int steps = 0; steps < 64 && start == null; steps++) {
      Op producer = method.producer(current);
      if (producer == null) {
        return Optional.empty(); // a builder from a field or a parameter: it may share a pool
      }
      builders.add(current);
      Optional<ApiCatalog.Entry> begins = HttpCalls.builderStart(program, producer);
      if (begins.isPresent()) {
        start = producer;
        entry = begins.get();
      } else if (producer.receiver() != null && producer.kind() != Op.Kind.NEW) {
        current = producer.receiver();
      } else {
        return Optional.empty();
      }
    }
    if (start == null) {
      return Optional.empty();
    }
    boolean stateless = false;
    boolean markedShared = false;
    boolean managerFromOutside = false;
    boolean pool = false;
    for (Op op : method.ops()) {
      boolean configures = op.receiver() != null && builders.contains(op.receiver());
      if (!configures && op != start) {
        continue;
      }
      for (Value arg : op.args()) {
        pool |= HttpCalls.isPoolCreation(method.producer(arg));
      }
      if (!configures) {
        continue;
      }
      stateless |= HttpCalls.isStatelessConfig(program, op);
      if (op.args().size() == 1 && HttpCalls.isSharedManagerConfig(program, op)) {
        markedShared |= isTrue(op.arg(0));
      }
      if (op.args().size() == 1 && HttpCalls.isConnectionManagerSetter(program, op)) {
        managerFromOutside |=
            op.arg(0) instanceof Value.FieldValue || op.arg(0) instanceof Value.Param;
      }
    }
    String startDisplay =
        start.kind() == Op.Kind.NEW
            ? "new " + typeDisplay(start.method().owner()) + "()"
            : start.method().display() + "()";
    return Optional.of(
        new ClientCreation(
            build,
            entry,
            build.method().returnType(),
            startDisplay + "…build()",
            stateless,
            pool,
            markedShared && managerFromOutside,
            false,
            start.line() > 0 ? start.line() : build.line()));
  }

  private static boolean isTrue(Value value) {
    return value instanceof Value.Constant constant
        && (constant.text().equals("true") || constant.text().equals("1"));
  }

  private static boolean returnsObject(Op op) {
    String type = op.method().returnType();
    return !op.method().isConstructor()
        && type.contains(".")
        && !type.startsWith("java.lang.")
        && !type.startsWith("java.util.");
  }

  /** A call of methods that each return a new client, which they do not keep. */
  private static Optional<ClientCreation> byHelper(Program program, Op call, int depth) {
    List<MethodFacts> targets = program.targets(call);
    if (targets.isEmpty()) {
      return Optional.empty();
    }
    ClientCreation first = null;
    for (MethodFacts target : targets) {
      Optional<ClientCreation> inner = returnedCreation(program, target, depth + 1);
      if (inner.isEmpty()) {
        return Optional.empty();
      }
      if (first == null) {
        first = inner.get();
      }
    }
    return Optional.of(
        new ClientCreation(
            call,
            first.entry(),
            first.clientType(),
            call.method().display() + "()",
            first.statelessConfigured(),
            first.perCallPool(),
            first.onSharedManager(),
            true,
            call.line()));
  }

  /** The creation every {@code return} of a helper returns, if it keeps no reference to it. */
  private static Optional<ClientCreation> returnedCreation(
      Program program, MethodFacts helper, int depth) {
    ClientCreation found = null;
    Set<Value> created = new HashSet<>();
    for (Op op : helper.ops()) {
      if (op.kind() != Op.Kind.RETURN) {
        continue;
      }
      Op producer = helper.producer(op.arg(0));
      if (producer == null) {
        return Optional.empty();
      }
      Optional<ClientCreation> creation = of(program, helper, producer, depth);
      if (creation.isEmpty()) {
        return Optional.empty();
      }
      found = found == null ? creation.get() : found;
      created.add(op.arg(0));
    }
    if (found == null) {
      return Optional.empty();
    }
    for (Op op : helper.ops()) {
      if (op.kind() == Op.Kind.PUT_FIELD && created.contains(op.arg(0))) {
        return Optional.empty(); // a lazily cached client: shared, not per call
      }
    }
    return Optional.of(found);
  }

  /** {@code OkHttpClient.Builder} for {@code okhttp3.OkHttpClient$Builder}. */
  static String typeDisplay(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1).replace('$', '.');
  }

  static String simpleName(String binaryName) {
    int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
    return binaryName.substring(cut + 1);
  }
}
