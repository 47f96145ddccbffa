package io.github.lockjaw.model.source;

import com.sun.source.tree.AssertTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one method body (or initialiser, or lambda body) from javac trees into operations, in the
 * order javac's code runs them, with the same values, regions, loops and guards the bytecode
 * front-end derives from the class file (see {@code MethodReader}). This class reads statements:
 * control flow, monitors, loops, {@code try}/{@code finally} and returns; expressions are read by
 * {@link ExpressionReader}, conditions by {@link ConditionReader}. Locals are followed through
 * their assignments; where paths join with different values they become unknown.
 */
final class BodyReader extends ExpressionReader {
  /** Whether a statement can complete normally, and what holds for the statements after it. */
  private record Flow(boolean completes, List<Guard> after) {
    static final Flow NORMAL = new Flow(true, List.of());
    static final Flow ABRUPT = new Flow(false, List.of());
  }

  final List<Region> regions = new ArrayList<>();
  final List<TreePath> regionPaths = new ArrayList<>();
  final List<Loop> loops = new ArrayList<>();

  /** A {@code break} or {@code continue} that is an {@code if}'s only statement, and its path. */
  private Tree jumpTest;

  private LoopRecorder.Edge jumpEdge;

  /**
   * The {@code finally} blocks of the try statements being read, innermost last, with how many
   * monitors were held when each try began: javac copies a finally block onto every exit of its
   * try, a {@code return} included, with that exit's values, and so does this reader.
   */
  private record PendingFinally(TreePath block, int heldDepth) {}

  private final List<PendingFinally> pendingFinally = new ArrayList<>();

  BodyReader(SourceFacts source, MethodRef ref, ClassSymbol owner, TreePath unit) {
    super(source, ref, owner, unit);
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
    ConditionReader.Cond cond = conditions.condition(child(path, tree.getCondition()));
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
  private void conditionExits(ConditionReader.Cond cond) {
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
    ConditionReader.Cond cond =
        Boolean.TRUE.equals(constant)
            ? new ConditionReader.Cond(List.of(), List.of())
            : conditions.condition(child(path, tree.getCondition()));
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
    ConditionReader.Cond cond =
        Boolean.TRUE.equals(constant)
            ? new ConditionReader.Cond(List.of(), List.of())
            : conditions.condition(child(path, tree.getCondition()));
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
    ConditionReader.Cond cond =
        Boolean.TRUE.equals(constant)
            ? new ConditionReader.Cond(List.of(), List.of())
            : conditions.condition(child(path, condition));
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
          List.of(new LoopRecorder.Edge(List.of(), ConditionReader.UNKNOWN_GUARD, null)),
          guards,
          inHandler);
      int mark = guards.size();
      guards.add(ConditionReader.UNKNOWN_GUARD);
      Value element = computed();
      env.put(variable, element);
      loopFacts.store(variable, element, guards);
      statement(child(path, tree.getStatement()));
      truncate(guards, mark);
      closeLoop();
      return new Flow(true, breaks ? List.of() : List.of(ConditionReader.UNKNOWN_GUARD));
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

  @Override
  void switchCases(TreePath path, ExpressionTree selector, List<? extends CaseTree> cases) {
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
        guards.add(ConditionReader.guard(resources.get(r), Guard.Test.NULL, false));
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
    List<Map<Symbol, Value>> afterCompletingCatches = new ArrayList<>();
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
      if (flow.completes()) {
        afterCompletingCatches.add(env);
      }
    }
    env = afterTry;
    if (!tree.getCatches().isEmpty()) {
      // after the statement a local holds what every path that gets there agrees on: the try
      // block's normal end and each catch that completes; a catch that throws or returns adds
      // nothing (javac's frames merge the same way)
      List<Map<Symbol, Value>> paths = new ArrayList<>(afterCompletingCatches);
      if (body.completes()) {
        paths.add(afterTry);
      }
      for (Symbol symbol : LocalScans.assignedLocals(tree)) {
        env.put(symbol, agreed(symbol, paths));
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

  /** The value every one of {@code paths} gives {@code local}, or unknown when they differ. */
  private static Value agreed(Symbol local, List<Map<Symbol, Value>> paths) {
    Value agreed = null;
    for (Map<Symbol, Value> path : paths) {
      Value value = path.getOrDefault(local, Value.UNKNOWN);
      if (agreed != null && !agreed.equals(value)) {
        return Value.UNKNOWN;
      }
      agreed = value;
    }
    return agreed == null ? Value.UNKNOWN : agreed;
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
    guards.add(ConditionReader.UNKNOWN_GUARD);
    ConditionReader.Cond cond = conditions.condition(child(path, tree.getCondition()));
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
}
