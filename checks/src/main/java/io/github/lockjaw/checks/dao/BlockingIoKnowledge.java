package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * The view of {@code jdbc.txt}, {@code io.txt} and {@code thread-safety.txt} that the I/O-under-lock
 * checks need: which calls block on a database or another host, which types are per-use
 * resources, and which types every thread may share.
 */
public final class BlockingIoKnowledge {
  private static final ApiCatalog JDBC = ApiCatalog.named("jdbc");
  private static final ApiCatalog IO = ApiCatalog.named("io");
  private static final ApiCatalog THREAD_SAFETY = ApiCatalog.named("thread-safety");

  private static final ApiCatalog POOLS = ApiCatalog.named("pools");

  private static final List<String> CALL_KINDS =
      List.of("connection-source", "database-call", "network-call");

  /**
   * Every blocking call the catalogs name: the JDBC and network calls of jdbc.txt and io.txt, and
   * the calls a pool makes on its object and connection factories (the roles of pools.txt).
   */
  private static final List<ApiCatalog.Entry> CALLS = blockingCalls();

  /** Method names that any catalog entry names: a cheap filter before type lookups. */
  private static final java.util.Set<String> METHOD_NAMES =
      CALLS.stream()
          .map(ApiCatalog.Entry::method)
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  private static List<ApiCatalog.Entry> blockingCalls() {
    List<ApiCatalog.Entry> calls = new java.util.ArrayList<>();
    for (ApiCatalog catalog : List.of(JDBC, IO)) {
      for (String kind : CALL_KINDS) {
        calls.addAll(catalog.entries(kind));
      }
    }
    for (String role : POOLS.roles()) {
      calls.addAll(POOLS.roleCalls(role));
    }
    return List.copyOf(calls);
  }

  private BlockingIoKnowledge() {}

  /**
   * A call that blocks on I/O.
   *
   * @param description how a message names the call, e.g. {@code DataSource.getConnection()}
   * @param executes whether it runs a statement on the database
   * @param batch whether one call runs many statements
   */
  public record BlockingCall(String description, boolean executes, boolean batch) {}

  /** The blocking call a method invocation or constructor call is, if the catalogs know it. */
  public static Optional<BlockingCall> classify(Tree tree, VisitorState state) {
    try {
      if (tree instanceof MethodInvocationTree invocation) {
        return classifyMethod(ASTHelpers.getSymbol(invocation), state);
      }
      if (tree instanceof NewClassTree newClass) {
        return classifyConstructor(newClass, state);
      }
    } catch (RuntimeException e) {
      // A symbol that cannot be completed is no evidence.
    }
    return Optional.empty();
  }

  private static Optional<BlockingCall> classifyMethod(MethodSymbol method, VisitorState state) {
    if (method == null || !(method.owner instanceof Symbol.ClassSymbol owner)) {
      return Optional.empty();
    }
    String name = method.getSimpleName().toString();
    if (!METHOD_NAMES.contains(name)) {
      return Optional.empty();
    }
    for (ApiCatalog.Entry entry : CALLS) {
      if (!entry.method().equals(name)) {
        continue;
      }
      Type declared = state.getTypeFromString(entry.type());
      if (declared != null && isSubtype(owner.type, declared, state)) {
        String description = owner.getSimpleName() + "." + name + "()";
        Optional<String> does = entry.attribute("does");
        if (does.isPresent()) {
          description += " (for a connection pool: " + does.get().replace('-', ' ') + ")";
        }
        return Optional.of(
            new BlockingCall(description, entry.hasAttribute("executes"), entry.hasAttribute("batch")));
      }
    }
    return Optional.empty();
  }

  private static Optional<BlockingCall> classifyConstructor(NewClassTree tree, VisitorState state) {
    Type type = ASTHelpers.getType(tree);
    if (type == null || tree.getClassBody() != null) {
      return Optional.empty();
    }
    for (ApiCatalog.Entry entry : IO.entries("connecting-constructor")) {
      Type known = state.getTypeFromString(entry.value());
      if (known == null || !isSubtype(type, known, state)) {
        continue;
      }
      if (entry.hasAttribute("with-args") && tree.getArguments().isEmpty()) {
        continue;
      }
      return Optional.of(
          new BlockingCall("new " + type.tsym.getSimpleName() + "(...)", false, false));
    }
    return Optional.empty();
  }

  /**
   * Whether objects of this type belong to one resource — a connection, statement, result set,
   * XA branch or stream — so their monitor is held by the one thread using it, not every request.
   */
  public static boolean isResourceType(Type type, VisitorState state) {
    return anySupertype(JDBC.values("resource-type"), type, state)
        || anySupertype(IO.values("resource-type"), type, state);
  }

  /**
   * Whether a final field of this type holds nothing that a lock must guard: primitives, boxes,
   * enums, immutable values and types built for concurrent use (a {@code DataSource}).
   */
  public static boolean isThreadSafe(Type type, VisitorState state) {
    if (type == null) {
      return false;
    }
    if (type.isPrimitive()) {
      return true;
    }
    if (type.tsym != null && type.tsym.getKind() == ElementKind.ENUM) {
      return true;
    }
    try {
      if (state.getTypes().unboxedType(type).isPrimitive()) {
        return true;
      }
    } catch (RuntimeException e) {
      return false;
    }
    return exactType(THREAD_SAFETY.values("immutable-type"), type, state)
        || anySupertype(THREAD_SAFETY.values("thread-safe-type"), type, state)
        || anySupertype(JDBC.values("thread-safe-type"), type, state)
        || anySupertype(IO.values("thread-safe-type"), type, state);
  }

  private static boolean anySupertype(List<String> names, Type type, VisitorState state) {
    if (type == null) {
      return false;
    }
    for (String name : names) {
      Type known = state.getTypeFromString(name);
      if (known != null && isSubtype(type, known, state)) {
        return true;
      }
    }
    return false;
  }

  private static boolean exactType(List<String> names, Type type, VisitorState state) {
    for (String name : names) {
      Type known = state.getTypeFromString(name);
      if (known != null
          && state.getTypes().isSameType(state.getTypes().erasure(type), state.getTypes().erasure(known))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSubtype(Type type, Type supertype, VisitorState state) {
    return type != null
        && supertype != null
        && state.getTypes().isSubtype(state.getTypes().erasure(type), state.getTypes().erasure(supertype));
  }
}
