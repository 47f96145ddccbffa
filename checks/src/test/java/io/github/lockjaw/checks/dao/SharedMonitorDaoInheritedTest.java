package io.github.lockjaw.checks.dao;

import com.google.errorprone.CompilationTestHelper;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SharedMonitorDao on the lock of an inherited {@code synchronized} template method: {@code
 * synchronized void handle(E e) { ...; doHandle(e); }} in a superclass holds the instance monitor
 * while the subclass's override does JDBC. The superclass sits in the same file, in another file of
 * the same compilation, or in a jar that javac reads only as class files.
 */
class SharedMonitorDaoInheritedTest {
  @TempDir Path dir;

  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SharedMonitorDao.class, getClass());

  /** The framework of the tests: templates, synchronized or not, calling their hooks or not. */
  private static final Map<String, String> FRAMEWORK =
      Map.of(
          "org/framework/EventHandler.java",
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
          "org/framework/LooseHandler.java",
          """
          package org.framework;
          public abstract class LooseHandler<E> {
            private long handled;
            public void handle(E event) throws Exception {
              synchronized (LooseHandler.class) {
                handled++;
              }
              doHandle(event);
            }
            protected abstract void doHandle(E event) throws Exception;
          }
          """,
          "org/framework/Counter.java",
          """
          package org.framework;
          public abstract class Counter {
            private long count;
            public synchronized long increment() {
              return ++count;
            }
            public synchronized void handleLater(Runnable queue) {
              count++;
              queue.run();
            }
            protected void record(String entry) throws Exception {}
            public static synchronized void replay(Counter counter, String entry) throws Exception {
              counter.record(entry);
            }
          }
          """,
          "org/framework/Job.java",
          """
          package org.framework;
          public abstract class Job {
            public synchronized void run(String input) throws Exception {
              execute(input);
            }
            public synchronized void runLater(java.util.concurrent.Executor executor, String input) {
              executor.execute(() -> {
                try {
                  execute(input);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
            }
            protected abstract void execute(String input) throws Exception;
          }
          """);

  /** The same files as lines for {@link CompilationTestHelper#addSourceLines}. */
  private CompilationTestHelper withFrameworkSources(CompilationTestHelper helper) {
    for (Map.Entry<String, String> file : FRAMEWORK.entrySet()) {
      helper = helper.addSourceLines(file.getKey(), file.getValue().split("\n", -1));
    }
    return helper;
  }

  private static final String[] ORDER_HANDLER = {
    "package shop.events;",
    "import java.sql.Connection;",
    "import java.sql.PreparedStatement;",
    "import javax.sql.DataSource;",
    "public class OrderEventHandler extends org.framework.EventHandler<String> {",
    "  private final DataSource dataSource;",
    "  public OrderEventHandler(DataSource dataSource) { this.dataSource = dataSource; }",
    "  @Override",
    "  // BUG: Diagnostic contains: OrderEventHandler.doHandle() runs under the monitor of the"
        + " OrderEventHandler instance, taken by EventHandler.handle() (a synchronized template"
        + " method it inherits), while it calls DataSource.getConnection()",
    "  protected void doHandle(String orderId) throws Exception {",
    "    try (Connection connection = dataSource.getConnection();",
    "        PreparedStatement insert = connection.prepareStatement(\"insert into orders values"
        + " (?)\")) {",
    "      insert.setString(1, orderId);",
    "      insert.executeUpdate();",
    "    }",
    "  }",
    "}"
  };

  /** Overrides that must stay silent whatever file or jar the framework comes from. */
  private static final String[] TWINS = {
    "package shop.events;",
    "import java.sql.Connection;",
    "import javax.sql.DataSource;",
    "public class Twins {",
    "  /** no I/O in the override */",
    "  public static class CountingHandler extends org.framework.EventHandler<String> {",
    "    private int count;",
    "    @Override protected void doHandle(String event) { count += event.length(); }",
    "  }",
    "  /** the template is not synchronized: the override runs outside the lock */",
    "  public static class LooseOrderHandler extends org.framework.LooseHandler<String> {",
    "    private final DataSource dataSource;",
    "    public LooseOrderHandler(DataSource dataSource) { this.dataSource = dataSource; }",
    "    @Override protected void doHandle(String orderId) throws Exception {",
    "      try (Connection c = dataSource.getConnection()) {",
    "        c.createStatement().executeUpdate(\"delete from orders\");",
    "      }",
    "    }",
    "  }",
    "  /** synchronized methods of the superclass that do not call the override; a static one",
    "   *  that calls it on another object, under the class monitor */",
    "  public static class AuditCounter extends org.framework.Counter {",
    "    private final DataSource dataSource;",
    "    public AuditCounter(DataSource dataSource) { this.dataSource = dataSource; }",
    "    @Override protected void record(String entry) throws Exception {",
    "      try (Connection c = dataSource.getConnection()) {",
    "        c.createStatement().executeUpdate(\"insert into audit values ('\" + entry + \"')\");",
    "      }",
    "    }",
    "  }",
    "  /** the subclass overrides the template itself, without synchronized: the template's lock",
    "   *  is never taken */",
    "  public static class UnlockedOrderHandler extends org.framework.EventHandler<String> {",
    "    private final DataSource dataSource;",
    "    public UnlockedOrderHandler(DataSource dataSource) { this.dataSource = dataSource; }",
    "    @Override public void handle(String event) throws Exception { doHandle(event); }",
    "    @Override protected void doHandle(String orderId) throws Exception {",
    "      try (Connection c = dataSource.getConnection()) {",
    "        c.createStatement().executeUpdate(\"delete from orders\");",
    "      }",
    "    }",
    "  }",
    "  /** run(String) is reported; runLater hands the hook to an executor: it runs later */",
    "  public static class ImportJob extends org.framework.Job {",
    "    private final DataSource dataSource;",
    "    public ImportJob(DataSource dataSource) { this.dataSource = dataSource; }",
    "    @Override",
    "    // BUG: Diagnostic contains: ImportJob.execute() runs under the monitor of the"
        + " Twins.ImportJob instance, taken by Job.run()",
    "    protected void execute(String input) throws Exception {",
    "      try (Connection c = dataSource.getConnection()) {",
    "        c.createStatement().executeUpdate(\"insert into imports values ('\" + input + \"')\");",
    "      }",
    "    }",
    "  }",
    "}"
  };

  @Test
  void superclassInTheSameFile() {
    compilation
        .addSourceLines(
            "shop/Handlers.java",
            "package shop;",
            "import java.sql.Connection;",
            "import javax.sql.DataSource;",
            "public class Handlers {",
            "  abstract static class Handler {",
            "    private long handled;",
            "    public synchronized void handle(long id) throws Exception {",
            "      handled++;",
            "      this.process(id);",
            "    }",
            "    protected abstract void process(long id) throws Exception;",
            "  }",
            "  static class ShipmentHandler extends Handler {",
            "    private final DataSource dataSource;",
            "    ShipmentHandler(DataSource dataSource) { this.dataSource = dataSource; }",
            "    @Override",
            "    // BUG: Diagnostic contains: Handlers.ShipmentHandler.process() runs under the"
                + " monitor of the Handlers.ShipmentHandler instance, taken by"
                + " Handlers.Handler.handle()",
            "    protected void process(long id) throws Exception {",
            "      try (Connection c = dataSource.getConnection()) {",
            "        c.createStatement().executeUpdate(\"update shipments set sent = 1 where id = \" + id);",
            "      }",
            "    }",
            "  }",
            "  /** super.process() in the template would not be this class's override */",
            "  static class Base {",
            "    protected void process(long id) throws Exception {}",
            "  }",
            "  abstract static class Middle extends Base {",
            "    public synchronized void handle(long id) throws Exception { super.process(id); }",
            "    @Override protected void process(long id) throws Exception {}",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void superclassInAnotherFileOfTheSameCompilation() {
    withFrameworkSources(compilation)
        .addSourceLines("shop/events/OrderEventHandler.java", ORDER_HANDLER)
        .addSourceLines("shop/events/Twins.java", TWINS)
        .doTest();
  }

  @Test
  void superclassInAJar() throws IOException {
    Path jar = frameworkJar();
    compilation
        .setArgs("-cp", jar + File.pathSeparator + System.getProperty("java.class.path"))
        .addSourceLines("shop/events/OrderEventHandler.java", ORDER_HANDLER)
        .addSourceLines("shop/events/Twins.java", TWINS)
        .doTest();
  }

  @Test
  void superclassInAClassDirectory() throws IOException {
    Path classes = dir.resolve("classes");
    compileFramework(classes);
    compilation
        .setArgs("-cp", classes + File.pathSeparator + System.getProperty("java.class.path"))
        .addSourceLines("shop/events/OrderEventHandler.java", ORDER_HANDLER)
        .addSourceLines("shop/events/Twins.java", TWINS)
        .doTest();
  }

  private void compileFramework(Path out) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<JavaFileObject> units = new ArrayList<>();
    for (Map.Entry<String, String> file : FRAMEWORK.entrySet()) {
      units.add(
          new SimpleJavaFileObject(
              URI.create("string:///" + file.getKey()), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return file.getValue();
            }
          });
    }
    Files.createDirectories(out);
    StringWriter errors = new StringWriter();
    boolean ok =
        javac
            .getTask(
                errors,
                null,
                null,
                List.of("-proc:none", "--release", "21", "-d", out.toString()),
                null,
                units)
            .call();
    if (!ok) {
      throw new AssertionError("the framework does not compile:\n" + errors);
    }
  }

  private Path frameworkJar() throws IOException {
    Path classes = dir.resolve("framework-classes");
    compileFramework(classes);
    Path jar = dir.resolve("framework-1.0.jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> files = Files.walk(classes)) {
      for (Path path : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(path));
        out.closeEntry();
      }
    }
    return jar;
  }
}
