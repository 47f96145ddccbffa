package io.github.lockjaw.checks.support;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.util.TreeScanner;

/**
 * A {@link TreeScanner} over the code that runs where it is written: it enters neither lambda
 * bodies nor class bodies (anonymous or local classes), whose code runs later or elsewhere. The
 * scanner form of {@link MoreTrees#DEFERRED_CODE}, for the analyses that need more than {@link
 * MoreTrees#anyMatch}.
 */
public abstract class ImmediateCodeScanner<R, P> extends TreeScanner<R, P> {

  @Override
  public R visitLambdaExpression(LambdaExpressionTree node, P p) {
    return null;
  }

  @Override
  public R visitClass(ClassTree node, P p) {
    return null;
  }
}
