package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.EmptyStatementTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.TryTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.api.JavacTrees;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.polling.PollingLoop.Work;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a polling loop does on each pass besides polling: whether its body only pauses (and how
 * long), and otherwise how much reason the work gives to stay silent ({@link Work}).
 */
final class LoopWork {

  /**
   * The body's pause shape: {@code onlySpins} when every statement only pauses, with at most one
   * try/catch for the interrupt; {@code interruptTry} that try/catch, if one came before any other
   * statement (null otherwise).
   */
  record Spin(boolean onlySpins, TryTree interruptTry) {}

  private LoopWork() {}

  static Spin spin(List<StatementTree> body, VisitorState state) {
    TryTree interruptTry = null;
    for (StatementTree s : body) {
      if (isSpinStatement(s, state)) {
        continue;
      }
      if (interruptTry == null && s instanceof TryTree t && isInterruptTry(t, state)) {
        interruptTry = t;
        continue;
      }
      return new Spin(false, interruptTry);
    }
    return new Spin(true, interruptTry);
  }

  private static boolean isSpinStatement(StatementTree s, VisitorState state) {
    if (s instanceof EmptyStatementTree) {
      return true;
    }
    if (s instanceof ContinueTree c) {
      return c.getLabel() == null;
    }
    if (s instanceof BlockTree block) {
      return block.getStatements().stream().allMatch(b -> isSpinStatement(b, state));
    }
    if (s instanceof ExpressionStatementTree es
        && es.getExpression() instanceof MethodInvocationTree call) {
      return BlockingKnowledge.spinCall(ASTHelpers.getSymbol(call), state).isPresent();
    }
    return false;
  }

  private static boolean isInterruptTry(TryTree t, VisitorState state) {
    if (!t.getResources().isEmpty() || t.getFinallyBlock() != null || t.getCatches().size() != 1) {
      return false;
    }
    if (t.getBlock().getStatements().isEmpty()
        || !t.getBlock().getStatements().stream().allMatch(s -> isSpinStatement(s, state))) {
      return false;
    }
    return Interrupts.catchesInterrupt(t.getCatches().get(0), state);
  }

  /**
   * What the loop does besides polling: the body (of {@code interruptTry} only the try block, as
   * its catch runs only on an interrupt), the other loop conditions and the for updates in {@code
   * extra}, and {@code eachAtom} (the stream predicate or the nested loop's condition; may be
   * null).
   */
  static Work classify(
      List<StatementTree> body,
      TryTree interruptTry,
      List<ExpressionTree> extra,
      ExpressionTree eachAtom,
      VisitorState state) {
    WorkScanner scanner = new WorkScanner(new HashSet<>(), 0, state);
    for (StatementTree s : body) {
      // the catch of the interrupt try/catch runs only on an interrupt, not on every pass
      scanner.scan(s == interruptTry ? interruptTry.getBlock() : s, null);
    }
    for (ExpressionTree e : extra) {
      scanner.scan(e, null);
    }
    if (eachAtom != null) {
      scanner.scan(eachAtom, null);
    }
    Work result = scanner.work;
    if (result == Work.SPIN
        && !(body.stream().allMatch(s -> isSpinStatement(s, state) || s == interruptTry))) {
      result = Work.OTHER;
    }
    if (result == Work.SPIN && !extra.isEmpty()) {
      result = Work.OTHER;
    }
    return result;
  }

  private static final class WorkScanner extends TreeScanner<Void, Void> {
    private final Set<MethodSymbol> visiting;
    private final int depth;
    private final VisitorState state;
    Work work = Work.SPIN;

    WorkScanner(Set<MethodSymbol> visiting, int depth, VisitorState state) {
      this.visiting = visiting;
      this.depth = depth;
      this.state = state;
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
      WorkScanner inner = new WorkScanner(visiting, depth + 1, state);
      inner.scan(declaration.getBody(), null);
      visiting.remove(method);
      return inner.work == Work.SPIN ? Work.OTHER : inner.work;
    }
  }

  /** A sleep or park: a spin when short, a watchdog when at least the watchdog interval. */
  private static Work pause(MethodInvocationTree call, ApiCatalog.Entry entry) {
    String duration = entry.attribute("duration").orElse("none");
    Long millis = PauseDuration.millis(call, duration);
    if (millis == null) {
      return Work.SLOW; // a pause lockjaw cannot measure: stay silent
    }
    return millis >= BlockingKnowledge.watchdogIntervalMillis() ? Work.SLOW : Work.SPIN;
  }
}
