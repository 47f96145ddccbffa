package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.sun.source.util.TreePath;
import io.github.lockjaw.model.source.CompilationModel;
import java.util.Optional;

/** The source fix of a cache finding: {@link ComputeIfAbsentFix} on the trees the model found. */
final class CacheFixes {
  private CacheFixes() {}

  static Optional<SuggestedFix> fix(CacheFinding found, TreePath anchor, VisitorState state) {
    if (!found.mayBeRewritten()) {
      return Optional.empty();
    }
    return SourceLookup.of(found.lookup(), CompilationModel.of(state).origins())
        .flatMap(lookup -> ComputeIfAbsentFix.build(anchor, lookup, state));
  }
}
