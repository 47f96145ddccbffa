package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.dataflow.nullnesspropagation.Nullness;
import com.google.errorprone.dataflow.nullnesspropagation.NullnessAnalysis;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.common.Resilience;

/**
 * Proofs that a value is not null where a fix needs it (a {@code ConcurrentHashMap} or a {@code
 * ClassValue} rejects null keys): Error Prone's nullness dataflow, built on the Checker
 * Framework's, over the enclosing method. It knows what syntax alone does not: an earlier {@code if
 * (key == null) throw}, {@code Objects.requireNonNull(key)}, a dereference that already threw, a
 * local assigned only non-null values, and parameters and fields annotated {@code @NonNull}.
 */
public final class NullProofs {
  private NullProofs() {}

  /** Whether the dataflow shows {@code expression}, in the current compilation unit, non-null. */
  public static boolean isNonNull(ExpressionTree expression, VisitorState state) {
    TreePath path = TreePath.getPath(state.getPath().getCompilationUnit(), expression);
    if (path == null) {
      return false;
    }
    try {
      return NullnessAnalysis.instance(state.context).getNullness(path, state.context)
          == Nullness.NONNULL;
    } catch (RuntimeException e) {
      // a proof is a convenience: a shape the dataflow cannot take means no proof
      Resilience.rethrowIfStrict(e);
      return false;
    } catch (AssertionError e) {
      Resilience.rethrowIfStrict(e);
      return false;
    }
  }
}
