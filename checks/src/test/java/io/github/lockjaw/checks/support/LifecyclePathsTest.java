package io.github.lockjaw.checks.support;

import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.errorprone.BugPattern;
import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.MethodTree;
import org.junit.jupiter.api.Test;

/**
 * Tests of the in-file reach analysis itself: a test-only checker reports every method that {@link
 * LifecyclePaths} finds lifecycle-only, with the default lifecycle predicate.
 */
class LifecyclePathsTest {

  /** Reports each lifecycle-only method. */
  @BugPattern(summary = "Prints what LifecyclePaths found", severity = WARNING)
  public static final class LifecyclePathsPrinter extends BugChecker implements MethodTreeMatcher {
    @Override
    public Description matchMethod(MethodTree tree, VisitorState state) {
      return LifecyclePaths.of(state).isLifecycleOnly(tree)
          ? buildDescription(tree).setMessage("lifecycle-only").build()
          : Description.NO_MATCH;
    }
  }

  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(LifecyclePathsPrinter.class, getClass());

  @Test
  void helpersReachedOnlyFromStopAreLifecycleOnlyTransitively() {
    compilation
        .addSourceLines(
            "WebappLoader.java",
            """
            import java.util.ArrayList;
            import java.util.List;
            public class WebappLoader {
              private final List<Thread> threads = new ArrayList<>();
              public void stop() {
                clearReferences();
              }
              // BUG: Diagnostic contains: lifecycle-only
              protected void clearReferences() {
                clearReferencesThreads();
                clearReferencesThreads();
              }
              // BUG: Diagnostic contains: lifecycle-only
              private void clearReferencesThreads() {
                for (Thread thread : threads) {
                  waitFor(thread);
                }
              }
              // BUG: Diagnostic contains: lifecycle-only
              private static void waitFor(Thread thread) {
                thread.interrupt();
              }
              public Class<?> loadClass(String name) throws ClassNotFoundException {
                return Class.forName(name);
              }
            }
            """)
        .doTest();
  }

  @Test
  void constructorsInitialisersSettersAndAnnotatedSetUpAreAnchors() {
    compilation
        .addSourceLines(
            "jakarta/annotation/PostConstruct.java",
            "package jakarta.annotation;",
            "public @interface PostConstruct {}")
        .addSourceLines(
            "Anchors.java",
            """
            import jakarta.annotation.PostConstruct;
            class Anchors {
              static final Object DEFAULTS = defaults();
              private final Object config = config();
              private int size;
              { warm(); }
              Anchors() {
                prepare();
              }
              // BUG: Diagnostic contains: lifecycle-only
              private static Object defaults() {
                return new Object();
              }
              // BUG: Diagnostic contains: lifecycle-only
              private Object config() {
                return new Object();
              }
              // BUG: Diagnostic contains: lifecycle-only
              private void warm() {}
              // BUG: Diagnostic contains: lifecycle-only
              private void prepare() {}
              public void setSize(int size) {
                this.size = size;
                resize();
              }
              // BUG: Diagnostic contains: lifecycle-only
              private void resize() {}
              @PostConstruct
              public void ready() {
                check();
              }
              // BUG: Diagnostic contains: lifecycle-only
              void check() {}
            }
            """)
        .doTest();
  }

  @Test
  void aRequestCallerALambdaOrAMethodReferenceIsNotLifecycleCode() {
    compilation
        .addSourceLines(
            "Container.java",
            """
            import java.util.concurrent.ExecutorService;
            import java.util.function.Consumer;
            public class Container {
              private final ExecutorService executor;
              public Container(ExecutorService executor) {
                this.executor = executor;
              }
              public void stop() {
                awaitWorkers();
                executor.execute(() -> drain());
                Consumer<String> log = this::log;
                log.accept("stopped");
                new Thread() {
                  { anonymousInit(); }
                }.start();
                cycleA();
              }
              // also called per request
              private void awaitWorkers() {}
              public void handle(String request) {
                awaitWorkers();
              }
              // called inside a lambda: it runs wherever the lambda runs
              private void drain() {}
              private void log(String message) {}
              private void anonymousInit() {}
              // never called here
              private void unused() {}
              // a cycle reached from stop() is lifecycle-only ...
              // BUG: Diagnostic contains: lifecycle-only
              private void cycleA() {
                cycleB();
              }
              // BUG: Diagnostic contains: lifecycle-only
              private void cycleB() {
                cycleA();
              }
              // ... a cycle nobody anchors is not
              private void loopA() {
                loopB();
              }
              private void loopB() {
                loopA();
              }
            }
            """)
        .doTest();
  }

  @Test
  void publicMethodsAndOverridesCanBeCalledFromElsewhere() {
    compilation
        .addSourceLines(
            "Pool.java",
            """
            abstract class Base {
              protected void evict() {}
              abstract void release();
            }
            public class Pool extends Base implements AutoCloseable {
              public void close() {
                clearNow();
                evict();
                release();
                reset();
              }
              // reached only from close(), but public: anybody may call it
              public void clearNow() {}
              @Override
              protected void evict() {}
              void release() {}
              // a protected helper also called from an unknown public method
              protected void reset() {}
              public void borrow() {
                reset();
              }
            }
            """)
        .doTest();
  }

  @Test
  void nestedClassesOfTheFileCount() {
    compilation
        .addSourceLines(
            "Server.java",
            """
            public class Server {
              // BUG: Diagnostic contains: lifecycle-only
              private void closeSockets() {}
              private void flushLogs() {}
              static class Connector {
                private final Server server;
                Connector(Server server) {
                  this.server = server;
                }
                void stopInternal() {
                  server.closeSockets();
                }
                void service() {
                  server.flushLogs();
                }
              }
              public void destroy() {
                flushLogs();
              }
            }
            """)
        .doTest();
  }
}
