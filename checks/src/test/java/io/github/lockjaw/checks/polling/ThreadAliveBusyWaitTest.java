package io.github.lockjaw.checks.polling;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class ThreadAliveBusyWaitTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ThreadAliveBusyWait.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(ThreadAliveBusyWait.class, getClass());

  // ---------------------------------------------------------------------------------------------
  // Positives
  // ---------------------------------------------------------------------------------------------

  @Test
  void loopsWaitingForThreadsToStartOrForOneToFinishAreNotThisCheck() {
    compilation
        .addSourceLines(
            "Startup.java",
            "import java.util.List;",
            "public class Startup {",
            "  void awaitStarted(List<Thread> workers) throws InterruptedException {",
            "    while (workers.stream().noneMatch(Thread::isAlive)) {",
            "      Thread.sleep(1);",
            "    }",
            "    while (!workers.stream().anyMatch(Thread::isAlive)) {",
            "      Thread.sleep(1);",
            "    }",
            "    while (workers.stream().allMatch(Thread::isAlive)) {",
            "      Thread.sleep(1);",
            "    }",
            "  }",
            "  void awaitAllDone(List<Thread> workers) throws InterruptedException {",
            "    // BUG: Diagnostic contains: ThreadAliveBusyWait",
            "    while (!workers.stream().noneMatch(Thread::isAlive)) {",
            "      Thread.sleep(1);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void loadTestClientFromTheFieldReport() {
    compilation
        .addSourceLines(
            "LoadClient.java",
            """
            import java.util.concurrent.atomic.AtomicLong;
            public class LoadClient {
              private final AtomicLong completed = new AtomicLong();
              public static void main(String[] args) throws Exception {
                LoadClient client = new LoadClient();
                Thread thread = new Thread(client::fireRequests, "load-client");
                thread.start();
                // BUG: Diagnostic contains: Block in thread.join() instead
                while (true) {
                  if (thread.isAlive()) {
                    continue;
                  } else {
                    break;
                  }
                }
                System.out.println("requests: " + client.completed.get());
              }
              private void fireRequests() {
                for (int i = 0; i < 1000; i++) {
                  completed.incrementAndGet();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void emptyBodyOnLocalThread() {
    compilation
        .addSourceLines(
            "ReportExporter.java",
            """
            public class ReportExporter {
              public void export(Runnable writer) throws InterruptedException {
                Thread exporter = new Thread(writer);
                exporter.start();
                // BUG: Diagnostic contains: polls exporter.isAlive() until the thread ends
                while (exporter.isAlive()) {}
              }
            }
            """)
        .doTest();
  }

  @Test
  void shortSleepOnFieldThread() {
    compilation
        .addSourceLines(
            "IndexRebuilder.java",
            """
            public class IndexRebuilder {
              private static final long POLL_MILLIS = 10;
              private Thread rebuildThread;
              public void start(Runnable rebuild) {
                rebuildThread = new Thread(rebuild, "index-rebuild");
                rebuildThread.start();
              }
              public void awaitRebuild() throws InterruptedException {
                // BUG: Diagnostic contains: this.rebuildThread.join()
                while (this.rebuildThread.isAlive()) Thread.sleep(POLL_MILLIS);
              }
            }
            """)
        .doTest();
  }

  @Test
  void arrayElementWithYield() {
    compilation
        .addSourceLines(
            "Crawler.java",
            """
            public class Crawler {
              private final Thread[] fetchers = new Thread[8];
              public void awaitFetcher(int slot) throws InterruptedException {
                // BUG: Diagnostic contains: fetchers[slot].join()
                while (fetchers[slot].isAlive()) {
                  Thread.yield();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void collectionElementWithOnSpinWait() {
    compilation
        .addSourceLines(
            "ShardMigrator.java",
            """
            import java.util.ArrayList;
            import java.util.List;
            public class ShardMigrator {
              private final List<Thread> movers = new ArrayList<>();
              public void awaitFirstMover() throws InterruptedException {
                // BUG: Diagnostic contains: movers.get(0).join()
                while (movers.get(0).isAlive()) {
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void doWhileOnFutureHasNoFixBecauseGetThrowsDifferently() {
    compilation
        .addSourceLines(
            "PriceFeed.java",
            """
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Future;
            public class PriceFeed {
              private final ExecutorService pool;
              PriceFeed(ExecutorService pool) { this.pool = pool; }
              public boolean refresh(Runnable job) throws InterruptedException {
                Future<?> pending = pool.submit(job);
                // BUG: Diagnostic contains: ExecutionException
                do {
                  Thread.sleep(5);
                } while (!pending.isDone());
                return !pending.isCancelled();
              }
            }
            """)
        .doTest();
  }

  @Test
  void executorTermination() {
    compilation
        .addSourceLines(
            "BatchImporter.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            public class BatchImporter {
              public void importAll(List<Runnable> batches) throws InterruptedException {
                ExecutorService workers = Executors.newFixedThreadPool(4);
                batches.forEach(workers::execute);
                workers.shutdown();
                // BUG: Diagnostic contains: workers.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS)
                while (!workers.isTerminated()) {
                  Thread.sleep(50);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void externalProcessWithTimeUnitSleep() {
    compilation
        .addSourceLines(
            "ThumbnailRenderer.java",
            """
            import java.io.IOException;
            import java.util.concurrent.TimeUnit;
            public class ThumbnailRenderer {
              public int render(String image) throws IOException, InterruptedException {
                Process convert = new ProcessBuilder("convert", image, "thumb.png").start();
                // BUG: Diagnostic contains: convert.waitFor()
                while (convert.isAlive()) {
                  TimeUnit.MILLISECONDS.sleep(100);
                }
                return convert.exitValue();
              }
            }
            """)
        .doTest();
  }

  @Test
  void latchCountWithParkNanosAndForeverFor() {
    compilation
        .addSourceLines(
            "CacheWarmer.java",
            """
            import java.util.concurrent.CountDownLatch;
            import java.util.concurrent.locks.LockSupport;
            public class CacheWarmer {
              private final CountDownLatch warmed = new CountDownLatch(3);
              public void awaitWarm() throws InterruptedException {
                // BUG: Diagnostic contains: warmed.await()
                while (warmed.getCount() > 0) {
                  LockSupport.parkNanos(1_000_000L);
                }
              }
              public void awaitWarmAgain() throws InterruptedException {
                // BUG: Diagnostic contains: until the latch reaches zero
                for (;;) {
                  if (warmed.getCount() == 0) break;
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void eachThreadOfACollectionSpunInTurn() {
    compilation
        .addSourceLines(
            "LoadDriver.java",
            """
            import java.util.List;
            public class LoadDriver {
              public void awaitClients(List<Thread> clients) throws InterruptedException {
                for (Thread client : clients) {
                  // BUG: Diagnostic contains: client.join()
                  while (client.isAlive()) {
                    Thread.sleep(1);
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void allDeadFlagRecomputedOverCollection() {
    compilation
        .addSourceLines(
            "Benchmark.java",
            """
            import java.util.List;
            public class Benchmark {
              public void awaitAll(List<Thread> agents) throws InterruptedException {
                boolean anyAlive = true;
                // BUG: Diagnostic contains: for (Thread each : agents) each.join();
                while (anyAlive) {
                  anyAlive = false;
                  for (Thread agent : agents) {
                    if (agent.isAlive()) {
                      anyAlive = true;
                    }
                  }
                  Thread.sleep(10);
                }
              }
              public void awaitAllCounting(Thread[] agents) {
                int running;
                // BUG: Diagnostic contains: on every element of agents
                do {
                  running = 0;
                  for (Thread agent : agents) {
                    if (agent.isAlive()) running++;
                  }
                } while (running > 0);
              }
            }
            """)
        .doTest();
  }

  @Test
  void streamAnyMatchOverFutures() {
    compilation
        .addSourceLines(
            "ReportFanOut.java",
            """
            import java.util.List;
            import java.util.concurrent.Future;
            public class ReportFanOut {
              public void awaitReports(List<Future<String>> reports) {
                // BUG: Diagnostic contains: each.get()
                while (!reports.stream().allMatch(Future::isDone)) {
                  Thread.onSpinWait();
                }
              }
              public void awaitThreads(List<Thread> renderers) {
                // BUG: Diagnostic contains: on every element of renderers
                while (renderers.stream().anyMatch(t -> t.isAlive())) {}
              }
            }
            """)
        .doTest();
  }

  @Test
  void progressLoggingGetsTimedAlternativeAndNoFix() {
    compilation
        .addSourceLines(
            "Reindexer.java",
            """
            import java.util.logging.Logger;
            public class Reindexer {
              private static final Logger LOG = Logger.getLogger("reindex");
              public void await(Thread reindex) throws InterruptedException {
                long polls = 0;
                // BUG: Diagnostic contains: reindex.join(millis) instead of the pause. (No automatic fix
                while (reindex.isAlive()) {
                  polls++;
                  LOG.fine("still reindexing, poll " + polls);
                  Thread.sleep(20);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void deadlineInConditionGetsTimedAlternative() {
    compilation
        .addSourceLines(
            "Shutdown.java",
            """
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.TimeoutException;
            public class Shutdown {
              public void stop(ExecutorService requests, long timeoutMillis)
                  throws InterruptedException, TimeoutException {
                requests.shutdown();
                long deadline = System.currentTimeMillis() + timeoutMillis;
                // BUG: Diagnostic contains: requests.awaitTermination(timeout, unit)
                while (!requests.isTerminated()) {
                  if (System.currentTimeMillis() > deadline) {
                    throw new TimeoutException("requests still running");
                  }
                  Thread.sleep(25);
                }
              }
              public void stopQuietly(Thread worker, long deadline) throws InterruptedException {
                // BUG: Diagnostic contains: worker.join(millis)
                while (worker.isAlive() && System.nanoTime() < deadline) {
                  Thread.sleep(10);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void implicitReceiverInThreadSubclassAndLambdaAndRecord() {
    compilation
        .addSourceLines(
            "Workers.java",
            """
            import java.util.concurrent.Callable;
            import java.util.concurrent.CompletableFuture;
            public class Workers {
              static class FlushThread extends Thread {
                public void awaitFlushed() throws InterruptedException {
                  // BUG: Diagnostic contains: Block in join() instead
                  while (isAlive()) {
                    Thread.sleep(20);
                  }
                }
              }
              record Job(Thread runner) {
                void await() throws InterruptedException {
                  // BUG: Diagnostic contains: runner.join()
                  while (runner.isAlive()) Thread.onSpinWait();
                }
              }
              Callable<String> fetch(CompletableFuture<String> page) {
                return () -> {
                  // BUG: Diagnostic contains: page.get()
                  while (!page.isDone()) {
                    Thread.onSpinWait();
                  }
                  return page.get();
                };
              }
              Runnable watcher(Thread target) {
                return new Runnable() {
                  @Override
                  public void run() {
                    // BUG: Diagnostic contains: target.join()
                    while (target.isAlive()) {}
                  }
                };
              }
            }
            """)
        .doTest();
  }

  @Test
  void durationSleepAndTryCatchAroundSleep() {
    compilation
        .addSourceLines(
            "Uploader.java",
            """
            import java.time.Duration;
            public class Uploader {
              public void awaitUpload(Thread upload) {
                // BUG: Diagnostic contains: upload.join()
                while (upload.isAlive()) {
                  try {
                    Thread.sleep(Duration.ofMillis(50));
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void sealedRecordsSwitchPatternsRawTypesAndLabels() {
    compilation
        .addSourceLines(
            "Transfers.java",
            """
            import java.util.concurrent.Future;
            public class Transfers {
              sealed interface Transfer permits Upload, Download {}
              record Upload(Thread worker) implements Transfer {}
              record Download(Future raw) implements Transfer {}
              void await(Transfer transfer) throws Exception {
                switch (transfer) {
                  case Upload u -> {
                    // BUG: Diagnostic contains: Block in u.worker().join() instead.
                    while (u.worker().isAlive()) Thread.onSpinWait();
                  }
                  case Download d -> {
                    // BUG: Diagnostic contains: (No automatic fix: get() also throws
                    while (!d.raw().isDone()) {}
                  }
                }
              }
              int settle(Thread t) {
                // BUG: Diagnostic contains: (No automatic fix: the loop carries a label
                spin: while (t.isAlive()) {
                  Thread.yield();
                }
                return switch (t.getState()) {
                  case TERMINATED -> 0;
                  default -> {
                    int n = 0;
                    while (n < 3) n++;
                    yield n;
                  }
                };
              }
            }
            """)
        .doTest();
  }

  // ---------------------------------------------------------------------------------------------
  // Negatives
  // ---------------------------------------------------------------------------------------------

  @Test
  void singleIsAliveCheckOutsideALoop() {
    compilation
        .addSourceLines(
            "HealthCheck.java",
            """
            public class HealthCheck {
              private volatile Thread scheduler;
              public String status() {
                if (scheduler != null && scheduler.isAlive()) {
                  return "UP";
                }
                return "DOWN";
              }
            }
            """)
        .doTest();
  }

  @Test
  void timedJoinInTheLoop() {
    compilation
        .addSourceLines(
            "GracefulStop.java",
            """
            import java.util.logging.Logger;
            public class GracefulStop {
              private static final Logger LOG = Logger.getLogger("stop");
              public void await(Thread worker) throws InterruptedException {
                while (worker.isAlive()) {
                  worker.join(100);
                  LOG.info("waiting for " + worker.getName());
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void waitOnAMonitorInTheLoop() {
    compilation
        .addSourceLines(
            "JobTracker.java",
            """
            public class JobTracker {
              private final Object lock = new Object();
              public void await(Thread job) throws InterruptedException {
                synchronized (lock) {
                  while (job.isAlive()) {
                    lock.wait(100);
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void conditionAwaitAndQueueTakeInTheLoop() {
    compilation
        .addSourceLines(
            "Dispatcher.java",
            """
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.locks.Condition;
            import java.util.concurrent.locks.ReentrantLock;
            public class Dispatcher {
              private final ReentrantLock lock = new ReentrantLock();
              private final Condition changed = lock.newCondition();
              public void awaitCondition(Thread producer) throws InterruptedException {
                lock.lock();
                try {
                  while (producer.isAlive()) {
                    changed.await(50, TimeUnit.MILLISECONDS);
                  }
                } finally {
                  lock.unlock();
                }
              }
              public void drain(Thread producer, BlockingQueue<String> events) throws InterruptedException {
                while (producer.isAlive()) {
                  String event = events.poll(100, TimeUnit.MILLISECONDS);
                  if (event != null) {
                    System.out.println(event);
                  }
                }
              }
              public void drainAll(Thread producer, BlockingQueue<String> events) throws InterruptedException {
                while (producer.isAlive()) {
                  System.out.println(events.take());
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void readingTheProcessOutputBlocksOnIo() {
    compilation
        .addSourceLines(
            "GitClient.java",
            """
            import java.io.BufferedReader;
            import java.io.IOException;
            import java.io.InputStreamReader;
            import java.util.ArrayList;
            import java.util.List;
            public class GitClient {
              public List<String> log() throws IOException {
                Process git = new ProcessBuilder("git", "log").start();
                List<String> lines = new ArrayList<>();
                try (BufferedReader out = new BufferedReader(new InputStreamReader(git.getInputStream()))) {
                  String line;
                  while (git.isAlive()) {
                    if ((line = out.readLine()) != null) {
                      lines.add(line);
                    }
                  }
                }
                return lines;
              }
            }
            """)
        .doTest();
  }

  @Test
  void isAliveOnlyReportedInsideABlockingLoop() {
    compilation
        .addSourceLines(
            "Consumer.java",
            """
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.TimeUnit;
            public class Consumer {
              public int consume(BlockingQueue<Runnable> tasks, Thread producer) throws InterruptedException {
                int done = 0;
                Runnable task;
                while ((task = tasks.poll(1, TimeUnit.SECONDS)) != null) {
                  task.run();
                  done++;
                  if (!producer.isAlive()) {
                    System.err.println("producer died after " + done + " tasks");
                  }
                }
                return done;
              }
            }
            """)
        .doTest();
  }

  @Test
  void watchdogSleepingASecondOrMoreIsNotFlagged() {
    compilation
        .addSourceLines(
            "Watchdog.java",
            """
            import java.util.concurrent.TimeUnit;
            public class Watchdog {
              private static final long CHECK_INTERVAL_MS = 1_000;
              public void watch(Thread server) throws InterruptedException {
                while (server.isAlive()) {
                  Thread.sleep(CHECK_INTERVAL_MS);
                }
                System.err.println("server thread died");
              }
              public void watchProcess(Process daemon) throws InterruptedException {
                while (daemon.isAlive()) {
                  TimeUnit.SECONDS.sleep(5);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void sleepOfUnknownLengthIsNotFlagged() {
    compilation
        .addSourceLines(
            "Poller.java",
            """
            public class Poller {
              private final long intervalMillis;
              Poller(long intervalMillis) { this.intervalMillis = intervalMillis; }
              public void await(Thread job) throws InterruptedException {
                while (job.isAlive()) {
                  Thread.sleep(intervalMillis);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void loopWhoseBodyCallsUnknownWork() {
    compilation
        .addSourceLines(
            "EventPump.java",
            """
            public class EventPump {
              interface Dispatcher { void dispatchPending(); }
              private final Dispatcher dispatcher;
              EventPump(Dispatcher dispatcher) { this.dispatcher = dispatcher; }
              public void pumpWhile(Thread ui) {
                while (ui.isAlive()) {
                  dispatcher.dispatchPending();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void helperInTheSameFileThatBlocks() {
    compilation
        .addSourceLines(
            "Supervisor.java",
            """
            import java.util.concurrent.BlockingQueue;
            public class Supervisor {
              private final BlockingQueue<String> alerts;
              Supervisor(BlockingQueue<String> alerts) { this.alerts = alerts; }
              public void supervise(Thread worker) throws InterruptedException {
                while (worker.isAlive()) {
                  handleNextAlert();
                }
              }
              private void handleNextAlert() throws InterruptedException {
                String alert = alerts.take();
                System.out.println(alert);
              }
            }
            """)
        .doTest();
  }

  @Test
  void waitingForAThreadToStartOrAnotherStateIsNotFlagged() {
    compilation
        .addSourceLines(
            "Startup.java",
            """
            import java.util.Queue;
            public class Startup {
              public void awaitStarted(Thread listener) {
                while (!listener.isAlive()) {
                  Thread.yield();
                }
              }
              public void drainOrWait(Thread producer, Queue<String> pending) {
                while (producer.isAlive() || !pending.isEmpty()) {
                  Thread.onSpinWait();
                }
              }
              public void noExit(Thread agent) throws InterruptedException {
                while (true) {
                  if (!agent.isAlive()) {
                    System.out.println("agent down");
                  }
                  Thread.sleep(10);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void receiverChangesEachPass() {
    compilation
        .addSourceLines(
            "RoundRobin.java",
            """
            public class RoundRobin {
              public int firstDead(Thread[] pool) {
                int i = 0;
                while (pool[i].isAlive()) {
                  i = (i + 1) % pool.length;
                }
                return i;
              }
            }
            """)
        .doTest();
  }

  @Test
  void futureAndExecutorAndLatchAlreadyBlocking() {
    compilation
        .addSourceLines(
            "Coordinator.java",
            """
            import java.util.concurrent.CountDownLatch;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.TimeoutException;
            public class Coordinator {
              public String result(Future<String> answer) throws InterruptedException, ExecutionException {
                while (!answer.isDone()) {
                  try {
                    return answer.get(100, TimeUnit.MILLISECONDS);
                  } catch (TimeoutException e) {
                    System.out.println("still waiting");
                  }
                }
                return answer.get();
              }
              public void stop(ExecutorService pool) throws InterruptedException {
                pool.shutdown();
                while (!pool.isTerminated()) {
                  pool.awaitTermination(1, TimeUnit.SECONDS);
                }
              }
              public void ready(CountDownLatch latch) throws InterruptedException {
                while (latch.getCount() > 0) {
                  latch.await(1, TimeUnit.SECONDS);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void suppressedWithSuppressWarnings() {
    compilation
        .addSourceLines(
            "SpinBarrier.java",
            """
            public class SpinBarrier {
              @SuppressWarnings("ThreadAliveBusyWait")
              public void awaitLowLatency(Thread peer) {
                // latency-critical: spinning on a dedicated core is intended here
                while (peer.isAlive()) {
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .doTest();
  }

  // ---------------------------------------------------------------------------------------------
  // Fixes
  // ---------------------------------------------------------------------------------------------

  @Test
  void noFixWhenAnotherThreadMaySwapTheReceiver() {
    compilation
        .addSourceLines(
            "Supervisor.java",
            """
            public class Supervisor {
              private volatile Thread current;
              private final Thread[] slots = new Thread[4];
              public void awaitCurrent() throws InterruptedException {
                // BUG: Diagnostic contains: (No automatic fix: the field is volatile
                while (current.isAlive()) {
                  Thread.sleep(5);
                }
              }
              public void awaitSlot(int i) throws InterruptedException {
                // BUG: Diagnostic contains: (No automatic fix: another thread may store a different object
                while (slots[i].isAlive()) {
                  Thread.sleep(5);
                }
              }
            }
            """)
        .doTest();
    refactoring
        .addInputLines(
            "Supervisor.java",
            """
            import java.util.List;
            public class Supervisor {
              private volatile Thread current;
              public void awaitCurrent(List<Thread> restarted) throws InterruptedException {
                while (current.isAlive()) {
                  Thread.sleep(5);
                }
                while (restarted.get(0).isAlive()) {
                  Thread.yield();
                }
              }
            }
            """)
        .expectUnchanged()
        .doTest();
  }

  @Test
  void fixEmptyBodyToJoin() {
    refactoring
        .addInputLines(
            "ReportExporter.java",
            """
            public class ReportExporter {
              public void export(Runnable writer) throws InterruptedException {
                Thread exporter = new Thread(writer);
                exporter.start();
                while (exporter.isAlive()) {}
                System.out.println("exported");
              }
            }
            """)
        .addOutputLines(
            "ReportExporter.java",
            """
            public class ReportExporter {
              public void export(Runnable writer) throws InterruptedException {
                Thread exporter = new Thread(writer);
                exporter.start();
                exporter.join();
                System.out.println("exported");
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixSleepBodyToJoin() {
    refactoring
        .addInputLines(
            "IndexRebuilder.java",
            """
            public class IndexRebuilder {
              private Thread rebuildThread;
              public void awaitRebuild() throws Exception {
                while (rebuildThread.isAlive()) Thread.sleep(10);
              }
            }
            """)
        .addOutputLines(
            "IndexRebuilder.java",
            """
            public class IndexRebuilder {
              private Thread rebuildThread;
              public void awaitRebuild() throws Exception {
                rebuildThread.join();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixFieldReportWhileTrueToJoin() {
    refactoring
        .addInputLines(
            "LoadClient.java",
            """
            public class LoadClient {
              public static void main(String[] args) throws Exception {
                Thread thread = new Thread(() -> {});
                thread.start();
                while (true) {
                  if (!thread.isAlive()) {
                    break;
                  }
                  Thread.yield();
                }
                System.out.println("done");
              }
            }
            """)
        .addOutputLines(
            "LoadClient.java",
            """
            public class LoadClient {
              public static void main(String[] args) throws Exception {
                Thread thread = new Thread(() -> {});
                thread.start();
                thread.join();
                System.out.println("done");
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixDoWhileOnSpinWaitAndReturnExit() {
    refactoring
        .addInputLines(
            "Jobs.java",
            """
            public class Jobs {
              public void awaitJob(Thread job) throws InterruptedException {
                do {
                  Thread.onSpinWait();
                } while (job.isAlive());
              }
              public String awaitName(Thread job) throws InterruptedException {
                for (;;) {
                  if (!job.isAlive()) return job.getName();
                  Thread.sleep(1);
                }
              }
            }
            """)
        .addOutputLines(
            "Jobs.java",
            """
            public class Jobs {
              public void awaitJob(Thread job) throws InterruptedException {
                job.join();
              }
              public String awaitName(Thread job) throws InterruptedException {
                job.join();
                return job.getName();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixProcessToWaitFor() {
    refactoring
        .addInputLines(
            "ThumbnailRenderer.java",
            """
            import java.io.IOException;
            import java.util.concurrent.TimeUnit;
            public class ThumbnailRenderer {
              public int render(String image) throws IOException, InterruptedException {
                Process convert = new ProcessBuilder("convert", image, "thumb.png").start();
                while (convert.isAlive()) {
                  TimeUnit.MILLISECONDS.sleep(100);
                }
                return convert.exitValue();
              }
            }
            """)
        .addOutputLines(
            "ThumbnailRenderer.java",
            """
            import java.io.IOException;
            import java.util.concurrent.TimeUnit;
            public class ThumbnailRenderer {
              public int render(String image) throws IOException, InterruptedException {
                Process convert = new ProcessBuilder("convert", image, "thumb.png").start();
                convert.waitFor();
                return convert.exitValue();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixLatchToAwait() {
    refactoring
        .addInputLines(
            "CacheWarmer.java",
            """
            import java.util.concurrent.CountDownLatch;
            public class CacheWarmer {
              private final CountDownLatch warmed = new CountDownLatch(3);
              public void awaitWarm() throws InterruptedException {
                while (0 != warmed.getCount()) {
                  Thread.sleep(5);
                }
              }
            }
            """)
        .addOutputLines(
            "CacheWarmer.java",
            """
            import java.util.concurrent.CountDownLatch;
            public class CacheWarmer {
              private final CountDownLatch warmed = new CountDownLatch(3);
              public void awaitWarm() throws InterruptedException {
                warmed.await();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixExecutorToAwaitTerminationAndImportTimeUnit() {
    refactoring
        .addInputLines(
            "BatchImporter.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            public class BatchImporter {
              public void importAll(List<Runnable> batches) throws InterruptedException {
                ExecutorService workers = Executors.newFixedThreadPool(4);
                batches.forEach(workers::execute);
                workers.shutdown();
                while (!workers.isTerminated()) {
                  Thread.sleep(50);
                }
              }
            }
            """)
        .addOutputLines(
            "BatchImporter.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.TimeUnit;
            public class BatchImporter {
              public void importAll(List<Runnable> batches) throws InterruptedException {
                ExecutorService workers = Executors.newFixedThreadPool(4);
                batches.forEach(workers::execute);
                workers.shutdown();
                workers.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixFutureSpinFollowedByGetIsDropped() {
    refactoring
        .addInputLines(
            "QuoteService.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            public class QuoteService {
              public String quote(Future<String> pending) throws InterruptedException, ExecutionException {
                while (!pending.isDone()) {
                  Thread.sleep(2);
                }
                String quote = pending.get();
                return quote.trim();
              }
              public String quoteOrFail(Future<String> pending) throws Exception {
                while (true) {
                  if (pending.isDone()) return (String) pending.get();
                  Thread.onSpinWait();
                }
              }
            }
            """)
        .addOutputLines(
            "QuoteService.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            public class QuoteService {
              public String quote(Future<String> pending) throws InterruptedException, ExecutionException {
                String quote = pending.get();
                return quote.trim();
              }
              public String quoteOrFail(Future<String> pending) throws Exception {
                return (String) pending.get();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixSpinFollowedByJoinIsDropped() {
    refactoring
        .addInputLines(
            "Exporter.java",
            """
            public class Exporter {
              public void finish(Thread writer) throws InterruptedException {
                while (writer.isAlive()) Thread.yield();
                writer.join();
              }
            }
            """)
        .addOutputLines(
            "Exporter.java",
            """
            public class Exporter {
              public void finish(Thread writer) throws InterruptedException {
                writer.join();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixCatchThatLeavesIsKeptAroundJoin() {
    refactoring
        .addInputLines(
            "Uploader.java",
            """
            public class Uploader {
              public boolean awaitUpload(Thread upload) {
                while (upload.isAlive()) {
                  try {
                    Thread.sleep(50);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                  }
                }
                return true;
              }
              public void awaitOrFail(Process upload) {
                while (upload.isAlive()) {
                  try {
                    Thread.sleep(50);
                  } catch (InterruptedException e) {
                    throw new IllegalStateException("interrupted while uploading", e);
                  }
                }
              }
            }
            """)
        .addOutputLines(
            "Uploader.java",
            """
            public class Uploader {
              public boolean awaitUpload(Thread upload) {
                try {
                  upload.join();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return false;
                }
                return true;
              }
              public void awaitOrFail(Process upload) {
                try {
                  upload.waitFor();
                } catch (InterruptedException e) {
                  throw new IllegalStateException("interrupted while uploading", e);
                }
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixCatchThatBreaksKeepsHandlingWithoutTheBreak() {
    refactoring
        .addInputLines(
            "Mirror.java",
            """
            public class Mirror {
              public void awaitSync(Thread sync) {
                while (sync.isAlive()) {
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                  }
                }
                System.out.println("sync finished or interrupted");
              }
            }
            """)
        .addOutputLines(
            "Mirror.java",
            """
            public class Mirror {
              public void awaitSync(Thread sync) {
                try {
                  sync.join();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                System.out.println("sync finished or interrupted");
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixCatchThatSwallowsKeepsTheLoopAndBlocksInIt() {
    refactoring
        .addInputLines(
            "Janitor.java",
            """
            import java.util.logging.Logger;
            public class Janitor {
              private static final Logger LOG = Logger.getLogger("janitor");
              public void awaitSweep(Thread sweeper) {
                while (sweeper.isAlive()) {
                  try {
                    Thread.sleep(10);
                  } catch (InterruptedException ignored) {
                    LOG.warning("interrupted, still waiting for the sweep");
                  }
                }
              }
            }
            """)
        .addOutputLines(
            "Janitor.java",
            """
            import java.util.logging.Logger;
            public class Janitor {
              private static final Logger LOG = Logger.getLogger("janitor");
              public void awaitSweep(Thread sweeper) {
                while (sweeper.isAlive()) {
                  try {
                    sweeper.join();
                  } catch (InterruptedException ignored) {
                    LOG.warning("interrupted, still waiting for the sweep");
                  }
                }
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixWhereInterruptCannotBeThrownWaitsUninterruptiblyAndKeepsTheStatus() {
    refactoring
        .addInputLines(
            "Launcher.java",
            """
            public class Launcher {
              public void run(Thread server) {
                try {
                  server.start();
                } catch (IllegalThreadStateException e) {
                  System.err.println("already started");
                }
                while (server.isAlive()) {
                  Thread.onSpinWait();
                }
                System.out.println("server stopped");
              }
            }
            """)
        .addOutputLines(
            "Launcher.java",
            """
            public class Launcher {
              public void run(Thread server) {
                try {
                  server.start();
                } catch (IllegalThreadStateException e) {
                  System.err.println("already started");
                }
                boolean interrupted = false;
                while (server.isAlive()) {
                  try {
                    server.join();
                  } catch (InterruptedException ie) {
                    interrupted = true;
                  }
                }
                if (interrupted) {
                  Thread.currentThread().interrupt();
                }
                System.out.println("server stopped");
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixInsideLambdaWithEnclosingCatchAndInsideForEach() {
    refactoring
        .addInputLines(
            "Harness.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            public class Harness {
              public void runAll(ExecutorService runner, List<Thread> clients) {
                runner.execute(() -> {
                  try {
                    Thread.sleep(500); // let the clients connect first
                    for (Thread client : clients) while (client.isAlive()) Thread.onSpinWait();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
              }
            }
            """)
        .addOutputLines(
            "Harness.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            public class Harness {
              public void runAll(ExecutorService runner, List<Thread> clients) {
                runner.execute(() -> {
                  try {
                    Thread.sleep(500); // let the clients connect first
                    for (Thread client : clients) client.join();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void fixUninterruptibleWaitAsTheOnlyStatementOfAnIf() {
    refactoring
        .addInputLines(
            "Gate.java",
            """
            import java.util.concurrent.CountDownLatch;
            public class Gate {
              public void pass(CountDownLatch open, boolean wait) {
                if (wait)
                  while (open.getCount() != 0) {}
              }
            }
            """)
        .addOutputLines(
            "Gate.java",
            """
            import java.util.concurrent.CountDownLatch;
            public class Gate {
              public void pass(CountDownLatch open, boolean wait) {
                if (wait) {
                  boolean interrupted = false;
                  while (open.getCount() != 0) {
                    try {
                      open.await();
                    } catch (InterruptedException e) {
                      interrupted = true;
                    }
                  }
                  if (interrupted) {
                    Thread.currentThread().interrupt();
                  }
                }
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void aWaitCappedByACounterKeepsItsCapInTheAdvice() {
    compilation
        .addSourceLines(
            "ClassLoaderCleanup.java",
            """
            public class ClassLoaderCleanup {
              public void clearReferencesThreads(Thread t) throws InterruptedException {
                int count = 0;
                // BUG: Diagnostic contains: t.join(2000)
                while (t.isAlive() && count < 100) {
                  Thread.sleep(20);
                  count++;
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void theFieldReportsOwnHarnessAndOtherControlFlowForms() {
    // the harness: 'if (alive) continue; break;' is one exit test on !alive
    compilation
        .addSourceLines(
            "LoadTestClient.java",
            """
            public class LoadTestClient {
              public void awaitAll(Thread client) {
                // BUG: Diagnostic contains: client.isAlive()
                while (true) {
                  if (client.isAlive()) {
                    continue;
                  }
                  break;
                }
              }
              public void awaitFor(Thread client) {
                // BUG: Diagnostic contains: client.isAlive()
                for (;;) {
                  if (!client.isAlive()) {
                    break;
                  }
                }
              }
              public void awaitPatiently(Thread client) throws InterruptedException {
                while (true) {
                  if (client.isAlive()) {
                    client.join(1000);
                    continue;
                  }
                  break;
                }
              }
              public void awaitDo(Thread client) {
                // BUG: Diagnostic contains: client.isAlive()
                do {
                  Thread.onSpinWait();
                } while (client.isAlive());
              }
            }
            """)
        .doTest();
  }

  @Test
  void fixForTheFieldReportsHarness() {
    refactoring
        .addInputLines(
            "LoadTestClient.java",
            """
            public class LoadTestClient {
              public void awaitAll(Thread client) throws InterruptedException {
                while (true) {
                  if (client.isAlive()) {
                    continue;
                  }
                  break;
                }
              }
            }
            """)
        .addOutputLines(
            "LoadTestClient.java",
            """
            public class LoadTestClient {
              public void awaitAll(Thread client) throws InterruptedException {
                client.join();
              }
            }
            """)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  // ---- the poll read through a small helper (issue 12) ------------------------------------------

  @Test
  void pollInsideASmallPrivateHelperCalledFromTheLoop() {
    compilation
        .addSourceLines(
            "LoadHarness.java",
            "import java.util.concurrent.Future;",
            "public class LoadHarness {",
            "  private final Thread reporter = new Thread(() -> {});",
            "  private static boolean isRunning(Thread t) {",
            "    return t.isAlive();",
            "  }",
            "  private boolean finished(Future<?> f) {",
            "    return (f.isDone());",
            "  }",
            "  public void awaitWorker(Thread worker) throws InterruptedException {",
            "    // BUG: Diagnostic contains: this loop polls worker.isAlive() until the thread ends",
            "    while (isRunning(worker)) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  public void awaitReporter() throws InterruptedException {",
            "    // BUG: Diagnostic contains: (No automatic fix: the poll is read through the helper isRunning().)",
            "    while (isRunning(reporter)) {",
            "      Thread.yield();",
            "    }",
            "  }",
            "  public void awaitResult(Future<?> result) throws InterruptedException {",
            "    // BUG: Diagnostic contains: this loop polls result.isDone()",
            "    while (!finished(result)) {",
            "      Thread.sleep(5);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void helpersThatAreNotASimplePollOfTheirArgument() {
    compilation
        .addSourceLines(
            "LoadHarness.java",
            "import java.util.List;",
            "public class LoadHarness {",
            "  protected boolean isRunning(Thread t) {",
            "    return t.isAlive();",
            "  }",
            "  private static boolean logsToo(Thread t) {",
            "    System.out.println(\"polling \" + t.getName());",
            "    return t.isAlive();",
            "  }",
            "  private static boolean alive(Thread t) {",
            "    return t.isAlive();",
            "  }",
            "  private static boolean otherThread(Thread t) {",
            "    return Thread.currentThread().isAlive();",
            "  }",
            "  public void overridable(Thread worker) throws InterruptedException {",
            "    while (isRunning(worker)) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  public void helperDoesMore(Thread worker) throws InterruptedException {",
            "    while (logsToo(worker)) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  public void waitsUntilStarted(Thread worker) throws InterruptedException {",
            "    while (!alive(worker)) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  public void pollsSomethingElse(Thread worker) throws InterruptedException {",
            "    while (otherThread(worker)) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "  public void nextWorkerEachPass(List<Thread> workers) throws InterruptedException {",
            "    int i = 0;",
            "    Thread worker = workers.get(0);",
            "    while (alive(worker)) {",
            "      Thread.sleep(10);",
            "      worker = workers.get(++i % workers.size());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- the poll stored in a flag variable (issue 12) --------------------------------------------

  @Test
  void pollStoredInAFlagVariableOnEachPass() {
    compilation
        .addSourceLines(
            "LoadHarness.java",
            "import java.util.concurrent.Future;",
            "public class LoadHarness {",
            "  public void awaitWorker(Thread worker) throws InterruptedException {",
            "    boolean alive = worker.isAlive();",
            "    // BUG: Diagnostic contains: (No automatic fix: the poll is stored in the flag 'alive'.)",
            "    while (alive) {",
            "      Thread.sleep(10);",
            "      alive = worker.isAlive();",
            "    }",
            "  }",
            "  public Object awaitResult(Future<?> result) throws Exception {",
            "    boolean done = false;",
            "    // BUG: Diagnostic contains: this loop polls result.isDone()",
            "    while (!done) {",
            "      done = result.isDone();",
            "      Thread.sleep(5);",
            "    }",
            "    return result.get();",
            "  }",
            "  public void awaitDo(Thread worker) throws InterruptedException {",
            "    boolean running;",
            "    // BUG: Diagnostic contains: this loop polls worker.isAlive()",
            "    do {",
            "      Thread.yield();",
            "      running = worker.isAlive();",
            "    } while (running);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void flagsThatAreNotJustThePoll() {
    compilation
        .addSourceLines(
            "LoadHarness.java",
            "public class LoadHarness {",
            "  private volatile boolean stopRequested;",
            "  public void untilStartedOrStopped(Thread worker) throws InterruptedException {",
            "    boolean waiting = true;",
            "    while (waiting) {",
            "      Thread.sleep(10);",
            "      waiting = worker.isAlive();",
            "      if (stopRequested) {",
            "        waiting = false;",
            "      }",
            "    }",
            "  }",
            "  public void untilStarted(Thread worker) throws InterruptedException {",
            "    boolean started = false;",
            "    while (!started) {",
            "      Thread.sleep(10);",
            "      started = worker.isAlive();",
            "    }",
            "  }",
            "  public void flagFromSomethingElse(Thread worker) throws InterruptedException {",
            "    boolean busy = true;",
            "    while (busy) {",
            "      Thread.sleep(10);",
            "      busy = worker.getName().isEmpty();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---------------------------------------------------------------------------------------------
  // Code reached only from lifecycle code in its own class (SetUpOnly, by the call graph)
  // ---------------------------------------------------------------------------------------------

  @Test
  void cappedWaitInAHelperThatOnlyStopReachesIsSilent() {
    // Tomcat's WebappClassLoaderBase: stop() -> clearReferences() -> clearReferencesThreads(),
    // which gives each leftover thread of an undeployed application two seconds to end
    compilation
        .addSourceLines(
            "WebappClassLoader.java",
            """
            import java.util.List;
            import java.util.concurrent.CopyOnWriteArrayList;
            public class WebappClassLoader extends ClassLoader {
              private final List<Thread> started = new CopyOnWriteArrayList<>();
              private volatile boolean running;
              public void start() {
                running = true;
              }
              public void stop() throws InterruptedException {
                running = false;
                clearReferences();
              }
              protected void clearReferences() throws InterruptedException {
                clearReferencesThreads();
              }
              private void clearReferencesThreads() throws InterruptedException {
                for (Thread thread : started) {
                  thread.interrupt();
                  int count = 0;
                  while (thread.isAlive() && count < 100) {
                    Thread.sleep(20);
                    count++;
                  }
                }
              }
              @Override
              public Class<?> loadClass(String name) throws ClassNotFoundException {
                if (!running) {
                  throw new IllegalStateException("stopped");
                }
                return super.loadClass(name);
              }
            }
            """)
        .doTest();
  }

  @Test
  void theSameCleanupReachedFromLoadClassIsReported() {
    // the twin of the class above: a request path (loadClass) reaches the same wait
    compilation
        .addSourceLines(
            "WebappClassLoader.java",
            """
            import java.util.List;
            import java.util.concurrent.CopyOnWriteArrayList;
            public class WebappClassLoader extends ClassLoader {
              private final List<Thread> started = new CopyOnWriteArrayList<>();
              private volatile boolean running;
              public void stop() throws InterruptedException {
                running = false;
                clearReferences();
              }
              protected void clearReferences() throws InterruptedException {
                clearReferencesThreads();
              }
              private void clearReferencesThreads() throws InterruptedException {
                for (Thread thread : started) {
                  thread.interrupt();
                  int count = 0;
                  // BUG: Diagnostic contains: thread.join(2000)
                  while (thread.isAlive() && count < 100) {
                    Thread.sleep(20);
                    count++;
                  }
                }
              }
              @Override
              public Class<?> loadClass(String name) throws ClassNotFoundException {
                if (!running) {
                  try {
                    clearReferences();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  throw new IllegalStateException("stopped");
                }
                return super.loadClass(name);
              }
            }
            """)
        .doTest();
  }

  @Test
  void theSameHelperAlsoCalledFromARequestMethodIsReported() {
    compilation
        .addSourceLines(
            "WorkerPool.java",
            """
            public class WorkerPool {
              private Thread worker = new Thread(() -> {});
              public void stop() throws InterruptedException {
                awaitWorker(worker);
              }
              public String handle(String request) throws InterruptedException {
                worker = new Thread(() -> System.out.println(request));
                worker.start();
                awaitWorker(worker);
                return "done";
              }
              private void awaitWorker(Thread thread) throws InterruptedException {
                int count = 0;
                // BUG: Diagnostic contains: thread.join(2000)
                while (thread.isAlive() && count < 100) {
                  Thread.sleep(20);
                  count++;
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void aProtectedHelperReachedFromStopAndFromAnUnknownPublicMethodIsReported() {
    compilation
        .addSourceLines(
            "Connector.java",
            """
            public class Connector {
              private final Thread acceptor = new Thread(() -> {}, "acceptor");
              public void stop() throws InterruptedException {
                awaitAcceptor();
              }
              public void pause() throws InterruptedException {
                awaitAcceptor();
              }
              protected void awaitAcceptor() throws InterruptedException {
                // BUG: Diagnostic contains: acceptor.join()
                while (acceptor.isAlive()) {
                  Thread.sleep(10);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void aWaitInALambdaOrAnOverrideOfAHelperIsNotLifecycleOnly() {
    compilation
        .addSourceLines(
            "Shutdowns.java",
            """
            import java.util.concurrent.ExecutorService;
            abstract class Stoppable {
              abstract void await(Thread thread) throws InterruptedException;
            }
            public class Shutdowns extends Stoppable {
              private final ExecutorService executor;
              Shutdowns(ExecutorService executor) {
                this.executor = executor;
              }
              public void stop(Thread thread) throws InterruptedException {
                await(thread);
                inBackground(thread);
              }
              // an implementation: the superclass's callers reach it too
              @Override
              void await(Thread thread) throws InterruptedException {
                // BUG: Diagnostic contains: thread.join()
                while (thread.isAlive()) {
                  Thread.sleep(10);
                }
              }
              private void inBackground(Thread thread) {
                executor.execute(
                    () -> {
                      // BUG: Diagnostic contains: thread.join()
                      while (thread.isAlive()) {
                        Thread.onSpinWait();
                      }
                    });
              }
            }
            """)
        .doTest();
  }
}
