package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.KnowledgeIndex.MethodEntry;
import io.github.lockjaw.knowledge.KnowledgeIndex.TypeEntry;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * The view of {@code jdbc.txt}, {@code io.txt} and {@code thread-safety.txt} that the
 * I/O-under-lock checks need: which calls block on a database or another host, which types are
 * per-use resources, and which types every thread may share.
 */
public final class BlockingIoKnowledge {
  /**
   * The calls that block on I/O: one list for both engines ({@link
   * KnowledgeIndex#BLOCKING_IO_CALLS}).
   */
  private static final KnowledgeIndex CALLS = KnowledgeIndex.of(KnowledgeIndex.BLOCKING_IO_CALLS);

  private static final KnowledgeIndex CONNECTING_CONSTRUCTORS =
      KnowledgeIndex.of(Kind.Io.CONNECTING_CONSTRUCTOR);
  private static final KnowledgeIndex RESOURCE_TYPES =
      KnowledgeIndex.of(Kind.Jdbc.RESOURCE_TYPE, Kind.Io.RESOURCE_TYPE);
  private static final KnowledgeIndex IMMUTABLE_TYPES =
      KnowledgeIndex.of(Kind.ThreadSafety.IMMUTABLE_TYPE);
  private static final KnowledgeIndex THREAD_SAFE_TYPES =
      KnowledgeIndex.of(
          Kind.ThreadSafety.THREAD_SAFE_TYPE, Kind.Jdbc.THREAD_SAFE_TYPE, Kind.Io.THREAD_SAFE_TYPE);

  private BlockingIoKnowledge() {}

  /**
   * A call that blocks on I/O.
   *
   * @param description how a message names the call, e.g. {@code DataSource.getConnection()}
   * @param executes whether it runs a statement on the database
   * @param batch whether one call runs many statements
   */
  public record BlockingCall(String description, boolean executes, boolean batch) {}

  /**
   * Whether a method creates a pool or a data source rather than serving requests: it is named
   * {@code create...} and returns a {@code pool-type} (commons-dbcp's
   * BasicDataSource#createDataSource).
   */
  public static boolean isCreationPath(MethodSymbol method, VisitorState state) {
    if (method == null || !(method.owner instanceof Symbol.ClassSymbol)) {
      return false;
    }
    String name = method.getSimpleName().toString();
    if (!name.startsWith("create") || method.getReturnType() == null) {
      return false;
    }
    for (ApiCatalog.Entry entry : Kind.Jdbc.POOL_TYPE.entries()) {
      Symbol type = state.getSymbolFromString(entry.value());
      if (type != null
          && state
              .getTypes()
              .isSubtype(
                  state.getTypes().erasure(method.getReturnType()),
                  state.getTypes().erasure(type.type))) {
        return true;
      }
    }
    return false;
  }

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
    for (MethodEntry entry : CALLS.named(name)) {
      Type declared = state.getTypeFromString(entry.entry().type());
      if (declared != null && isSubtype(owner.type, declared, state)) {
        String description = owner.getSimpleName() + "." + name + "()";
        Optional<String> does = entry.attribute("does");
        if (does.isPresent()) {
          description += " (for a connection pool: " + does.get().replace('-', ' ') + ")";
        }
        return Optional.of(
            new BlockingCall(
                description,
                entry.entry().hasAttribute("executes"),
                entry.entry().hasAttribute("batch")));
      }
    }
    return Optional.empty();
  }

  private static Optional<BlockingCall> classifyConstructor(NewClassTree tree, VisitorState state) {
    Type type = ASTHelpers.getType(tree);
    if (type == null || tree.getClassBody() != null) {
      return Optional.empty();
    }
    for (TypeEntry entry : CONNECTING_CONSTRUCTORS.types()) {
      Type known = state.getTypeFromString(entry.entry().value());
      if (known == null || !isSubtype(type, known, state)) {
        continue;
      }
      if (entry.entry().hasAttribute("with-args") && tree.getArguments().isEmpty()) {
        continue;
      }
      return Optional.of(
          new BlockingCall("new " + type.tsym.getSimpleName() + "(...)", false, false));
    }
    return Optional.empty();
  }

  /**
   * Whether objects of this type belong to one resource — a connection, statement, result set, XA
   * branch or stream — so their monitor is held by the one thread using it, not every request.
   */
  public static boolean isResourceType(Type type, VisitorState state) {
    return KnownSymbols.anySupertypeOrUnresolved(RESOURCE_TYPES, type, state);
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
    return KnownSymbols.sameTypeEntry(IMMUTABLE_TYPES, type, state).isPresent()
        || KnownSymbols.anySupertypeOrUnresolved(THREAD_SAFE_TYPES, type, state);
  }

  private static boolean isSubtype(Type type, Type supertype, VisitorState state) {
    return type != null
        && supertype != null
        && state
            .getTypes()
            .isSubtype(state.getTypes().erasure(type), state.getTypes().erasure(supertype));
  }
}
