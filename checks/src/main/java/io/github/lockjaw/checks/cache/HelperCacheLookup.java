package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.common.MapLocking;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Modifier;

/**
 * Check-then-act split across private helpers of the same class (iBATIS-style):
 *
 * <pre>{@code
 * X x = getCachedX(key);           // private X getCachedX(K k) { return CACHE.get(k); }
 * if (x == null) {
 *   x = build(key);
 *   cacheX(key, x);                // private void cacheX(K k, X v) { CACHE.put(k, v); }
 * }
 * }</pre>
 *
 * where both helpers use the same field, a coarsely locked map ({@code
 * Collections.synchronizedMap}, {@code Hashtable}, a synchronized {@code WeakHashMap}). Each helper
 * call locks the whole map, and two threads that miss at once both build the value. Only helpers
 * whose whole body is the one map call count: a helper that does more is not read.
 *
 * @param map the cache field both helpers use
 * @param get the call of the lookup helper
 * @param put the call of the store helper
 */
record HelperCacheLookup(VarSymbol map, MethodInvocationTree get, MethodInvocationTree put) {

  /** The first split check-then-act in the body of {@code method}, if there is one. */
  static Optional<HelperCacheLookup> findIn(
      MethodTree method, TreePath methodPath, VisitorState state) {
    if (method.getBody() == null) {
      return Optional.empty();
    }
    ClassTree owner = ASTHelpers.findEnclosingNode(methodPath, ClassTree.class);
    if (owner == null) {
      return Optional.empty();
    }
    HelperCacheLookup[] found = new HelperCacheLookup[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBlock(BlockTree block, Void unused) {
        List<? extends StatementTree> statements = block.getStatements();
        for (int i = 0; i + 1 < statements.size() && found[0] == null; i++) {
          found[0] = match(statements.get(i), statements.get(i + 1), owner, state);
        }
        return found[0] == null ? super.visitBlock(block, null) : null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null;
      }
    }.scan(method.getBody(), null);
    return Optional.ofNullable(found[0]);
  }

  /**
   * {@code X x = getCached(k);} (or {@code x = getCached(k);}) followed by {@code if (x == null)
   * {... cache(k, x); }}.
   */
  private static HelperCacheLookup match(
      StatementTree first, StatementTree second, ClassTree owner, VisitorState state) {
    Symbol local;
    ExpressionTree init;
    if (first instanceof VariableTree variable && variable.getInitializer() != null) {
      local = ASTHelpers.getSymbol(variable);
      init = variable.getInitializer();
    } else if (first instanceof ExpressionStatementTree statement
        && statement.getExpression() instanceof AssignmentTree assignment
        && assignment.getVariable() instanceof IdentifierTree) {
      local = ASTHelpers.getSymbol(assignment.getVariable());
      init = assignment.getExpression();
    } else {
      return null;
    }
    if (local == null
        || !(strip(init) instanceof MethodInvocationTree getCall)
        || getCall.getArguments().size() != 1
        || !(second instanceof IfTree ifTree)
        || !isNullTest(ifTree.getCondition(), local)) {
      return null;
    }
    VarSymbol getMap = helperMap(getCall, owner, true, state);
    if (getMap == null) {
      return null;
    }
    MethodInvocationTree[] putCall = new MethodInvocationTree[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        if (putCall[0] == null
            && call.getArguments().size() == 2
            && getMap.equals(helperMap(call, owner, false, state))
            && CacheLookup.sameKey(
                getCall.getArguments().get(0), call.getArguments().get(0), state)) {
          putCall[0] = call;
        }
        return super.visitMethodInvocation(call, null);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null;
      }
    }.scan(ifTree.getThenStatement(), null);
    if (putCall[0] == null || CacheField.of(getMap, state).locking() != MapLocking.COARSE) {
      return null;
    }
    return new HelperCacheLookup(getMap, getCall, putCall[0]);
  }

  /**
   * The map field a private helper of {@code owner} reads ({@code return MAP.get(p);}) or writes
   * ({@code MAP.put(p, v);}) with its parameters, its whole body being that one call; else null.
   */
  private static VarSymbol helperMap(
      MethodInvocationTree call, ClassTree owner, boolean lookup, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(call);
    if (symbol == null || !symbol.getModifiers().contains(Modifier.PRIVATE)) {
      return null;
    }
    MethodTree helper = null;
    for (Tree member : owner.getMembers()) {
      if (member instanceof MethodTree candidate
          && symbol.equals(ASTHelpers.getSymbol(candidate))) {
        helper = candidate;
      }
    }
    if (helper == null
        || helper.getBody() == null
        || helper.getBody().getStatements().size() != 1) {
      return null;
    }
    StatementTree only = helper.getBody().getStatements().get(0);
    ExpressionTree expression;
    if (lookup && only instanceof ReturnTree ret && ret.getExpression() != null) {
      expression = strip(ret.getExpression());
    } else if (!lookup && only instanceof ExpressionStatementTree statement) {
      expression = statement.getExpression();
    } else {
      return null;
    }
    if (!(expression instanceof MethodInvocationTree mapCall)) {
      return null;
    }
    MethodSymbol mapMethod = ASTHelpers.getSymbol(mapCall);
    if (mapMethod == null
        || !(lookup
            ? MapKnowledge.isValueReturningCheckMethod(mapMethod, state)
            : MapKnowledge.isActMethod(mapMethod, state))
        || mapCall.getArguments().size() != (lookup ? 1 : 2)
        || ASTHelpers.getReceiver(mapCall) == null
        || !MapKnowledge.isMap(ASTHelpers.getType(ASTHelpers.getReceiver(mapCall)), state)) {
      return null;
    }
    for (int i = 0; i < mapCall.getArguments().size(); i++) {
      Symbol argument = ASTHelpers.getSymbol(mapCall.getArguments().get(i));
      if (argument == null
          || !argument.equals(
              helper.getParameters().size() > i
                  ? ASTHelpers.getSymbol(helper.getParameters().get(i))
                  : null)) {
        return null;
      }
    }
    return CacheLookup.receiverField(mapCall);
  }

  private static boolean isNullTest(ExpressionTree condition, Symbol local) {
    ExpressionTree tree = ASTHelpers.stripParentheses(condition);
    if (!(tree instanceof BinaryTree binary) || binary.getKind() != Tree.Kind.EQUAL_TO) {
      return false;
    }
    ExpressionTree left = ASTHelpers.stripParentheses(binary.getLeftOperand());
    ExpressionTree right = ASTHelpers.stripParentheses(binary.getRightOperand());
    return (isNull(right) && local.equals(ASTHelpers.getSymbol(left)))
        || (isNull(left) && local.equals(ASTHelpers.getSymbol(right)));
  }

  private static boolean isNull(ExpressionTree tree) {
    return tree instanceof LiteralTree literal && literal.getKind() == Tree.Kind.NULL_LITERAL;
  }

  private static ExpressionTree strip(ExpressionTree tree) {
    ExpressionTree current = ASTHelpers.stripParentheses(tree);
    while (current instanceof TypeCastTree cast) {
      current = ASTHelpers.stripParentheses(cast.getExpression());
    }
    return current;
  }
}
