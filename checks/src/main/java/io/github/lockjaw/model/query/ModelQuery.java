package io.github.lockjaw.model.query;

import io.github.lockjaw.model.MethodFacts;
import java.util.List;

/**
 * One check as a query over the model, the same for both engines: given a method of the analysed
 * code, the findings in it.
 */
public interface ModelQuery {
  /** The check's name, e.g. {@code ResourceLookupUnderLock}. */
  String check();

  /** The findings in one method (a lambda body is a method of its own). */
  List<ModelFinding> findIn(QueryContext context, MethodFacts method);
}
