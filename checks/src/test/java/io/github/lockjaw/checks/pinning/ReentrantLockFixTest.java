package io.github.lockjaw.checks.pinning;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/** The fix of VirtualThreadPinning: every output is compiled, and lockjaw is silent on it. */
class ReentrantLockFixTest {

  private static void fix(String file, String[] input, String[] output) {
    BugCheckerRefactoringTestHelper.newInstance(
            VirtualThreadPinning.class, ReentrantLockFixTest.class)
        .addInputLines(file, input)
        .addOutputLines(file, output)
        .setArgs("--release", "21")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
    CompilationTestHelper.newInstance(VirtualThreadPinning.class, ReentrantLockFixTest.class)
        .addSourceLines(file, output)
        .setArgs("--release", "21")
        .expectNoDiagnostics()
        .doTest();
  }

  /** Flagged where the input's BUG comments say, and left unchanged. */
  private static void noFix(String file, String... input) {
    CompilationTestHelper.newInstance(VirtualThreadPinning.class, ReentrantLockFixTest.class)
        .addSourceLines(file, input)
        .setArgs("--release", "21")
        .doTest();
    BugCheckerRefactoringTestHelper.newInstance(
            VirtualThreadPinning.class, ReentrantLockFixTest.class)
        .addInputLines(file, input)
        .expectUnchanged()
        .setArgs("--release", "21")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void theMonitorOfAFinalClassBecomesALockFieldForEveryMethodAndBlockOnIt() {
    fix(
        "AuditLog.java",
        new String[] {
          "import java.sql.Connection;",
          "import java.sql.SQLException;",
          "import java.util.concurrent.ExecutorService;",
          "import java.util.concurrent.Executors;",
          "import javax.sql.DataSource;",
          "",
          "public final class AuditLog {",
          "  private final DataSource dataSource;",
          "  private final ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor();",
          "  private int written;",
          "",
          "  public AuditLog(DataSource dataSource) {",
          "    this.dataSource = dataSource;",
          "  }",
          "",
          "  public void record(String event) {",
          "    writers.submit(() -> write(event));",
          "  }",
          "",
          "  synchronized void write(String event) {",
          "    try (Connection connection = dataSource.getConnection()) {",
          "      connection.createStatement().execute(\"insert into audit values ('\" + event + \"')\");",
          "",
          "      written++;",
          "    } catch (SQLException e) {",
          "      throw new IllegalStateException(e);",
          "    }",
          "  }",
          "",
          "  int written() {",
          "    synchronized (this) {",
          "      return written;",
          "    }",
          "  }",
          "}"
        },
        new String[] {
          "import java.sql.Connection;",
          "import java.sql.SQLException;",
          "import java.util.concurrent.ExecutorService;",
          "import java.util.concurrent.Executors;",
          "import java.util.concurrent.locks.ReentrantLock;",
          "import javax.sql.DataSource;",
          "",
          "public final class AuditLog {",
          "  private final ReentrantLock lock = new ReentrantLock();",
          "  private final DataSource dataSource;",
          "  private final ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor();",
          "  private int written;",
          "",
          "  public AuditLog(DataSource dataSource) {",
          "    this.dataSource = dataSource;",
          "  }",
          "",
          "  public void record(String event) {",
          "    writers.submit(() -> write(event));",
          "  }",
          "",
          "  void write(String event) {",
          "    lock.lock();",
          "    try {",
          "      try (Connection connection = dataSource.getConnection()) {",
          "        connection.createStatement().execute(\"insert into audit values ('\" + event + \"')\");",
          "",
          "        written++;",
          "      } catch (SQLException e) {",
          "        throw new IllegalStateException(e);",
          "      }",
          "    } finally {",
          "      lock.unlock();",
          "    }",
          "  }",
          "",
          "  int written() {",
          "    lock.lock();",
          "    try {",
          "      return written;",
          "    } finally {",
          "      lock.unlock();",
          "    }",
          "  }",
          "}"
        });
  }

  @Test
  void aPrivateLockObjectBecomesTheReentrantLock() {
    fix(
        "SessionRefresher.java",
        new String[] {
          "import java.util.concurrent.TimeUnit;",
          "",
          "public class SessionRefresher {",
          "  private final Object lock = new Object();",
          "  private int sessions;",
          "",
          "  public void start() {",
          "    Thread.ofVirtual().start(this::refresh);",
          "  }",
          "",
          "  void refresh() {",
          "    synchronized (lock) {",
          "      try {",
          "        TimeUnit.SECONDS.sleep(1);",
          "      } catch (InterruptedException e) {",
          "        Thread.currentThread().interrupt();",
          "      }",
          "      sessions = 0;",
          "    }",
          "  }",
          "",
          "  public int sessions() {",
          "    synchronized (this.lock) {",
          "      return sessions;",
          "    }",
          "  }",
          "}"
        },
        new String[] {
          "import java.util.concurrent.TimeUnit;",
          "import java.util.concurrent.locks.ReentrantLock;",
          "",
          "public class SessionRefresher {",
          "  private final ReentrantLock lock = new ReentrantLock();",
          "  private int sessions;",
          "",
          "  public void start() {",
          "    Thread.ofVirtual().start(this::refresh);",
          "  }",
          "",
          "  void refresh() {",
          "    lock.lock();",
          "    try {",
          "      try {",
          "        TimeUnit.SECONDS.sleep(1);",
          "      } catch (InterruptedException e) {",
          "        Thread.currentThread().interrupt();",
          "      }",
          "      sessions = 0;",
          "    } finally {",
          "      lock.unlock();",
          "    }",
          "  }",
          "",
          "  public int sessions() {",
          "    lock.lock();",
          "    try {",
          "      return sessions;",
          "    } finally {",
          "      lock.unlock();",
          "    }",
          "  }",
          "}"
        });
  }

  @Test
  void noFixWhenOtherCodeMayLockTheSameObjectOrWaitsOnIt() {
    noFix(
        "Mailbox.java",
        "import java.util.concurrent.Executors;",
        "import java.util.concurrent.TimeUnit;",
        "",
        "public class Mailbox {",
        "  private final Object lock = new Object();",
        "  private final Object signal = new Object();",
        "",
        "  public void start() {",
        "    Executors.newVirtualThreadPerTaskExecutor().submit(this::poll);",
        "    Executors.newVirtualThreadPerTaskExecutor().submit(this::await);",
        "    Executors.newVirtualThreadPerTaskExecutor().submit(this::handOver);",
        "  }",
        "",
        "  // a public class others may extend or lock: its synchronized methods stay",
        "  // BUG: Diagnostic contains: poll() holds the monitor of the Mailbox instance",
        "  synchronized Object poll() throws InterruptedException {",
        "    TimeUnit.MILLISECONDS.sleep(10);",
        "    return null;",
        "  }",
        "",
        "  Object await() throws InterruptedException {",
        "    // BUG: Diagnostic contains: Object.wait() (a blocking wait)",
        "    synchronized (signal) {",
        "      signal.wait(10);",
        "    }",
        "    return null;",
        "  }",
        "",
        "  Object handOver() throws InterruptedException {",
        "    // BUG: Diagnostic contains: Thread.sleep() (a sleep)",
        "    synchronized (lock) {",
        "      Thread.sleep(5);",
        "    }",
        "    Registry.register(lock);",
        "    return null;",
        "  }",
        "",
        "  static final class Registry {",
        "    static void register(Object monitor) {}",
        "  }",
        "}");
  }
}
