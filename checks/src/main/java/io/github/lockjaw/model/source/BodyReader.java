package io.github.lockjaw.model.source;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Kinds;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.JCTree.JCMethodInvocation;
import com.sun.tools.javac.tree.JCTree.JCNewClass;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.ElementKind;

/**
 * Reads one method body (or initialiser, or lambda body) from javac trees into operations, in the
 * order javac's code runs them, with the same values, regions, loops and guards the bytecode
 * front-end derives from the class file (see {@code MethodReader}). Locals are followed through
 * their assignments; where paths join with different values they become unknown.
 */
final class BodyReader {
  /**
   * The guards that hold when a condition is true and when it is false, and its paths to each
   * outcome (for loop exits).
   */
  private record Cond(
      List<Guard> whenTrue,
      List<Guard> whenFalse,
      List<LoopRecorder.Edge> trueEdges,
      List<LoopRecorder.Edge> falseEdges) {
    Cond(List<Guard> whenTrue, List<Guard> whenFalse) {
      this(whenTrue, whenFalse, edges(whenTrue), edges(whenFalse));
    }

    private static List<LoopRecorder.Edge> edges(List<Guard> guards) {
      return guards.isEmpty()
          ? List.of(new LoopRecorder.Edge(List.of(), UNKNOWN_GUARD, null))
          : List.of(
              new LoopRecorder.Edge(
                  guards.subList(0, guards.size() - 1), guards.get(guards.size() - 1), null));
    }
  }

  /** Whether a statement can complete normally, and what holds for the statements after it. */
  private record Flow(boolean completes, List<Guard> after) {
    static final Flow NORMAL = new Flow(true, List.of());
    static final Flow ABRUPT = new Flow(false, List.of());
  }

  private static final Guard UNKNOWN_GUARD = new Guard(Value.UNKNOWN, Guard.Test.TRUE, true);

  private final SourceFacts source;
  private final JavacNames names;
  private final MethodRef ref;
  private final ClassSymbol owner;
  private final TreePath unit;

  final List<Op> ops = new ArrayList<>();
  final List<TreePath> opPaths = new ArrayList<>();
  final List<Region> regions = new ArrayList<>();
  final List<TreePath> regionPaths = new ArrayList<>();
  final List<Loop> loops = new ArrayList<>();
  private final LoopRecorder loopFacts = new LoopRecorder();
  private boolean iteratorStep;

  /** A {@code break} or {@code continue} that is an {@code if}'s only statement, and its path. */
  private Tree jumpTest;

  private LoopRecorder.Edge jumpEdge;

  private Map<Symbol, Value> env = new HashMap<>();
  private final List<Integer> heldRegions = new ArrayList<>();
  private final List<Integer> openLoops = new ArrayList<>();
  private final List<Guard> guards = new ArrayList<>();
  private boolean inHandler;

  /**
   * The {@code finally} blocks of the try statements being read, innermost last, with how many
   * monitors were held when each try began: javac copies a finally block onto every exit of its
   * try, a {@code return} included, with that exit's values, and so does this reader.
   */
  private record PendingFinally(TreePath block, int heldDepth) {}

  private final List<PendingFinally> pendingFinally = new ArrayList<>();
  private int lambdaOrdinal;
  private int computations;

  BodyReader(SourceFacts source, MethodRef ref, ClassSymbol owner, TreePath unit) {
    this.source = source;
    this.names = source.names();
    this.ref = ref;
    this.owner = owner;
    this.unit = unit;
  }

  void bindParameter(Symbol parameter, int index) {
    env.put(parameter, new Value.Param(index));
  }

  /** A synchronized method: its whole body is region 0. */
  void lockWholeMethod(TreePath method, boolean isStatic) {
    regions.add(
        new Region(
            0,
            isStatic ? new Value.ClassLiteral(JavacNames.binaryName(owner)) : Value.THIS,
            isStatic ? "java.lang.Class" : JavacNames.binaryName(owner),
            true,
            -1,
            line(method.getLeaf())));
    regionPaths.add(method);
    heldRegions.add(0);
  }

  // ---------------------------------------------------------------- statements

  Flow statement(TreePath path) {
    Tree tree = path.getLeaf();
    return switch (tree) {
      case BlockTree block -> block(path, block.getStatements());
      case VariableTree variable -> {
        if (variable.getInitializer() != null) {
          Value value = eval(child(path, variable.getInitializer()));
          Symbol symbol = TreeInfo.symbolFor((JCTree) variable);
          if (symbol != null) {
            env.put(symbol, value);
            loopFacts.store(symbol, value, guards);
          }
        }
        yield Flow.NORMAL;
      }
      case ExpressionStatementTree statement -> {
        expressionStatement(child(path, statement.getExpression()));
        yield Flow.NORMAL;
      }
      case IfTree ifTree -> ifStatement(path, ifTree);
      case WhileLoopTree loop -> whileLoop(path, loop);
      case DoWhileLoopTree loop -> doWhileLoop(path, loop);
      case ForLoopTree loop -> forLoop(path, loop);
      case EnhancedForLoopTree loop -> enhancedFor(path, loop);
      case SwitchTree switchTree -> {
        switchCases(path, switchTree.getExpression(), switchTree.getCases());
        yield Flow.NORMAL;
      }
      case ReturnTree returnTree -> {
        List<Value> returned =
            returnTree.getExpression() == null
                ? List.of()
                : List.of(eval(child(path, returnTree.getExpression())));
        runFinallyBlocksBeforeReturn();
        emitReturn(path, returned);
        yield Flow.ABRUPT;
      }
      case ThrowTree throwTree -> {
        Value thrown = eval(child(path, throwTree.getExpression()));
        emit(Op.Kind.THROW, null, null, null, List.of(thrown), path);
        yield Flow.ABRUPT;
      }
      case TryTree tryTree -> tryStatement(path, tryTree);
      case SynchronizedTree sync -> synchronizedBlock(path, sync);
      case LabeledStatementTree labeled -> {
        boolean loopLabel = isLoop(labeled.getStatement());
        if (!loopLabel) {
          loopFacts.enterLabel(labeled.getLabel().toString());
        }
        Flow inner = statement(child(path, labeled.getStatement()));
        if (!loopLabel) {
          loopFacts.exitLabel();
        }
        boolean leaves =
            LocalScans.breaksOut(labeled.getStatement(), labeled.getLabel().toString());
        yield leaves ? new Flow(true, List.of()) : inner;
      }
      case YieldTree yield -> {
        eval(child(path, yield.getValue()));
        yield Flow.ABRUPT;
      }
      case AssertTree assertion -> {
        assertion(path, assertion);
        yield Flow.NORMAL;
      }
      case ClassTree local -> {
        source.readClass(path);
        yield Flow.NORMAL;
      }
      default ->
          switch (tree.getKind()) {
            case BREAK, CONTINUE -> {
              loopFacts.jump(tree, guards, inHandler, tree == jumpTest ? jumpEdge : null);
              yield Flow.ABRUPT;
            }
            default -> Flow.NORMAL;
          };
    };
  }

  Flow block(TreePath path, List<? extends StatementTree> statements) {
    int mark = guards.size();
    boolean completes = true;
    for (StatementTree statement : statements) {
      Flow flow = statement(child(path, statement));
      if (!flow.completes()) {
        completes = false;
      }
      guards.addAll(flow.after());
    }
    truncate(guards, mark);
    return completes ? Flow.NORMAL : Flow.ABRUPT;
  }

  private void expressionStatement(TreePath path) {
    ExpressionTree expression = (ExpressionTree) path.getLeaf();
    if (expression instanceof MethodInvocationTree call && isDiscardedNullCheck(call)) {
      MethodInvocationTree invocation = call;
      for (ExpressionTree arg : invocation.getArguments()) {
        eval(child(path, arg));
      }
      if (invocation.getMethodSelect() instanceof MemberSelectTree select) {
        eval(child(child(path, select), select.getExpression()));
      }
      return;
    }
    eval(path);
  }

  /** {@code Objects.requireNonNull(x);} or {@code x.getClass();} whose result is dropped. */
  private static boolean isDiscardedNullCheck(MethodInvocationTree call) {
    Symbol symbol = TreeInfo.symbol((JCTree) call.getMethodSelect());
    if (!(symbol instanceof MethodSymbol method)) {
      return false;
    }
    String owner = method.owner.getQualifiedName().toString();
    String name = method.getSimpleName().toString();
    return (name.equals("getClass")
            && owner.equals("java.lang.Object")
            && call.getArguments().isEmpty())
        || (name.equals("requireNonNull")
            && owner.equals("java.util.Objects")
            && call.getArguments().size() == 1);
  }

  private Flow ifStatement(TreePath path, IfTree tree) {
    ExpressionTree condition = TreeInfo.skipParens((JCTree.JCExpression) tree.getCondition());
    Object constant = constantOf(condition);
    if (constant instanceof Boolean value) {
      // javac drops the dead branch and the test
      if (value) {
        return statement(child(path, tree.getThenStatement()));
      }
      return tree.getElseStatement() == null
          ? Flow.NORMAL
          : statement(child(path, tree.getElseStatement()));
    }
    Cond cond = condition(child(path, tree.getCondition()));
    int mark = guards.size();
    guards.addAll(cond.whenTrue());
    Map<Symbol, Value> before = new HashMap<>(env);
    noteJump(tree.getThenStatement(), cond.whenTrue(), cond.trueEdges());
    Flow then = statement(child(path, tree.getThenStatement()));
    truncate(guards, mark);
    Map<Symbol, Value> afterThen = env;
    env = before;
    Flow otherwise = Flow.NORMAL;
    if (tree.getElseStatement() != null) {
      guards.addAll(cond.whenFalse());
      noteJump(tree.getElseStatement(), cond.whenFalse(), cond.falseEdges());
      otherwise = statement(child(path, tree.getElseStatement()));
      truncate(guards, mark);
    }
    if (then.completes() && otherwise.completes()) {
      // where the branches meet, a local they leave different is no one value (as in a class file)
      for (Map.Entry<Symbol, Value> entry : afterThen.entrySet()) {
        if (!entry.getValue().equals(env.get(entry.getKey()))) {
          env.put(entry.getKey(), Value.UNKNOWN);
        }
      }
    } else if (then.completes()) {
      env = afterThen;
    }
    if (!then.completes() && otherwise.completes()) {
      return new Flow(true, concat(cond.whenFalse(), otherwise.after()));
    }
    if (then.completes() && !otherwise.completes()) {
      return new Flow(true, concat(cond.whenTrue(), then.after()));
    }
    return then.completes() || otherwise.completes() ? Flow.NORMAL : Flow.ABRUPT;
  }

  /** A branch that is only a {@code break} or {@code continue}: its exit sees the rich test. */
  private void noteJump(
      StatementTree branch, List<Guard> guardsAdded, List<LoopRecorder.Edge> edges) {
    StatementTree only = branch;
    if (only instanceof BlockTree block && block.getStatements().size() == 1) {
      only = block.getStatements().get(0);
    }
    boolean jump = only.getKind() == Tree.Kind.BREAK || only.getKind() == Tree.Kind.CONTINUE;
    if (jump && edges.size() == 1 && !guardsAdded.isEmpty()) {
      jumpTest = only;
      jumpEdge = edges.get(0);
    }
  }

  private int openLoop(TreePath path) {
    Tree tree = path.getLeaf();
    int id = loops.size();
    int parent = openLoops.isEmpty() ? -1 : openLoops.get(openLoops.size() - 1);
    loops.add(new Loop(id, parent, line(tree)));
    openLoops.add(id);
    loopFacts.open(id, tree, labelOf(path), guards.size(), inHandler);
    return id;
  }

  private void closeLoop() {
    int id = openLoops.remove(openLoops.size() - 1);
    loops.set(id, loopFacts.close(loops.get(id)));
  }

  /** The false paths of the innermost loop's condition are ways out of it. */
  private void conditionExits(Cond cond) {
    loopFacts.conditionExits(cond.falseEdges(), guards, inHandler);
  }

  private static boolean isLoop(Tree tree) {
    return tree instanceof WhileLoopTree
        || tree instanceof DoWhileLoopTree
        || tree instanceof ForLoopTree
        || tree instanceof EnhancedForLoopTree;
  }

  private void forgetAssignedIn(Tree tree) {
    for (Symbol symbol : LocalScans.assignedLocals(tree)) {
      env.put(symbol, Value.UNKNOWN);
    }
  }

  private String labelOf(TreePath loop) {
    return loop.getParentPath().getLeaf() instanceof LabeledStatementTree labeled
        ? labeled.getLabel().toString()
        : null;
  }

  private Flow whileLoop(TreePath path, WhileLoopTree tree) {
    forgetAssignedIn(tree);
    boolean breaks = LocalScans.breaksOut(tree.getStatement(), labelOf(path));
    openLoop(path);
    Object constant = constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree.getCondition()));
    Cond cond =
        Boolean.TRUE.equals(constant)
            ? new Cond(List.of(), List.of())
            : condition(child(path, tree.getCondition()));
    if (!Boolean.TRUE.equals(constant)) {
      conditionExits(cond);
    }
    int mark = guards.size();
    guards.addAll(cond.whenTrue());
    statement(child(path, tree.getStatement()));
    truncate(guards, mark);
    closeLoop();
    if (Boolean.TRUE.equals(constant)) {
      return breaks ? Flow.NORMAL : Flow.ABRUPT;
    }
    return new Flow(true, breaks ? List.of() : cond.whenFalse());
  }

  private Flow doWhileLoop(TreePath path, DoWhileLoopTree tree) {
    forgetAssignedIn(tree);
    boolean breaks = LocalScans.breaksOut(tree.getStatement(), labelOf(path));
    openLoop(path);
    int bodyMark = guards.size();
    if (tree.getStatement() instanceof BlockTree body && !LoopRecorder.continuesIn(body)) {
      // the condition follows the body's last statement: what holds after it holds there
      TreePath bodyPath = child(path, body);
      for (StatementTree statement : body.getStatements()) {
        guards.addAll(statement(child(bodyPath, statement)).after());
      }
    } else {
      statement(child(path, tree.getStatement()));
    }
    Object constant = constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree.getCondition()));
    Cond cond =
        Boolean.TRUE.equals(constant)
            ? new Cond(List.of(), List.of())
            : condition(child(path, tree.getCondition()));
    if (!Boolean.TRUE.equals(constant)) {
      conditionExits(cond);
    }
    truncate(guards, bodyMark);
    closeLoop();
    if (Boolean.TRUE.equals(constant)) {
      return breaks ? Flow.NORMAL : Flow.ABRUPT;
    }
    return new Flow(true, breaks ? List.of() : cond.whenFalse());
  }

  private Flow forLoop(TreePath path, ForLoopTree tree) {
    for (StatementTree init : tree.getInitializer()) {
      statement(child(path, init));
    }
    forgetAssignedIn(tree);
    boolean breaks = LocalScans.breaksOut(tree.getStatement(), labelOf(path));
    openLoop(path);
    ExpressionTree condition = tree.getCondition();
    Object constant =
        condition == null
            ? Boolean.TRUE
            : constantOf(TreeInfo.skipParens((JCTree.JCExpression) condition));
    Cond cond =
        Boolean.TRUE.equals(constant)
            ? new Cond(List.of(), List.of())
            : condition(child(path, condition));
    if (!Boolean.TRUE.equals(constant)) {
      conditionExits(cond);
    }
    int mark = guards.size();
    guards.addAll(cond.whenTrue());
    statement(child(path, tree.getStatement()));
    for (ExpressionStatementTree update : tree.getUpdate()) {
      statement(child(path, update));
    }
    truncate(guards, mark);
    closeLoop();
    if (Boolean.TRUE.equals(constant)) {
      return breaks ? Flow.NORMAL : Flow.ABRUPT;
    }
    return new Flow(true, breaks ? List.of() : cond.whenFalse());
  }

  private Flow enhancedFor(TreePath path, EnhancedForLoopTree tree) {
    TreePath iterable = child(path, tree.getExpression());
    Value collection = eval(iterable);
    Type type = ((JCTree) tree.getExpression()).type;
    forgetAssignedIn(tree);
    boolean breaks = LocalScans.breaksOut(tree.getStatement(), labelOf(path));
    Symbol variable = TreeInfo.symbolFor((JCTree) tree.getVariable());
    if (type != null && type.getTag() == TypeTag.ARRAY) {
      openLoop(path);
      loopFacts.conditionExits(
          List.of(new LoopRecorder.Edge(List.of(), UNKNOWN_GUARD, null)), guards, inHandler);
      int mark = guards.size();
      guards.add(UNKNOWN_GUARD);
      Value element = computed();
      env.put(variable, element);
      loopFacts.store(variable, element, guards);
      statement(child(path, tree.getStatement()));
      truncate(guards, mark);
      closeLoop();
      return new Flow(true, breaks ? List.of() : List.of(UNKNOWN_GUARD));
    }
    String iterableType = type == null ? "java.lang.Iterable" : names.typeName(type);
    int iterator =
        emit(
            Op.Kind.INVOKE_VIRTUAL,
            new MethodRef(iterableType, "iterator", "()Ljava/util/Iterator;"),
            null,
            collection,
            List.of(),
            iterable);
    Value it = new Value.Result(iterator);
    openLoop(path);
    iteratorStep = true;
    int hasNext =
        emit(
            Op.Kind.INVOKE_VIRTUAL,
            new MethodRef("java.util.Iterator", "hasNext", "()Z"),
            null,
            it,
            List.of(),
            iterable);
    Guard more = new Guard(new Value.Result(hasNext), Guard.Test.TRUE, true);
    loopFacts.conditionExits(
        List.of(
            new LoopRecorder.Edge(
                List.of(), new Guard(new Value.Result(hasNext), Guard.Test.TRUE, false), null)),
        guards,
        inHandler);
    int mark = guards.size();
    guards.add(more);
    int next =
        emit(
            Op.Kind.INVOKE_VIRTUAL,
            new MethodRef("java.util.Iterator", "next", "()Ljava/lang/Object;"),
            null,
            it,
            List.of(),
            iterable);
    iteratorStep = false;
    if (variable != null) {
      env.put(variable, new Value.Result(next));
      loopFacts.store(variable, new Value.Result(next), guards);
    }
    statement(child(path, tree.getStatement()));
    truncate(guards, mark);
    closeLoop();
    return new Flow(
        true,
        breaks ? List.of() : List.of(new Guard(new Value.Result(hasNext), Guard.Test.TRUE, false)));
  }

  private void switchCases(TreePath path, ExpressionTree selector, List<? extends CaseTree> cases) {
    TreePath selected = child(path, selector);
    Value value = eval(selected);
    Type type = ((JCTree) selector).type;
    if (type != null && type.tsym != null && (type.tsym.flags() & Flags.ENUM) != 0) {
      emit(
          Op.Kind.INVOKE_VIRTUAL,
          new MethodRef(names.typeName(type), "ordinal", "()I"),
          null,
          value,
          List.of(),
          selected);
    }
    forgetAssignedIn(path.getLeaf());
    loopFacts.enterSwitch();
    for (CaseTree caseTree : cases) {
      TreePath casePath = child(path, caseTree);
      if (caseTree.getBody() != null) {
        TreePath body = child(casePath, caseTree.getBody());
        if (caseTree.getBody() instanceof ExpressionTree expression) {
          eval(body);
        } else {
          statement(body);
        }
      } else if (caseTree.getStatements() != null) {
        block(casePath, caseTree.getStatements());
      }
    }
    loopFacts.exitSwitch();
    forgetAssignedIn(path.getLeaf());
  }

  private Flow tryStatement(TreePath path, TryTree tree) {
    List<Value> resources = new ArrayList<>();
    List<TreePath> resourcePaths = new ArrayList<>();
    List<Boolean> created = new ArrayList<>();
    for (Tree resource : tree.getResources()) {
      TreePath resourcePath = child(path, resource);
      if (resource instanceof VariableTree variable) {
        statement(resourcePath);
        Symbol symbol = TreeInfo.symbolFor((JCTree) variable);
        resources.add(env.getOrDefault(symbol, Value.UNKNOWN));
        created.add(variable.getInitializer() instanceof NewClassTree);
      } else {
        resources.add(eval(resourcePath));
        created.add(false);
      }
      resourcePaths.add(resourcePath);
    }
    Map<Symbol, Value> before = new HashMap<>(env);
    TreePath finallyPath =
        tree.getFinallyBlock() == null ? null : child(path, tree.getFinallyBlock());
    if (finallyPath != null) {
      pendingFinally.add(new PendingFinally(finallyPath, heldRegions.size()));
    }
    Flow body = statement(child(path, tree.getBlock()));
    for (int r = resources.size() - 1; r >= 0; r--) {
      Tree resource = tree.getResources().get(r);
      Type type = ((JCTree) resource).type;
      if (resource instanceof VariableTree variable) {
        type =
            ((JCTree) variable).type != null
                ? ((JCTree) variable).type
                : TreeInfo.symbolFor((JCTree) variable).type;
      }
      int mark = guards.size();
      if (!created.get(r)) {
        guards.add(guard(resources.get(r), Guard.Test.NULL, false));
      }
      emit(
          Op.Kind.INVOKE_VIRTUAL,
          new MethodRef(names.typeName(type), "close", "()V"),
          null,
          resources.get(r),
          List.of(),
          resourcePaths.get(r));
      truncate(guards, mark);
    }
    Set<Symbol> assignedInTry = LocalScans.assignedLocals(tree.getBlock());
    boolean anyCatchCompletes = false;
    if (finallyPath != null && body.completes() && !tree.getCatches().isEmpty()) {
      // javac's copy of the finally after the try block completes, with the try's values; the
      // copy after the merge below stands for the exception path
      pendingFinally.remove(pendingFinally.size() - 1);
      Map<Symbol, Value> afterBody = new HashMap<>(env);
      statement(finallyPath);
      env = afterBody;
      pendingFinally.add(new PendingFinally(finallyPath, heldRegions.size()));
    }
    Map<Symbol, Value> afterTry = env;
    for (CatchTree catchTree : tree.getCatches()) {
      env = new HashMap<>(before);
      for (Symbol symbol : assignedInTry) {
        env.put(symbol, Value.UNKNOWN);
      }
      boolean wasInHandler = inHandler;
      inHandler = true;
      Flow flow = statement(child(child(path, catchTree), catchTree.getBlock()));
      if (flow.completes() && finallyPath != null) {
        pendingFinally.remove(pendingFinally.size() - 1);
        statement(finallyPath); // javac repeats finally after each catch
        pendingFinally.add(new PendingFinally(finallyPath, heldRegions.size()));
      }
      inHandler = wasInHandler;
      anyCatchCompletes |= flow.completes();
    }
    env = afterTry;
    if (!tree.getCatches().isEmpty()) {
      for (Symbol symbol : LocalScans.assignedLocals(tree)) {
        env.put(symbol, Value.UNKNOWN);
      }
    }
    Flow finallyFlow = Flow.NORMAL;
    if (finallyPath != null) {
      pendingFinally.remove(pendingFinally.size() - 1);
      finallyFlow = statement(finallyPath);
    }
    boolean completes = (body.completes() || anyCatchCompletes) && finallyFlow.completes();
    return completes ? Flow.NORMAL : Flow.ABRUPT;
  }

  /**
   * Reads the finally blocks a {@code return} runs, innermost first, as javac copies them before
   * the return. A {@code return} inside a synchronized block releases that monitor before a finally
   * of a try around the block runs: the finally is read with only the monitors its try was entered
   * under (CAS client 3.1's {@code getResponseFromServer} returns from inside {@code synchronized
   * (buffer)} and disconnects in the finally).
   */
  private void runFinallyBlocksBeforeReturn() {
    int depth = pendingFinally.size();
    List<PendingFinally> saved = new ArrayList<>(pendingFinally);
    List<Integer> held = new ArrayList<>(heldRegions);
    try {
      for (int i = depth - 1; i >= 0; i--) {
        PendingFinally pending = saved.get(i);
        if (pending.heldDepth() > heldRegions.size()) {
          break;
        }
        truncate(heldRegions, pending.heldDepth()); // the monitors entered since are released
        // a return inside this finally must not run it again
        truncate(pendingFinally, i);
        if (!statement(pending.block()).completes()) {
          break;
        }
      }
    } finally {
      pendingFinally.clear();
      pendingFinally.addAll(saved);
      heldRegions.clear();
      heldRegions.addAll(held);
    }
  }

  private Flow synchronizedBlock(TreePath path, SynchronizedTree tree) {
    TreePath lock = child(path, tree.getExpression());
    Value monitor = eval(lock);
    Type type = ((JCTree) TreeInfo.skipParens((JCTree.JCExpression) tree.getExpression())).type;
    int id = regions.size();
    int parent = heldRegions.isEmpty() ? -1 : heldRegions.get(heldRegions.size() - 1);
    regions.add(new Region(id, monitor, names.typeName(type), false, parent, line(tree)));
    regionPaths.add(path);
    heldRegions.add(id);
    Flow flow = statement(child(path, tree.getBlock()));
    heldRegions.remove(heldRegions.size() - 1);
    return flow;
  }

  private void assertion(TreePath path, AssertTree tree) {
    int mark = guards.size();
    guards.add(UNKNOWN_GUARD);
    Cond cond = condition(child(path, tree.getCondition()));
    guards.addAll(cond.whenFalse());
    if (tree.getDetail() != null) {
      eval(child(path, tree.getDetail()));
    }
    truncate(guards, mark);
  }

  void emitReturn(TreePath path, List<Value> returned) {
    // the return instruction follows the monitorexit of every synchronized block it leaves
    List<Integer> saved = new ArrayList<>(heldRegions);
    heldRegions.removeIf(id -> !regions.get(id).wholeMethod());
    emit(Op.Kind.RETURN, null, null, null, returned, path);
    heldRegions.clear();
    heldRegions.addAll(saved);
  }

  /** A new computed value: unknown, but one identity wherever it flows. */
  private Value computed() {
    return new Value.Computed(computations++);
  }

  // ---------------------------------------------------------------- conditions

  private static Guard guard(Value subject, Guard.Test test, boolean outcome) {
    if (subject.isOpaque()) {
      // a null test of a value no operation names (a local that paths assign differently) is
      // still a null test: "some value was null" (the bytecode front-end reads it the same way)
      return test == Guard.Test.NULL ? new Guard(Value.UNKNOWN, test, outcome) : UNKNOWN_GUARD;
    }
    return new Guard(subject, test, outcome);
  }

  private Cond condition(TreePath path) {
    Tree tree = path.getLeaf();
    if (tree instanceof ParenthesizedTree parens) {
      return condition(child(path, parens.getExpression()));
    }
    if (tree instanceof UnaryTree unary && tree.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      Cond inner = condition(child(path, unary.getExpression()));
      return new Cond(inner.whenFalse(), inner.whenTrue(), inner.falseEdges(), inner.trueEdges());
    }
    if (tree instanceof BinaryTree binary) {
      switch (tree.getKind()) {
        case CONDITIONAL_AND -> {
          Cond left = condition(child(path, binary.getLeftOperand()));
          int mark = guards.size();
          guards.addAll(left.whenTrue());
          Cond right = condition(child(path, binary.getRightOperand()));
          truncate(guards, mark);
          return new Cond(
              concat(left.whenTrue(), right.whenTrue()),
              List.of(),
              after(left.whenTrue(), right.trueEdges()),
              concat(left.falseEdges(), after(left.whenTrue(), right.falseEdges())));
        }
        case CONDITIONAL_OR -> {
          Cond left = condition(child(path, binary.getLeftOperand()));
          int mark = guards.size();
          guards.addAll(left.whenFalse());
          Cond right = condition(child(path, binary.getRightOperand()));
          truncate(guards, mark);
          return new Cond(
              List.of(),
              concat(left.whenFalse(), right.whenFalse()),
              concat(left.trueEdges(), after(left.whenFalse(), right.trueEdges())),
              after(left.whenFalse(), right.falseEdges()));
        }
        case EQUAL_TO, NOT_EQUAL_TO -> {
          boolean equal = tree.getKind() == Tree.Kind.EQUAL_TO;
          ExpressionTree left = binary.getLeftOperand();
          ExpressionTree right = binary.getRightOperand();
          if (isNullLiteral(right) || isNullLiteral(left)) {
            ExpressionTree tested = isNullLiteral(right) ? left : right;
            Value value = eval(child(path, tested));
            return new Cond(
                List.of(guard(value, Guard.Test.NULL, equal)),
                List.of(guard(value, Guard.Test.NULL, !equal)),
                edge(value, Guard.Test.NULL, equal, tested),
                edge(value, Guard.Test.NULL, !equal, tested));
          }
          if (isIntZero(right) && isIntLike(left)) {
            Value value = eval(child(path, left));
            return new Cond(
                List.of(guard(value, Guard.Test.TRUE, !equal)),
                List.of(guard(value, Guard.Test.TRUE, equal)),
                edge(value, Guard.Test.TRUE, !equal, left),
                edge(value, Guard.Test.TRUE, equal, left));
          }
          Value leftValue = eval(child(path, left));
          Value rightValue = eval(child(path, right));
          Cond compared = comparedWithZeroOrOne(tree.getKind(), left, leftValue, right, rightValue);
          return compared != null
              ? compared
              : new Cond(List.of(UNKNOWN_GUARD), List.of(UNKNOWN_GUARD));
        }
        case GREATER_THAN, GREATER_THAN_EQUAL, LESS_THAN, LESS_THAN_EQUAL -> {
          ExpressionTree left = binary.getLeftOperand();
          ExpressionTree right = binary.getRightOperand();
          Value leftValue = eval(child(path, left));
          Value rightValue = eval(child(path, right));
          computed(); // the comparison's own value, as eval numbers it
          Cond compared = comparedWithZeroOrOne(tree.getKind(), left, leftValue, right, rightValue);
          return compared != null
              ? compared
              : new Cond(List.of(UNKNOWN_GUARD), List.of(UNKNOWN_GUARD));
        }
        default -> {}
      }
    }
    Type type = ((JCTree) tree).type;
    Value value = eval(path);
    if (type != null
        && (type.getTag() == TypeTag.BOOLEAN || isBoxedBoolean(type))
        && !(tree instanceof BinaryTree)
        && !(tree instanceof InstanceOfTree)
        && !(tree instanceof ConditionalExpressionTree)) {
      ExpressionTree expression = (ExpressionTree) tree;
      return new Cond(
          List.of(guard(value, Guard.Test.TRUE, true)),
          List.of(guard(value, Guard.Test.TRUE, false)),
          edge(value, Guard.Test.TRUE, true, expression),
          edge(value, Guard.Test.TRUE, false, expression));
    }
    return new Cond(List.of(UNKNOWN_GUARD), List.of(UNKNOWN_GUARD));
  }

  /** A path whose deciding test is {@code value}'s, with the local {@code tested} reads. */
  private static List<LoopRecorder.Edge> edge(
      Value value, Guard.Test test, boolean outcome, ExpressionTree tested) {
    return List.of(
        new LoopRecorder.Edge(
            List.of(), new Guard(value, test, outcome), LoopRecorder.testedLocal(tested)));
  }

  private static List<LoopRecorder.Edge> after(List<Guard> prefix, List<LoopRecorder.Edge> edges) {
    List<LoopRecorder.Edge> all = new ArrayList<>(edges.size());
    for (LoopRecorder.Edge edge : edges) {
      all.add(edge.after(prefix));
    }
    return all;
  }

  /**
   * A count compared with zero or one ({@code n != 0}, {@code n > 0}, {@code 0 < n}, {@code n >=
   * 1}, {@code n == 0}, ...): ops see no guard (as before), but a loop exit sees the test. {@code
   * null} for other comparisons.
   */
  private static Cond comparedWithZeroOrOne(
      Tree.Kind kind,
      ExpressionTree left,
      Value leftValue,
      ExpressionTree right,
      Value rightValue) {
    Long leftConstant = zeroOrOne(left);
    Long rightConstant = zeroOrOne(right);
    if ((leftConstant == null) == (rightConstant == null)) {
      return null;
    }
    boolean constantOnLeft = leftConstant != null;
    ExpressionTree counted = constantOnLeft ? right : left;
    Value value = constantOnLeft ? rightValue : leftValue;
    long constant = constantOnLeft ? leftConstant : rightConstant;
    if (!isIntLike(counted) && !isLong(counted)) {
      return null;
    }
    if (constantOnLeft) {
      kind =
          switch (kind) {
            case GREATER_THAN -> Tree.Kind.LESS_THAN;
            case LESS_THAN -> Tree.Kind.GREATER_THAN;
            case GREATER_THAN_EQUAL -> Tree.Kind.LESS_THAN_EQUAL;
            case LESS_THAN_EQUAL -> Tree.Kind.GREATER_THAN_EQUAL;
            default -> kind;
          };
    }
    // value <kind> constant, as a test whose outcome is true when the comparison holds
    Guard.Test test;
    boolean holdsWhen;
    if (constant == 0 && (kind == Tree.Kind.EQUAL_TO || kind == Tree.Kind.NOT_EQUAL_TO)) {
      test = Guard.Test.TRUE;
      holdsWhen = kind == Tree.Kind.NOT_EQUAL_TO;
    } else if ((constant == 0 && kind == Tree.Kind.GREATER_THAN)
        || (constant == 1 && kind == Tree.Kind.GREATER_THAN_EQUAL)) {
      test = Guard.Test.POSITIVE;
      holdsWhen = true;
    } else if ((constant == 0 && kind == Tree.Kind.LESS_THAN_EQUAL)
        || (constant == 1 && kind == Tree.Kind.LESS_THAN)) {
      test = Guard.Test.POSITIVE;
      holdsWhen = false;
    } else {
      return null;
    }
    return new Cond(
        List.of(UNKNOWN_GUARD),
        List.of(UNKNOWN_GUARD),
        edge(value, test, holdsWhen, counted),
        edge(value, test, !holdsWhen, counted));
  }

  private static Long zeroOrOne(ExpressionTree tree) {
    Object value = constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree));
    if ((value instanceof Integer || value instanceof Long)
        && (((Number) value).longValue() == 0 || ((Number) value).longValue() == 1)) {
      return ((Number) value).longValue();
    }
    return null;
  }

  private static boolean isLong(ExpressionTree tree) {
    Type type = ((JCTree) tree).type;
    return type != null && type.getTag() == TypeTag.LONG;
  }

  private static boolean isBoxedBoolean(Type type) {
    return type.tsym != null && type.tsym.getQualifiedName().contentEquals("java.lang.Boolean");
  }

  private static boolean isNullLiteral(ExpressionTree tree) {
    return TreeInfo.skipParens((JCTree.JCExpression) tree).getKind() == Tree.Kind.NULL_LITERAL;
  }

  private static boolean isIntZero(ExpressionTree tree) {
    Object value =
        ((JCTree.JCExpression) TreeInfo.skipParens((JCTree.JCExpression) tree)).type == null
            ? null
            : constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree));
    return (value instanceof Integer i && i == 0) || Boolean.FALSE.equals(value);
  }

  private static boolean isIntLike(ExpressionTree tree) {
    Type type = ((JCTree) tree).type;
    if (type == null) {
      return false;
    }
    return switch (type.getTag()) {
      case INT, SHORT, BYTE, CHAR, BOOLEAN -> true;
      default -> false;
    };
  }

  // ---------------------------------------------------------------- expressions

  Value eval(TreePath path) {
    Tree tree = path.getLeaf();
    Object constant = constantOf(tree);
    if (constant != null && !(tree instanceof AssignmentTree)) {
      return constantValue(constant);
    }
    return switch (tree) {
      case ParenthesizedTree parens -> eval(child(path, parens.getExpression()));
      case LiteralTree literal -> constantValue(literal.getValue());
      case IdentifierTree ident -> identifier(path, ident);
      case MemberSelectTree select -> memberSelect(path, select);
      case MethodInvocationTree call -> invocation(path, call);
      case NewClassTree creation -> creation(path, creation);
      case AssignmentTree assignment -> assignment(path, assignment);
      case CompoundAssignmentTree compound -> {
        update(path, compound.getVariable(), child(path, compound.getExpression()));
        yield computed();
      }
      case UnaryTree unary -> unary(path, unary);
      case BinaryTree binary -> binary(path, binary);
      case ConditionalExpressionTree conditional -> conditional(path, conditional);
      case TypeCastTree cast -> {
        Value value = eval(child(path, cast.getExpression()));
        Type to = ((JCTree) cast).type;
        Type from = ((JCTree) cast.getExpression()).type;
        boolean primitiveConversion =
            to != null
                && from != null
                && to.isPrimitive()
                && from.isPrimitive()
                && to.getTag() != from.getTag();
        yield primitiveConversion ? computed() : value;
      }
      case InstanceOfTree instanceOf -> {
        Value value = eval(child(path, instanceOf.getExpression()));
        if (instanceOf.getPattern() instanceof BindingPatternTree binding) {
          Symbol symbol = TreeInfo.symbolFor((JCTree) binding.getVariable());
          if (symbol != null) {
            env.put(symbol, value);
            loopFacts.store(symbol, value, guards);
          }
        }
        yield computed();
      }
      case ArrayAccessTree access -> {
        eval(child(path, access.getExpression()));
        eval(child(path, access.getIndex()));
        yield computed();
      }
      case NewArrayTree array -> {
        for (ExpressionTree dimension : array.getDimensions()) {
          eval(child(path, dimension));
        }
        if (array.getInitializers() != null) {
          for (ExpressionTree element : array.getInitializers()) {
            eval(child(path, element));
          }
        }
        yield computed();
      }
      case LambdaExpressionTree lambda -> {
        MethodRef body = MethodRef.lambda(ref, lambdaOrdinal++);
        source.readLambda(path, body, ref, owner);
        yield new Value.Lambda(body);
      }
      case MemberReferenceTree reference -> methodReference(path, reference);
      case SwitchExpressionTree switchExpression -> {
        switchCases(path, switchExpression.getExpression(), switchExpression.getCases());
        yield Value.UNKNOWN;
      }
      default -> Value.UNKNOWN;
    };
  }

  private static Object constantOf(Tree tree) {
    if (!(tree instanceof JCTree.JCExpression expression) || expression.type == null) {
      return null;
    }
    Object value = expression.type.constValue();
    if (value instanceof Integer i && expression.type.getTag() == TypeTag.BOOLEAN) {
      return i != 0; // javac keeps boolean constants as 0 and 1
    }
    return value;
  }

  /** A constant as the class file holds it: booleans and chars as ints; no floating point. */
  static Value constantValue(Object constant) {
    if (constant == null) {
      return Value.NULL;
    }
    return switch (constant) {
      case Boolean b -> new Value.Constant(b ? "1" : "0");
      case Character c -> new Value.Constant(Integer.toString(c));
      case Integer i -> new Value.Constant(i.toString());
      case Long l -> new Value.Constant(l.toString());
      case Short s -> new Value.Constant(s.toString());
      case Byte b -> new Value.Constant(b.toString());
      case String s -> new Value.Constant(s);
      default -> Value.UNKNOWN;
    };
  }

  private Value identifier(TreePath path, IdentifierTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    if (symbol == null) {
      return Value.UNKNOWN;
    }
    String name = tree.getName().toString();
    if (name.equals("this")) {
      return Value.THIS;
    }
    if (name.equals("super")) {
      return Value.THIS;
    }
    if (symbol instanceof VarSymbol variable) {
      if (variable.getKind() == ElementKind.FIELD
          || variable.getKind() == ElementKind.ENUM_CONSTANT) {
        if (variable.isStatic()) {
          Type site = memberSite(variable);
          FieldRef field = names.fieldRef(variable, site);
          emit(Op.Kind.GET_FIELD, null, field, null, List.of(), path);
          return new Value.FieldValue(field, null);
        }
        ClassSymbol holder = enclosingMemberHolder(variable);
        Value receiver = outerThis(holder);
        FieldRef field = names.fieldRef(variable, holder.type);
        emit(Op.Kind.GET_FIELD, null, field, receiver, List.of(), path);
        return new Value.FieldValue(field, receiver);
      }
      return env.getOrDefault(variable, Value.UNKNOWN);
    }
    return Value.UNKNOWN;
  }

  private Value memberSelect(TreePath path, MemberSelectTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    String name = tree.getIdentifier().toString();
    if (name.equals("class")) {
      Type type = ((JCTree) tree.getExpression()).type;
      return type == null ? Value.UNKNOWN : new Value.ClassLiteral(names.typeName(type));
    }
    if (name.equals("this") || name.equals("super")) {
      Symbol target = TreeInfo.symbol((JCTree) tree.getExpression());
      return target instanceof ClassSymbol outer ? outerThis(outer) : Value.THIS;
    }
    if (!(symbol instanceof VarSymbol variable)) {
      return Value.UNKNOWN; // a type or package name
    }
    if (name.equals("length")
        && variable.owner.type != null
        && variable.owner.type.getTag() == TypeTag.ARRAY) {
      eval(child(path, tree.getExpression()));
      return Value.UNKNOWN;
    }
    Type site = ((JCTree) tree.getExpression()).type;
    FieldRef field = names.fieldRef(variable, site);
    if (variable.isStatic()) {
      if (!isTypeName(tree.getExpression())) {
        eval(child(path, tree.getExpression()));
      }
      emit(Op.Kind.GET_FIELD, null, field, null, List.of(), path);
      return new Value.FieldValue(field, null);
    }
    Value receiver = eval(child(path, tree.getExpression()));
    emit(Op.Kind.GET_FIELD, null, field, receiver, List.of(), path);
    return new Value.FieldValue(field, receiver);
  }

  private static boolean isTypeName(ExpressionTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    return symbol instanceof Symbol.TypeSymbol || symbol instanceof Symbol.PackageSymbol;
  }

  /** The class, this one or an enclosing one, whose instance holds an inherited member. */
  private ClassSymbol enclosingMemberHolder(Symbol member) {
    for (Symbol c = owner; c != null; c = c.owner == null ? null : c.owner.enclClass()) {
      if (c instanceof ClassSymbol cs
          && (cs == member.owner || cs.isSubClass(member.owner, names.types()))) {
        return cs;
      }
      if (c.owner == null) {
        break;
      }
    }
    return owner;
  }

  private Type memberSite(Symbol member) {
    return enclosingMemberHolder(member).type;
  }

  /**
   * {@code this} of an enclosing class as inner classes reach it: through the {@code this$N} field
   * of each class in between, as javac compiles it.
   */
  private Value outerThis(ClassSymbol target) {
    Value value = Value.THIS;
    ClassSymbol current = owner;
    while (current != null && current != target && !current.isSubClass(target, names.types())) {
      ClassSymbol outer = current.owner == null ? null : current.owner.enclClass();
      if (outer == null || current.isStatic() || (current.flags() & Flags.INTERFACE) != 0) {
        return Value.UNKNOWN;
      }
      value =
          new Value.FieldValue(
              new FieldRef(
                  JavacNames.binaryName(current),
                  "this$" + (depth(outer)),
                  "L" + JavacNames.binaryName(outer).replace('.', '/') + ";"),
              value);
      current = outer;
    }
    return value;
  }

  private static int depth(ClassSymbol symbol) {
    int depth = 0;
    for (Symbol s = symbol.owner; s != null && s.kind != Kinds.Kind.PCK; s = s.owner) {
      if (s instanceof ClassSymbol) {
        depth++;
      }
    }
    return depth;
  }

  private Value invocation(TreePath path, MethodInvocationTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree.getMethodSelect());
    if (!(symbol instanceof MethodSymbol method)) {
      for (ExpressionTree arg : tree.getArguments()) {
        eval(child(path, arg));
      }
      return Value.UNKNOWN;
    }
    ExpressionTree select = tree.getMethodSelect();
    Value receiver = null;
    Type site = null;
    Op.Kind kind = method.isStatic() ? Op.Kind.INVOKE_STATIC : Op.Kind.INVOKE_VIRTUAL;
    boolean constructorCall = method.isConstructor();
    if (select instanceof MemberSelectTree member) {
      ExpressionTree qualifier = member.getExpression();
      String qualifierName =
          qualifier instanceof IdentifierTree id
              ? id.getName().toString()
              : qualifier instanceof MemberSelectTree ms ? ms.getIdentifier().toString() : "";
      if (qualifierName.equals("super")) {
        receiver = Value.THIS;
        kind = Op.Kind.INVOKE_SPECIAL;
        site = ((JCTree) qualifier).type;
      } else if (method.isStatic()) {
        if (!isTypeName(qualifier)) {
          eval(child(path, qualifier));
        }
        site = ((JCTree) qualifier).type;
      } else {
        receiver = eval(child(path, qualifier));
        site = ((JCTree) qualifier).type;
      }
    } else if (constructorCall) {
      receiver = Value.THIS;
      kind = Op.Kind.INVOKE_SPECIAL;
    } else if (method.isStatic()) {
      site = memberSite(method);
    } else {
      ClassSymbol holder = enclosingMemberHolder(method);
      receiver = outerThis(holder);
      site = holder.type;
    }
    if ((method.flags() & Flags.PRIVATE) != 0 && kind == Op.Kind.INVOKE_VIRTUAL) {
      kind = Op.Kind.INVOKE_SPECIAL;
    }
    List<Value> args =
        arguments(
            path, tree.getArguments(), ((JCMethodInvocation) tree).varargsElement != null, method);
    MethodRef target = constructorCall ? names.declared(method) : names.methodRef(method, site);
    if (isBoxing(target)) {
      return target.name().equals("valueOf") ? args.get(0) : receiver;
    }
    if (isStringBuilding(target.owner())) {
      return Value.UNKNOWN;
    }
    int index =
        emit(kind, target, null, kind == Op.Kind.INVOKE_STATIC ? null : receiver, args, path);
    return method.getReturnType().getTag() == TypeTag.VOID
        ? Value.UNKNOWN
        : new Value.Result(index);
  }

  private static boolean isBoxing(MethodRef target) {
    String owner = target.owner();
    if (!owner.startsWith("java.lang.")) {
      return false;
    }
    String simple = owner.substring("java.lang.".length());
    boolean box =
        switch (simple) {
          case "Integer", "Long", "Boolean", "Short", "Byte", "Character", "Double", "Float" ->
              true;
          default -> false;
        };
    if (!box) {
      return false;
    }
    if (target.name().equals("valueOf")) {
      String descriptor = target.descriptor();
      return descriptor.length() == 4 && descriptor.charAt(0) == '(' && descriptor.charAt(2) == ')';
    }
    String unbox =
        switch (simple) {
          case "Integer" -> "intValue";
          case "Character" -> "charValue";
          default -> simple.toLowerCase(Locale.ROOT) + "Value";
        };
    return target.name().equals(unbox);
  }

  private static boolean isStringBuilding(String owner) {
    return owner.equals("java.lang.StringBuilder")
        || owner.equals("java.lang.StringBuffer")
        || owner.equals("java.lang.AbstractStringBuilder");
  }

  private List<Value> arguments(
      TreePath path,
      List<? extends ExpressionTree> arguments,
      boolean varargs,
      MethodSymbol method) {
    List<Value> values = new ArrayList<>();
    int fixed = varargs ? method.getParameters().size() - 1 : arguments.size();
    for (int i = 0; i < arguments.size(); i++) {
      Value value = eval(child(path, arguments.get(i)));
      if (i < fixed) {
        values.add(value);
      }
    }
    if (varargs) {
      values.add(computed());
    }
    return values;
  }

  private Value creation(TreePath path, NewClassTree tree) {
    Value outer = null;
    if (tree.getEnclosingExpression() != null) {
      outer = eval(child(path, tree.getEnclosingExpression()));
    }
    Symbol constructor = TreeInfo.symbol((JCTree) tree.getIdentifier());
    JCNewClass jc = (JCNewClass) tree;
    if (jc.constructor != null) {
      constructor = jc.constructor;
    }
    Type type = jc.type;
    if (tree.getClassBody() != null) {
      source.readClass(child(path, tree.getClassBody()));
    }
    if (!(constructor instanceof MethodSymbol method) || type == null) {
      for (ExpressionTree arg : tree.getArguments()) {
        eval(child(path, arg));
      }
      return Value.UNKNOWN;
    }
    List<Value> args = arguments(path, tree.getArguments(), jc.varargsElement != null, method);
    ClassSymbol created = (ClassSymbol) type.tsym;
    if (isStringBuilding(JavacNames.binaryName(created))) {
      // as its calls: the bytecode front-end leaves string builders out, javac's concatenation too
      return Value.UNKNOWN;
    }
    String descriptor = names.descriptor(method.type);
    if (takesOuterInstance(created)) {
      ClassSymbol outerClass = outerClassOf(created);
      descriptor =
          "(L"
              + JavacNames.binaryName(outerClass).replace('.', '/')
              + ";"
              + descriptor.substring(1);
      List<Value> withOuter = new ArrayList<>();
      withOuter.add(outer != null ? outer : outerThis(outerClass));
      withOuter.addAll(args);
      args = withOuter;
    }
    int index =
        emit(
            Op.Kind.NEW,
            new MethodRef(JavacNames.binaryName(created), "<init>", descriptor),
            null,
            null,
            args,
            path);
    return new Value.Result(index);
  }

  /**
   * Whether a class's constructors take an enclosing instance first: a member class that is not
   * static, or a local or anonymous class declared in instance code.
   */
  static boolean takesOuterInstance(ClassSymbol created) {
    if ((created.flags() & (Flags.INTERFACE | Flags.ENUM)) != 0 || created.isRecord()) {
      return false;
    }
    Symbol owner = created.owner;
    if (owner instanceof ClassSymbol) {
      return !created.isStatic();
    }
    return owner != null && (owner.flags() & Flags.STATIC) == 0 && outerClassOf(created) != null;
  }

  /** The class whose instance encloses {@code created}. */
  static ClassSymbol outerClassOf(ClassSymbol created) {
    return created.owner == null ? null : created.owner.enclClass();
  }

  private Value assignment(TreePath path, AssignmentTree tree) {
    ExpressionTree target = TreeInfo.skipParens((JCTree.JCExpression) tree.getVariable());
    Symbol symbol = TreeInfo.symbol((JCTree) target);
    TreePath valuePath = child(path, tree.getExpression());
    if (symbol instanceof VarSymbol variable
        && variable.getKind() != ElementKind.FIELD
        && variable.getKind() != ElementKind.ENUM_CONSTANT) {
      Value value = eval(valuePath);
      env.put(variable, value);
      loopFacts.store(variable, value, guards);
      return value;
    }
    if (symbol instanceof VarSymbol field) {
      Value receiver = null;
      Type site;
      if (target instanceof MemberSelectTree select) {
        site = ((JCTree) select.getExpression()).type;
        if (!field.isStatic()) {
          receiver = eval(child(child(path, target), select.getExpression()));
        } else if (!isTypeName(select.getExpression())) {
          eval(child(child(path, target), select.getExpression()));
        }
      } else {
        ClassSymbol holder = enclosingMemberHolder(field);
        site = holder.type;
        receiver = field.isStatic() ? null : outerThis(holder);
      }
      Value value = eval(valuePath);
      emit(Op.Kind.PUT_FIELD, null, names.fieldRef(field, site), receiver, List.of(value), path);
      return value;
    }
    if (target instanceof ArrayAccessTree access) {
      TreePath targetPath = child(path, target);
      eval(child(targetPath, access.getExpression()));
      eval(child(targetPath, access.getIndex()));
    }
    return eval(valuePath);
  }

  /** {@code x += e}, {@code x++}: read, compute, write back an unknown value. */
  private void update(TreePath path, ExpressionTree variable, TreePath operand) {
    ExpressionTree target = TreeInfo.skipParens((JCTree.JCExpression) variable);
    Symbol symbol = TreeInfo.symbol((JCTree) target);
    if (symbol instanceof VarSymbol field && (field.getKind() == ElementKind.FIELD)) {
      Value receiver = null;
      Type site;
      TreePath targetPath = child(path, target);
      if (target instanceof MemberSelectTree select) {
        site = ((JCTree) select.getExpression()).type;
        if (!field.isStatic()) {
          receiver = eval(child(targetPath, select.getExpression()));
        }
      } else {
        ClassSymbol holder = enclosingMemberHolder(field);
        site = holder.type;
        receiver = field.isStatic() ? null : outerThis(holder);
      }
      FieldRef ref = names.fieldRef(field, site);
      emit(Op.Kind.GET_FIELD, null, ref, receiver, List.of(), targetPath);
      if (operand != null) {
        eval(operand);
      }
      emit(Op.Kind.PUT_FIELD, null, ref, receiver, List.of(computed()), path);
      return;
    }
    if (symbol instanceof VarSymbol local) {
      if (operand != null) {
        eval(operand);
      }
      Value updated = computed();
      env.put(local, updated);
      loopFacts.store(local, updated, guards);
      return;
    }
    TreePath targetPath = child(path, target);
    if (target instanceof ArrayAccessTree access) {
      eval(child(targetPath, access.getExpression()));
      eval(child(targetPath, access.getIndex()));
    }
    if (operand != null) {
      eval(operand);
    }
  }

  private Value unary(TreePath path, UnaryTree tree) {
    switch (tree.getKind()) {
      case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT -> {
        update(path, tree.getExpression(), null);
        return computed();
      }
      default -> {
        eval(child(path, tree.getExpression()));
        return computed();
      }
    }
  }

  private Value binary(TreePath path, BinaryTree tree) {
    if (tree.getKind() == Tree.Kind.CONDITIONAL_AND || tree.getKind() == Tree.Kind.CONDITIONAL_OR) {
      condition(path);
      return Value.UNKNOWN;
    }
    eval(child(path, tree.getLeftOperand()));
    eval(child(path, tree.getRightOperand()));
    return computed();
  }

  private Value conditional(TreePath path, ConditionalExpressionTree tree) {
    Object constant = constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree.getCondition()));
    if (constant instanceof Boolean value) {
      return eval(child(path, value ? tree.getTrueExpression() : tree.getFalseExpression()));
    }
    Cond cond = condition(child(path, tree.getCondition()));
    int mark = guards.size();
    guards.addAll(cond.whenTrue());
    Map<Symbol, Value> before = new HashMap<>(env);
    Value whenTrue = eval(child(path, tree.getTrueExpression()));
    truncate(guards, mark);
    Map<Symbol, Value> afterTrue = env;
    env = before;
    guards.addAll(cond.whenFalse());
    Value whenFalse = eval(child(path, tree.getFalseExpression()));
    truncate(guards, mark);
    for (Map.Entry<Symbol, Value> entry : afterTrue.entrySet()) {
      if (!entry.getValue().equals(env.get(entry.getKey()))) {
        env.put(entry.getKey(), Value.UNKNOWN);
      }
    }
    return whenTrue.equals(whenFalse) ? whenTrue : Value.UNKNOWN;
  }

  private Value methodReference(TreePath path, MemberReferenceTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    ExpressionTree qualifier = tree.getQualifierExpression();
    boolean viaSuper =
        qualifier instanceof IdentifierTree id && id.getName().contentEquals("super");
    if (!isTypeName(qualifier) && !viaSuper) {
      eval(child(path, qualifier));
    }
    Type qualifierType = ((JCTree) qualifier).type;
    boolean arrayConstructor =
        qualifierType != null
            && qualifierType.getTag() == TypeTag.ARRAY
            && tree.getName().contentEquals("<init>");
    if (viaSuper || arrayConstructor || ((JCTree.JCMemberReference) tree).varargsElement != null) {
      // javac writes a lambda body for these: it counts among the lambdas
      MethodRef body = MethodRef.lambda(ref, lambdaOrdinal++);
      return new Value.Lambda(body);
    }
    if (!(symbol instanceof MethodSymbol method)) {
      return Value.UNKNOWN;
    }
    return new Value.Lambda(names.declared(method));
  }

  // ---------------------------------------------------------------- operations

  int emit(
      Op.Kind kind,
      MethodRef method,
      FieldRef field,
      Value receiver,
      List<Value> args,
      TreePath path) {
    int index = ops.size();
    ops.add(
        new Op(
            index,
            kind,
            method,
            field,
            receiver,
            args,
            new Context(heldRegions, openLoops, guards, inHandler),
            line(path.getLeaf())));
    opPaths.add(path);
    if (method != null) {
      loopFacts.call(index, path.getLeaf(), iteratorStep);
    }
    return index;
  }

  private int line(Tree tree) {
    JCTree jc = (JCTree) tree;
    int position = jc instanceof JCMethodInvocation ? jc.pos : jc.getStartPosition();
    if (position < 0) {
      position = jc.getStartPosition();
    }
    CompilationUnitTree compilationUnit = (CompilationUnitTree) unit.getLeaf();
    return position < 0 ? 0 : (int) compilationUnit.getLineMap().getLineNumber(position);
  }

  static TreePath child(TreePath parent, Tree tree) {
    return new TreePath(parent, tree);
  }

  private static <T> void truncate(List<T> list, int size) {
    while (list.size() > size) {
      list.remove(list.size() - 1);
    }
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    if (b.isEmpty()) {
      return a;
    }
    List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
