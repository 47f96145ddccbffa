package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.common.LockedLazyCreationMessage;
import io.github.lockjaw.knowledge.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * A lazy creation that holds a shared monitor for its whole body and that a method handing out
 * connections ({@code connection-acquisition} in {@code jdbc.txt}: {@code DataSource#getConnection}
 * and the like) calls on every call: commons-dbcp 1.x {@code BasicDataSource}, whose {@code
 * getConnection()} is {@code createDataSource().getConnection()} and whose {@code synchronized
 * createDataSource()} tests {@code dataSource} for null under the monitor, then creates the pool
 * and opens connections. Every request takes that monitor; the first opens connections while it
 * holds it; and when the creation fails the field stays null, so every later request retries it,
 * connect timeouts included, under the lock.
 *
 * <p>Silent when the field is read before the lock is taken (the double-checked form of
 * commons-dbcp2: {@code if (dataSource != null) return dataSource; synchronized (this) { ... }}),
 * when the creation does no blocking I/O, and when no connection-acquisition method of the class
 * calls the creation on every call (a creation reached from {@code init()} only).
 */
final class LockedLazyCreation {

  /**
   * A locked lazy creation on a request path.
   *
   * @param field the lazily created field
   * @param chain the blocking call the creation makes, through the listed methods
   * @param callers the connection-acquisition methods that call the creation on every call
   */
  record Finding(Symbol field, List<String> chain, List<String> callers) {

    /** The finding's message for the region named {@code name} that holds {@code monitor}. */
    String message(String name, SharedMonitor monitor) {
      return LockedLazyCreationMessage.of(
          name,
          monitor.describe(),
          callers,
          field.getSimpleName().toString(),
          field.getModifiers().contains(Modifier.VOLATILE),
          chain);
    }
  }

  private LockedLazyCreation() {}

  /**
   * The finding for a region (a {@code synchronized} method, or a {@code synchronized} block that
   * is a statement of its method's body) holding {@code monitor} in {@code method}, if the region
   * is such a creation.
   */
  static Optional<Finding> find(
      TreePath regionPath, MethodTree method, BlockingIoFacts facts, VisitorState state) {
    Tree region = regionPath.getLeaf();
    MethodSymbol lazy = ASTHelpers.getSymbol(method);
    if (lazy == null || method.getBody() == null) {
      return Optional.empty();
    }
    List<? extends StatementTree> before = List.of();
    List<? extends StatementTree> body;
    if (region instanceof MethodTree) {
      body = method.getBody().getStatements();
    } else if (region instanceof SynchronizedTree block
        && regionPath.getParentPath().getLeaf() == method.getBody()) {
      List<? extends StatementTree> statements = method.getBody().getStatements();
      before = statements.subList(0, statements.indexOf(block));
      body = block.getBlock().getStatements();
    } else {
      return Optional.empty();
    }
    Map<MethodSymbol, MethodTree> methods = MoreTrees.declaredMethods(facts.unit().getLeaf());
    Optional<LazyPart> part = lazyPart(body, methods);
    if (part.isEmpty()
        || before.stream().anyMatch(s -> mentions(s, part.get().field()) || returns(s))) {
      return Optional.empty(); // the field is read before the lock: double-checked
    }
    List<String> chain = List.of();
    for (StatementTree statement : part.get().once()) {
      BlockingIoFacts.Summary summary = facts.summarize(statement);
      if (summary.blocks()) {
        chain = summary.chain();
        break;
      }
    }
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    List<String> callers = requestCallers(lazy, facts.unit(), state);
    if (callers.isEmpty()) {
      return Optional.empty();
    }
    List<String> named = new ArrayList<>();
    named.add(method.getName() + "()");
    named.addAll(chain);
    return Optional.of(new Finding(part.get().field(), List.copyOf(named), callers));
  }

  /** The lazily created field and the statements that run only while it is null. */
  private record LazyPart(Symbol field, List<? extends StatementTree> once) {}

  /**
   * {@code if (field != null) return field; ...create, field = ...;} or {@code if (field == null) {
   * ...create, field = ...; }} among the leading statements of a region (after guards that do not
   * return, such as {@code if (closed) throw ...}); the field may be set in a method of the same
   * file that the creation calls (commons-dbcp 1.4's {@code createDataSourceInstance()}).
   */
  private static Optional<LazyPart> lazyPart(
      List<? extends StatementTree> statements, Map<MethodSymbol, MethodTree> methods) {
    for (int i = 0; i < statements.size(); i++) {
      StatementTree statement = statements.get(i);
      if (statement instanceof IfTree test && test.getElseStatement() == null) {
        Symbol set = testedField(test.getCondition(), Tree.Kind.NOT_EQUAL_TO);
        if (set != null && isReturn(test.getThenStatement())) {
          List<? extends StatementTree> rest = statements.subList(i + 1, statements.size());
          return assigns(rest, set, methods)
              ? Optional.of(new LazyPart(set, rest))
              : Optional.empty();
        }
        Symbol unset = testedField(test.getCondition(), Tree.Kind.EQUAL_TO);
        if (unset != null) {
          List<StatementTree> then = List.of(test.getThenStatement());
          return assigns(then, unset, methods)
              ? Optional.of(new LazyPart(unset, then))
              : Optional.empty();
        }
      }
      if (returns(statement)) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** The field in {@code field <op> null} (or {@code null <op> field}), or null. */
  private static Symbol testedField(ExpressionTree condition, Tree.Kind op) {
    ExpressionTree tested = ASTHelpers.stripParentheses(condition);
    if (!(tested instanceof BinaryTree binary) || binary.getKind() != op) {
      return null;
    }
    ExpressionTree left = ASTHelpers.stripParentheses(binary.getLeftOperand());
    ExpressionTree right = ASTHelpers.stripParentheses(binary.getRightOperand());
    ExpressionTree operand =
        right.getKind() == Tree.Kind.NULL_LITERAL
            ? left
            : left.getKind() == Tree.Kind.NULL_LITERAL ? right : null;
    if (!(operand instanceof IdentifierTree) && !(operand instanceof MemberSelectTree)) {
      return null;
    }
    Symbol symbol = ASTHelpers.getSymbol(operand);
    return symbol != null && symbol.getKind() == ElementKind.FIELD ? symbol : null;
  }

  private static boolean isReturn(StatementTree statement) {
    if (statement instanceof BlockTree block && block.getStatements().size() == 1) {
      statement = block.getStatements().get(0);
    }
    return statement instanceof ReturnTree;
  }

  /** Whether the statements assign the field, themselves or through methods of the same file. */
  private static boolean assigns(
      List<? extends StatementTree> statements,
      Symbol field,
      Map<MethodSymbol, MethodTree> methods) {
    Set<MethodSymbol> visited = new HashSet<>();
    List<Tree> work = new ArrayList<>(statements);
    while (!work.isEmpty()) {
      Tree tree = work.remove(work.size() - 1);
      boolean[] found = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitAssignment(AssignmentTree assignment, Void unused) {
          if (field.equals(ASTHelpers.getSymbol(assignment.getVariable()))) {
            found[0] = true;
          }
          return super.visitAssignment(assignment, unused);
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
          MethodSymbol callee = ASTHelpers.getSymbol(call);
          MethodTree declaration = callee == null ? null : methods.get(callee);
          if (declaration != null && declaration.getBody() != null && visited.add(callee)) {
            work.add(declaration.getBody());
          }
          return super.visitMethodInvocation(call, unused);
        }
      }.scan(tree, null);
      if (found[0]) {
        return true;
      }
    }
    return false;
  }

  /**
   * The connection-acquisition methods of the creation's class that call it on every call, as
   * {@code getConnection()}.
   */
  private static List<String> requestCallers(MethodSymbol lazy, TreePath unit, VisitorState state) {
    List<String> callers = new ArrayList<>();
    new TreePathScanner<Void, MethodTree>() {
      @Override
      public Void visitMethod(MethodTree tree, MethodTree unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol != null
            && !symbol.equals(lazy)
            && symbol.owner == lazy.owner
            && !symbol.isStatic()
            && tree.getBody() != null
            && KnownSymbols.overridesEntry(Kind.Jdbc.CONNECTION_ACQUISITION.index(), symbol, state)
            && callsOnEveryCall(getCurrentPath(), tree, lazy)) {
          String name = tree.getName() + "()";
          if (!callers.contains(name)) {
            callers.add(name);
          }
        }
        return null; // nested classes are other classes
      }
    }.scan(unit, null);
    return callers;
  }

  private static boolean callsOnEveryCall(TreePath method, MethodTree tree, MethodSymbol lazy) {
    boolean[] found = {false};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        if (lazy.equals(ASTHelpers.getSymbol(call))
            && isOwnReceiver(call.getMethodSelect())
            && runsOnEveryCall(getCurrentPath(), tree)) {
          found[0] = true;
        }
        return super.visitMethodInvocation(call, unused);
      }
    }.scan(new TreePath(method, tree.getBody()), null);
    return found[0];
  }

  /**
   * Whether the code at {@code path} runs on every normal call of {@code method}: it is reached
   * through expressions, statements of blocks and try blocks only, with no branch, loop, lambda,
   * catch clause or earlier {@code return} on the way.
   */
  private static boolean runsOnEveryCall(TreePath path, MethodTree method) {
    Tree child = path.getLeaf();
    for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof BlockTree block) {
        for (StatementTree statement : block.getStatements()) {
          if (statement == child) {
            break;
          }
          if (returns(statement)) {
            return false;
          }
        }
        if (block == method.getBody()) {
          return true;
        }
      } else if (leaf instanceof TryTree tryTree) {
        if (child != tryTree.getBlock() && !tryTree.getResources().contains(child)) {
          return false; // a catch clause or finally block
        }
      } else if (leaf instanceof SynchronizedTree synchronizedTree) {
        if (child != synchronizedTree.getBlock()) {
          return false;
        }
      } else if (leaf instanceof BinaryTree binary) {
        if ((binary.getKind() == Tree.Kind.CONDITIONAL_AND
                || binary.getKind() == Tree.Kind.CONDITIONAL_OR)
            && child != binary.getLeftOperand()) {
          return false;
        }
      } else if (!(leaf instanceof ExpressionStatementTree
          || leaf instanceof ReturnTree
          || leaf instanceof VariableTree
          || leaf instanceof MethodInvocationTree
          || leaf instanceof MemberSelectTree
          || leaf instanceof TypeCastTree
          || leaf instanceof ParenthesizedTree
          || leaf instanceof AssignmentTree
          || leaf instanceof NewClassTree newClass && newClass.getClassBody() == null)) {
        return false; // if, loop, switch, conditional expression, lambda, class, ...
      }
      child = leaf;
    }
    return false;
  }

  private static boolean isOwnReceiver(ExpressionTree select) {
    if (select instanceof IdentifierTree) {
      return true;
    }
    return select instanceof MemberSelectTree member
        && ASTHelpers.stripParentheses(member.getExpression()) instanceof IdentifierTree receiver
        && receiver.getName().contentEquals("this");
  }

  /** Whether a statement contains a {@code return} of its own method. */
  private static boolean returns(Tree statement) {
    return MoreTrees.anyMatch(statement, MoreTrees.DEFERRED_CODE, ReturnTree.class::isInstance);
  }

  /** Whether a statement reads or writes the field. */
  private static boolean mentions(Tree statement, Symbol field) {
    return MoreTrees.anyMatch(
        statement,
        MoreTrees.DEFERRED_CODE,
        node ->
            (node instanceof IdentifierTree || node instanceof MemberSelectTree)
                && field.equals(ASTHelpers.getSymbol(node)));
  }
}
