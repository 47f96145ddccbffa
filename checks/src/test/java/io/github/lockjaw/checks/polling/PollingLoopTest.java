package io.github.lockjaw.checks.polling;

import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.errorprone.BugPattern;
import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.VisitorState;
import com.google.errorprone.matchers.Description;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Tests of the loop analysis itself ({@link BusyWaitQuery} over the model: {@link PolledTest},
 * {@link PassWork}, the loop's exits and varying calls) and of the trees the fix reads ({@link
 * LoopTrees}, {@link PollReceiver}): a test-only checker reports what the analysis found on every
 * loop it accepts, as Error Prone's HeldLockAnalyzerTest does for its lock analysis.
 */
class PollingLoopTest {

  /** Reports, on every loop the analysis accepts, what it found. */
  @BugPattern(summary = "Prints what BusyWaitQuery found", severity = WARNING)
  public static final class PollingLoopPrinter extends ModelChecker {
    private static final ModelQuery QUERY = new BusyWaitQuery();

    @Override
    protected ModelQuery query() {
      return QUERY;
    }

    @Override
    protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
      BusyWait wait = (BusyWait) finding.detail();
      Optional<LoopTrees> found = LoopTrees.of(anchor, null, wait, state);
      if (found.isEmpty()) {
        return Description.NO_MATCH;
      }
      LoopTrees polling = found.get();
      String message =
          "shape="
              + wait.shape()
              + " polls="
              + wait.polled().typeSimpleName()
              + "#"
              + wait.polled().method()
              + " receiver="
              + (wait.shape() == PolledTest.Shape.EACH ? "" : polling.subject())
              + " work="
              + wait.work()
              + " onlyWaits="
              + wait.onlyWaits()
              + " interruptTry="
              + polling.interruptTry().isPresent()
              + " exitReturn="
              + (wait.exitReturn() >= 0)
              + " busy="
              + polling.busyExpression()
              + " collection="
              + (wait.shape() == PolledTest.Shape.EACH ? polling.collection() : "-")
              + " shared="
              + polling.sharedReceiverReason().orElse("no")
              + " rewrite="
              + polling.noRewrite().orElse("yes");
      return buildDescription(polling.loop()).setMessage(message).build();
    }
  }

  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(PollingLoopPrinter.class, getClass());

  @Test
  void loopShapeReadsTheHeaderConditionAndExitTestsInTheBody() {
    compilation
        .addSourceLines(
            "Waits.java",
            """
            import java.util.concurrent.Future;
            class Waits {
              void header(Thread t) {
                // BUG: Diagnostic contains: shape=SINGLE polls=Thread#isAlive receiver=t. work=SPIN onlyWaits=true interruptTry=false exitReturn=false busy=t.isAlive()
                while (t.isAlive()) {
                  Thread.onSpinWait();
                }
              }
              void breakTest(Thread t) {
                // BUG: Diagnostic contains: receiver=t. work=SPIN onlyWaits=true interruptTry=false exitReturn=false busy=t.isAlive()
                while (true) {
                  if (!t.isAlive()) {
                    break;
                  }
                  Thread.yield();
                }
              }
              String returnTest(Future<String> f) throws Exception {
                // BUG: Diagnostic contains: polls=Future#isDone receiver=f. work=SPIN onlyWaits=true interruptTry=false exitReturn=true busy=!f.isDone()
                for (;;) {
                  if (f.isDone()) {
                    return f.get();
                  }
                  Thread.onSpinWait();
                }
              }
              void doWhile(Thread t) {
                // BUG: Diagnostic contains: shape=SINGLE polls=Thread#isAlive receiver=t. work=SPIN onlyWaits=true
                do {
                  Thread.yield();
                } while (t.isAlive());
              }
              void noPoll(Thread t, boolean ready) {
                while (!ready) {
                  Thread.onSpinWait();
                }
                while (true) {
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void loopExitsOtherThanThePollMeanTheLoopDoesMoreThanWait() {
    compilation
        .addSourceLines(
            "Exits.java",
            """
            class Exits {
              volatile boolean cancelled;
              void secondCondition(Thread t) {
                // BUG: Diagnostic contains: onlyWaits=false
                while (t.isAlive() && !cancelled) {
                  Thread.onSpinWait();
                }
              }
              void throwsOut(Thread t) {
                // BUG: Diagnostic contains: onlyWaits=false
                while (t.isAlive()) {
                  Thread.onSpinWait();
                  if (cancelled) {
                    throw new IllegalStateException("cancelled");
                  }
                }
              }
              void breakInsideSwitchStaysInTheLoop(Thread t, int mode) {
                // the switch only chooses whether to pause: each pass still only waits, but the
                // fix rewrites only loops whose statements are pauses
                // BUG: Diagnostic contains: work=SPIN onlyWaits=true interruptTry=false exitReturn=false busy=t.isAlive() collection=- shared=no rewrite=the loop's statements are more than its exit test and a pause
                while (t.isAlive()) {
                  switch (mode) {
                    case 1:
                      break;
                    default:
                      Thread.onSpinWait();
                  }
                }
              }
              void interruptCatchMayLeave(Thread t) {
                // BUG: Diagnostic contains: work=SPIN onlyWaits=true interruptTry=true
                while (t.isAlive()) {
                  try {
                    Thread.sleep(10);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void pauseDurationDecidesBetweenSpinAndWatchdog() {
    compilation
        .addSourceLines(
            "Pauses.java",
            """
            import java.time.Duration;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.locks.LockSupport;
            class Pauses {
              static final long SHORT = 20;
              void shortSleeps(Thread t) throws InterruptedException {
                // BUG: Diagnostic contains: work=SPIN
                while (t.isAlive()) {
                  Thread.sleep(SHORT);
                }
                // BUG: Diagnostic contains: work=SPIN
                while (t.isAlive()) {
                  TimeUnit.MILLISECONDS.sleep(50);
                }
                // BUG: Diagnostic contains: work=SPIN
                while (t.isAlive()) {
                  Thread.sleep(Duration.ofMillis(100));
                }
                // BUG: Diagnostic contains: work=SPIN
                while (t.isAlive()) {
                  LockSupport.parkNanos(1_000_000L);
                }
              }
              void watchdogsAndUnknownPausesAreNotPollingLoops(Thread t, long pause)
                  throws InterruptedException {
                while (t.isAlive()) {
                  Thread.sleep(5_000);
                }
                while (t.isAlive()) {
                  TimeUnit.SECONDS.sleep(1);
                }
                while (t.isAlive()) {
                  Thread.sleep(Duration.ofSeconds(2));
                }
                while (t.isAlive()) {
                  Thread.sleep(pause);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void loopWorkClassifiesWhatEachPassDoesAndRejectsLoopsThatBlock() {
    compilation
        .addSourceLines(
            "Work.java",
            """
            import java.util.concurrent.BlockingQueue;
            class Work {
              int passes;
              void counts(Thread t) {
                // BUG: Diagnostic contains: work=OTHER onlyWaits=false
                while (t.isAlive()) {
                  passes++;
                  Thread.onSpinWait();
                }
              }
              void helperThatOnlyCounts(Thread t) {
                // BUG: Diagnostic contains: work=OTHER onlyWaits=false
                while (t.isAlive()) {
                  count();
                }
              }
              private void count() {
                passes++;
              }
              // a loop that blocks, or calls code lockjaw cannot see into, is no polling loop
              void blocksOnAQueue(Thread t, BlockingQueue<String> queue) throws InterruptedException {
                while (t.isAlive()) {
                  queue.take();
                }
              }
              void callsUnknownCode(Thread t, Runnable step) {
                while (t.isAlive()) {
                  step.run();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void pollReceiverTellsStableFromSharedAndChangingReceivers() {
    compilation
        .addSourceLines(
            "Receivers.java",
            """
            import java.util.List;
            class Receivers {
              volatile Thread current;
              final Thread[] workers = new Thread[2];
              record Job(Thread thread) {}
              void volatileField() {
                // BUG: Diagnostic contains: shared=the field is volatile
                while (current.isAlive()) {
                  Thread.onSpinWait();
                }
              }
              void arraySlot() {
                // BUG: Diagnostic contains: shared=another thread may store a different object in that array slot
                while (workers[0].isAlive()) {
                  Thread.onSpinWait();
                }
              }
              void listElement(List<Thread> threads) {
                // BUG: Diagnostic contains: shared=another thread may replace that collection element
                while (threads.get(0).isAlive()) {
                  Thread.onSpinWait();
                }
              }
              void recordComponentOfALocal(Job job) {
                // BUG: Diagnostic contains: receiver=job.thread(). work=SPIN onlyWaits=true interruptTry=false exitReturn=false busy=job.thread().isAlive() collection=- shared=no
                while (job.thread().isAlive()) {
                  Thread.onSpinWait();
                }
              }
              void receiverReassignedInTheLoop(Thread t, List<Thread> rest) {
                int i = 0;
                while (t.isAlive()) {
                  t = rest.get(i++);
                }
              }
              void currentThreadIsNoStableReceiver() {
                while (Thread.currentThread().isAlive()) {
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void eachShapeWaitsForEveryElementOfACollection() {
    compilation
        .addSourceLines(
            "Each.java",
            """
            import java.util.List;
            class Each {
              void stream(List<Thread> threads) throws InterruptedException {
                // the stream calls in the condition are work too (known not to block)
                // BUG: Diagnostic contains: shape=EACH polls=Thread#isAlive receiver= work=OTHER onlyWaits=false interruptTry=false exitReturn=false busy=threads.stream().anyMatch(Thread::isAlive) collection=threads
                while (threads.stream().anyMatch(Thread::isAlive)) {
                  Thread.sleep(10);
                }
              }
              void nestedLoop(List<Thread> threads) throws InterruptedException {
                boolean anyAlive = true;
                // BUG: Diagnostic contains: shape=EACH polls=Thread#isAlive receiver= work=OTHER onlyWaits=false interruptTry=false exitReturn=false busy=anyAlive collection=threads
                while (anyAlive) {
                  anyAlive = false;
                  for (Thread t : threads) {
                    if (t.isAlive()) {
                      anyAlive = true;
                    }
                  }
                  Thread.sleep(10);
                }
              }
            }
            """)
        .doTest();
  }
}
