package io.github.lockjaw.checks.polling;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: busy-waits the model finds beyond the shapes the old matcher knew (an {@code
 * exitValue()} wrapper, a helper in another class, an anonymous {@code Callable}), and waits that
 * only set-up or test code reaches, by the call graph.
 */
class BusyWaitModelShapesTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ThreadAliveBusyWait.class, getClass());

  @Test
  void anExitValueWrapperIsAPollOfTheProcess() {
    compilation
        .addSourceLines(
            "ProcessUtil.java",
            """
            final class ProcessUtil {
              private ProcessUtil() {}
              static boolean isRunning(Process process) {
                try {
                  process.exitValue();
                  return false;
                } catch (IllegalThreadStateException stillRunning) {
                  return true;
                }
              }
              static boolean exitedCleanly(Process process) {
                try {
                  return process.exitValue() == 0;
                } catch (IllegalThreadStateException stillRunning) {
                  return false;
                }
              }
            }
            """)
        .addSourceLines(
            "Converter.java",
            """
            import java.io.IOException;
            public class Converter {
              public int convert(String file) throws IOException, InterruptedException {
                Process convert = new ProcessBuilder("convert", file, "out.png").start();
                // BUG: Diagnostic contains: polls convert.isAlive() until the process exits
                while (ProcessUtil.isRunning(convert)) {
                  Thread.sleep(10);
                }
                return convert.exitValue();
              }
              public boolean convertQuietly(String file) throws IOException, InterruptedException {
                Process convert = new ProcessBuilder("convert", file, "out.png").start();
                // not the wrapper: this helper's answer is whether the process succeeded
                while (!ProcessUtil.exitedCleanly(convert)) {
                  Thread.sleep(10);
                }
                return true;
              }
            }
            """)
        .doTest();
  }

  @Test
  void aHelperInAnotherClassAndAnAnonymousCallable() {
    compilation
        .addSourceLines(
            "Threads.java",
            """
            final class Threads {
              private Threads() {}
              static boolean running(Thread thread) {
                return thread.isAlive();
              }
              static boolean runningAndLogged(Thread thread) {
                System.out.println("polling " + thread.getName());
                return thread.isAlive();
              }
            }
            """)
        .addSourceLines(
            "ReportService.java",
            """
            import java.util.concurrent.Callable;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Future;
            public class ReportService {
              private final ExecutorService pool;
              ReportService(ExecutorService pool) {
                this.pool = pool;
              }
              public void awaitRender(Thread renderer) throws InterruptedException {
                // BUG: Diagnostic contains: (No automatic fix: the poll is read through the helper running().)
                while (Threads.running(renderer)) {
                  Thread.onSpinWait();
                }
              }
              public void awaitLogged(Thread renderer) throws InterruptedException {
                while (Threads.runningAndLogged(renderer)) {
                  Thread.onSpinWait();
                }
              }
              public Future<String> render(Future<String> data) {
                return pool.submit(
                    new Callable<String>() {
                      @Override
                      public String call() throws Exception {
                        // BUG: Diagnostic contains: data.get()
                        while (!data.isDone()) {
                          Thread.sleep(5);
                        }
                        return data.get().trim();
                      }
                    });
              }
            }
            """)
        .doTest();
  }

  @Test
  void waitsThatOnlySetUpOrTestsReachAreSilentByTheCallGraph() {
    compilation
        .addSourceLines(
            "Indexer.java",
            """
            public class Indexer {
              private final Thread loader = new Thread(() -> {}, "index-loader");
              // start-up reaches the helper, whatever its name
              public void start() throws InterruptedException {
                loader.start();
                settle();
              }
              private void settle() throws InterruptedException {
                while (loader.isAlive()) {
                  Thread.sleep(10);
                }
              }
              // a request reaches this one
              public String search(String query) throws InterruptedException {
                prepare();
                return query;
              }
              private void prepare() throws InterruptedException {
                // BUG: Diagnostic contains: loader.join()
                while (loader.isAlive()) {
                  Thread.sleep(10);
                }
              }
            }
            """)
        .addSourceLines(
            "IndexerTest.java",
            """
            public class IndexerTest {
              @org.junit.jupiter.api.Test
              void loads() throws InterruptedException {
                Thread t = new Thread(() -> {});
                t.start();
                while (t.isAlive()) {
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void aHelperOnlyMainReachesIsTheProgramsWork() {
    compilation
        .addSourceLines(
            "LoadDriver.java",
            """
            public class LoadDriver {
              public static void main(String[] args) throws InterruptedException {
                Thread client = new Thread(() -> {});
                client.start();
                awaitClient(client);
              }
              private static void awaitClient(Thread client) {
                // BUG: Diagnostic contains: client.join()
                while (client.isAlive()) {
                  Thread.yield();
                }
              }
            }
            """)
        .doTest();
  }
}
