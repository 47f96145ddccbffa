package io.github.lockjaw.engine.analyzer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Finding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 24: a source tree analysed without some of its classes. */
class SourceTreeAnalysisTest {
  @TempDir Path dir;

  @Test
  void missingClassesAreNamedOnceAndTheRestIsAnalysed() throws Exception {
    Path servlet =
        Files.writeString(
            dir.resolve("OrderServlet.java"),
            """
            package shop;

            import javax.servlet.http.HttpServlet;
            import javax.servlet.http.HttpServletRequest;
            import javax.servlet.http.HttpServletResponse;
            import org.apache.commons.lang3.StringUtils;

            public class OrderServlet extends HttpServlet {
              @Override
              protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                if (StringUtils.isBlank(req.getParameter("id"))) {
                  return;
                }
                service(req, resp);
              }
            }
            """,
            UTF_8);
    Path waiter =
        Files.writeString(
            dir.resolve("Waiter.java"),
            """
            package shop;

            class Waiter {
              void await(Thread t) {
                while (t.isAlive()) {
                  Thread.onSpinWait();
                }
              }
            }
            """,
            UTF_8);

    SourceTreeAnalysis.Result result =
        new SourceTreeAnalysis()
            .analyse(List.of(servlet, waiter), List.of(), List.of(), UTF_8, List.of(), true);

    assertTrue(result.compiles(), result.errors().toString());
    assertEquals(
        Set.of(
            "javax.servlet.http.HttpServlet",
            "javax.servlet.http.HttpServletRequest",
            "javax.servlet.http.HttpServletResponse",
            "org.apache.commons.lang3.StringUtils"),
        result.missing());
    assertEquals(
        List.of("ThreadAliveBusyWait"), result.findings().stream().map(Finding::check).toList());
    assertTrue(result.unanalysed().isEmpty(), result.unanalysed().toString());
  }

  @Test
  void otherErrorsAreTheCodesOwn() throws Exception {
    Path broken =
        Files.writeString(
            dir.resolve("Broken.java"), "class Broken {\n  int x = \"text\";\n}\n", UTF_8);
    SourceTreeAnalysis.Result result =
        new SourceTreeAnalysis()
            .analyse(List.of(broken), List.of(), List.of(), UTF_8, List.of(), true);
    assertEquals(1, result.errors().size(), result.errors().toString());
    assertTrue(result.errors().get(0).startsWith(broken + ":2: "), result.errors().toString());
    assertTrue(result.findings().isEmpty());
  }
}
