package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.checks.support.NullProofs;
import java.util.List;
import javax.lang.model.element.ElementKind;

/**
 * Proofs that a cache's key is never null where a fix needs it (a {@code ConcurrentHashMap} and a
 * {@code ClassValue} reject null keys; the maps they replace accepted them): by syntax (a literal,
 * {@code new}, {@code getClass()}, the lock's own object), by Error Prone's nullness dataflow
 * ({@link NullProofs}), or because building the value already dereferences the key on every path,
 * also inside a constructor of the same file, so that a null key threw before as it will after.
 */
final class NonNullKeys {
  private NonNullKeys() {}

  /** Keys a ConcurrentHashMap accepts for sure. */
  static boolean isNonNull(ExpressionTree tree, Symbol lock, VisitorState state) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    Type type = ASTHelpers.getType(e);
    if (type != null && type.isPrimitive()) {
      return true;
    }
    if (e instanceof NewClassTree
        || (e instanceof LiteralTree && e.getKind() != Tree.Kind.NULL_LITERAL)) {
      return true;
    }
    if (e instanceof MemberSelectTree select && select.getIdentifier().contentEquals("class")) {
      return true;
    }
    if (e instanceof MethodInvocationTree call
        && ASTHelpers.getSymbol(call).getSimpleName().contentEquals("getClass")
        && call.getArguments().isEmpty()) {
      return true;
    }
    Symbol symbol = ASTHelpers.getSymbol(e);
    // synchronized (x) has already thrown if x is null.
    if (lock != null && lock.equals(symbol) && !(e instanceof MemberSelectTree)) {
      return true;
    }
    return NullProofs.isNonNull(tree, state) || isNonNullByDeclaration(e, 0, state);
  }

  /**
   * What the dataflow does not know: a JDK call that never returns null ({@code computed-value} in
   * {@code maps.txt}: {@code sb.toString()}, {@code type.getName()}), and a variable that only ever
   * holds one: an effectively final local, or a final field of this file, whose initializer is
   * {@code new}, a literal or such a call ({@code private static final Object NO_METHOD = new
   * Object()}).
   */
  private static boolean isNonNullByDeclaration(ExpressionTree e, int depth, VisitorState state) {
    ExpressionTree tree = ASTHelpers.stripParentheses(e);
    if (tree instanceof NewClassTree
        || (tree instanceof LiteralTree && tree.getKind() != Tree.Kind.NULL_LITERAL)
        || (tree.getKind() == Tree.Kind.PLUS
            && ASTHelpers.getType(tree) != null
            && ASTHelpers.isSameType(
                ASTHelpers.getType(tree), state.getSymtab().stringType, state))) {
      return true; // a string concatenation is never null
    }
    if (tree instanceof MethodInvocationTree call) {
      return ASTHelpers.getSymbol(call) instanceof MethodSymbol method
          && MapKnowledge.isComputedValue(method, state);
    }
    if (depth > 3
        || !(tree instanceof IdentifierTree || tree instanceof MemberSelectTree)
        || !(ASTHelpers.getSymbol(tree) instanceof VarSymbol variable)) {
      return false;
    }
    boolean finalLocal =
        variable.getKind() == ElementKind.LOCAL_VARIABLE
            && (variable.flags() & (Flags.FINAL | Flags.EFFECTIVELY_FINAL)) != 0;
    boolean finalField =
        variable.getKind() == ElementKind.FIELD && (variable.flags() & Flags.FINAL) != 0;
    if (!finalLocal && !finalField) {
      return false;
    }
    VariableTree declaration =
        MoreTrees.findFirst(
                state.getPath().getCompilationUnit(),
                VariableTree.class,
                v -> variable.equals(ASTHelpers.getSymbol(v)))
            .orElse(null);
    return declaration != null
        && declaration.getInitializer() != null
        && isNonNullByDeclaration(declaration.getInitializer(), depth + 1, state);
  }

  /**
   * Whether computing the value always dereferences the key variable ({@code new Page(id.trim())}):
   * then a null key already threw NullPointerException on a miss, as computeIfAbsent will.
   */
  static boolean dereferencesUnconditionally(
      ExpressionTree value, ExpressionTree key, VisitorState state) {
    Symbol keySymbol = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(key));
    if (!(keySymbol instanceof VarSymbol)
        || !(ASTHelpers.stripParentheses(key) instanceof IdentifierTree)) {
      return false;
    }
    if (dereferencesAlways(value, keySymbol)) {
      return true;
    }
    // new Accessors(type), whose constructor in this file starts with type.getMethods()
    ExpressionTree v = ASTHelpers.stripParentheses(value);
    if (!(v instanceof NewClassTree created)
        || created.getClassBody() != null
        || !(ASTHelpers.getSymbol(created) instanceof MethodSymbol constructor)
        || constructor.isVarArgs()) {
      return false;
    }
    MethodTree declared =
        MoreTrees.declaredMethods(state.getPath().getCompilationUnit()).get(constructor);
    if (declared == null || declared.getBody() == null) {
      return false;
    }
    List<? extends ExpressionTree> args = created.getArguments();
    for (int i = 0; i < args.size() && i < declared.getParameters().size(); i++) {
      ExpressionTree arg = ASTHelpers.stripParentheses(args.get(i));
      if (arg instanceof IdentifierTree
          && keySymbol.equals(ASTHelpers.getSymbol(arg))
          && startsByDereferencing(
              declared.getBody(), ASTHelpers.getSymbol(declared.getParameters().get(i)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the body's straight-line start (before any branch, loop or {@code try}, or in the
   * expression of a first for-each loop) dereferences the parameter, which it has not reassigned: a
   * null argument then throws there.
   */
  private static boolean startsByDereferencing(BlockTree body, Symbol parameter) {
    for (StatementTree statement : body.getStatements()) {
      // for (Method m : type.getMethods()): the loop's expression runs first, whatever follows
      if (statement instanceof EnhancedForLoopTree loop) {
        return dereferencesAlways(loop.getExpression(), parameter);
      }
      boolean straight =
          statement instanceof ExpressionStatementTree
              || statement instanceof VariableTree
              || statement instanceof ReturnTree;
      if (!straight || assigns(statement, parameter)) {
        return false;
      }
      if (dereferencesAlways(statement, parameter)) {
        return true;
      }
    }
    return false;
  }

  private static boolean assigns(Tree tree, Symbol variable) {
    return MoreTrees.anyMatch(
        tree,
        node ->
            (node instanceof AssignmentTree a
                    && variable.equals(ASTHelpers.getSymbol(a.getVariable())))
                || (node instanceof CompoundAssignmentTree c
                    && variable.equals(ASTHelpers.getSymbol(c.getVariable()))));
  }

  /** Whether evaluating {@code tree} dereferences {@code variable} on every path through it. */
  private static boolean dereferencesAlways(Tree tree, Symbol variable) {
    boolean[] conditional = new boolean[1];
    boolean[] dereferenced = new boolean[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitConditionalExpression(ConditionalExpressionTree node, Void unused) {
        conditional[0] = true;
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        conditional[0] = true;
        return null;
      }

      @Override
      public Void visitSwitchExpression(SwitchExpressionTree node, Void unused) {
        conditional[0] = true;
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null; // an anonymous class's body runs later, if at all
      }

      @Override
      public Void visitBinary(BinaryTree node, Void unused) {
        if (node.getKind() == Tree.Kind.CONDITIONAL_AND
            || node.getKind() == Tree.Kind.CONDITIONAL_OR) {
          conditional[0] = true;
        }
        return super.visitBinary(node, unused);
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        ExpressionTree receiver = ASTHelpers.stripParentheses(node.getExpression());
        if (receiver instanceof IdentifierTree && variable.equals(ASTHelpers.getSymbol(receiver))) {
          dereferenced[0] = true;
        }
        return super.visitMemberSelect(node, unused);
      }
    }.scan(tree, null);
    return dereferenced[0] && !conditional[0];
  }
}
