package io.github.lockjaw.contention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThreadDumpReaderTest {
  @TempDir Path temp;

  static Path fixture(String name) {
    try {
      return Path.of(ThreadDumpReaderTest.class.getResource("dumps/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  static ObservedSite site(
      Observations seen, WaitKind kind, String className, String method, int line) {
    for (ObservedSite site : seen.sites()) {
      Frame f = site.frame();
      if (site.kind() == kind
          && f.className().equals(className)
          && f.methodName().equals(method)
          && f.line() == line) {
        return site;
      }
    }
    return null;
  }

  @Test
  void jdk17JcmdThreadPrint() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk17-jcmd-thread-print.txt")));
    assertEquals(1, seen.dumps());
    ObservedSite dao =
        site(seen, WaitKind.MONITOR_ENTER, "io.github.lockjaw.cli.load.OrderDao", "findOrder", 25);
    assertNotNull(dao);
    assertEquals(5, dao.dumpThreads());
    assertEquals(1, dao.dumps());
    assertEquals("io.github.lockjaw.cli.load.OrderDao", dao.monitor());
    assertEquals("OrderDao.java", dao.frame().fileName());
    assertEquals("lambda$main$1", dao.caller().methodName());
    ObservedSite cache =
        site(
            seen,
            WaitKind.MONITOR_ENTER,
            "io.github.lockjaw.cli.load.ReflectionCache",
            "describe",
            19);
    assertNotNull(cache);
    assertEquals(5, cache.dumpThreads());
    assertEquals("java.lang.Class for io.github.lockjaw.cli.load.ReflectionCache", cache.monitor());
    assertEquals("", cache.via());
    ObservedSite journal =
        site(seen, WaitKind.LOCK_PARK, "io.github.lockjaw.cli.load.AuditJournal", "append", 27);
    assertNotNull(journal);
    assertEquals(2, journal.dumpThreads());
    assertEquals("java.util.concurrent.locks.ReentrantLock.lock", journal.via());
    assertEquals("java.util.concurrent.locks.ReentrantLock$NonfairSync", journal.monitor());
    assertEquals(3, seen.sites().size(), "only the three contended sites: " + seen.sites());
  }

  @Test
  void jdk25Jstack() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk25-jstack.txt")));
    assertEquals(1, seen.dumps());
    assertEquals(
        3,
        site(seen, WaitKind.MONITOR_ENTER, "io.github.lockjaw.cli.load.OrderDao", "findOrder", 25)
            .dumpThreads());
    assertEquals(
        2,
        site(seen, WaitKind.MONITOR_ENTER, "io.github.lockjaw.cli.load.OrderDao", "saveOrder", 29)
            .dumpThreads());
    assertEquals(
        5,
        site(
                seen,
                WaitKind.MONITOR_ENTER,
                "io.github.lockjaw.cli.load.ReflectionCache",
                "describe",
                19)
            .dumpThreads());
    assertEquals(
        2,
        site(seen, WaitKind.LOCK_PARK, "io.github.lockjaw.cli.load.AuditJournal", "append", 27)
            .dumpThreads());
    assertEquals(4, seen.sites().size());
  }

  @Test
  void jdk8JstackWithRuntimeFramesOnTopAndObjectWait() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk8-jstack.txt")));
    ObservedSite classInfo =
        site(seen, WaitKind.MONITOR_ENTER, "com.ibatis.common.beans.ClassInfo", "getInstance", 494);
    assertEquals(3, classInfo.dumpThreads());
    assertEquals(3, classInfo.threadCount());
    assertEquals("java.lang.Class for com.acme.shop.Order", classInfo.monitor());
    assertEquals(
        1,
        site(
                seen,
                WaitKind.MONITOR_ENTER,
                "org.apache.commons.pool.impl.GenericObjectPool",
                "borrowObject",
                1071)
            .dumpThreads());
    ObservedSite hashtable =
        site(seen, WaitKind.MONITOR_ENTER, "com.acme.shop.PriceCache", "price", 22);
    assertEquals(
        "java.util.Hashtable.get",
        hashtable.via(),
        "the site is the caller of the JDK's synchronized method");
    assertEquals("java.util.Hashtable", hashtable.monitor());
    ObservedSite wait =
        site(
            seen,
            WaitKind.MONITOR_WAIT,
            "org.apache.commons.pool.impl.GenericObjectPool",
            "borrowObject",
            1104);
    assertEquals("org.apache.commons.pool.impl.GenericObjectPool", wait.monitor());
    assertEquals("java.lang.Object.wait", wait.via());
    // the idle pool thread (ConditionObject) and the Finalizer (runtime frames only) are not
    // contention
    assertEquals(4, seen.sites().size(), String.valueOf(seen.sites()));
    assertEquals(1, seen.runtimeOnlyWaits());
  }

  @Test
  void jdk11KillDashThreeDumpsInsideAServerLog() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk11-catalina-kill3.log")));
    assertEquals(2, seen.dumps());
    ObservedSite getConnection =
        site(seen, WaitKind.MONITOR_ENTER, "org.opencms.db.CmsSqlManager", "getConnection", 412);
    assertEquals(5, getConnection.dumpThreads(), "2 threads in the first dump, 3 in the second");
    assertEquals(2, getConnection.dumps());
    assertEquals(4, getConnection.threadCount(), "exec-4 waited in both dumps");
    ObservedSite closeAll =
        site(seen, WaitKind.MONITOR_ENTER, "org.opencms.db.CmsSqlManager", "closeAll", 288);
    assertEquals(1, closeAll.dumpThreads());
    assertEquals(1, closeAll.dumps());
    assertEquals(2, seen.sites().size());
  }

  @Test
  void jdk21JcmdThreadPrint() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk21-jcmd-thread-print.txt")));
    ObservedSite cache =
        site(seen, WaitKind.MONITOR_ENTER, "com.acme.shop.TemplateCache", "template", 31);
    assertEquals(2, cache.dumpThreads());
    assertEquals("java.lang.Class for com.acme.shop.TemplateCache", cache.monitor());
    ObservedSite registry =
        site(seen, WaitKind.LOCK_PARK, "com.acme.shop.SessionRegistry", "touch", 47);
    assertEquals(
        "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync", registry.monitor());
    assertEquals(
        "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock", registry.via());
    assertNotNull(
        site(
            seen,
            WaitKind.MONITOR_WAIT,
            "org.eclipse.jetty.util.thread.QueuedThreadPool",
            "join",
            762));
    // the SynchronousQueue park is a thread waiting for work
    assertEquals(3, seen.sites().size(), String.valueOf(seen.sites()));
  }

  @Test
  void aDirectorySumsItsDumpsAndSkipsOtherFiles() throws Exception {
    Path dir = Files.createDirectory(temp.resolve("dumps"));
    Files.copy(fixture("jdk17-jcmd-thread-print.txt"), dir.resolve("dump-1.txt"));
    Files.copy(fixture("jdk25-jstack.txt"), dir.resolve("dump-2.txt"));
    Files.writeString(dir.resolve("notes.txt"), "taken during the 14:00 load test\n");
    Observations seen = Evidence.read(List.of(dir));
    assertEquals(2, seen.dumps());
    assertEquals(2, seen.dumpFiles().size());
    ObservedSite cache =
        site(
            seen,
            WaitKind.MONITOR_ENTER,
            "io.github.lockjaw.cli.load.ReflectionCache",
            "describe",
            19);
    assertEquals(10, cache.dumpThreads());
    assertEquals(2, cache.dumps());
    assertTrue(
        seen.notes().stream().anyMatch(n -> n.contains("notes.txt")), String.valueOf(seen.notes()));
  }

  @Test
  void unknownFormatIsOneParagraph() throws IOException {
    Path file =
        Files.writeString(temp.resolve("server.log"), "INFO started\nINFO request served\n");
    EvidenceException e = assertThrows(EvidenceException.class, () -> Evidence.read(List.of(file)));
    assertTrue(
        e.getMessage().contains("neither a JFR recording nor a thread dump lockjaw reads"),
        e.getMessage());
    assertTrue(e.getMessage().contains("jcmd PID Thread.print"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void otherDiagnosticFormatsAreNamed() throws IOException {
    Path javacore =
        Files.writeString(
            temp.resolve("javacore.20261120.txt"),
            String.join(
                "\n",
                "0SECTION       TITLE subcomponent dump routine",
                "NULL           ===============================",
                "1TICHARSET     UTF-8",
                "1TISIGINFO     Dump Event \"user\" (00004000) received"));
    EvidenceException j9 =
        assertThrows(EvidenceException.class, () -> Evidence.read(List.of(javacore)));
    assertTrue(j9.getMessage().contains("OpenJ9 javacore"), j9.getMessage());
    Path heap =
        Files.write(
            temp.resolve("heap.bin"),
            "JAVA PROFILE 1.0.2\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    EvidenceException hprof =
        assertThrows(EvidenceException.class, () -> Evidence.read(List.of(heap)));
    assertTrue(hprof.getMessage().contains("heap dump"), hprof.getMessage());
  }

  @Test
  void missingFileAndEmptyDirectory() throws IOException {
    EvidenceException missing =
        assertThrows(
            EvidenceException.class, () -> Evidence.read(List.of(temp.resolve("nope.jfr"))));
    assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    Path empty = Files.createDirectory(temp.resolve("empty"));
    EvidenceException none =
        assertThrows(EvidenceException.class, () -> Evidence.read(List.of(empty)));
    assertTrue(
        none.getMessage().contains("holds no JFR recording and no thread dump"), none.getMessage());
  }

  @Test
  void aDumpWithoutWaitingThreadsGivesNoSites() throws Exception {
    Path file =
        Files.writeString(
            temp.resolve("idle.txt"),
            String.join(
                "\n",
                "Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):",
                "",
                "\"main\" #1 prio=5 os_prio=0 cpu=1.00ms elapsed=1.00s tid=0x1 nid=0x2 runnable  [0x3]",
                "   java.lang.Thread.State: RUNNABLE",
                "\tat com.acme.Main.main(Main.java:5)",
                ""));
    Observations seen = Evidence.read(List.of(file));
    assertEquals(1, seen.dumps());
    assertTrue(seen.isEmpty());
    assertNull(site(seen, WaitKind.MONITOR_ENTER, "com.acme.Main", "main", 5));
  }

  @Test
  void theDaoHolderIsInASocketReadUnderTheMonitor() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk17-jcmd-thread-print.txt")));
    ObservedSite dao =
        site(seen, WaitKind.MONITOR_ENTER, "io.github.lockjaw.cli.load.OrderDao", "findOrder", 25);
    HolderTally.Group top = dao.holders().top();
    assertNotNull(top, "the thread that lists '- locked' for the DAO's monitor holds it");
    assertEquals(5, top.weight(), "all five waiting threads wait for that one holder");
    assertEquals(
        "socket read (Socket$SocketInputStream.read) in OrderDao.roundTrip(OrderDao.java:38)"
            + " < OrderDao.saveOrder(OrderDao.java:29)",
        top.holder().summary());
    assertEquals(
        "saveOrder",
        top.holder().frames().get(top.holder().frames().size() - 1).methodName(),
        "the holder's frames end at the one that took the lock");
    ContentionReport report = ContentionReport.correlate(seen, List.of());
    ContentionReport.Row row =
        report.rows().stream().filter(r -> r.site() == dao).findFirst().orElseThrow();
    assertTrue(
        new ReportWriter(report)
            .text()
            .contains("   Held by: " + new ReportWriter(report).heldBy(row)),
        "the text report names the holder below the site");
  }

  @Test
  void jdk21DumpToFileTextCountsLockParksAndWaitsByTheirFrames() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("jdk21-dump-to-file.txt")));
    assertEquals(1, seen.dumps());
    ObservedSite journal = site(seen, WaitKind.LOCK_PARK, "Contended", "append", 21);
    assertNotNull(journal, String.valueOf(seen.sites()));
    assertEquals(3, journal.dumpThreads(), "three virtual threads parked in ReentrantLock.lock");
    assertEquals("lock park: ReentrantLock.lock", ReportWriter.waitsFor(journal));
    ObservedSite pool = site(seen, WaitKind.MONITOR_WAIT, "Contended$Pool", "borrow", 92);
    assertNotNull(pool, "a request waiting in Object.wait() for a pooled object");
    assertNull(
        site(seen, WaitKind.MONITOR_ENTER, "Contended", "price", 13),
        "JDK 21's format has no states: a thread blocked on a monitor looks like a running one");
    assertEquals(
        2,
        ContentionReport.correlate(seen, List.of()).rows().size(),
        "the sleeping holder and the idle pool thread are left out");
    assertTrue(
        seen.notes().stream().anyMatch(n -> n.contains("without thread states or locks")),
        String.valueOf(seen.notes()));
  }

  @Test
  void jdk21DumpToFileJsonReadsTheSameAsItsText() throws Exception {
    Observations text = Evidence.read(List.of(fixture("jdk21-dump-to-file.txt")));
    Observations json = Evidence.read(List.of(fixture("jdk21-dump-to-file.json")));
    assertEquals(
        text.sites().stream().map(ObservedSite::toString).toList(),
        json.sites().stream().map(ObservedSite::toString).toList());
    assertEquals(21, json.recordingJdk(), "runtimeVersion 21.0.5+11-LTS");
  }

  @Test
  void openJ9JavacoreFromTheDocumentedSample() throws Exception {
    Observations seen = Evidence.read(List.of(fixture("openj9-javacore.txt")));
    assertEquals(1, seen.dumps());
    assertEquals(List.of(fixture("openj9-javacore.txt")), seen.dumpFiles());
    ObservedSite worker = site(seen, WaitKind.MONITOR_ENTER, "WorkerThread", "run", 31);
    assertNotNull(worker, String.valueOf(seen.sites()));
    assertEquals(3, worker.dumpThreads(), "Worker Threads 1 to 3 are blocked (state:B)");
    assertEquals("java.lang.Object", worker.monitor());
    assertEquals("HangTest.java", worker.frame().fileName());
    HolderTally.Group holder = worker.holders().top();
    assertNotNull(holder, "Worker Thread 0 owns it: 3XMTHREADBLOCK and its entered lock say so");
    assertEquals(List.of("Worker Thread 0"), holder.threads());
    assertEquals(
        "sleep (Thread.sleep) in WorkerThread.doWork(HangTest.java:37) < WorkerThread.run(HangTest.java:31)",
        holder.holder().summary());
    assertEquals(
        1,
        ContentionReport.correlate(seen, List.of()).rows().size(),
        "Common-Cleaner waits in the runtime for work; Worker Thread 0 sleeps outside a poll loop");
  }

  @Test
  void idleWorkersWaitingForWorkAreNotRanked() throws Exception {
    String dump =
        String.join(
            "\n",
            "Full thread dump OpenJDK 64-Bit Server VM (21.0.5+11 mixed mode):",
            "",
            "\"db-worker-1\" #41 daemon prio=5 os_prio=0 cpu=2.00ms elapsed=80.00s tid=0x1 nid=0x2 in Object.wait()",
            "   java.lang.Thread.State: WAITING (on object monitor)",
            "\tat java.lang.Object.wait0(java.base@21.0.5/Native Method)",
            "\tat java.lang.Object.wait(java.base@21.0.5/Object.java:366)",
            "\tat blog.db.WorkQueue.take(WorkQueue.java:28)",
            "\t- waiting on <0x00000000f0001000> (a java.util.ArrayDeque)",
            "\tat blog.db.DbWorker.run(DbWorker.java:17)",
            "\tat java.lang.Thread.run(java.base@21.0.5/Thread.java:1583)",
            "",
            "\"db-worker-2\" #42 daemon prio=5 os_prio=0 cpu=2.00ms elapsed=80.00s tid=0x3 nid=0x4 in Object.wait()",
            "   java.lang.Thread.State: WAITING (on object monitor)",
            "\tat java.lang.Object.wait0(java.base@21.0.5/Native Method)",
            "\tat java.lang.Object.wait(java.base@21.0.5/Object.java:366)",
            "\tat blog.db.Flusher.run(Flusher.java:40)",
            "\t- waiting on <0x00000000f0002000> (a java.lang.Object)",
            "\tat java.lang.Thread.run(java.base@21.0.5/Thread.java:1583)",
            "",
            "\"http-exec-7\" #51 daemon prio=5 os_prio=0 cpu=2.00ms elapsed=80.00s tid=0x5 nid=0x6 in Object.wait()",
            "   java.lang.Thread.State: TIMED_WAITING (on object monitor)",
            "\tat java.lang.Object.wait0(java.base@21.0.5/Native Method)",
            "\tat java.lang.Object.wait(java.base@21.0.5/Object.java:366)",
            "\tat org.apache.commons.pool.impl.GenericObjectPool.borrowObject(GenericObjectPool.java:810)",
            "\t- waiting on <0x00000000f0003000> (a org.apache.commons.pool.impl.GenericObjectPool)",
            "\tat blog.web.PostServlet.doGet(PostServlet.java:30)",
            "\tat java.lang.Thread.run(java.base@21.0.5/Thread.java:1583)",
            "");
    Path file = Files.writeString(temp.resolve("blog.txt"), dump);
    Observations seen = Evidence.read(List.of(file));
    assertEquals(2, seen.idleWaits(), "a worker taking from its queue, a flusher in its run loop");
    assertEquals(1, seen.sites().size(), String.valueOf(seen.sites()));
    assertEquals(
        "org.apache.commons.pool.impl.GenericObjectPool",
        seen.sites().iterator().next().frame().className(),
        "a request waiting for a pooled connection is contention");
    String notes =
        String.join(" ", new ReportWriter(ContentionReport.correlate(seen, List.of())).notes());
    assertTrue(notes.contains("2 waits of threads waiting for work"), notes);
    assertTrue(notes.contains("WorkQueue.take(WorkQueue.java:28) (1)"), notes);
  }

  @Test
  void threadsSleepingInAFlaggedPollLoopAreEvidenceForItsFinding() throws Exception {
    StringBuilder dump =
        new StringBuilder("Full thread dump OpenJDK 64-Bit Server VM (21.0.5+11):\n\n");
    for (int i = 0; i < 27; i++) {
      dump.append("\"http-exec-")
          .append(i)
          .append("\" #")
          .append(60 + i)
          .append(
              " daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x1 nid=0x2 waiting on condition\n")
          .append("   java.lang.Thread.State: TIMED_WAITING (sleeping)\n")
          .append("\tat java.lang.Thread.sleep0(java.base@21.0.5/Native Method)\n")
          .append("\tat java.lang.Thread.sleep(java.base@21.0.5/Thread.java:509)\n")
          .append("\tat blog.search.Search.awaitIndexer(Search.java:44)\n")
          .append("\tat blog.search.Search.find(Search.java:30)\n")
          .append("\tat blog.web.SearchServlet.doGet(SearchServlet.java:21)\n\n");
    }
    dump.append(
        "\"housekeeping\" #90 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x1 nid=0x2 waiting on condition\n"
            + "   java.lang.Thread.State: TIMED_WAITING (sleeping)\n"
            + "\tat java.lang.Thread.sleep0(java.base@21.0.5/Native Method)\n"
            + "\tat java.lang.Thread.sleep(java.base@21.0.5/Thread.java:509)\n"
            + "\tat blog.Housekeeping.run(Housekeeping.java:12)\n\n");
    Path file = Files.writeString(temp.resolve("search.txt"), dump.toString());
    Observations seen = Evidence.read(List.of(file));
    StaticFinding busyWait =
        new StaticFinding(
            "ThreadAliveBusyWait",
            "blog.search.Search",
            "",
            "",
            "awaitIndexer",
            "",
            -1,
            -1,
            44,
            "blog.jar Search.awaitIndexer() line 44",
            "Search.awaitIndexer() busy-waits on Thread.isAlive().",
            "join()",
            "blog.jar",
            0);
    ContentionReport report = ContentionReport.correlate(seen, List.of(busyWait));
    assertEquals(1, report.rows().size(), "the housekeeping thread's sleep is not contention");
    ContentionReport.Row row = report.rows().get(0);
    assertEquals(WaitKind.SLEEP, row.site().kind());
    assertEquals(27, row.site().dumpThreads());
    assertEquals(List.of(busyWait), row.findings());
    assertTrue(report.unobserved().isEmpty(), "the finding was seen: threads sleep in its loop");
    assertTrue(ContentionReport.correlate(seen, List.of()).rows().isEmpty(), "no finding, no row");
  }
}
