package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
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
record SharedReflectiveLock(Symbol lock, String lockType, MethodInvocationTree call, String what) {
  private static final KnowledgeIndex SHARED_TYPES = Kind.Reflection.SHARED_REFLECTIVE_TYPE.index();
  private static final CatalogMethods REFLECTIVE_CALLS =
      CatalogMethods.of(Kind.Reflection.REFLECTIVE_CALL);

  static Optional<SharedReflectiveLock> of(SynchronizedTree block, VisitorState state) {
    ExpressionTree lockExpression = ASTHelpers.stripParentheses(block.getExpression());
    Symbol lock = ASTHelpers.getSymbol(lockExpression);
    Type type = ASTHelpers.getType(lockExpression);
    if (lock == null
        || !(lock.getKind() == ElementKind.FIELD || lock.getKind() == ElementKind.PARAMETER)
        || !KnownSymbols.isSubtypeOfAny(SHARED_TYPES, type, state)
        || runsOnce(state)) {
      return Optional.empty();
    }
    MethodInvocationTree[] call = {null};
    String[] what = {null};
    new ImmediateCodeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        if (call[0] == null) {
          REFLECTIVE_CALLS
              .match(ASTHelpers.getSymbol(node), state)
              .ifPresent(
                  entry -> {
                    call[0] = node;
                    what[0] = entry.attribute("what").orElse("invokes");
                  });
        }
        return super.visitMethodInvocation(node, null);
      }
    }.scan(block.getBlock(), null);
    if (call[0] == null) {
      return Optional.empty();
    }
    String lockType = type.tsym.getSimpleName().toString();
    return Optional.of(new SharedReflectiveLock(lock, lockType, call[0], what[0]));
  }

  /** The reflective call as {@code Method.invoke()}. */
  String callDisplay() {
    MethodSymbol method = ASTHelpers.getSymbol(call);
    return method.owner.getSimpleName() + "." + method.getSimpleName() + "()";
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
