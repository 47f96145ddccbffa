package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.common.Resilience;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The fix for a loop that only waits on a polled state: block in the call that waits for the same
 * event ({@code join()}, {@code waitFor()}, {@code awaitTermination(...)}, {@code await()})
 * instead, keeping the loop's interrupt handling and its return, or explain why there is none.
 */
final class BlockingWaitFix {

  /** The fix, or (when {@code fix} is null) the reason there is none, in words. */
  record FixResult(SuggestedFix fix, String reason) {
    static FixResult of(SuggestedFix fix) {
      return new FixResult(fix, null);
    }

    static FixResult none(String reason) {
      return new FixResult(null, reason);
    }
  }

  private BlockingWaitFix() {}

  /**
   * The fix for {@code polling}, a loop that only waits, found at {@code state.getPath()}; never
   * throws (outside strict mode).
   */
  static FixResult build(LoopTrees polling, VisitorState state) {
    try {
      return buildOrExplain(polling, state);
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return FixResult.none("lockjaw could not rewrite this loop's shape safely");
    } catch (AssertionError e) {
      Resilience.rethrowIfStrict(
          e); // Error Prone's fix helpers assert on shapes they do not expect
      return FixResult.none("lockjaw could not rewrite this loop's shape safely");
    }
  }

  private static FixResult buildOrExplain(LoopTrees polling, VisitorState state) {
    TreePath loopPath = state.getPath();
    StatementTree loop = polling.loop();
    if (loopPath == null || loopPath.getLeaf() != loop) {
      return FixResult.none("lockjaw could not locate the loop");
    }
    if (isLabeled(loopPath)) {
      return FixResult.none("the loop carries a label");
    }
    BlockingKnowledge.PolledState polled = polling.polled();
    Optional<ReturnTree> exitReturn = polling.exitReturn();
    String returnText = exitReturn.map(state::getSourceForNode).orElse(null);
    if (exitReturn.isPresent() && returnText == null) {
      return FixResult.none("lockjaw could not read the loop's return");
    }

    Optional<String> shared = polling.sharedReceiverReason();
    if (shared.isPresent()) {
      return FixResult.none(shared.get());
    }

    // Fixed code is laid out as by hand: at the loop's indentation, in the file's indentation step
    // and line separator, with the comments of the replaced loop kept above it.
    CharSequence source = state.getSourceCode();
    Layout layout = new Layout(source, ASTHelpers.getStartPosition(loop));
    int loopStart = ASTHelpers.getStartPosition(loop);
    int loopEnd = state.getEndPosition(loop);

    // 1. The statement that runs when the loop ends already blocks on the same object.
    StatementTree after = exitReturn.isPresent() ? exitReturn.get() : nextStatement(loopPath);
    if (polling.interruptTry().isEmpty()
        && polled.awaitTakesNoArguments()
        && after != null
        && startsWithAwait(after, polling, state)) {
      SuggestedFix.Builder fix = SuggestedFix.builder();
      String notes = layout.notes(loopStart, loopEnd, List.of());
      if (returnText != null) {
        fix.replace(
            loop, notes + layout.moved(returnText, ASTHelpers.getStartPosition(exitReturn.get())));
      } else {
        // remove the loop and the blank up to the statement that already blocks
        fix.replace(loopStart, ASTHelpers.getStartPosition(after), notes);
      }
      return FixResult.of(fix.build());
    }
    if (polled.reportsOutcome()) {
      return FixResult.none(
          polled.awaitMethodName()
              + "() also throws when the task failed or was cancelled (ExecutionException,"
              + " CancellationException), which this loop does not; call it where the result is"
              + " used and drop the loop");
    }

    SuggestedFix.Builder fix = SuggestedFix.builder();
    String await = awaitCall(polling, fix, state);
    String returnSuffix =
        returnText == null
            ? ""
            : layout.newline
                + layout.base
                + layout.moved(returnText, ASTHelpers.getStartPosition(exitReturn.get()));
    boolean multiStatementOk = inStatementList(loopPath);
    List<int[]> kept = new ArrayList<>();
    exitReturn.ifPresent(
        r -> kept.add(new int[] {ASTHelpers.getStartPosition(r), state.getEndPosition(r)}));

    // 2. The pause sits in a try/catch for the interrupt: keep that handling.
    if (polling.interruptTry().isPresent()) {
      TryTree tryTree = polling.interruptTry().get();
      CatchTree catchTree = tryTree.getCatches().get(0);
      CatchExit exit = catchExit(catchTree);
      Layout atTry = new Layout(source, ASTHelpers.getStartPosition(tryTree));
      if (exit == CatchExit.STAYS) {
        // keep the loop and its interrupt handling; block instead of pausing
        fix.replace(tryTree.getBlock(), atTry.block("{\n" + await + ";\n}"));
        return FixResult.of(fix.build());
      }
      String tryText =
          rewriteTry(tryTree, catchTree, exit, atTry.block("{\n" + await + ";\n}"), state);
      if (tryText == null) {
        return FixResult.none("lockjaw could not read the loop's try/catch");
      }
      kept.add(new int[] {state.getEndPosition(tryTree.getBlock()), state.getEndPosition(tryTree)});
      String text = layout.moved(tryText, ASTHelpers.getStartPosition(tryTree)) + returnSuffix;
      fix.replace(
          loop,
          layout.notes(loopStart, loopEnd, kept)
              + layout.statements(text, multiStatementOk || returnText == null));
      return FixResult.of(fix.build());
    }

    // 3. No interrupt handling in the loop: block directly if the interrupt may propagate here.
    if (polled.throwsType().isEmpty() || Interrupts.mayBeThrownAt(loopPath, state)) {
      fix.replace(
          loop,
          layout.notes(loopStart, loopEnd, kept)
              + layout.statements(
                  await + ";" + returnSuffix, multiStatementOk || returnText == null));
      return FixResult.of(fix.build());
    }

    // 4. The loop ignores interrupts and the code here cannot throw InterruptedException: wait
    //    the same way (until the event, whatever interrupts come), and keep the interrupt status.
    String busy = polling.busyExpression();
    if (busy == null) {
      return FixResult.none("lockjaw could not read the loop condition");
    }
    Set<String> taken = MoreTrees.names(loopPath.getCompilationUnit());
    String flag = fresh(taken, "interrupted", "wasInterrupted", "interruptedWhileWaiting");
    String caught = fresh(taken, "e", "ie", "interruption");
    String text =
        "boolean "
            + flag
            + " = false;\n"
            + "while ("
            + busy
            + ") {\n"
            + "try {\n"
            + await
            + ";\n"
            + "} catch (InterruptedException "
            + caught
            + ") {\n"
            + flag
            + " = true;\n"
            + "}\n"
            + "}\n"
            + "if ("
            + flag
            + ") {\n"
            + "Thread.currentThread().interrupt();\n"
            + "}";
    fix.replace(
        loop,
        layout.notes(loopStart, loopEnd, kept)
            + layout.statements(layout.block(text) + returnSuffix, multiStatementOk));
    return FixResult.of(fix.build());
  }

  /** The layout at one place of the file: its indentation, step and line separator. */
  private static final class Layout {
    final CharSequence source;
    final String base;
    final String unit;
    final String newline;

    Layout(CharSequence source, int position) {
      this.source = source;
      int lineStart = io.github.lockjaw.checks.support.Layout.lineStart(source, position);
      String line = source.subSequence(lineStart, position).toString();
      this.base = line.substring(0, line.length() - line.stripLeading().length()).replace("\r", "");
      this.unit = io.github.lockjaw.checks.support.Layout.unit(source);
      this.newline = io.github.lockjaw.checks.support.Layout.newline(source);
    }

    /** Generated statements indented by their braces from here. */
    String block(String code) {
      return io.github.lockjaw.checks.support.Layout.block(code, base, unit, newline);
    }

    /** Source text from another place moved here, keeping its shape. */
    String moved(String text, int from) {
      int lineStart = io.github.lockjaw.checks.support.Layout.lineStart(source, from);
      String line = source.subSequence(lineStart, from).toString();
      String fromIndent =
          line.substring(0, line.length() - line.stripLeading().length()).replace("\r", "");
      return io.github.lockjaw.checks.support.Layout.move(text, fromIndent, base, newline);
    }

    /** The replaced code's comments, each on its own line, ready to precede the new code. */
    String notes(int start, int end, List<int[]> kept) {
      StringBuilder out = new StringBuilder();
      for (String comment :
          io.github.lockjaw.checks.support.Layout.comments(source, start, end, kept)) {
        out.append(
                io.github.lockjaw.checks.support.Layout.move(comment, base + unit, base, newline))
            .append(newline)
            .append(base);
      }
      return out.toString();
    }

    /** Statements where one statement stands (an unbraced loop body) get braces. */
    String statements(String text, boolean inStatementList) {
      return inStatementList ? text : block("{\n" + text.strip() + "\n}");
    }
  }

  /** The blocking call on the poll's receiver, with its types imported, e.g. {@code t.join()}. */
  private static String awaitCall(LoopTrees polling, SuggestedFix.Builder fix, VisitorState state) {
    BlockingKnowledge.PolledState polled = polling.polled();
    String await = polled.await();
    Optional<String> qualify = polled.qualifiedType();
    if (qualify.isPresent()) {
      String name = SuggestedFixes.qualifyType(state, fix, qualify.get());
      await = await.replace(qualify.get(), name);
    }
    return polling.subject() + await;
  }

  private static boolean inStatementList(TreePath loopPath) {
    Tree parent = loopPath.getParentPath() == null ? null : loopPath.getParentPath().getLeaf();
    return parent instanceof BlockTree || parent instanceof CaseTree;
  }

  private static StatementTree nextStatement(TreePath loopPath) {
    Tree parent = loopPath.getParentPath() == null ? null : loopPath.getParentPath().getLeaf();
    List<? extends StatementTree> siblings = null;
    if (parent instanceof BlockTree block) {
      siblings = block.getStatements();
    } else if (parent instanceof CaseTree caseTree) {
      siblings = caseTree.getStatements();
    }
    if (siblings == null) {
      return null;
    }
    int index = siblings.indexOf(loopPath.getLeaf());
    return index >= 0 && index + 1 < siblings.size() ? siblings.get(index + 1) : null;
  }

  /** Whether the first call {@code after} makes is the blocking call on the polled object. */
  private static boolean startsWithAwait(
      StatementTree after, LoopTrees polling, VisitorState state) {
    ExpressionTree expression = null;
    if (after instanceof ReturnTree r) {
      expression = r.getExpression();
    } else if (after instanceof ExpressionStatementTree es) {
      expression = es.getExpression();
    } else if (after instanceof VariableTree v) {
      expression = v.getInitializer();
    }
    if (expression == null) {
      return false;
    }
    boolean[] unknown = {false};
    MethodInvocationTree first = firstCall(expression, unknown);
    if (unknown[0] || first == null || !first.getArguments().isEmpty()) {
      return false;
    }
    var method = ASTHelpers.getSymbol(first);
    if (method == null
        || !method.getSimpleName().contentEquals(polling.polled().awaitMethodName())
        || !BlockingKnowledge.isBlockingCall(method, 0, state)) {
      return false;
    }
    return sameReceiver(ASTHelpers.getReceiver(first), polling.receiver(), first, polling, state);
  }

  private static boolean sameReceiver(
      ExpressionTree a,
      ExpressionTree b,
      MethodInvocationTree call,
      LoopTrees polling,
      VisitorState state) {
    if (a == null || b == null) {
      return a == null
          && b == null
          && call.getMethodSelect() instanceof IdentifierTree
          && polling.poll().getMethodSelect() instanceof IdentifierTree;
    }
    Symbol sa = ASTHelpers.getSymbol(a);
    Symbol sb = ASTHelpers.getSymbol(b);
    String ta = state.getSourceForNode(a);
    String tb = state.getSourceForNode(b);
    return sa != null
        && Objects.equals(sa, sb)
        && ta != null
        && tb != null
        && ta.replaceAll("\\s+", "").equals(tb.replaceAll("\\s+", ""));
  }

  /** The first method call evaluating {@code tree} makes; {@code unknown[0]} when unsure. */
  private static MethodInvocationTree firstCall(ExpressionTree tree, boolean[] unknown) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof TypeCastTree cast) {
      return firstCall(cast.getExpression(), unknown);
    }
    if (e instanceof MethodInvocationTree call) {
      ExpressionTree receiver = ASTHelpers.getReceiver(call);
      if (receiver != null) {
        MethodInvocationTree inner = firstCall(receiver, unknown);
        if (unknown[0] || inner != null) {
          return inner;
        }
      }
      for (ExpressionTree argument : call.getArguments()) {
        MethodInvocationTree inner = firstCall(argument, unknown);
        if (unknown[0] || inner != null) {
          return inner;
        }
      }
      return call;
    }
    if (e instanceof AssignmentTree assignment
        && assignment.getVariable() instanceof IdentifierTree) {
      return firstCall(assignment.getExpression(), unknown);
    }
    if (e instanceof IdentifierTree || e instanceof LiteralTree) {
      return null;
    }
    if (e instanceof MemberSelectTree select) {
      Symbol symbol = ASTHelpers.getSymbol(select);
      if (symbol != null && !(symbol instanceof Symbol.MethodSymbol)) {
        return firstCall(select.getExpression(), unknown);
      }
    }
    unknown[0] = true;
    return null;
  }

  /** How the interrupt catch ends: it leaves the loop (throw, return, final break) or stays. */
  private enum CatchExit {
    LEAVES,
    LEAVES_BY_BREAK,
    STAYS
  }

  private static CatchExit catchExit(CatchTree catchTree) {
    List<? extends StatementTree> statements = catchTree.getBlock().getStatements();
    if (statements.isEmpty()) {
      return CatchExit.STAYS;
    }
    StatementTree last = statements.get(statements.size() - 1);
    int[] jumps = {0};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBreak(BreakTree node, Void unused) {
        jumps[0]++;
        return null;
      }

      @Override
      public Void visitContinue(ContinueTree node, Void unused) {
        jumps[0]++;
        return null;
      }
    }.scan(catchTree.getBlock(), null);
    if (last instanceof BreakTree b && b.getLabel() == null && jumps[0] == 1) {
      return CatchExit.LEAVES_BY_BREAK;
    }
    if ((last instanceof ThrowTree || last instanceof ReturnTree) && jumps[0] == 0) {
      return CatchExit.LEAVES;
    }
    return CatchExit.STAYS;
  }

  /**
   * The try statement's source with its block replaced by the blocking call (and a final break
   * gone).
   */
  private static String rewriteTry(
      TryTree tryTree, CatchTree catchTree, CatchExit exit, String block, VisitorState state) {
    String source = state.getSourceForNode(tryTree);
    int start = ASTHelpers.getStartPosition(tryTree);
    int blockStart = ASTHelpers.getStartPosition(tryTree.getBlock()) - start;
    int blockEnd = state.getEndPosition(tryTree.getBlock()) - start;
    if (source == null || blockStart < 0 || blockEnd > source.length() || blockEnd < blockStart) {
      return null;
    }
    String text = source;
    if (exit == CatchExit.LEAVES_BY_BREAK) {
      List<? extends StatementTree> statements = catchTree.getBlock().getStatements();
      StatementTree brk = statements.get(statements.size() - 1);
      int breakStart = ASTHelpers.getStartPosition(brk) - start;
      int breakEnd = state.getEndPosition(brk) - start;
      if (breakStart < blockEnd || breakEnd > text.length() || breakEnd < breakStart) {
        return null;
      }
      // the break's whole line goes when nothing else is on it
      int lineStart = breakStart;
      while (lineStart > 0
          && (text.charAt(lineStart - 1) == ' ' || text.charAt(lineStart - 1) == '\t')) {
        lineStart--;
      }
      int lineEnd = breakEnd;
      while (lineEnd < text.length()
          && (text.charAt(lineEnd) == ' '
              || text.charAt(lineEnd) == '\t'
              || text.charAt(lineEnd) == '\r')) {
        lineEnd++;
      }
      if (lineStart > 0
          && text.charAt(lineStart - 1) == '\n'
          && lineEnd < text.length()
          && text.charAt(lineEnd) == '\n') {
        breakStart = lineStart;
        breakEnd = lineEnd + 1;
      }
      text = text.substring(0, breakStart) + text.substring(breakEnd);
    }
    return text.substring(0, blockStart) + block + text.substring(blockEnd);
  }

  private static String fresh(Set<String> taken, String... candidates) {
    for (String candidate : candidates) {
      if (!taken.contains(candidate)) {
        return candidate;
      }
    }
    for (int i = 2; ; i++) {
      String candidate = candidates[0] + i;
      if (!taken.contains(candidate)) {
        return candidate;
      }
    }
  }

  /** Whether {@code loop} is the body of a label; such loops get no fix. */
  private static boolean isLabeled(TreePath loopPath) {
    return loopPath.getParentPath() != null
        && loopPath.getParentPath().getLeaf() instanceof LabeledStatementTree;
  }
}
