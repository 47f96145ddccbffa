package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.source.CompilationModel;
import io.github.lockjaw.model.source.Origins;
import java.util.List;

/** Whether a cache check reports a region: other checks leave such a region to them. */
public final class CacheRegions {
  private static final List<ModelQuery> QUERIES =
      List.of(new ClassMonitorCacheQuery(), new SynchronizedMapCacheQuery());

  private CacheRegions() {}

  /**
   * Whether ClassMonitorCache or SynchronizedMapCache reports a lookup in the {@code synchronized}
   * block or method at {@code region}.
   */
  public static boolean reportedIn(TreePath region, VisitorState state) {
    CompilationModel model = CompilationModel.of(state);
    Origins origins = model.origins();
    Tree leaf = region.getLeaf();
    for (TreePath path = region; path != null; path = path.getParentPath()) {
      MethodRef ref = origins.refOf(path.getLeaf());
      if (ref == null) {
        continue;
      }
      for (MethodFacts method : model.withLambdas(ref)) {
        for (ModelQuery query : QUERIES) {
          for (ModelFinding finding : query.findIn(model.queries(), method)) {
            TreePath found =
                finding.region() < 0 ? null : origins.region(method.ref(), finding.region());
            if (found != null && found.getLeaf() == leaf) {
              return true;
            }
          }
        }
      }
      return false;
    }
    return false;
  }
}
