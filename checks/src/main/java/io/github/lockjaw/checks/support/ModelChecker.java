package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.ClassTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.source.CompilationModel;
import io.github.lockjaw.model.source.Origins;

/**
 * An Error Prone check that is a {@link ModelQuery}: when javac visits a method (or a class, for
 * its static initialiser), the query runs over that method's facts and its lambda bodies in the
 * model of the whole compilation, and each finding is reported at the tree its region or operation
 * came from. {@code @SuppressWarnings} on the method or class silences it, as for any check.
 */
public abstract class ModelChecker extends BugChecker
    implements MethodTreeMatcher, ClassTreeMatcher {

  /** The query this check runs. */
  protected abstract ModelQuery query();

  /**
   * The description of a finding, at {@code anchor} (the flagged region, operation or method). The
   * default reports the query's message; a check adds its fix here.
   */
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    return buildDescription(anchor.getLeaf()).setMessage(finding.message()).build();
  }

  @Override
  public final Description matchMethod(MethodTree tree, VisitorState state) {
    if (ASTHelpers.isGeneratedConstructor(tree)) {
      return Description.NO_MATCH; // reported with its class: javac made it, Error Prone skips it
    }
    return Resilience.orElse(() -> report(tree, state), Description.NO_MATCH);
  }

  @Override
  public final Description matchClass(ClassTree tree, VisitorState state) {
    Resilience.orElse(() -> report(tree, state), Description.NO_MATCH);
    // a default constructor runs the field initializers: what they do is reported on them
    for (Tree member : tree.getMembers()) {
      if (member instanceof MethodTree constructor
          && ASTHelpers.isGeneratedConstructor(constructor)) {
        Resilience.orElse(() -> report(constructor, state), Description.NO_MATCH);
      }
    }
    return Description.NO_MATCH;
  }

  private Description report(Tree declaration, VisitorState state) {
    CompilationModel model = CompilationModel.of(state);
    Origins origins = model.origins();
    MethodRef ref = origins.refOf(declaration);
    if (ref == null) {
      return Description.NO_MATCH;
    }
    for (MethodFacts method : model.withLambdas(ref)) {
      for (ModelFinding finding : query().findIn(model.queries(), method)) {
        TreePath anchor = anchorOf(finding, origins);
        if (anchor != null) {
          model.reported(anchor.getLeaf(), finding);
          state.reportMatch(describe(finding, anchor, state));
        }
      }
    }
    return Description.NO_MATCH;
  }

  private static TreePath anchorOf(ModelFinding finding, Origins origins) {
    MethodRef ref = finding.method().ref();
    if (finding.op() >= 0) {
      TreePath op = origins.op(ref, finding.op());
      if (op != null) {
        return op;
      }
    }
    if (finding.region() >= 0) {
      TreePath region = origins.region(ref, finding.region());
      if (region != null) {
        return region;
      }
    }
    return origins.method(ref);
  }
}
