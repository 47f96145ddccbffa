package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.model.source.CompilationModel;

/**
 * The source fix of a cache finding: {@link ComputeIfAbsentFix} on the trees the model found, or
 * the exact reason there is none.
 */
final class CacheFixes {
  private CacheFixes() {}

  static FixOutcome fix(CacheFinding found, TreePath anchor, VisitorState state) {
    if (found.shape() == CacheFinding.Shape.SPLIT_LOCK) {
      return FixOutcome.blocked(
          "the read and the put take the lock separately, and lockjaw rewrites one locked"
              + " lookup, not two");
    }
    if (found.lookup().throughCalls()) {
      return FixOutcome.blocked(
          "the lookup goes through other methods, which other callers may use too");
    }
    return SourceLookup.of(found.lookup(), CompilationModel.of(state).origins())
        .map(lookup -> ComputeIfAbsentFix.build(anchor, lookup, state))
        .orElseGet(
            () ->
                FixOutcome.blocked(
                    "the read and the put are not calls on one map field of this class"));
  }
}
