package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.SynchronizedTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import io.github.lockjaw.common.Resilience;
import java.util.Optional;

/**
 * A check on the regions that hold a {@link SharedMonitor}: the body of a synchronized method on a
 * shared monitor, or a synchronized block on one that no outer region already holds. Each region is
 * handed to {@link #matchRegion} once; an unexpected tree shape there is reported as no match
 * (rethrown under {@code -Dlockjaw.strict=true}), never as a javac crash.
 */
public abstract class SharedMonitorRegionChecker extends BugChecker
    implements MethodTreeMatcher, SynchronizedTreeMatcher {

  @Override
  public final Description matchMethod(MethodTree tree, VisitorState state) {
    Optional<SharedMonitor> monitor = SharedMonitor.ofMethod(tree);
    if (monitor.isEmpty() || tree.getBody() == null) {
      return Description.NO_MATCH;
    }
    return safely(tree, tree.getBody(), monitor.get(), state);
  }

  @Override
  public final Description matchSynchronized(SynchronizedTree tree, VisitorState state) {
    Optional<SharedMonitor> monitor = SharedMonitor.ofBlock(tree);
    if (monitor.isEmpty() || monitor.get().isHeldAround(state.getPath())) {
      return Description.NO_MATCH;
    }
    return safely(tree, tree.getBlock(), monitor.get(), state);
  }

  private Description safely(
      Tree region, BlockTree body, SharedMonitor monitor, VisitorState state) {
    try {
      return matchRegion(region, body, monitor, state);
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Description.NO_MATCH;
    }
  }

  /**
   * The finding for one region, or {@link Description#NO_MATCH}. {@code region} is the synchronized
   * method or block ({@code state}'s leaf), {@code body} the statements it guards.
   */
  protected abstract Description matchRegion(
      Tree region, BlockTree body, SharedMonitor monitor, VisitorState state);
}
