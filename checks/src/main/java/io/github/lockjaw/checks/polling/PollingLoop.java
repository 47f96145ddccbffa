package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EmptyStatementTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.UnionTypeTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.api.JavacTrees;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.lang.model.element.ElementKind;

/**
 * A loop whose exit waits on a polled state ({@code Thread.isAlive()} and kin), taken apart: what
 * it polls, on which receiver, how it leaves, and what else it does on each pass.
 */
public final class PollingLoop {

  /** What the loop does between two polls, from the least to the most reason to stay silent. */
  public enum Work {
    /** Nothing, or only yield / onSpinWait / a short sleep. */
    SPIN,
    /** Non-blocking work as well: progress output, clocks, counters, timeouts. */
    OTHER,
    /** Sleeps a watchdog interval or longer (or for a length lockjaw cannot tell). */
    SLOW,
    /** Calls something lockjaw cannot see into: it may block, or be the loop's real job. */
    UNKNOWN,
    /** Blocks: on the same thread (join), on a lock or condition, or on I/O. */
    BLOCKS;

    Work max(Work other) {
      return other.ordinal() > ordinal() ? other : this;
    }
  }

  /** How the waiting ends. */
  public enum Shape {
    /** One thread, future, process, executor or latch, polled through one receiver. */
    SINGLE,
    /** Every element of a collection, polled in a nested loop or a stream, until all are done. */
    EACH
  }

  /** One condition the loop needs to keep going; {@code negated} when it reads {@code !expr}. */
  private record Atom(ExpressionTree expr, boolean negated) {}

  private final StatementTree loop;
  private final VisitorState state;
  private final List<StatementTree> body = new ArrayList<>();
  private final List<Atom> atoms = new ArrayList<>();
  private final List<ExpressionTree> extraExpressions = new ArrayList<>();
  private int exitIfs;
  private ReturnTree exitReturn;
  private boolean extraExits;
  private boolean forClauses;

  private Shape shape;
  private MethodInvocationTree poll;
  private BlockingKnowledge.PolledState polled;
  private Atom pollAtom;
  private String collection;
  private Work work = Work.SPIN;
  private TryTree interruptTry;
  private boolean spinShape;

  private PollingLoop(StatementTree loop, VisitorState state) {
    this.loop = loop;
    this.state = state;
  }

  /** The polling loop {@code loop} is, if its exit waits on a polled state. */
  public static Optional<PollingLoop> of(StatementTree loop, VisitorState state) {
    PollingLoop analysis = new PollingLoop(loop, state);
    return analysis.analyse() ? Optional.of(analysis) : Optional.empty();
  }

  public StatementTree loop() {
    return loop;
  }

  public Shape shape() {
    return shape;
  }

  /** The poll call, e.g. {@code worker.isAlive()} (for EACH, one of the calls). */
  public MethodInvocationTree poll() {
    return poll;
  }

  public BlockingKnowledge.PolledState polled() {
    return polled;
  }

  /** The receiver of the poll, or null when it is implicit ({@code isAlive()} in a Thread). */
  public ExpressionTree receiver() {
    return poll == null ? null : ASTHelpers.getReceiver(poll); // a method reference has no call
  }

  /** For EACH, the collection (or stream source) as written, if known. */
  public Optional<String> collection() {
    return Optional.ofNullable(collection);
  }

  public Work work() {
    return work;
  }

  /**
   * Whether the loop does nothing but wait: its only exit is the poll, and its body is empty or
   * only spins (yield, onSpinWait, short sleep, possibly in one try/catch for the interrupt).
   */
  public boolean onlyWaits() {
    return shape == Shape.SINGLE
        && atoms.size() == 1
        && extraExpressions.isEmpty()
        && !extraExits
        && !forClauses
        && spinShape
        && work == Work.SPIN;
  }

  /** The try/catch around the pause that handles the interrupt, if the body has one. */
  public Optional<TryTree> interruptTry() {
    return Optional.ofNullable(interruptTry);
  }

  /** The {@code return} the loop leaves through, when the exit test returns instead of breaking. */
  public Optional<ReturnTree> exitReturn() {
    return Optional.ofNullable(exitReturn);
  }

  /**
   * Why the polled object might be swapped for another one by another thread while the loop
   * waits (a volatile field, an array slot, a collection element), or empty when the receiver is
   * a local, a parameter, {@code this} or a final or plain field. A fix waits on the object the
   * receiver names once; the loop re-read it on every pass.
   */
  public Optional<String> sharedReceiverReason() {
    ExpressionTree receiver = receiver();
    if (receiver == null) {
      return Optional.empty();
    }
    ExpressionTree e = ASTHelpers.stripParentheses(receiver);
    if (e instanceof com.sun.source.tree.ArrayAccessTree) {
      return Optional.of("another thread may store a different object in that array slot while"
          + " the loop waits");
    }
    if (e instanceof MethodInvocationTree call) {
      if (isRecordAccessor(ASTHelpers.getSymbol(call))) {
        ExpressionTree record = ASTHelpers.getReceiver(call);
        return record == null || !sharedContainer(record)
            ? Optional.empty()
            : Optional.of("another thread may swap the object while the loop waits");
      }
      return Optional.of("another thread may replace that collection element while the loop"
          + " waits");
    }
    Symbol symbol = ASTHelpers.getSymbol(e);
    if (symbol == null) {
      return Optional.of("lockjaw cannot tell what the receiver names");
    }
    if (symbol.getKind() == ElementKind.FIELD
        && symbol.getModifiers().contains(javax.lang.model.element.Modifier.VOLATILE)) {
      return Optional.of("the field is volatile, so another thread may swap it while the loop"
          + " waits");
    }
    if (e instanceof MemberSelectTree select && !(select.getExpression() instanceof IdentifierTree)
        && sharedContainer(select.getExpression())) {
      return Optional.of("another thread may swap the object while the loop waits");
    }
    return Optional.empty();
  }

  private static boolean sharedContainer(ExpressionTree tree) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof IdentifierTree) {
      return false;
    }
    if (e instanceof MemberSelectTree select) {
      Symbol symbol = ASTHelpers.getSymbol(select);
      if (symbol != null && symbol.getModifiers().contains(javax.lang.model.element.Modifier.VOLATILE)) {
        return true;
      }
      return sharedContainer(select.getExpression());
    }
    return true;
  }

  /** The expression that is true while the wait is still on, as source text. */
  public String busyExpression() {
    String text = state.getSourceForNode(pollAtom.expr());
    if (text == null) {
      return null;
    }
    if (!pollAtom.negated()) {
      return text;
    }
    return pollAtom.expr() instanceof MethodInvocationTree ? "!" + text : "!(" + text + ")";
  }

  // ---------------------------------------------------------------------------------------------

  private boolean analyse() {
    ExpressionTree condition;
    StatementTree statement;
    if (loop instanceof WhileLoopTree w) {
      condition = w.getCondition();
      statement = w.getStatement();
    } else if (loop instanceof DoWhileLoopTree d) {
      condition = d.getCondition();
      statement = d.getStatement();
    } else if (loop instanceof ForLoopTree f) {
      condition = f.getCondition();
      statement = f.getStatement();
      forClauses = !f.getInitializer().isEmpty() || !f.getUpdate().isEmpty();
      for (ExpressionStatementTree update : f.getUpdate()) {
        extraExpressions.add(update.getExpression());
      }
    } else {
      return false;
    }
    if (statement == null) {
      return false;
    }
    boolean infinite = condition == null || Boolean.TRUE.equals(ASTHelpers.constValue(condition));
    if (!infinite) {
      conjuncts(condition, false, atoms);
    }
    for (StatementTree s : statements(statement)) {
      if (!collectExitIf(s)) {
        body.add(s);
      }
    }
    if (infinite && exitIfs == 0) {
      return false;
    }
    if (!findPoll()) {
      return false;
    }
    if (exitIfs > 1) {
      extraExits = true;
    }
    spinShape = isSpinShape();
    extraExits |= hasOtherExits();
    work = classify();
    if (work.ordinal() >= Work.SLOW.ordinal()) {
      return false;
    }
    if (shape == Shape.SINGLE && receiverChangesInLoop()) {
      return false;
    }
    return true;
  }

  private static List<StatementTree> statements(StatementTree statement) {
    if (statement instanceof BlockTree block) {
      return new ArrayList<>(block.getStatements());
    }
    List<StatementTree> single = new ArrayList<>();
    single.add(statement);
    return single;
  }

  /** Splits {@code expr} (or its negation) into conditions that must all hold. */
  private static void conjuncts(ExpressionTree expr, boolean negated, List<Atom> out) {
    ExpressionTree e = ASTHelpers.stripParentheses(expr);
    if (e instanceof UnaryTree u && e.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      conjuncts(u.getExpression(), !negated, out);
      return;
    }
    if (e instanceof BinaryTree b) {
      if ((!negated && e.getKind() == Tree.Kind.CONDITIONAL_AND)
          || (negated && e.getKind() == Tree.Kind.CONDITIONAL_OR)) {
        conjuncts(b.getLeftOperand(), negated, out);
        conjuncts(b.getRightOperand(), negated, out);
        return;
      }
    }
    out.add(new Atom(e, negated));
  }

  /** Recognises {@code if (done) break;}, {@code if (busy) {...} else break;} and return forms. */
  private boolean collectExitIf(StatementTree s) {
    if (!(s instanceof IfTree ifTree)) {
      return false;
    }
    StatementTree thenPart = unwrap(ifTree.getThenStatement());
    StatementTree elsePart = ifTree.getElseStatement() == null ? null : unwrap(ifTree.getElseStatement());
    boolean exitOnTrue;
    StatementTree exit;
    StatementTree rest;
    if (isExit(thenPart)) {
      exitOnTrue = true;
      exit = thenPart;
      rest = ifTree.getElseStatement();
    } else if (elsePart != null && isExit(elsePart)) {
      exitOnTrue = false;
      exit = elsePart;
      rest = ifTree.getThenStatement();
    } else {
      return false;
    }
    exitIfs++;
    conjuncts(ifTree.getCondition(), exitOnTrue, atoms);
    if (exit instanceof ReturnTree r) {
      exitReturn = r;
    }
    if (rest != null) {
      body.addAll(statements(rest));
    }
    return true;
  }

  private static StatementTree unwrap(StatementTree s) {
    if (s instanceof BlockTree block && block.getStatements().size() == 1) {
      return block.getStatements().get(0);
    }
    return s;
  }

  private static boolean isExit(StatementTree s) {
    return (s instanceof BreakTree b && b.getLabel() == null) || s instanceof ReturnTree;
  }

  // --- what is polled -------------------------------------------------------------------------

  private boolean findPoll() {
    List<Atom> others = new ArrayList<>();
    for (Atom atom : atoms) {
      if (shape == null && singlePoll(atom)) {
        shape = Shape.SINGLE;
        pollAtom = atom;
      } else if (shape == null && eachPoll(atom)) {
        shape = Shape.EACH;
        pollAtom = atom;
      } else {
        others.add(atom);
      }
    }
    for (Atom other : others) {
      extraExpressions.add(other.expr());
    }
    return shape != null;
  }

  /** {@code t.isAlive()}, {@code !f.isDone()}, {@code latch.getCount() > 0}, read while busy. */
  private boolean singlePoll(Atom atom) {
    ExpressionTree e = atom.expr();
    if (e instanceof MethodInvocationTree call) {
      Optional<BlockingKnowledge.PolledState> ps =
          BlockingKnowledge.polledState(ASTHelpers.getSymbol(call), state);
      if (ps.isEmpty()) {
        return false;
      }
      String busy = ps.get().busy();
      boolean busyWhenTrue = busy.equals("true");
      if (!busy.equals("true") && !busy.equals("false")) {
        return false;
      }
      if (busyWhenTrue == atom.negated() || !stableReceiver(call)) {
        return false;
      }
      poll = call;
      polled = ps.get();
      return true;
    }
    if (e instanceof BinaryTree b) {
      Boolean nonzero = comparesWithZero(b);
      if (nonzero == null) {
        return false;
      }
      ExpressionTree side =
          isZeroOrOne(b.getRightOperand()) ? b.getLeftOperand() : b.getRightOperand();
      if (!(ASTHelpers.stripParentheses(side) instanceof MethodInvocationTree call)) {
        return false;
      }
      Optional<BlockingKnowledge.PolledState> ps =
          BlockingKnowledge.polledState(ASTHelpers.getSymbol(call), state);
      if (ps.isEmpty() || !ps.get().busy().equals("nonzero")) {
        return false;
      }
      // busy while the count is non-zero
      if (nonzero == atom.negated() || !stableReceiver(call)) {
        return false;
      }
      poll = call;
      polled = ps.get();
      return true;
    }
    return false;
  }

  /** For {@code x > 0}, {@code x != 0}, {@code x >= 1}: TRUE; {@code x == 0}, {@code x <= 0}: FALSE. */
  private static Boolean comparesWithZero(BinaryTree b) {
    ExpressionTree left = ASTHelpers.stripParentheses(b.getLeftOperand());
    ExpressionTree right = ASTHelpers.stripParentheses(b.getRightOperand());
    boolean constantRight = isZeroOrOne(right);
    boolean constantLeft = isZeroOrOne(left);
    if (constantRight == constantLeft) {
      return null;
    }
    long c = ((Number) ((LiteralTree) (constantRight ? right : left)).getValue()).longValue();
    Tree.Kind kind = b.getKind();
    if (constantLeft) {
      kind =
          switch (kind) {
            case LESS_THAN -> Tree.Kind.GREATER_THAN;
            case GREATER_THAN -> Tree.Kind.LESS_THAN;
            case LESS_THAN_EQUAL -> Tree.Kind.GREATER_THAN_EQUAL;
            case GREATER_THAN_EQUAL -> Tree.Kind.LESS_THAN_EQUAL;
            default -> kind;
          };
    }
    if (c == 0) {
      return switch (kind) {
        case GREATER_THAN, NOT_EQUAL_TO -> Boolean.TRUE;
        case EQUAL_TO, LESS_THAN_EQUAL -> Boolean.FALSE;
        default -> null;
      };
    }
    return switch (kind) {
      case GREATER_THAN_EQUAL -> Boolean.TRUE;
      case LESS_THAN -> Boolean.FALSE;
      default -> null;
    };
  }

  private static boolean isZeroOrOne(ExpressionTree tree) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof LiteralTree literal && literal.getValue() instanceof Number n) {
      return (e.getKind() == Tree.Kind.INT_LITERAL || e.getKind() == Tree.Kind.LONG_LITERAL)
          && (n.longValue() == 0 || n.longValue() == 1);
    }
    return false;
  }

  /**
   * A receiver that names the same object on every pass: a local, field, array element or
   * collection element reached without side effects (and not {@code Thread.currentThread()}).
   */
  private boolean stableReceiver(MethodInvocationTree call) {
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    if (receiver == null) {
      // implicit this: only in a Thread (or Process...) subclass, polling itself from outside.
      return call.getMethodSelect() instanceof IdentifierTree;
    }
    return pure(receiver);
  }

  private boolean pure(ExpressionTree tree) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof IdentifierTree || e instanceof LiteralTree) {
      return true;
    }
    if (e instanceof MemberSelectTree select) {
      Symbol symbol = ASTHelpers.getSymbol(select);
      return symbol != null
          && (symbol.getKind() == ElementKind.FIELD || symbol.getKind() == ElementKind.ENUM_CONSTANT
              || symbol instanceof Symbol.ClassSymbol)
          && pure(select.getExpression());
    }
    if (e instanceof com.sun.source.tree.ArrayAccessTree access) {
      return pure(access.getExpression()) && pure(access.getIndex());
    }
    if (e instanceof MethodInvocationTree call) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (isRecordAccessor(method) && ASTHelpers.getReceiver(call) != null) {
        return pure(ASTHelpers.getReceiver(call));
      }
      if (method == null || !method.getSimpleName().contentEquals("get")) {
        return false;
      }
      if (!BlockingKnowledge.isNonBlocking(method, state)
          || BlockingKnowledge.isBlockingCall(method, call.getArguments().size(), state)) {
        return false; // Future#get is not a collection element
      }
      ExpressionTree receiver = ASTHelpers.getReceiver(call);
      if (receiver == null || !pure(receiver)) {
        return false;
      }
      for (ExpressionTree argument : call.getArguments()) {
        if (!pure(argument)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** A record's component accessor: reads a final field. */
  static boolean isRecordAccessor(MethodSymbol method) {
    if (method == null
        || !method.getParameters().isEmpty()
        || !(method.owner instanceof Symbol.ClassSymbol owner)
        || !owner.isRecord()) {
      return false;
    }
    return owner.getRecordComponents().stream()
        .anyMatch(c -> c.getSimpleName().contentEquals(method.getSimpleName())
            && c.getAccessor() != null && c.getAccessor().equals(method));
  }

  private boolean receiverChangesInLoop() {
    Set<Symbol> used = new HashSet<>();
    ExpressionTree receiver = receiver();
    if (receiver == null) {
      return false;
    }
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null) {
          used.add(symbol);
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null) {
          used.add(symbol);
        }
        return super.visitMemberSelect(node, unused);
      }
    }.scan(receiver, null);
    boolean[] changed = {false};
    new TreeScanner<Void, Void>() {
      private void target(ExpressionTree variable) {
        Symbol symbol = ASTHelpers.getSymbol(variable);
        if (symbol != null && used.contains(symbol)) {
          changed[0] = true;
        }
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        target(node.getVariable());
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        target(node.getVariable());
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              target(node.getExpression());
          default -> {}
        }
        return super.visitUnary(node, unused);
      }
    }.scan(loop, null);
    return changed[0];
  }

  /**
   * Waiting until every element is done: {@code while (anyAlive)} where {@code anyAlive} is
   * recomputed each pass from polls in a nested loop, or {@code ts.stream().anyMatch(Thread::isAlive)}.
   */
  private boolean eachPoll(Atom atom) {
    ExpressionTree e = atom.expr();
    if (e instanceof BinaryTree b && comparesWithZero(b) != null) {
      e = isZeroOrOne(b.getRightOperand()) ? b.getLeftOperand() : b.getRightOperand();
      e = ASTHelpers.stripParentheses(e);
    }
    if (e instanceof IdentifierTree id) {
      Symbol symbol = ASTHelpers.getSymbol(id);
      if (symbol == null || symbol.getKind() != ElementKind.LOCAL_VARIABLE) {
        return false;
      }
      return computedFromPollsInNestedLoop(symbol);
    }
    if (e instanceof MethodInvocationTree call) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (method == null || call.getArguments().size() != 1) {
        return false;
      }
      Optional<String> holds = BlockingKnowledge.streamMatchHolds(method, state);
      if (holds.isEmpty()) {
        return false;
      }
      ExpressionTree predicate = ASTHelpers.stripParentheses(call.getArguments().get(0));
      MethodInvocationTree found = null;
      Optional<BlockingKnowledge.PolledState> ps = Optional.empty();
      if (predicate instanceof MemberReferenceTree ref) {
        Symbol symbol = ASTHelpers.getSymbol(ref);
        if (symbol instanceof MethodSymbol m) {
          ps = BlockingKnowledge.polledState(m, state);
        }
      } else if (predicate instanceof LambdaExpressionTree lambda) {
        found = findPollCall(lambda.getBody());
        if (found != null) {
          ps = BlockingKnowledge.polledState(ASTHelpers.getSymbol(found), state);
        }
      }
      if (ps.isEmpty() || ps.get().busy().equals("nonzero")) {
        return false;
      }
      // The loop must run while some element is still busy, i.e. wait until each is done:
      // anyMatch(busy), !allMatch(done), !noneMatch(busy). Waiting for threads to *start*
      // (noneMatch(Thread::isAlive)) or for one of them to finish is another loop.
      boolean predicateIsBusy = ps.get().busy().equals("true");
      boolean negated = atom.negated();
      boolean whileSomeBusy =
          switch (holds.get()) {
            case "any" -> predicateIsBusy && !negated;
            case "all" -> !predicateIsBusy && negated;
            case "none" -> predicateIsBusy && negated;
            default -> false;
          };
      if (!whileSomeBusy) {
        return false;
      }
      polled = ps.get();
      poll = found;
      ExpressionTree source = ASTHelpers.getReceiver(call);
      if (source instanceof MethodInvocationTree streamCall
          && ASTHelpers.getSymbol(streamCall) != null
          && ASTHelpers.getSymbol(streamCall).getSimpleName().contentEquals("stream")
          && ASTHelpers.getReceiver(streamCall) != null) {
        collection = state.getSourceForNode(ASTHelpers.getReceiver(streamCall));
      }
      return true;
    }
    return false;
  }

  private MethodInvocationTree findPollCall(Tree tree) {
    MethodInvocationTree[] found = {null};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        if (found[0] == null
            && BlockingKnowledge.polledState(ASTHelpers.getSymbol(node), state).isPresent()) {
          found[0] = node;
        }
        return super.visitMethodInvocation(node, unused);
      }
    }.scan(tree, null);
    return found[0];
  }

  /** Whether the body updates {@code variable} from a poll made inside a nested loop. */
  private boolean computedFromPollsInNestedLoop(Symbol variable) {
    boolean[] found = {false};
    TreeScanner<Void, Integer> scanner =
        new TreeScanner<>() {
          @Override
          public Void visitEnhancedForLoop(EnhancedForLoopTree node, Integer depth) {
            if (collection == null && depth == 0) {
              collection = state.getSourceForNode(node.getExpression());
            }
            return super.visitEnhancedForLoop(node, depth + 1);
          }

          @Override
          public Void visitForLoop(ForLoopTree node, Integer depth) {
            return super.visitForLoop(node, depth + 1);
          }

          @Override
          public Void visitIf(IfTree node, Integer depth) {
            MethodInvocationTree call = findPollCall(node.getCondition());
            if (depth > 0 && call != null && assigns(node, variable)) {
              record(call);
            }
            return super.visitIf(node, depth);
          }

          @Override
          public Void visitAssignment(AssignmentTree node, Integer depth) {
            check(node.getVariable(), node.getExpression(), depth);
            return super.visitAssignment(node, depth);
          }

          @Override
          public Void visitCompoundAssignment(CompoundAssignmentTree node, Integer depth) {
            check(node.getVariable(), node.getExpression(), depth);
            return super.visitCompoundAssignment(node, depth);
          }

          private void check(ExpressionTree target, ExpressionTree value, int depth) {
            if (depth > 0 && variable.equals(ASTHelpers.getSymbol(target))) {
              MethodInvocationTree call = findPollCall(value);
              if (call != null) {
                record(call);
              }
            }
          }

          private void record(MethodInvocationTree call) {
            if (!found[0]) {
              found[0] = true;
              poll = call;
              polled = BlockingKnowledge.polledState(ASTHelpers.getSymbol(call), state).orElse(null);
            }
          }
        };
    for (StatementTree s : body) {
      scanner.scan(s, 0);
    }
    return found[0] && polled != null;
  }

  private static boolean assigns(Tree tree, Symbol variable) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        found[0] |= variable.equals(ASTHelpers.getSymbol(node.getVariable()));
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        found[0] |= variable.equals(ASTHelpers.getSymbol(node.getVariable()));
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        found[0] |= variable.equals(ASTHelpers.getSymbol(node.getExpression()));
        return super.visitUnary(node, unused);
      }
    }.scan(tree, null);
    return found[0];
  }

  // --- the body -------------------------------------------------------------------------------

  /** Whether every body statement only pauses, with at most one try/catch for the interrupt. */
  private boolean isSpinShape() {
    for (StatementTree s : body) {
      if (isSpinStatement(s)) {
        continue;
      }
      if (interruptTry == null && s instanceof TryTree t && isInterruptTry(t)) {
        interruptTry = t;
        continue;
      }
      return false;
    }
    return true;
  }

  private boolean isSpinStatement(StatementTree s) {
    if (s instanceof EmptyStatementTree) {
      return true;
    }
    if (s instanceof ContinueTree c) {
      return c.getLabel() == null;
    }
    if (s instanceof BlockTree block) {
      return block.getStatements().stream().allMatch(this::isSpinStatement);
    }
    if (s instanceof ExpressionStatementTree es
        && es.getExpression() instanceof MethodInvocationTree call) {
      return BlockingKnowledge.spinCall(ASTHelpers.getSymbol(call), state).isPresent();
    }
    return false;
  }

  private boolean isInterruptTry(TryTree t) {
    if (!t.getResources().isEmpty() || t.getFinallyBlock() != null || t.getCatches().size() != 1) {
      return false;
    }
    if (t.getBlock().getStatements().isEmpty()
        || !t.getBlock().getStatements().stream().allMatch(this::isSpinStatement)) {
      return false;
    }
    return catchesInterrupt(t.getCatches().get(0), state);
  }

  /** Whether a catch clause catches InterruptedException (or a supertype of it). */
  public static boolean catchesInterrupt(CatchTree c, VisitorState state) {
    Type interrupted = state.getTypeFromString("java.lang.InterruptedException");
    if (interrupted == null) {
      return false;
    }
    Tree typeTree = c.getParameter().getType();
    List<Tree> alternatives = new ArrayList<>();
    if (typeTree instanceof UnionTypeTree union) {
      alternatives.addAll(union.getTypeAlternatives());
    } else {
      alternatives.add(typeTree);
    }
    for (Tree alternative : alternatives) {
      Type type = ASTHelpers.getType(alternative);
      if (type != null && ASTHelpers.isSubtype(interrupted, type, state)) {
        return true;
      }
    }
    return false;
  }

  /** break, return or throw in the body other than the recognised exit test. */
  private boolean hasOtherExits() {
    boolean[] found = {false};
    TreeScanner<Void, Integer> scanner =
        new TreeScanner<>() {
          @Override
          public Void visitBreak(BreakTree node, Integer nested) {
            if (node.getLabel() != null || nested == 0) {
              found[0] = true;
            }
            return null;
          }

          @Override
          public Void visitContinue(ContinueTree node, Integer nested) {
            if (node.getLabel() != null) {
              found[0] = true;
            }
            return null;
          }

          @Override
          public Void visitReturn(ReturnTree node, Integer nested) {
            found[0] = true;
            return null;
          }

          @Override
          public Void visitThrow(ThrowTree node, Integer nested) {
            found[0] = true;
            return null;
          }

          @Override
          public Void visitYield(YieldTree node, Integer nested) {
            return null;
          }

          @Override
          public Void visitWhileLoop(WhileLoopTree node, Integer nested) {
            return super.visitWhileLoop(node, nested + 1);
          }

          @Override
          public Void visitDoWhileLoop(DoWhileLoopTree node, Integer nested) {
            return super.visitDoWhileLoop(node, nested + 1);
          }

          @Override
          public Void visitForLoop(ForLoopTree node, Integer nested) {
            return super.visitForLoop(node, nested + 1);
          }

          @Override
          public Void visitEnhancedForLoop(EnhancedForLoopTree node, Integer nested) {
            return super.visitEnhancedForLoop(node, nested + 1);
          }

          @Override
          public Void visitSwitch(SwitchTree node, Integer nested) {
            return super.visitSwitch(node, nested + 1);
          }

          @Override
          public Void visitSwitchExpression(SwitchExpressionTree node, Integer nested) {
            return super.visitSwitchExpression(node, nested + 1);
          }

          @Override
          public Void visitLambdaExpression(LambdaExpressionTree node, Integer nested) {
            return null;
          }

          @Override
          public Void visitClass(ClassTree node, Integer nested) {
            return null;
          }
        };
    for (StatementTree s : body) {
      if (s == interruptTry) {
        scanner.scan(interruptTry.getBlock(), 0);
        continue; // its catch may leave; the fix keeps or reproduces that catch
      }
      scanner.scan(s, 0);
    }
    return found[0];
  }

  /** What the loop does besides polling: the body, the other loop conditions, the for updates. */
  private Work classify() {
    WorkScanner scanner = new WorkScanner(new HashSet<>(), 0);
    for (StatementTree s : body) {
      // the catch of the interrupt try/catch runs only on an interrupt, not on every pass
      scanner.scan(s == interruptTry ? interruptTry.getBlock() : s, null);
    }
    for (ExpressionTree e : extraExpressions) {
      scanner.scan(e, null);
    }
    if (shape == Shape.EACH) {
      // the stream predicate or the nested loop's condition is already in the atoms or body
      ExpressionTree atom = pollAtom.expr();
      scanner.scan(atom, null);
    }
    Work result = scanner.work;
    if (result == Work.SPIN && !(body.stream().allMatch(this::isSpinStatementOrTry))) {
      result = Work.OTHER;
    }
    if (result == Work.SPIN && !extraExpressions.isEmpty()) {
      result = Work.OTHER;
    }
    return result;
  }

  private boolean isSpinStatementOrTry(StatementTree s) {
    return isSpinStatement(s) || s == interruptTry;
  }

  private final class WorkScanner extends TreeScanner<Void, Void> {
    private final Set<MethodSymbol> visiting;
    private final int depth;
    Work work = Work.SPIN;

    WorkScanner(Set<MethodSymbol> visiting, int depth) {
      this.visiting = visiting;
      this.depth = depth;
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
      work = work.max(classifyCall(node));
      if (BlockingKnowledge.spinCall(ASTHelpers.getSymbol(node), state).isPresent()) {
        return null; // its arguments only say how long to pause
      }
      return super.visitMethodInvocation(node, unused);
    }

    @Override
    public Void visitNewClass(NewClassTree node, Void unused) {
      MethodSymbol constructor = ASTHelpers.getSymbol(node);
      if (node.getClassBody() != null
          || constructor == null
          || !BlockingKnowledge.isNonBlockingConstructor(constructor.owner)) {
        work = work.max(Work.UNKNOWN);
      }
      return super.visitNewClass(node, unused);
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree node, Void unused) {
      Symbol symbol = ASTHelpers.getSymbol(node);
      if (symbol instanceof MethodSymbol method) {
        if (BlockingKnowledge.isBlockingCall(method, method.getParameters().size(), state)) {
          work = work.max(Work.BLOCKS);
        } else if (!BlockingKnowledge.isNonBlocking(method, state)) {
          work = work.max(Work.UNKNOWN);
        }
      }
      return super.visitMemberReference(node, unused);
    }

    @Override
    public Void visitClass(ClassTree node, Void unused) {
      work = work.max(Work.UNKNOWN);
      return null;
    }

    private Work classifyCall(MethodInvocationTree call) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (method == null) {
        return Work.UNKNOWN;
      }
      Optional<ApiCatalog.Entry> spin = BlockingKnowledge.spinCall(method, state);
      if (spin.isPresent()) {
        return pause(call, spin.get());
      }
      if (BlockingKnowledge.isBlockingCall(method, call.getArguments().size(), state)) {
        return Work.BLOCKS;
      }
      if (BlockingKnowledge.isNonBlocking(method, state)) {
        return Work.OTHER;
      }
      return callIntoSource(method);
    }

    /** A method of this compilation: look inside, a few calls deep. */
    private Work callIntoSource(MethodSymbol method) {
      if (depth >= 3 || visiting.contains(method)) {
        return Work.UNKNOWN;
      }
      MethodTree declaration;
      try {
        declaration = JavacTrees.instance(state.context).getTree(method);
      } catch (RuntimeException e) {
        return Work.UNKNOWN;
      }
      if (declaration == null || declaration.getBody() == null) {
        return Work.UNKNOWN;
      }
      visiting.add(method);
      WorkScanner inner = new WorkScanner(visiting, depth + 1);
      inner.scan(declaration.getBody(), null);
      visiting.remove(method);
      return inner.work == Work.SPIN ? Work.OTHER : inner.work;
    }
  }

  /** A sleep or park: a spin when short, a watchdog when at least the watchdog interval. */
  private Work pause(MethodInvocationTree call, ApiCatalog.Entry entry) {
    String duration = entry.attribute("duration").orElse("none");
    Long millis = pauseMillis(call, duration);
    if (millis == null) {
      return Work.SLOW; // a pause lockjaw cannot measure: stay silent
    }
    return millis >= BlockingKnowledge.watchdogIntervalMillis() ? Work.SLOW : Work.SPIN;
  }

  private Long pauseMillis(MethodInvocationTree call, String duration) {
    List<? extends ExpressionTree> args = call.getArguments();
    switch (duration) {
      case "none":
        return 0L;
      case "millis": {
        if (args.isEmpty()) {
          return null;
        }
        Long constant = longConstant(args.get(0));
        if (constant != null) {
          return constant;
        }
        Duration d = durationConstant(args.get(0));
        return d == null ? null : d.toMillis();
      }
      case "nanos": {
        if (args.isEmpty()) {
          return null;
        }
        Long nanos = longConstant(args.get(args.size() - 1));
        return nanos == null ? null : TimeUnit.NANOSECONDS.toMillis(nanos);
      }
      case "unit": {
        if (args.isEmpty()) {
          return null;
        }
        Long amount = longConstant(args.get(0));
        ExpressionTree receiver = ASTHelpers.getReceiver(call);
        Symbol unit = receiver == null ? null : ASTHelpers.getSymbol(receiver);
        if (amount == null || unit == null || unit.getKind() != ElementKind.ENUM_CONSTANT) {
          return null;
        }
        try {
          return TimeUnit.valueOf(unit.getSimpleName().toString()).toMillis(amount);
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
      default:
        return null;
    }
  }

  private static Long longConstant(ExpressionTree tree) {
    Object value = ASTHelpers.constValue(tree);
    if (value instanceof Number n && !(value instanceof Double) && !(value instanceof Float)) {
      return n.longValue();
    }
    return null;
  }

  /** {@code Duration.ofMillis(10)}, {@code Duration.ofSeconds(1)}, ... with a constant argument. */
  private Duration durationConstant(ExpressionTree tree) {
    if (!(ASTHelpers.stripParentheses(tree) instanceof MethodInvocationTree call)) {
      return null;
    }
    MethodSymbol method = ASTHelpers.getSymbol(call);
    if (method == null
        || !method.owner.getQualifiedName().contentEquals("java.time.Duration")
        || call.getArguments().size() != 1) {
      return null;
    }
    Long amount = longConstant(call.getArguments().get(0));
    if (amount == null) {
      return null;
    }
    return switch (method.getSimpleName().toString()) {
      case "ofNanos" -> Duration.ofNanos(amount);
      case "ofMillis" -> Duration.ofMillis(amount);
      case "ofSeconds" -> Duration.ofSeconds(amount);
      case "ofMinutes" -> Duration.ofMinutes(amount);
      default -> null;
    };
  }

  // --- where the loop sits --------------------------------------------------------------------

  /** Whether {@code InterruptedException} thrown at {@code path} is caught or may propagate. */
  public static boolean interruptMayBeThrownAt(
      com.sun.source.util.TreePath path, VisitorState state) {
    Type interrupted = state.getTypeFromString("java.lang.InterruptedException");
    if (interrupted == null) {
      return false;
    }
    Tree child = null;
    for (com.sun.source.util.TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof TryTree tryTree && child == tryTree.getBlock()) {
        for (CatchTree c : tryTree.getCatches()) {
          if (catchesInterrupt(c, state)) {
            return true;
          }
        }
      }
      if (leaf instanceof MethodTree method) {
        MethodSymbol symbol = ASTHelpers.getSymbol(method);
        return symbol != null && throwsAny(symbol.getThrownTypes(), interrupted, state);
      }
      if (leaf instanceof LambdaExpressionTree lambda) {
        Type type = ASTHelpers.getType(lambda);
        if (type == null) {
          return false;
        }
        Type descriptor = state.getTypes().findDescriptorType(type);
        return descriptor != null && throwsAny(descriptor.getThrownTypes(), interrupted, state);
      }
      if (leaf instanceof ClassTree) {
        return false;
      }
      child = leaf;
    }
    return false;
  }

  private static boolean throwsAny(List<Type> thrown, Type interrupted, VisitorState state) {
    for (Type type : thrown) {
      if (type != null && !type.isErroneous() && ASTHelpers.isSubtype(interrupted, type, state)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code loop} is the body of a label; such loops get no fix. */
  public static boolean isLabeled(com.sun.source.util.TreePath loopPath) {
    return loopPath.getParentPath() != null
        && loopPath.getParentPath().getLeaf() instanceof LabeledStatementTree;
  }

  /** Names declared in {@code tree}, to keep a fix's new names apart from them. */
  public static Set<String> declaredNames(Tree tree) {
    Set<String> names = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        names.add(node.getName().toString());
        return super.visitVariable(node, unused);
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        names.add(node.getName().toString());
        return null;
      }
    }.scan(tree, null);
    return names;
  }
}
