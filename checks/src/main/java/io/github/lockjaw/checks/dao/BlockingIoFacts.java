package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.ImmediateCodeScanner;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * What the code of one compilation unit does while it holds a lock: which blocking I/O it performs
 * (following calls to methods declared in the same file), how many database statements it runs, and
 * which of its class's mutable state it touches. One instance per compilation unit and match.
 */
public final class BlockingIoFacts {

  /**
   * What a method or region does.
   *
   * @param chain the first blocking call, reached through the listed same-file methods, e.g. {@code
   *     [openConnection(), DriverManager.getConnection()]}; empty if none
   * @param executions statement executions, where 2 stands for "more than one" (a loop, a batch)
   */
  public record Summary(List<String> chain, int executions) {
    static final Summary NONE = new Summary(List.of(), 0);

    public boolean blocks() {
      return !chain.isEmpty();
    }
  }

  private final VisitorState state;
  private final TreePath unit;
  private final Map<MethodSymbol, TreePath> methods = new HashMap<>();
  private final Map<MethodSymbol, Summary> summaries = new HashMap<>();
  private final Map<MethodSymbol, Optional<String>> touches = new HashMap<>();

  private BlockingIoFacts(TreePath unit, VisitorState state) {
    this.unit = unit;
    this.state = state;
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethod(MethodTree tree, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol != null && tree.getBody() != null) {
          methods.put(symbol, getCurrentPath());
        }
        return super.visitMethod(tree, unused);
      }
    }.scan(unit, null);
  }

  /** The facts of the compilation unit that {@code state}'s current path belongs to. */
  public static BlockingIoFacts forUnit(VisitorState state) {
    TreePath path = state.getPath();
    while (path.getParentPath() != null) {
      path = path.getParentPath();
    }
    return new BlockingIoFacts(path, state);
  }

  /** The compilation unit's path. */
  public TreePath unit() {
    return unit;
  }

  /**
   * What a region does while it holds its lock: the body of a {@code synchronized} method or block,
   * with nested lambdas and classes left out (they run later) and one-time initialisation ({@code
   * if (field == null) field = ...}) left out (it blocks once, not on every call).
   */
  public Summary summarize(Tree region) {
    Tree body =
        region instanceof MethodTree method
            ? method.getBody()
            : region instanceof SynchronizedTree block ? block.getBlock() : region;
    return body == null ? Summary.NONE : scanForIo(body);
  }

  private Summary summarizeMethod(MethodSymbol symbol) {
    if (summaries.containsKey(symbol)) {
      return summaries.get(symbol);
    }
    summaries.put(symbol, Summary.NONE); // a recursive call adds nothing new
    TreePath path = methods.get(symbol);
    Summary summary = path == null ? Summary.NONE : summarize(path.getLeaf());
    summaries.put(symbol, summary);
    return summary;
  }

  private Summary scanForIo(Tree body) {
    List<String> chain = new ArrayList<>();
    int[] executions = {0};
    new ImmediateCodeScanner<Void, Void>() {
      private int loops;

      @Override
      public Void visitBlock(BlockTree block, Void unused) {
        List<? extends StatementTree> statements = block.getStatements();
        for (int i = 0; i < statements.size(); i++) {
          scan(statements.get(i), null);
          if (isEarlyReturnWhenInitialised(
              statements.get(i), statements.subList(i + 1, statements.size()))) {
            return null; // the rest runs once: 'if (pool != null) return pool; ... pool = ...;'
          }
        }
        return null;
      }

      /** Locals that hold what a map field's {@code get} returned: {@code V v = (V) map.get(k)}. */
      private final Map<Symbol, Symbol> mapValueLocals = new HashMap<>();

      @Override
      public Void visitVariable(VariableTree tree, Void unused) {
        Symbol map = mapGetReceiver(tree.getInitializer());
        if (map != null) {
          mapValueLocals.put(ASTHelpers.getSymbol(tree), map);
        }
        return super.visitVariable(tree, unused);
      }

      @Override
      public Void visitIf(IfTree tree, Void unused) {
        if (isOneTimeInitialisation(tree) || isFillOnMiss(tree, mapValueLocals)) {
          scan(tree.getCondition(), null);
          scan(tree.getElseStatement(), null);
          return null;
        }
        if (isReturnWhenInitialised(tree)) {
          // if (field != null) return field; else { ...; field = ...; }: the else runs once
          scan(tree.getCondition(), null);
          scan(tree.getThenStatement(), null);
          return null;
        }
        return super.visitIf(tree, unused);
      }

      @Override
      public Void visitForLoop(ForLoopTree tree, Void unused) {
        return inLoop(() -> super.visitForLoop(tree, unused));
      }

      @Override
      public Void visitEnhancedForLoop(EnhancedForLoopTree tree, Void unused) {
        return inLoop(() -> super.visitEnhancedForLoop(tree, unused));
      }

      @Override
      public Void visitWhileLoop(WhileLoopTree tree, Void unused) {
        return inLoop(() -> super.visitWhileLoop(tree, unused));
      }

      @Override
      public Void visitDoWhileLoop(DoWhileLoopTree tree, Void unused) {
        return inLoop(() -> super.visitDoWhileLoop(tree, unused));
      }

      private Void inLoop(Supplier<Void> scan) {
        loops++;
        try {
          return scan.get();
        } finally {
          loops--;
        }
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        super.visitMethodInvocation(tree, unused);
        call(tree, ASTHelpers.getSymbol(tree));
        return null;
      }

      @Override
      public Void visitNewClass(NewClassTree tree, Void unused) {
        scan(tree.getEnclosingExpression(), null);
        scan(tree.getArguments(), null);
        call(tree, ASTHelpers.getSymbol(tree));
        return null;
      }

      private void call(Tree tree, MethodSymbol symbol) {
        Optional<BlockingIoKnowledge.BlockingCall> known =
            BlockingIoKnowledge.classify(tree, state);
        if (known.isPresent()) {
          if (chain.isEmpty()) {
            chain.add(known.get().description());
          }
          if (known.get().executes()) {
            executions[0] += known.get().batch() || loops > 0 ? 2 : 1;
          }
          return;
        }
        if (symbol == null || !methods.containsKey(symbol)) {
          return;
        }
        Summary callee = summarizeMethod(symbol);
        if (callee.blocks() && chain.isEmpty()) {
          chain.add(
              symbol.isConstructor()
                  ? "new " + symbol.owner.getSimpleName() + "(...)"
                  : symbol.getSimpleName() + "()");
          chain.addAll(callee.chain());
        }
        executions[0] += callee.executions() > 0 && loops > 0 ? 2 : callee.executions();
      }
    }.scan(body, null);
    return new Summary(List.copyOf(chain), Math.min(executions[0], 2));
  }

  /**
   * {@code if (field == null) { ... field = ...; }} or {@code if (!initialized) { ...; initialized
   * = true; }}: the branch runs once, then never again.
   */
  private static boolean isOneTimeInitialisation(IfTree tree) {
    List<Symbol> tested = new ArrayList<>();
    collectUnsetTests(ASTHelpers.stripParentheses(tree.getCondition()), tested);
    if (tested.isEmpty()) {
      return false;
    }
    boolean[] assigned = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree assignment, Void unused) {
        if (tested.contains(ASTHelpers.getSymbol(assignment.getVariable()))) {
          assigned[0] = true;
        }
        return super.visitAssignment(assignment, unused);
      }
    }.scan(tree.getThenStatement(), null);
    return assigned[0];
  }

  /**
   * {@code V v = map.get(k); if (v == null) { v = create(k); map.put(k, v); }}: the branch runs
   * once per key (a pool per user, created on its first request), then the map answers.
   */
  private static boolean isFillOnMiss(IfTree tree, Map<Symbol, Symbol> mapValueLocals) {
    ExpressionTree condition = ASTHelpers.stripParentheses(tree.getCondition());
    if (!(condition instanceof BinaryTree binary) || binary.getKind() != Tree.Kind.EQUAL_TO) {
      return false;
    }
    ExpressionTree tested =
        isNullOrFalse(binary.getRightOperand())
            ? binary.getLeftOperand()
            : binary.getRightOperand();
    Symbol map = mapValueLocals.get(ASTHelpers.getSymbol(ASTHelpers.stripParentheses(tested)));
    if (map == null) {
      return false;
    }
    boolean[] put = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        if (ASTHelpers.getSymbol(call) != null
            && ASTHelpers.getSymbol(call).getSimpleName().contentEquals("put")
            && map.equals(receiverSymbol(call))) {
          put[0] = true;
        }
        return super.visitMethodInvocation(call, unused);
      }
    }.scan(tree.getThenStatement(), null);
    return put[0];
  }

  /** The field whose {@code get} an initializer calls ({@code (T) this.map.get(k)}), or null. */
  private static Symbol mapGetReceiver(ExpressionTree initializer) {
    ExpressionTree value = initializer == null ? null : ASTHelpers.stripParentheses(initializer);
    while (value instanceof TypeCastTree cast) {
      value = ASTHelpers.stripParentheses(cast.getExpression());
    }
    if (!(value instanceof MethodInvocationTree call)
        || ASTHelpers.getSymbol(call) == null
        || !ASTHelpers.getSymbol(call).getSimpleName().contentEquals("get")
        || call.getArguments().size() != 1) {
      return null;
    }
    Symbol receiver = receiverSymbol(call);
    return receiver != null && receiver.getKind() == ElementKind.FIELD ? receiver : null;
  }

  private static Symbol receiverSymbol(MethodInvocationTree call) {
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    return receiver == null ? null : ASTHelpers.getSymbol(ASTHelpers.stripParentheses(receiver));
  }

  /** {@code if (field != null) return field; else { ... field = ...; }}. */
  private static boolean isReturnWhenInitialised(IfTree tree) {
    return tree.getElseStatement() != null
        && isEarlyReturnWhenInitialised(tree, List.of(tree.getElseStatement()), true);
  }

  /**
   * {@code if (field != null) return field;} followed by code that sets the field: what follows the
   * {@code if} runs once (lazy creation, e.g. commons-dbcp2's BasicDataSource#createDataSource).
   */
  private static boolean isEarlyReturnWhenInitialised(
      StatementTree statement, List<? extends StatementTree> rest) {
    return isEarlyReturnWhenInitialised(statement, rest, false);
  }

  private static boolean isEarlyReturnWhenInitialised(
      StatementTree statement, List<? extends StatementTree> rest, boolean withElse) {
    if (!(statement instanceof IfTree ifTree) || (ifTree.getElseStatement() != null) != withElse) {
      return false;
    }
    StatementTree then = ifTree.getThenStatement();
    if (then instanceof BlockTree block && block.getStatements().size() == 1) {
      then = block.getStatements().get(0);
    }
    if (!(then instanceof ReturnTree)) {
      return false;
    }
    ExpressionTree condition = ASTHelpers.stripParentheses(ifTree.getCondition());
    Symbol field = null;
    if (condition instanceof BinaryTree binary && binary.getKind() == Tree.Kind.NOT_EQUAL_TO) {
      if (isNullOrFalse(binary.getRightOperand())) {
        field = fieldOf(binary.getLeftOperand());
      } else if (isNullOrFalse(binary.getLeftOperand())) {
        field = fieldOf(binary.getRightOperand());
      }
    } else {
      field = fieldOf(condition); // if (initialized) return ...;
    }
    if (field == null) {
      return false;
    }
    Symbol tested = field;
    boolean[] assigned = {false};
    TreeScanner<Void, Void> finder =
        new TreeScanner<Void, Void>() {
          @Override
          public Void visitAssignment(AssignmentTree assignment, Void unused) {
            if (tested.equals(ASTHelpers.getSymbol(assignment.getVariable()))) {
              assigned[0] = true;
            }
            return super.visitAssignment(assignment, unused);
          }
        };
    rest.forEach(s -> finder.scan(s, null));
    return assigned[0];
  }

  private static void collectUnsetTests(ExpressionTree condition, List<Symbol> tested) {
    condition = ASTHelpers.stripParentheses(condition);
    if (condition instanceof BinaryTree binary) {
      switch (binary.getKind()) {
        case CONDITIONAL_OR, CONDITIONAL_AND -> {
          collectUnsetTests(binary.getLeftOperand(), tested);
          collectUnsetTests(binary.getRightOperand(), tested);
        }
        case EQUAL_TO -> {
          Symbol left = fieldOf(binary.getLeftOperand());
          Symbol right = fieldOf(binary.getRightOperand());
          if (left != null && isNullOrFalse(binary.getRightOperand())) {
            tested.add(left);
          } else if (right != null && isNullOrFalse(binary.getLeftOperand())) {
            tested.add(right);
          }
        }
        default -> {}
      }
    } else if (condition instanceof UnaryTree unary
        && unary.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      Symbol field = fieldOf(unary.getExpression());
      if (field != null) {
        tested.add(field);
      }
    }
  }

  private static Symbol fieldOf(ExpressionTree tree) {
    tree = ASTHelpers.stripParentheses(tree);
    if (!(tree instanceof IdentifierTree) && !(tree instanceof MemberSelectTree)) {
      return null;
    }
    Symbol symbol = ASTHelpers.getSymbol(tree);
    return symbol != null && symbol.getKind() == ElementKind.FIELD ? symbol : null;
  }

  private static boolean isNullOrFalse(ExpressionTree tree) {
    tree = ASTHelpers.stripParentheses(tree);
    return tree.getKind() == Tree.Kind.NULL_LITERAL
        || (tree instanceof LiteralTree literal && Boolean.FALSE.equals(literal.getValue()));
  }

  /**
   * The first piece of mutable state that a region touches, directly or through methods of the same
   * file, described for a message ({@code field 'openCount'}); empty when the region uses only its
   * parameters, locals, constants and final fields of thread-safe types. The lock expression of a
   * {@code synchronized} block is not part of its region.
   */
  public Optional<String> mutableStateTouchedBy(Tree region) {
    Tree body =
        region instanceof MethodTree method
            ? method.getBody()
            : region instanceof SynchronizedTree block ? block.getBlock() : region;
    if (body == null) {
      return Optional.of("an abstract method");
    }
    TreePath bodyPath = TreePath.getPath(unit, body);
    return bodyPath == null ? Optional.of("code lockjaw cannot locate") : scanForState(bodyPath);
  }

  private Optional<String> touchesOfMethod(MethodSymbol symbol) {
    if (touches.containsKey(symbol)) {
      return touches.get(symbol);
    }
    touches.put(symbol, Optional.empty()); // a recursive call adds nothing new
    TreePath path = methods.get(symbol);
    Optional<String> result =
        path == null
            ? Optional.of("method " + symbol.getSimpleName() + "()")
            : mutableStateTouchedBy(path.getLeaf());
    touches.put(symbol, result);
    return result;
  }

  private Optional<String> scanForState(TreePath body) {
    String[] found = {null};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        return found[0] != null ? null : super.scan(tree, unused);
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        if (tree.getName().contentEquals("this") || tree.getName().contentEquals("super")) {
          if (!(getCurrentPath().getParentPath().getLeaf() instanceof MemberSelectTree)) {
            found[0] = "'" + tree.getName() + "', passed on as a value";
          }
          return null;
        }
        checkField(ASTHelpers.getSymbol(tree));
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        checkField(ASTHelpers.getSymbol(tree));
        return super.visitMemberSelect(tree, unused);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol instanceof MethodSymbol method && methods.containsKey(method)) {
          touchesOfMethod(method).ifPresent(s -> found[0] = s);
        }
        return super.visitMemberReference(tree, unused);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol == null) {
          found[0] = "a call lockjaw cannot resolve";
          return null;
        }
        String name = symbol.getSimpleName().toString();
        if ((name.equals("wait") || name.equals("notify") || name.equals("notifyAll"))
            && symbol.owner == state.getSymtab().objectType.tsym) {
          found[0] = name + "() on a monitor";
          return null;
        }
        if (methods.containsKey(symbol)) {
          touchesOfMethod(symbol).ifPresent(s -> found[0] = s);
        } else if (!symbol.isStatic() && isOwnReceiver(tree.getMethodSelect())) {
          found[0] = "inherited method " + name + "()";
        }
        return super.visitMethodInvocation(tree, unused);
      }

      @Override
      public Void visitNewClass(NewClassTree tree, Void unused) {
        MethodSymbol constructor = ASTHelpers.getSymbol(tree);
        Type type = ASTHelpers.getType(tree);
        if (type != null
            && type.tsym instanceof Symbol.ClassSymbol created
            && tree.getClassBody() == null
            && hasOuterInstance(created)) {
          found[0] = "inner class " + created.getSimpleName() + ", which captures 'this'";
          return null;
        }
        if (constructor != null && methods.containsKey(constructor)) {
          touchesOfMethod(constructor).ifPresent(s -> found[0] = s);
        }
        return super.visitNewClass(tree, unused);
      }

      private void checkField(Symbol symbol) {
        if (!(symbol instanceof VarSymbol field) || field.getKind() != ElementKind.FIELD) {
          return;
        }
        if (field.getConstValue() != null) {
          return;
        }
        boolean isFinal = field.getModifiers().contains(Modifier.FINAL);
        if (!isFinal || !BlockingIoKnowledge.isThreadSafe(field.type, state)) {
          found[0] = "field '" + field.getSimpleName() + "'";
        }
      }
    }.scan(body, null);
    return Optional.ofNullable(found[0]);
  }

  private static boolean hasOuterInstance(Symbol.ClassSymbol created) {
    try {
      return created.hasOuterInstance();
    } catch (RuntimeException e) {
      return true;
    }
  }

  private static boolean isOwnReceiver(ExpressionTree select) {
    if (select instanceof IdentifierTree) {
      return true; // implicit this
    }
    if (select instanceof MemberSelectTree member
        && ASTHelpers.stripParentheses(member.getExpression()) instanceof IdentifierTree receiver) {
      return receiver.getName().contentEquals("this") || receiver.getName().contentEquals("super");
    }
    return false;
  }

  /** Whether any code in the file calls {@code wait}, {@code notify} or {@code notifyAll}. */
  public boolean usesWaitOrNotify() {
    return MoreTrees.anyMatch(
        unit.getLeaf(),
        node -> {
          if (!(node instanceof MethodInvocationTree call)) {
            return false;
          }
          MethodSymbol symbol = ASTHelpers.getSymbol(call);
          if (symbol == null || symbol.owner != state.getSymtab().objectType.tsym) {
            return false;
          }
          String name = symbol.getSimpleName().toString();
          return name.equals("wait") || name.equals("notify") || name.equals("notifyAll");
        });
  }

  /**
   * Whether code in the file locks an object of the given class from outside it ({@code
   * synchronized (dao)}), making the class's instance monitor part of a wider protocol.
   */
  public boolean locksFromOutside(Symbol.ClassSymbol owner) {
    return MoreTrees.anyMatch(
        unit.getLeaf(),
        node -> {
          if (!(node instanceof SynchronizedTree tree)) {
            return false;
          }
          ExpressionTree lock = ASTHelpers.stripParentheses(tree.getExpression());
          boolean isThis =
              (lock instanceof IdentifierTree id && id.getName().contentEquals("this"))
                  || (lock instanceof MemberSelectTree s
                      && s.getIdentifier().contentEquals("this"));
          Type type = ASTHelpers.getType(lock);
          return !isThis
              && type != null
              && state
                  .getTypes()
                  .isSubtype(state.getTypes().erasure(type), state.getTypes().erasure(owner.type));
        });
  }

  /** Whether a block has exactly one statement, the given one. */
  public static boolean isWholeBody(BlockTree body, Tree statement) {
    return body != null
        && body.getStatements().size() == 1
        && body.getStatements().get(0) == statement;
  }
}
