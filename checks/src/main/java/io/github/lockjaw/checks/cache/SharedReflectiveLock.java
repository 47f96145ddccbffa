package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.checks.support.EntryPoints;
import io.github.lockjaw.checks.support.ImmediateCodeScanner;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.type.TypeKind;

/**
 * A {@code synchronized} block on a shared reflective object (a {@code Method}, {@code Field} or
 * {@code Constructor} that a cache hands to every caller: {@code shared-reflective-type} in {@code
 * reflection.txt}) around a reflective call ({@code reflective-call}): every thread that uses the
 * same member queues for the whole call (OGNL 2.7's {@code OgnlRuntime.invokeMethod}).
 *
 * <p>The lock must be a field or a parameter: a {@code Method} a method has just looked up itself
 * ({@code type.getMethod(name)}) is a fresh copy nobody else holds. Constructors, initialisers,
 * set-up, lifecycle and one-shot methods and test code run once, so they are left alone.
 */
record SharedReflectiveLock(
    Symbol lock, String lockType, MethodInvocationTree call, String what, String via) {
  private static final KnowledgeIndex SHARED_TYPES = Kind.Reflection.SHARED_REFLECTIVE_TYPE.index();
  private static final CatalogMethods REFLECTIVE_CALLS =
      CatalogMethods.of(Kind.Reflection.REFLECTIVE_CALL);

  /**
   * Whether the block locks a shared reflective object held in a field or passed in as a parameter,
   * outside code that runs once: a monitor every caller of that member shares, like a {@code
   * Class}'s (OGNL's {@code synchronized (method) { _methodAccessCache.get(method) ... }}).
   */
  static boolean isSharedReflectiveMonitor(SynchronizedTree block, VisitorState state) {
    ExpressionTree lockExpression = ASTHelpers.stripParentheses(block.getExpression());
    Symbol lock = ASTHelpers.getSymbol(lockExpression);
    return lock != null
        && (lock.getKind() == ElementKind.FIELD || lock.getKind() == ElementKind.PARAMETER)
        && KnownSymbols.isSubtypeOfAny(SHARED_TYPES, ASTHelpers.getType(lockExpression), state)
        && !runsOnce(state);
  }

  static Optional<SharedReflectiveLock> of(SynchronizedTree block, VisitorState state) {
    if (!isSharedReflectiveMonitor(block, state)) {
      return Optional.empty();
    }
    ExpressionTree lockExpression = ASTHelpers.stripParentheses(block.getExpression());
    Symbol lock = ASTHelpers.getSymbol(lockExpression);
    Type type = ASTHelpers.getType(lockExpression);
    Map<MethodSymbol, MethodTree> declared =
        MoreTrees.declaredMethods(state.getPath().getCompilationUnit());
    Found found = firstReflectiveCall(block.getBlock(), state).orElse(null);
    String via = null;
    if (found == null) {
      // one level down: a private or static helper of this file that makes the call itself
      // (OGNL 3.1's invokeMethodInsideSandbox)
      for (MethodInvocationTree helperCall : calls(block.getBlock())) {
        MethodSymbol helper = ASTHelpers.getSymbol(helperCall);
        MethodTree body = helper == null ? null : declared.get(helper);
        if (body != null
            && body.getBody() != null
            && (helper.isPrivate() || helper.isStatic())
            && (found = firstReflectiveCall(body.getBody(), state).orElse(null)) != null) {
          via = helper.getSimpleName().toString();
          break;
        }
      }
    }
    if (found == null) {
      return Optional.empty();
    }
    String lockType = type.tsym.getSimpleName().toString();
    return Optional.of(new SharedReflectiveLock(lock, lockType, found.call(), found.what(), via));
  }

  private record Found(MethodInvocationTree call, String what) {}

  private static Optional<Found> firstReflectiveCall(Tree code, VisitorState state) {
    for (MethodInvocationTree node : calls(code)) {
      Optional<KnowledgeIndex.MethodEntry> entry =
          REFLECTIVE_CALLS.match(ASTHelpers.getSymbol(node), state);
      if (entry.isPresent()) {
        return Optional.of(new Found(node, entry.get().attribute("what").orElse("invokes")));
      }
    }
    return Optional.empty();
  }

  /** The calls the code makes where it is written (not in lambdas or local classes), in order. */
  private static List<MethodInvocationTree> calls(Tree code) {
    List<MethodInvocationTree> calls = new ArrayList<>();
    new ImmediateCodeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        calls.add(node);
        return super.visitMethodInvocation(node, null);
      }
    }.scan(code, null);
    return calls;
  }

  /** The reflective call as {@code Method.invoke()}, with the helper that makes it, if any. */
  String callDisplay() {
    MethodSymbol method = ASTHelpers.getSymbol(call);
    String display = method.owner.getSimpleName() + "." + method.getSimpleName() + "()";
    return via == null ? display : display + " in " + via + "()";
  }

  private static boolean runsOnce(VisitorState state) {
    if (EntryPoints.isTestCode(state)) {
      return true;
    }
    MethodTree method = MoreTrees.enclosingMethod(state.getPath());
    MethodSymbol symbol = method == null ? null : ASTHelpers.getSymbol(method);
    if (symbol == null || symbol.isConstructor() || symbol.isStaticOrInstanceInit()) {
      return true; // an initializer block, or a constructor
    }
    return EntryPoints.isSetUp(method, state)
        || EntryPoints.isOneShot(method, state)
        || EntryPoints.isStartUp(method, state)
        || Lifecycle.isLifecycleOrConfiguration(
            symbol.getSimpleName().toString(),
            symbol.getParameters().size(),
            symbol.getReturnType().getKind() == TypeKind.VOID);
  }
}
