package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.polling.LoopShape.Atom;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.type.TypeKind;

/**
 * A loop whose exit waits on a polled state ({@code Thread.isAlive()} and kin), taken apart: what
 * it polls, on which receiver, how it leaves, and what else it does on each pass. The parts live
 * beside it: {@link LoopShape} (conditions and body), {@link LoopExits} (exit tests and other
 * exits), {@link LoopWork} and {@link PauseDuration} (what a pass does), {@link PollReceiver} (what
 * the receiver names); {@link BlockingWaitFix} rewrites the loop.
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

  private final StatementTree loop;
  private final VisitorState state;
  private LoopShape form;
  private final List<ExpressionTree> extraExpressions = new ArrayList<>();
  private boolean extraExits;

  private Shape shape;
  private MethodInvocationTree poll;
  private BlockingKnowledge.PolledState polled;
  private Atom pollAtom;
  private String collection;
  private Work work = Work.SPIN;
  private TryTree interruptTry;
  private boolean spinShape;

  /** The argument of a helper that polls it ({@code isRunning(worker)}), or null. */
  private ExpressionTree helperArgument;

  private MethodInvocationTree helperCall;

  /** The local flag the poll is stored in on each pass ({@code alive = t.isAlive();}), or null. */
  private Symbol flag;

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
    if (helperArgument != null) {
      return helperArgument;
    }
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
        && form.atoms().size() == 1
        && extraExpressions.isEmpty()
        && !extraExits
        && !form.forClauses()
        && spinShape
        && work == Work.SPIN;
  }

  /**
   * The helper the poll is read through ({@code while (isRunning(worker))} with {@code private
   * boolean isRunning(Thread t) { return t.isAlive(); }}), or empty when the loop polls directly.
   */
  public Optional<MethodInvocationTree> helperCall() {
    return Optional.ofNullable(helperCall);
  }

  /**
   * Why lockjaw does not rewrite the loop although it only waits: the poll is read through a helper
   * or stored in a flag variable, which other code may use too. Empty otherwise.
   */
  public Optional<String> indirection() {
    if (helperCall != null) {
      return Optional.of(
          "the poll is read through the helper "
              + ASTHelpers.getSymbol(helperCall).getSimpleName()
              + "()");
    }
    if (flag != null) {
      return Optional.of("the poll is stored in the flag '" + flag.getSimpleName() + "'");
    }
    return Optional.empty();
  }

  /** The try/catch around the pause that handles the interrupt, if the body has one. */
  public Optional<TryTree> interruptTry() {
    return Optional.ofNullable(interruptTry);
  }

  /** The {@code return} the loop leaves through, when the exit test returns instead of breaking. */
  public Optional<ReturnTree> exitReturn() {
    return Optional.ofNullable(form.exitReturn());
  }

  /**
   * Why the polled object might be swapped for another one by another thread while the loop waits
   * (a volatile field, an array slot, a collection element), or empty when the receiver is a local,
   * a parameter, {@code this} or a final or plain field. A fix waits on the object the receiver
   * names once; the loop re-read it on every pass.
   */
  public Optional<String> sharedReceiverReason() {
    return PollReceiver.sharedReason(receiver());
  }

  /** The receiver as written followed by a dot ({@code worker.}), or empty when implicit. */
  public String subject() {
    ExpressionTree receiver = receiver();
    if (receiver == null) {
      return "";
    }
    String source = state.getSourceForNode(receiver);
    return source == null ? "" : source + ".";
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
    Optional<LoopShape> parsed = LoopShape.of(loop);
    if (parsed.isEmpty()) {
      return false;
    }
    form = parsed.get();
    extraExpressions.addAll(form.updates());
    if (!findPoll()) {
      return false;
    }
    if (form.exitIfs() > 1) {
      extraExits = true;
    }
    LoopWork.Spin spin = LoopWork.spin(form.body(), state);
    spinShape = spin.onlySpins();
    interruptTry = spin.interruptTry();
    extraExits |= LoopExits.hasOtherExits(form.body(), interruptTry);
    work =
        LoopWork.classify(
            form.body(),
            interruptTry,
            extraExpressions,
            shape == Shape.EACH ? pollAtom.expr() : null,
            state);
    if (work.ordinal() >= Work.SLOW.ordinal()) {
      return false;
    }
    if (shape == Shape.SINGLE && PollReceiver.changesIn(receiver(), loop)) {
      return false;
    }
    return true;
  }

  // --- what is polled -------------------------------------------------------------------------

  private boolean findPoll() {
    List<Atom> others = new ArrayList<>();
    for (Atom atom : form.atoms()) {
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
    if (e instanceof MethodInvocationTree helper && helperPoll(helper, atom.negated())) {
      return true;
    }
    if (e instanceof IdentifierTree local && flagPoll(local, atom.negated())) {
      return true;
    }
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
      if (busyWhenTrue == atom.negated() || !PollReceiver.stable(call, state)) {
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
      if (nonzero == atom.negated() || !PollReceiver.stable(call, state)) {
        return false;
      }
      poll = call;
      polled = ps.get();
      return true;
    }
    return false;
  }

  /**
   * {@code isRunning(worker)} where {@code isRunning} is a private method of the enclosing class
   * whose whole body is {@code return t.isAlive();} (or {@code return !t.isDone();}...) on its one
   * parameter, and {@code worker} is a local, a parameter or a field: the poll of {@code worker}.
   */
  private boolean helperPoll(MethodInvocationTree call, boolean negated) {
    MethodSymbol symbol = ASTHelpers.getSymbol(call);
    if (symbol == null
        || !symbol.getModifiers().contains(Modifier.PRIVATE)
        || call.getArguments().size() != 1
        || symbol.getParameters().size() != 1
        || !(call.getMethodSelect() instanceof IdentifierTree)) {
      return false;
    }
    ExpressionTree argument = ASTHelpers.stripParentheses(call.getArguments().get(0));
    Symbol argumentSymbol = ASTHelpers.getSymbol(argument);
    if (!(argument instanceof IdentifierTree)
        || argumentSymbol == null
        || !(argumentSymbol.getKind() == ElementKind.LOCAL_VARIABLE
            || argumentSymbol.getKind() == ElementKind.PARAMETER
            || argumentSymbol.getKind() == ElementKind.FIELD)) {
      return false;
    }
    ClassTree owner = ASTHelpers.findEnclosingNode(state.getPath(), ClassTree.class);
    if (owner == null) {
      return false;
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
        || helper.getBody().getStatements().size() != 1
        || !(helper.getBody().getStatements().get(0) instanceof ReturnTree ret)
        || ret.getExpression() == null) {
      return false;
    }
    ExpressionTree returned = ASTHelpers.stripParentheses(ret.getExpression());
    boolean helperNegated = false;
    if (returned instanceof UnaryTree not && not.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      helperNegated = true;
      returned = ASTHelpers.stripParentheses(not.getExpression());
    }
    if (!(returned instanceof MethodInvocationTree inner)) {
      return false;
    }
    ExpressionTree innerReceiver = ASTHelpers.getReceiver(inner);
    Symbol parameter = ASTHelpers.getSymbol(helper.getParameters().get(0));
    if (innerReceiver == null
        || parameter == null
        || !parameter.equals(ASTHelpers.getSymbol(innerReceiver))) {
      return false;
    }
    Optional<BlockingKnowledge.PolledState> ps =
        BlockingKnowledge.polledState(ASTHelpers.getSymbol(inner), state);
    if (ps.isEmpty() || !(ps.get().busy().equals("true") || ps.get().busy().equals("false"))) {
      return false;
    }
    boolean busyWhenTrue = ps.get().busy().equals("true");
    // the loop goes on while (negated XOR helperNegated XOR inner) holds: busy when that is the
    // busy sense
    if (busyWhenTrue == (negated != helperNegated)) {
      return false;
    }
    poll = inner;
    polled = ps.get();
    helperArgument = argument;
    helperCall = call;
    return true;
  }

  /**
   * {@code while (alive) { ...; alive = t.isAlive(); }}: a boolean local whose one assignment in
   * the loop is a top-level statement of its body storing a poll (or its negation). The statement
   * is taken out of the body: it is the poll, not work.
   */
  private boolean flagPoll(IdentifierTree local, boolean negated) {
    Symbol symbol = ASTHelpers.getSymbol(local);
    if (symbol == null
        || symbol.getKind() != ElementKind.LOCAL_VARIABLE
        || symbol.type.getKind() != TypeKind.BOOLEAN) {
      return false;
    }
    int[] assignments = {0};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        if (symbol.equals(ASTHelpers.getSymbol(node.getVariable()))) {
          assignments[0]++;
        }
        return super.visitAssignment(node, null);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        if (symbol.equals(ASTHelpers.getSymbol(node.getVariable()))) {
          assignments[0] += 2;
        }
        return super.visitCompoundAssignment(node, null);
      }
    }.scan(loop, null);
    if (assignments[0] != 1) {
      return false;
    }
    for (StatementTree statement : form.body()) {
      if (statement instanceof ExpressionStatementTree expression
          && expression.getExpression() instanceof AssignmentTree assignment
          && symbol.equals(ASTHelpers.getSymbol(assignment.getVariable()))) {
        ExpressionTree value = ASTHelpers.stripParentheses(assignment.getExpression());
        boolean valueNegated = false;
        if (value instanceof UnaryTree not && not.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
          valueNegated = true;
          value = ASTHelpers.stripParentheses(not.getExpression());
        }
        if (!(value instanceof MethodInvocationTree)
            || !singlePoll(new Atom(value, negated != valueNegated))) {
          return false;
        }
        flag = symbol;
        form.body().remove(statement);
        return true;
      }
    }
    return false;
  }

  /**
   * For {@code x > 0}, {@code x != 0}, {@code x >= 1}: TRUE; {@code x == 0}, {@code x <= 0}: FALSE.
   */
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
   * Waiting until every element is done: {@code while (anyAlive)} where {@code anyAlive} is
   * recomputed each pass from polls in a nested loop, or {@code
   * ts.stream().anyMatch(Thread::isAlive)}.
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
    return MoreTrees.findFirst(
            tree,
            MethodInvocationTree.class,
            call -> BlockingKnowledge.polledState(ASTHelpers.getSymbol(call), state).isPresent())
        .orElse(null);
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
              polled =
                  BlockingKnowledge.polledState(ASTHelpers.getSymbol(call), state).orElse(null);
            }
          }
        };
    for (StatementTree s : form.body()) {
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
}
