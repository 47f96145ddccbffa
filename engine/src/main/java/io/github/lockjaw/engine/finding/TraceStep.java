package io.github.lockjaw.engine.finding;

/**
 * One step of a finding's explanation: a call on the request path that reaches the flagged code, or
 * a call under the lock that leads to the effect (I/O, a cache fill, a counter update).
 *
 * @param description what happens at this step, e.g. {@code OrderServlet.doGet() calls
 *     OrderDao.load(String)} or {@code DataSourceUtils.fetch() runs DriverManager.getConnection()}
 * @param file the source file (absolute) or the jar/class the step is in; empty when unknown
 * @param line 1-based line of the step, or 0 when unknown (a class file without line numbers)
 */
public record TraceStep(String description, String file, int line) {
  public TraceStep {
    description = description == null ? "" : description;
    file = file == null ? "" : file;
  }
}
