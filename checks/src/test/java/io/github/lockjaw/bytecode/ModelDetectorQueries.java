package io.github.lockjaw.bytecode;

import io.github.lockjaw.model.query.ModelQuery;
import java.util.Collection;

/** The queries the bytecode engine runs, for tests and developer tools in other packages. */
public final class ModelDetectorQueries {
  private ModelDetectorQueries() {}

  public static Collection<ModelQuery> all() {
    return ModelDetector.QUERIES.values();
  }
}
