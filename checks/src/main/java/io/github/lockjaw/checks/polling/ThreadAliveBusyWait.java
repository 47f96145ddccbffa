package io.github.lockjaw.checks.polling;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.DoWhileLoopTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.ForLoopTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.WhileLoopTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.WhileLoopTree;
import io.github.lockjaw.checks.support.LifecyclePaths;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.Resilience;
import java.util.Optional;

/**
 * A loop that waits for a thread to end by polling {@code Thread.isAlive()} (or for a future, a
 * process, an executor or a latch by polling {@code isDone()}, {@code isAlive()}, {@code
 * isTerminated()} or {@code getCount()}) with nothing, a yield, an on-spin-wait hint or a short
 * sleep between polls. It burns a CPU and adds latency; the blocking call ({@code join()}, {@code
 * get()}, {@code waitFor()}, {@code awaitTermination(...)}, {@code await()}) costs nothing while it
 * waits.
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
public final class ThreadAliveBusyWait extends BugChecker
    implements WhileLoopTreeMatcher, DoWhileLoopTreeMatcher, ForLoopTreeMatcher {

  @Override
  public Description matchWhileLoop(WhileLoopTree tree, VisitorState state) {
    return match(tree, state);
  }

  @Override
  public Description matchDoWhileLoop(DoWhileLoopTree tree, VisitorState state) {
    return match(tree, state);
  }

  @Override
  public Description matchForLoop(ForLoopTree tree, VisitorState state) {
    return match(tree, state);
  }

  private Description match(StatementTree loop, VisitorState state) {
    Optional<PollingLoop> found;
    try {
      found = PollingLoop.of(loop, state);
      if (found.isPresent() && LifecyclePaths.of(state).isLifecycleOnly(state.getPath())) {
        return Description.NO_MATCH; // a helper reached only from start-up or shutdown code
      }
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Description.NO_MATCH; // an unexpected shape: stay silent rather than fail the build
    }
    if (found.isEmpty()) {
      return Description.NO_MATCH;
    }
    PollingLoop polling = found.get();
    // only a loop that does nothing but wait gets a fix (or the reason it has none)
    Optional<BlockingWaitFix.FixResult> fix =
        !polling.onlyWaits()
            ? Optional.empty()
            : polling.indirection().isPresent()
                ? Optional.of(BlockingWaitFix.FixResult.none(polling.indirection().get()))
                : Optional.of(BlockingWaitFix.build(polling, state));
    Description.Builder description =
        buildDescription(polling.loop())
            .setMessage(message(polling, fix, CappedWait.millis(state.getPath())));
    fix.map(BlockingWaitFix.FixResult::fix).ifPresent(description::addFix);
    return description.build();
  }

  /**
   * The finding's message: the problem, the blocking call to use instead, and why there is no
   * automatic fix when there is none ({@code fix} is empty when the loop does more than wait).
   */
  private static String message(
      PollingLoop polling, Optional<BlockingWaitFix.FixResult> fix, Optional<Long> capMillis) {
    BlockingKnowledge.PolledState polled = polling.polled();
    if (polling.shape() == PollingLoop.Shape.EACH) {
      String type = polled.typeSimpleName();
      String collection = polling.collection().orElse("the collection");
      return "Busy-wait: this loop polls "
          + type
          + "."
          + polled.method()
          + "() on every element of "
          + collection
          + " until each is done, burning a CPU while it waits. Block on each in turn instead: "
          + "for ("
          + type
          + " each : "
          + collection
          + ") each."
          + polled.awaitForDisplay()
          + "; (No automatic fix: lockjaw does not rewrite loops over several "
          + type
          + "s.)";
    }
    String subject = polling.subject();
    String problem =
        "Busy-wait: this loop polls "
            + subject
            + polled.method()
            + "() until "
            + polled.event()
            + " instead of blocking, burning a CPU and adding latency while it waits.";
    if (fix.isEmpty()
        && capMillis.isPresent()
        && polled.timed().equals(polled.awaitMethodName() + "(millis)")) {
      // a wait that gives up after N passes of P ms keeps that cap in one timed block
      return problem
          + " It gives up after "
          + capMillis.get()
          + " ms (its pass counter times its pause), so block once with the same cap: "
          + subject
          + polled.awaitMethodName()
          + "("
          + capMillis.get()
          + ") instead of the loop. (No automatic fix: the loop does more than wait.)";
    }
    if (fix.isEmpty()) {
      return problem
          + " It also does other work or has another exit on each pass, so keep the loop but"
          + " block with a timeout in it: "
          + subject
          + polled.timed()
          + " instead of the pause. (No automatic fix: the loop does more than wait.)";
    }
    return problem
        + " Block in "
        + subject
        + polled.awaitForDisplay()
        + " instead."
        + (fix.get().fix() == null ? " (No automatic fix: " + fix.get().reason() + ".)" : "");
  }
}
