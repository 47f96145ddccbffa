package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.errorprone.CompilationTestHelper;
import io.github.lockjaw.checks.dao.SharedMonitorDao;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SharedMonitorDao in bytecode: the lock of a {@code synchronized} template method of a superclass
 * held while the subclass's override does JDBC, also when the superclass is only on the class path
 * (a library jar), not audited itself.
 */
class InheritedMonitorTest {
  @TempDir Path dir;

  @Test
  void anOverrideDoingJdbcRunsUnderTheInheritedTemplatesMonitor() throws Exception {
    Path library = dir.resolve("library");
    BytecodeFixtures.compile(
        Map.of(
            "org.framework.EventHandler",
            """
            package org.framework;
            public abstract class EventHandler<E> {
              private long handled;
              public synchronized void handle(E event) throws Exception {
                handled++;
                doHandle(event);
              }
              protected abstract void doHandle(E event) throws Exception;
            }
            """,
            "org.framework.LooseHandler",
            """
            package org.framework;
            public abstract class LooseHandler<E> {
              public void handle(E event) throws Exception {
                doHandle(event);
              }
              protected abstract void doHandle(E event) throws Exception;
            }
            """),
        library);
    Path app = dir.resolve("app");
    BytecodeFixtures.compile(
        Map.of(
            "shop.events.OrderEventHandler",
            """
            package shop.events;
            import java.sql.Connection;
            import java.sql.PreparedStatement;
            import javax.sql.DataSource;
            public class OrderEventHandler extends org.framework.EventHandler<String> {
              private final DataSource dataSource;
              public OrderEventHandler(DataSource dataSource) { this.dataSource = dataSource; }
              @Override
              protected void doHandle(String orderId) throws Exception {
                try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("insert into orders values (?)")) {
                  insert.setString(1, orderId);
                  insert.executeUpdate();
                }
              }
            }
            """,
            "shop.events.CountingHandler",
            """
            package shop.events;
            public class CountingHandler extends org.framework.EventHandler<String> {
              private int count;
              @Override
              protected void doHandle(String event) { count += event.length(); }
            }
            """,
            "shop.events.LooseOrderHandler",
            """
            package shop.events;
            import java.sql.Connection;
            import javax.sql.DataSource;
            public class LooseOrderHandler extends org.framework.LooseHandler<String> {
              private final DataSource dataSource;
              public LooseOrderHandler(DataSource dataSource) { this.dataSource = dataSource; }
              @Override
              protected void doHandle(String orderId) throws Exception {
                try (Connection connection = dataSource.getConnection()) {
                  connection.createStatement().executeUpdate("delete from orders where id = " + orderId.length());
                }
              }
            }
            """),
        app,
        List.of(library));

    // only the application is audited; the framework is a jar on its class path (see Resilience)
    List<AuditFinding> findings = new JarAuditor().audit(List.of(app), List.of(library));

    assertEquals(List.of(), io.github.lockjaw.common.Resilience.swallowed(), "a detector threw");
    String summary =
        findings.stream()
            .map(f -> f.check() + " " + f.className() + "#" + f.methodName() + ":" + f.line())
            .sorted()
            .collect(Collectors.joining(", "));
    assertEquals("SharedMonitorDao shop.events.OrderEventHandler#doHandle:10", summary);
    AuditFinding finding = findings.get(0);
    assertTrue(
        finding
            .message()
            .contains(
                "taken by EventHandler.handle() (a synchronized template method it inherits)"),
        finding.message());
    assertTrue(finding.message().contains("DataSource.getConnection()"), finding.message());
  }

  /**
   * Both engines on the same classes: the framework only as class files, the application audited in
   * bytecode and compiled with the Error Prone check. The same overrides are reported, with the
   * same message, and the twins stay silent in both.
   */
  @Test
  void bothEnginesReportTheSameOverridesWithTheSameMessage() throws Exception {
    Path library = dir.resolve("library");
    BytecodeFixtures.compile(
        Map.of(
            "org.framework.Job",
            """
            package org.framework;
            public abstract class Job {
              private int runs;
              public synchronized void run(String input) throws Exception {
                runs++;
                execute(input);
              }
              public synchronized int runs() {
                return runs;
              }
              public static synchronized void replay(Job job, String input) throws Exception {
                job.execute(input);
              }
              protected abstract void execute(String input) throws Exception;
            }
            """,
            "org.framework.Audit",
            """
            package org.framework;
            public abstract class Audit {
              private long count;
              public synchronized long count() {
                return ++count;
              }
              public void record(String entry) throws Exception {
                synchronized (this) {
                  count++;
                }
                write(entry);
              }
              protected abstract void write(String entry) throws Exception;
            }
            """,
            "org.framework.UnlockedJob",
            """
            package org.framework;
            /** Overrides the template without the lock: Job.run's monitor is never taken. */
            public abstract class UnlockedJob extends Job {
              @Override
              public void run(String input) throws Exception {
                execute(input);
              }
            }
            """),
        library);
    String importJob =
        """
        package shop.jobs;
        import java.sql.Connection;
        import javax.sql.DataSource;
        public class ImportJob extends org.framework.Job {
          private final DataSource dataSource;
          public ImportJob(DataSource dataSource) { this.dataSource = dataSource; }
          @Override
          protected void execute(String input) throws Exception {
            try (Connection c = dataSource.getConnection()) {
              c.createStatement().executeUpdate("insert into imports values ('" + input + "')");
            }
          }
        }
        """;
    String auditLog =
        """
        package shop.jobs;
        import java.sql.Connection;
        import javax.sql.DataSource;
        public class AuditLog extends org.framework.Audit {
          private final DataSource dataSource;
          public AuditLog(DataSource dataSource) { this.dataSource = dataSource; }
          @Override
          protected void write(String entry) throws Exception {
            try (Connection c = dataSource.getConnection()) {
              c.createStatement().executeUpdate("insert into audit values ('" + entry + "')");
            }
          }
        }
        """;
    String nightlyJob =
        """
        package shop.jobs;
        import java.sql.Connection;
        import javax.sql.DataSource;
        public class NightlyJob extends org.framework.UnlockedJob {
          private final DataSource dataSource;
          public NightlyJob(DataSource dataSource) { this.dataSource = dataSource; }
          @Override
          protected void execute(String input) throws Exception {
            try (Connection c = dataSource.getConnection()) {
              c.createStatement().executeUpdate("delete from imports");
            }
          }
        }
        """;
    Path app = dir.resolve("app");
    BytecodeFixtures.compile(
        Map.of(
            "shop.jobs.ImportJob",
            importJob,
            "shop.jobs.AuditLog",
            auditLog,
            "shop.jobs.NightlyJob",
            nightlyJob),
        app,
        List.of(library));
    List<AuditFinding> findings = new JarAuditor().audit(List.of(app), List.of(library));
    assertEquals(List.of(), io.github.lockjaw.common.Resilience.swallowed(), "a detector threw");
    assertEquals(
        "SharedMonitorDao shop.jobs.ImportJob#execute",
        findings.stream()
            .map(f -> f.check() + " " + f.className() + "#" + f.methodName())
            .collect(Collectors.joining(", ")));
    String bytecodeMessage = findings.get(0).message();
    assertTrue(bytecodeMessage.contains("taken by Job.run()"), bytecodeMessage);

    CompilationTestHelper.newInstance(SharedMonitorDao.class, getClass())
        .setArgs("-cp", library + File.pathSeparator + System.getProperty("java.class.path"))
        .addSourceLines(
            "shop/jobs/ImportJob.java",
            importJob
                .replace(
                    "  protected void execute",
                    "  // BUG: Diagnostic matches: bytecode\n  protected void execute")
                .split("\n", -1))
        .expectErrorMessage("bytecode", message -> message.contains(bytecodeMessage))
        .addSourceLines("shop/jobs/AuditLog.java", auditLog.split("\n", -1))
        .addSourceLines("shop/jobs/NightlyJob.java", nightlyJob.split("\n", -1))
        .doTest();
  }
}
