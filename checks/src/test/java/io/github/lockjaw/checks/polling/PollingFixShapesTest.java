package io.github.lockjaw.checks.polling;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 4: the polling fix on records, enums, interfaces, anonymous and local classes
 * neither crashes javac nor writes code that does not compile.
 */
class PollingFixShapesTest {

  @Test
  void aRecordAndAnEnumGetTheFix() {
    String[] output = {
      "record Job(Thread worker) {",
      "  void await() throws InterruptedException {",
      "    worker.join();",
      "  }",
      "  enum Phase {",
      "    A, B;",
      "    static void await(Thread t) throws InterruptedException {",
      "      t.join();",
      "    }",
      "  }",
      "}"
    };
    BugCheckerRefactoringTestHelper.newInstance(ThreadAliveBusyWait.class, getClass())
        .addInputLines(
            "Job.java",
            "record Job(Thread worker) {",
            "  void await() throws InterruptedException {",
            "    while (worker.isAlive()) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  enum Phase {",
            "    A, B;",
            "    static void await(Thread t) throws InterruptedException {",
            "      while (t.isAlive()) {",
            "        Thread.sleep(10);",
            "      }",
            "    }",
            "  }",
            "}")
        .addOutputLines("Job.java", output)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
    CompilationTestHelper.newInstance(ThreadAliveBusyWait.class, getClass())
        .addSourceLines("Job.java", output)
        .expectNoDiagnostics()
        .doTest();
  }

  @Test
  void interfacesAnonymousAndLocalClassesDoNotCrash() {
    CompilationTestHelper.newInstance(ThreadAliveBusyWait.class, getClass())
        .addSourceLines(
            "Waits.java",
            "interface Waits {",
            "  default void await(Thread t) throws InterruptedException {",
            "    // BUG: Diagnostic contains: ThreadAliveBusyWait",
            "    while (t.isAlive()) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  static Runnable task(Thread t) {",
            "    class Local {",
            "      void await() throws InterruptedException {",
            "        // BUG: Diagnostic contains: ThreadAliveBusyWait",
            "        while (t.isAlive()) {",
            "          Thread.sleep(10);",
            "        }",
            "      }",
            "    }",
            "    return new Runnable() {",
            "      public void run() {",
            "        try {",
            "          // BUG: Diagnostic contains: ThreadAliveBusyWait",
            "          while (t.isAlive()) {",
            "            Thread.sleep(10);",
            "          }",
            "          new Local().await();",
            "        } catch (InterruptedException e) {",
            "          Thread.currentThread().interrupt();",
            "        }",
            "      }",
            "    };",
            "  }",
            "}")
        .doTest();
  }
}
