package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EmptyStatementTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The trees of a busy-wait the query found, for the message and the source fix ({@link
 * BlockingWaitFix}): the loop, the poll call, the polled object as written, the {@code try}/{@code
 * catch} around the pause, the {@code return} the loop leaves through, and the condition that keeps
 * it going. The query decided that the loop busy-waits; these trees only say how to rewrite it.
 */
final class LoopTrees {
  private final StatementTree loop;
  private final BusyWait wait;
  private final MethodInvocationTree poll;
  private final ExpressionTree helperArgument;
  private final ReturnTree exitReturn;
  private final VisitorState state;
  private TryTree interruptTry;
  private boolean onlyPauses = true;
  private final List<IfTree> exitTests = new ArrayList<>();

  private LoopTrees(
      StatementTree loop,
      BusyWait wait,
      MethodInvocationTree poll,
      ExpressionTree helperArgument,
      ReturnTree exitReturn,
      VisitorState state) {
    this.loop = loop;
    this.wait = wait;
    this.poll = poll;
    this.helperArgument = helperArgument;
    this.exitReturn = exitReturn;
    this.state = state;
    readBody();
  }

  /**
   * The trees of {@code wait}: the loop around {@code pollPath} whose head is on the loop's line,
   * and the {@code return} at {@code returnPath} (may be null).
   */
  static Optional<LoopTrees> of(
      TreePath pollPath, TreePath returnPath, BusyWait wait, VisitorState state) {
    TreePath loopPath = loopAround(pollPath, wait.loopLine(), state);
    if (loopPath == null) {
      return Optional.empty();
    }
    MethodInvocationTree call =
        pollPath.getLeaf() instanceof MethodInvocationTree invocation ? invocation : null;
    ExpressionTree argument = null;
    if (wait.helper() != null && call != null && call.getArguments().size() == 1) {
      argument = call.getArguments().get(0);
    }
    ReturnTree ret = returnPath != null && returnPath.getLeaf() instanceof ReturnTree r ? r : null;
    return Optional.of(
        new LoopTrees((StatementTree) loopPath.getLeaf(), wait, call, argument, ret, state));
  }

  /** The innermost loop statement around {@code path} whose head is on {@code line}. */
  static TreePath loopAround(TreePath path, int line, VisitorState state) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof WhileLoopTree
          || leaf instanceof DoWhileLoopTree
          || leaf instanceof ForLoopTree
          || leaf instanceof EnhancedForLoopTree) {
        long start = ASTHelpers.getStartPosition(leaf);
        long at = state.getPath().getCompilationUnit().getLineMap().getLineNumber(start);
        if (at == line) {
          return p;
        }
      }
      if (leaf instanceof MethodTree || leaf instanceof ClassTree) {
        return null;
      }
    }
    return null;
  }

  StatementTree loop() {
    return loop;
  }

  BlockingKnowledge.PolledState polled() {
    return wait.polled();
  }

  /** The poll call, e.g. {@code worker.isAlive()} (the helper call for a helper). */
  MethodInvocationTree poll() {
    return poll;
  }

  /** The polled object as written, or null when implicit ({@code isAlive()} in a Thread). */
  ExpressionTree receiver() {
    if (wait.shape() == PolledTest.Shape.EACH) {
      return null;
    }
    if (helperArgument != null) {
      return helperArgument;
    }
    return poll == null ? null : ASTHelpers.getReceiver(poll);
  }

  /** The receiver as written followed by a dot ({@code worker.}), or empty when implicit. */
  String subject() {
    ExpressionTree receiver = receiver();
    if (receiver == null) {
      return "";
    }
    String source = state.getSourceForNode(receiver);
    return source == null ? "" : source + ".";
  }

  /** For a wait on every element: the collection as written, or "the collection". */
  String collection() {
    if (poll != null
        && poll.getArguments().size() == 1
        && (poll.getArguments().get(0) instanceof MemberReferenceTree
            || poll.getArguments().get(0) instanceof LambdaExpressionTree)) {
      ExpressionTree stream = ASTHelpers.getReceiver(poll);
      if (stream instanceof MethodInvocationTree streamCall
          && ASTHelpers.getReceiver(streamCall) != null) {
        String text = state.getSourceForNode(ASTHelpers.getReceiver(streamCall));
        if (text != null) {
          return text;
        }
      }
    }
    EnhancedForLoopTree nested = firstEnhancedFor(loop);
    if (nested != null) {
      String text = state.getSourceForNode(nested.getExpression());
      if (text != null) {
        return text;
      }
    }
    return "the collection";
  }

  private static EnhancedForLoopTree firstEnhancedFor(Tree tree) {
    EnhancedForLoopTree[] found = {null};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitEnhancedForLoop(EnhancedForLoopTree node, Void unused) {
        if (found[0] == null) {
          found[0] = node;
        }
        return null;
      }
    }.scan(body(tree), null);
    return found[0];
  }

  /** The try/catch around the pause that handles the interrupt, if the body has one. */
  Optional<TryTree> interruptTry() {
    return Optional.ofNullable(interruptTry);
  }

  /** The {@code return} the loop leaves through, when the exit test returns. */
  Optional<ReturnTree> exitReturn() {
    return Optional.ofNullable(exitReturn);
  }

  /** Why another thread may swap the polled object while the loop waits, or empty. */
  Optional<String> sharedReceiverReason() {
    return PollReceiver.sharedReason(receiver());
  }

  /**
   * Why lockjaw does not rewrite a loop that only waits: the poll is read through a helper or a
   * flag, or the loop's statements are not just its exit test and pauses. Empty otherwise.
   */
  Optional<String> noRewrite() {
    if (wait.helper() != null) {
      return Optional.of("the poll is read through the helper " + wait.helper().name() + "()");
    }
    if (wait.flag()) {
      String name = flagName();
      return Optional.of(
          "the poll is stored in the flag" + (name == null ? "" : " '" + name + "'"));
    }
    if (!onlyPauses
        || (loop instanceof ForLoopTree f
            && (!f.getInitializer().isEmpty() || !f.getUpdate().isEmpty()))) {
      return Optional.of("the loop's statements are more than its exit test and a pause");
    }
    return Optional.empty();
  }

  private String flagName() {
    ExpressionTree condition = condition();
    if (condition == null) {
      return null;
    }
    ExpressionTree e = ASTHelpers.stripParentheses(condition);
    if (e instanceof UnaryTree not && e.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      e = ASTHelpers.stripParentheses(not.getExpression());
    }
    return e instanceof IdentifierTree id ? id.getName().toString() : null;
  }

  /** The expression that is true while the wait is still on, as source text. */
  String busyExpression() {
    ExpressionTree condition = condition();
    if (condition != null && ASTHelpers.constValue(condition) == null) {
      return state.getSourceForNode(ASTHelpers.stripParentheses(condition));
    }
    if (exitTests.size() != 1) {
      return null;
    }
    IfTree test = exitTests.get(0);
    String text = state.getSourceForNode(ASTHelpers.stripParentheses(test.getCondition()));
    if (text == null) {
      return null;
    }
    boolean exitOnTrue = isExit(only(test.getThenStatement()));
    if (!exitOnTrue) {
      return text;
    }
    ExpressionTree cond = ASTHelpers.stripParentheses(test.getCondition());
    if (cond instanceof UnaryTree not && cond.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      return state.getSourceForNode(ASTHelpers.stripParentheses(not.getExpression()));
    }
    return cond instanceof MethodInvocationTree ? "!" + text : "!(" + text + ")";
  }

  private ExpressionTree condition() {
    if (loop instanceof WhileLoopTree w) {
      return w.getCondition();
    }
    if (loop instanceof DoWhileLoopTree d) {
      return d.getCondition();
    }
    if (loop instanceof ForLoopTree f) {
      return f.getCondition();
    }
    return null;
  }

  private static StatementTree body(Tree loop) {
    if (loop instanceof WhileLoopTree w) {
      return w.getStatement();
    }
    if (loop instanceof DoWhileLoopTree d) {
      return d.getStatement();
    }
    if (loop instanceof ForLoopTree f) {
      return f.getStatement();
    }
    if (loop instanceof EnhancedForLoopTree e) {
      return e.getStatement();
    }
    return null;
  }

  /** Reads the body: exit tests, pauses, at most one try/catch for the interrupt. */
  private void readBody() {
    StatementTree body = body(loop);
    List<? extends StatementTree> statements =
        body instanceof BlockTree block
            ? block.getStatements()
            : body == null ? List.of() : List.of(body);
    int n = statements.size();
    for (int i = 0; i < n; i++) {
      StatementTree s = statements.get(i);
      if (s instanceof IfTree test && isExitTest(test)) {
        exitTests.add(test);
        continue;
      }
      if (s instanceof BreakTree brk && brk.getLabel() == null && i == n - 1) {
        continue; // 'if (alive) continue; break;'
      }
      if (isPause(s)) {
        continue;
      }
      if (interruptTry == null && s instanceof TryTree t && isInterruptTry(t)) {
        interruptTry = t;
        continue;
      }
      onlyPauses = false;
    }
  }

  private boolean isExitTest(IfTree test) {
    StatementTree then = only(test.getThenStatement());
    StatementTree otherwise =
        test.getElseStatement() == null ? null : only(test.getElseStatement());
    return (isExit(then) || then instanceof ContinueTree)
        && (otherwise == null || isExit(otherwise) || otherwise instanceof ContinueTree);
  }

  private static StatementTree only(StatementTree s) {
    if (s instanceof BlockTree block && block.getStatements().size() == 1) {
      return block.getStatements().get(0);
    }
    return s;
  }

  private static boolean isExit(StatementTree s) {
    return (s instanceof BreakTree b && b.getLabel() == null) || s instanceof ReturnTree;
  }

  private boolean isPause(StatementTree s) {
    if (s instanceof EmptyStatementTree) {
      return true;
    }
    if (s instanceof ContinueTree c) {
      return c.getLabel() == null;
    }
    if (s instanceof BlockTree block) {
      return block.getStatements().stream().allMatch(this::isPause);
    }
    return s instanceof ExpressionStatementTree es
        && es.getExpression() instanceof MethodInvocationTree call
        && BlockingKnowledge.spinCall(ASTHelpers.getSymbol(call), state).isPresent();
  }

  private boolean isInterruptTry(TryTree t) {
    if (!t.getResources().isEmpty() || t.getFinallyBlock() != null || t.getCatches().size() != 1) {
      return false;
    }
    if (t.getBlock().getStatements().isEmpty()
        || !t.getBlock().getStatements().stream().allMatch(this::isPause)) {
      return false;
    }
    return Interrupts.catchesInterrupt(t.getCatches().get(0), state);
  }
}
