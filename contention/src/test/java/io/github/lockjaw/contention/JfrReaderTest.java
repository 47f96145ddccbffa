package io.github.lockjaw.contention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads real recordings made in this JVM while threads contend on a monitor and on a lock. */
class JfrReaderTest {
  @TempDir static Path temp;
  static Path recording;

  /** A ledger whose posting holds the class monitor for 3 ms. */
  static final class Ledger {
    static synchronized void post() {
      sleep(3);
    }
  }

  /** A sequence behind a ReentrantLock held for 3 ms. */
  static final class Sequence {
    private final ReentrantLock lock = new ReentrantLock();

    void next() {
      lock.lock();
      try {
        sleep(3);
      } finally {
        lock.unlock();
      }
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @BeforeAll
  static void record() throws Exception {
    recording = temp.resolve("contention.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
      r.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withStackTrace();
      r.start();
      Sequence sequence = new Sequence();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        threads.add(
            new Thread(
                () -> {
                  for (int n = 0; n < 15; n++) {
                    Ledger.post();
                  }
                },
                "ledger-" + i));
        threads.add(
            new Thread(
                () -> {
                  for (int n = 0; n < 15; n++) {
                    sequence.next();
                  }
                },
                "sequence-" + i));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      r.stop();
      r.dump(recording);
    }
  }

  @Test
  void monitorEnterAndLockParkAtTheirSites() throws Exception {
    Observations seen = Evidence.read(List.of(recording));
    assertEquals(List.of(recording), seen.recordings());
    ObservedSite ledger = find(seen, WaitKind.MONITOR_ENTER, Ledger.class.getName(), "post");
    assertNotNull(ledger, String.valueOf(seen.sites()));
    assertTrue(ledger.events() > 0);
    assertTrue(ledger.totalNanos() >= ledger.maxNanos() && ledger.maxNanos() > 0);
    assertEquals(
        "java.lang.Class for " + Ledger.class.getName(),
        ledger.monitor(),
        "the class of a static synchronized method, though JFR says only java.lang.Class");
    assertEquals("()V", ledger.frame().descriptor());
    assertTrue(ledger.threadCount() >= 2, "several threads waited: " + ledger.threadCount());
    ObservedSite sequence = find(seen, WaitKind.LOCK_PARK, Sequence.class.getName(), "next");
    assertNotNull(sequence, String.valueOf(seen.sites()));
    assertEquals("java.util.concurrent.locks.ReentrantLock.lock", sequence.via());
    assertEquals("java.util.concurrent.locks.ReentrantLock$NonfairSync", sequence.monitor());
    assertTrue(seen.lockEvents() >= ledger.events() + sequence.events());
    assertTrue(seen.notes().isEmpty(), String.valueOf(seen.notes()));
  }

  @Test
  void truncatedRecordingIsAClearError() throws IOException {
    byte[] bytes = Files.readAllBytes(recording);
    Path cut = temp.resolve("cut.jfr");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    EvidenceException e = assertThrows(EvidenceException.class, () -> Evidence.read(List.of(cut)));
    assertTrue(e.getMessage().contains("is truncated"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void aCompleteChunkBeforeATruncatedOneIsUsedWithANote() throws Exception {
    byte[] bytes = Files.readAllBytes(recording);
    Path twoChunks = temp.resolve("two.jfr");
    try (OutputStream out = Files.newOutputStream(twoChunks)) {
      out.write(bytes); // a whole chunk
      out.write(bytes, 0, bytes.length / 3); // and the start of another
    }
    Observations seen = Evidence.read(List.of(twoChunks));
    assertNotNull(find(seen, WaitKind.MONITOR_ENTER, Ledger.class.getName(), "post"));
    assertTrue(
        seen.notes().stream()
            .anyMatch(n -> n.contains("is truncated") && n.contains("1 complete chunk")),
        String.valueOf(seen.notes()));
  }

  @Test
  void garbageWithAJfrNameIsAClearError() throws IOException {
    Path garbage = Files.writeString(temp.resolve("recording.jfr"), "this is not a recording");
    EvidenceException e =
        assertThrows(EvidenceException.class, () -> Evidence.read(List.of(garbage)));
    assertTrue(e.getMessage().contains("does not start with a JFR chunk header"), e.getMessage());
  }

  @Test
  void corruptChunkHeaderIsAClearError() throws IOException {
    byte[] bytes = Files.readAllBytes(recording);
    byte[] corrupt = bytes.clone();
    corrupt[4] = 0x7f; // a format version no JDK writes
    corrupt[5] = 0x7f;
    Path file = Files.write(temp.resolve("corrupt.jfr"), corrupt);
    EvidenceException e = assertThrows(EvidenceException.class, () -> Evidence.read(List.of(file)));
    assertTrue(
        e.getMessage().startsWith(file + " is not a readable JFR recording"), e.getMessage());
    assertTrue(e.getMessage().contains("jfr summary"), e.getMessage());
  }

  @Test
  void recordingWithoutLockEventsSaysHowToRecordThem() throws Exception {
    Path quiet = temp.resolve("quiet.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.CPULoad").withPeriod(Duration.ofMillis(10));
      r.start();
      sleep(50);
      r.stop();
      r.dump(quiet);
    }
    Observations seen = Evidence.read(List.of(quiet));
    assertTrue(seen.isEmpty());
    String note = String.join(" ", seen.notes());
    assertTrue(note.contains("has no lock events"), note);
    assertTrue(note.contains("settings=profile") && note.contains("jcmd PID JFR.start"), note);
    List<String> report = new ReportWriter(ContentionReport.correlate(seen, List.of())).notes();
    assertTrue(
        report.stream().anyMatch(n -> n.startsWith("Nothing waited on a lock in this recording.")),
        "a readable recording without contention is a report with the how-to-record note: "
            + report);
  }

  /** A tally whose adding holds the class monitor while it computes for about 3 ms. */
  static final class Tally {
    static long sum;

    static synchronized void add() {
      sum += crunch();
    }

    static long crunch() {
      long end = System.nanoTime() + 3_000_000;
      long x = 0;
      while (System.nanoTime() < end) {
        x += Long.numberOfTrailingZeros(x + System.nanoTime());
      }
      return x;
    }
  }

  /** A poll loop: waits for a worker with isAlive() and a sleep. */
  static void awaitWorker() throws InterruptedException {
    Thread worker = new Thread(() -> sleep(200), "indexer");
    worker.start();
    while (worker.isAlive()) {
      Thread.sleep(20);
    }
  }

  @Test
  void theMonitorsPreviousOwnerIsSampledWhileTheOthersWait() throws Exception {
    Path file = temp.resolve("holders.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
      r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      r.start();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        threads.add(
            new Thread(
                () -> {
                  for (int n = 0; n < 40; n++) {
                    Tally.add();
                  }
                },
                "tally-" + i));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      r.stop();
      r.dump(file);
    }
    Observations seen = Evidence.read(List.of(file));
    assertTrue(seen.hasHolderSamples());
    ObservedSite tally = find(seen, WaitKind.MONITOR_ENTER, Tally.class.getName(), "add");
    assertNotNull(tally, String.valueOf(seen.sites()));
    HolderTally.Group top = tally.holders().top();
    assertNotNull(top, "samples of the previous owner fall inside the waits");
    assertTrue(
        top.holder().frames().stream().anyMatch(f -> f.methodName().equals("crunch")),
        top.holder().frames().toString());
    assertTrue(
        top.threads().stream().allMatch(t -> t.startsWith("tally-")), top.threads().toString());
  }

  @Test
  void sleepsInAFlaggedPollLoopAreItsEvidence() throws Exception {
    Path file = temp.resolve("poll.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO).withStackTrace();
      r.start();
      awaitWorker();
      r.stop();
      r.dump(file);
    }
    Observations seen = Evidence.read(List.of(file));
    assertTrue(
        seen.notes().stream().anyMatch(n -> n.contains("has no lock events")),
        "sleeps are not lock events");
    StaticFinding busyWait =
        new StaticFinding(
            "ThreadAliveBusyWait",
            JfrReaderTest.class.getName(),
            "",
            "",
            "awaitWorker",
            "",
            -1,
            -1,
            -1,
            "JfrReaderTest.awaitWorker()",
            "awaitWorker() busy-waits on Thread.isAlive().",
            "join()",
            "test-classes",
            0);
    ContentionReport report = ContentionReport.correlate(seen, List.of(busyWait));
    assertEquals(1, report.rows().size(), String.valueOf(report.rows()));
    ObservedSite poll = report.rows().get(0).site();
    assertEquals(WaitKind.SLEEP, poll.kind());
    assertTrue(poll.events() >= 5, "about ten 20 ms sleeps in 200 ms: " + poll);
    assertTrue(poll.totalNanos() >= 100_000_000L, poll.toString());
    assertEquals("sleep in a loop", ReportWriter.waitsFor(poll));
    StaticFinding other =
        new StaticFinding(
            "SharedMonitorDao",
            JfrReaderTest.class.getName(),
            "",
            "",
            "awaitWorker",
            "",
            -1,
            -1,
            -1,
            "x",
            "m",
            "",
            "test-classes",
            1);
    assertTrue(
        ContentionReport.correlate(seen, List.of(other)).rows().isEmpty(),
        "sleeps count only for the busy-wait checks");
  }

  static ObservedSite find(Observations seen, WaitKind kind, String className, String method) {
    return seen.sites().stream()
        .filter(
            s ->
                s.kind() == kind
                    && s.frame().className().equals(className)
                    && s.frame().methodName().equals(method))
        .findFirst()
        .orElse(null);
  }
}
