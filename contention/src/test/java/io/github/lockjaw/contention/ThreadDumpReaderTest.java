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
}
