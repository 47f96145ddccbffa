package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
