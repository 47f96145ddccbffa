package io.github.lockjaw.checks.polling;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.source.CompilationModel;
import java.util.Optional;

/**
 * A loop that waits for a thread to end by polling {@code Thread.isAlive()} (or for a future, a
 * process, an executor or a latch by polling {@code isDone()}, {@code isAlive()}, {@code
 * isTerminated()}, {@code getCount()} or {@code exitValue()}) with nothing, a yield, an
 * on-spin-wait hint or a short sleep between polls. It burns a CPU and adds latency; the blocking
 * call ({@code join()}, {@code get()}, {@code waitFor()}, {@code awaitTermination(...)}, {@code
 * await()}) costs nothing while it waits. The query is {@link BusyWaitQuery}, shared with the
 * bytecode engine; the source engine reports at the loop, names the polled object as written and
 * adds the fix ({@link BlockingWaitFix}) when the loop only waits.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Busy-wait: a loop polls Thread.isAlive() (or Future.isDone(), Process.isAlive(),"
            + " ExecutorService.isTerminated(), CountDownLatch.getCount()) instead of blocking",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "ThreadAliveBusyWait.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class ThreadAliveBusyWait extends ModelChecker {
  private static final ModelQuery QUERY = new BusyWaitQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    if (!(finding.detail() instanceof BusyWait wait)) {
      return super.describe(finding, anchor, state);
    }
    TreePath returnPath =
        wait.exitReturn() < 0
            ? null
            : CompilationModel.of(state).origins().op(finding.method().ref(), wait.exitReturn());
    Optional<LoopTrees> found = LoopTrees.of(anchor, returnPath, wait, state);
    if (found.isEmpty()) {
      return super.describe(finding, anchor, state);
    }
    LoopTrees trees = found.get();
    TreePath loopPath = LoopTrees.loopAround(anchor, wait.loopLine(), state);
    long cap = wait.onlyWaits() ? 0 : CappedWait.millis(loopPath).orElse(0L);
    BlockingWaitFix.FixResult fix = null;
    if (wait.onlyWaits()) {
      Optional<String> noRewrite = trees.noRewrite();
      fix =
          noRewrite.isPresent()
              ? BlockingWaitFix.FixResult.none(noRewrite.get())
              : BlockingWaitFix.build(trees, state.withPath(loopPath));
    }
    String message =
        wait.message(
            trees.subject(),
            trees.collection(),
            cap,
            fix == null || fix.fix() != null ? null : fix.reason());
    Description.Builder description = buildDescription(trees.loop()).setMessage(message);
    if (fix != null && fix.fix() != null) {
      description.addFix(fix.fix());
    }
    return description.build();
  }
}
