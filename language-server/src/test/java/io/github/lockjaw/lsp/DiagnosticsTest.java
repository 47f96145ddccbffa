package io.github.lockjaw.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Located;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Severity;
import io.github.lockjaw.engine.finding.TraceStep;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finding's request path and effect chain become the diagnostic's related information. */
class DiagnosticsTest {
  private static final String DAO =
      """
      class OrderDao {
        synchronized String load(String id) {
          return Db.fetch(id);
        }
      }
      """;

  @TempDir Path dir;

  private static Finding finding(Path file) {
    return new Finding(
        "SharedMonitorDao",
        Severity.WARNING,
        file.toString(),
        2,
        3,
        "every request queues on this monitor",
        "",
        "OrderDao",
        "load(String)",
        "synchronizedStringload(Stringid)",
        List.of());
  }

  @Test
  void eachStepIsRelatedInformationAtItsLine() {
    Path file = dir.resolve("OrderDao.java");
    Path servlet = dir.resolve("OrderServlet.java");
    Finding traced =
        finding(file)
            .withTrace(
                List.of(
                    new TraceStep(
                        "OrderServlet.doGet() calls OrderDao.load(String)",
                        servlet.toString(),
                        14)),
                List.of(
                    new TraceStep(
                        "OrderDao.load(String) calls Db.fetch(String)", file.toString(), 3),
                    new TraceStep(
                        "Db.fetch(String) runs DriverManager.getConnection()", "db-1.0.jar", 0)));
    int start = DAO.indexOf("synchronized");
    Diagnostic diagnostic =
        new Diagnostics()
            .diagnostic(
                LspSession.uri(file),
                new Located(traced, start, DAO.indexOf('{', start), start, DAO.length(), List.of()),
                new LineIndex(DAO));

    List<DiagnosticRelatedInformation> related = diagnostic.getRelatedInformation();
    assertEquals(3, related.size(), related.toString());
    assertEquals(
        "request path 1/1: OrderServlet.doGet() calls OrderDao.load(String)",
        related.get(0).getMessage());
    assertEquals(LspSession.uri(servlet), related.get(0).getLocation().getUri());
    assertEquals(13, related.get(0).getLocation().getRange().getStart().getLine());
    assertEquals(
        "under the lock 1/2: OrderDao.load(String) calls Db.fetch(String)",
        related.get(1).getMessage());
    assertEquals(2, related.get(1).getLocation().getRange().getStart().getLine());
    // a step in a jar: at the finding, its place named in the text
    assertEquals(
        "under the lock 2/2: Db.fetch(String) runs DriverManager.getConnection() (db-1.0.jar)",
        related.get(2).getMessage());
    assertEquals(LspSession.uri(file), related.get(2).getLocation().getUri());
    assertEquals(diagnostic.getRange(), related.get(2).getLocation().getRange());
  }

  @Test
  void aFindingWithoutATraceHasNoRelatedInformation() {
    Path file = dir.resolve("OrderDao.java");
    int start = DAO.indexOf("synchronized");
    Diagnostic diagnostic =
        new Diagnostics()
            .diagnostic(
                LspSession.uri(file),
                new Located(finding(file), start, start + 12, start, DAO.length(), List.of()),
                new LineIndex(DAO));
    assertNull(diagnostic.getRelatedInformation());
  }
}
