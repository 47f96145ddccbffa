package io.github.lockjaw.contention;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContentionReportTest {
  @TempDir Path temp;

  private static final String LOAD = "io.github.lockjaw.cli.load.";

  static StaticFinding bytecode(
      String check, String className, String method, String descriptor, int key) {
    return new StaticFinding(
        check,
        className,
        "",
        "",
        method,
        descriptor,
        -1,
        -1,
        20,
        "app.jar " + method,
        check + " message",
        check + " advice",
        "app.jar",
        key);
  }

  static StaticFinding source(
      String check, String file, String enclosing, String method, int first, int last, int key) {
    return new StaticFinding(
        check,
        "",
        file,
        enclosing,
        method,
        "",
        first,
        last,
        first,
        "src/" + enclosing + ".java",
        check + " message",
        "",
        "",
        key);
  }

  @Test
  void bytecodeFindingCoversFramesOfItsMethodOnly() {
    StaticFinding finding =
        bytecode("SharedMonitorDao", LOAD + "OrderDao", "findOrder", "(I)Ljava/lang/String;", 0);
    assertTrue(finding.covers(new Frame(LOAD + "OrderDao", "findOrder", "", 25, "OrderDao.java")));
    assertTrue(
        finding.covers(new Frame(LOAD + "OrderDao", "findOrder", "(I)Ljava/lang/String;", 25, "")));
    assertFalse(
        finding.covers(new Frame(LOAD + "OrderDao", "findOrder", "(J)Ljava/lang/String;", 25, "")),
        "an overload");
    assertFalse(finding.covers(new Frame(LOAD + "OrderDao", "saveOrder", "", 29, "")));
    assertFalse(finding.covers(new Frame(LOAD + "OrderDaoCache", "findOrder", "", 25, "")));
  }

  @Test
  void sourceFindingMatchesByFilePackageNestedClassAndLineRange() {
    String file = "/repo/src/main/java/com/acme/shop/TemplateCache.java";
    StaticFinding outer = source("ClassMonitorCache", file, "TemplateCache", "template", 28, 40, 0);
    assertTrue(
        outer.covers(
            new Frame("com.acme.shop.TemplateCache", "template", "", 31, "TemplateCache.java")));
    assertTrue(
        outer.covers(new Frame("com.acme.shop.TemplateCache", "lambda$template$0", "", 33, "")),
        "a lambda's body belongs to the method that declares it");
    assertFalse(
        outer.covers(new Frame("com.acme.shop.TemplateCache", "template", "", 52, "")),
        "another overload's lines");
    assertFalse(
        outer.covers(new Frame("com.acme.other.TemplateCache", "template", "", 31, "")),
        "another package");
    StaticFinding nested =
        source("SynchronizedMapCache", file, "TemplateCache.Entry", "load", 60, 70, 1);
    assertTrue(nested.covers(new Frame("com.acme.shop.TemplateCache$Entry", "load", "", 61, "")));
    assertFalse(nested.covers(new Frame("com.acme.shop.TemplateCache", "load", "", 61, "")));
  }

  @Test
  void anonymousAndLocalClassesMatchTheirSourceNames() {
    String file = "/repo/src/main/java/com/acme/Poller.java";
    StaticFinding anonymous =
        source("SharedMonitorDao", file, "Poller.<anonymous>", "run", 40, 48, 0);
    assertTrue(anonymous.covers(new Frame("com.acme.Poller$2", "run", "", 44, "")));
    assertFalse(
        anonymous.covers(new Frame("com.acme.Poller$1", "run", "", 20, "")),
        "the other anonymous class's lines");
    StaticFinding local = source("SharedMonitorDao", file, "Poller.Worker", "run", 60, 70, 1);
    assertTrue(local.covers(new Frame("com.acme.Poller$1Worker", "run", "", 65, "")));
    assertEquals("Outer.Inner.<anonymous>", StaticFinding.sourceName("Outer$Inner$3"));
  }

  @Test
  void sourceMembersGiveTheMethodAroundALine() throws Exception {
    Path file = temp.resolve("TemplateCache.java");
    Files.writeString(
        file,
        String.join(
            "\n",
            "package com.acme.shop;", // 1
            "", // 2
            "class TemplateCache {", // 3
            "  static synchronized String template(String name) {", // 4
            "    return name;", // 5
            "  }", // 6
            "", // 7
            "  @Deprecated", // 8
            "  static synchronized String template(int id) {", // 9
            "    Runnable r = () -> {", // 10
            "      System.out.println(id);", // 11
            "    };", // 12
            "    return String.valueOf(id);", // 13
            "  }", // 14
            "}",
            ""));
    SourceMembers members = new SourceMembers(StandardCharsets.UTF_8);
    assertArrayEquals(new int[] {4, 6}, members.methodAround(file, 5));
    assertArrayEquals(new int[] {8, 14}, members.methodAround(file, 11));
    assertNull(members.methodAround(file, 2));
  }

  @Test
  void rankedByBlockedThreadsWithFindingsAndNoFinding() throws Exception {
    Observations seen = Evidence.read(List.of(ThreadDumpReaderTest.fixture("jdk25-jstack.txt")));
    StaticFinding cache =
        bytecode(
            "ClassMonitorCache",
            LOAD + "ReflectionCache",
            "describe",
            "(Ljava/lang/String;)Ljava/util/List;",
            0);
    StaticFinding find =
        bytecode("SharedMonitorDao", LOAD + "OrderDao", "findOrder", "(I)Ljava/lang/String;", 1);
    StaticFinding save =
        bytecode(
            "SharedMonitorDao",
            LOAD + "OrderDao",
            "saveOrder",
            "(ILjava/lang/String;)Ljava/lang/String;",
            2);
    StaticFinding unseen = bytecode("ThreadAliveBusyWait", LOAD + "Shutdown", "await", "()V", 3);
    ContentionReport report = ContentionReport.correlate(seen, List.of(cache, find, save, unseen));

    List<ContentionReport.Row> rows = report.rows();
    assertEquals(4, rows.size());
    assertEquals("describe", rows.get(0).site().frame().methodName(), "5 threads");
    assertEquals(List.of(cache), rows.get(0).findings());
    assertEquals("findOrder", rows.get(1).site().frame().methodName(), "3 threads");
    assertEquals(List.of(find), rows.get(1).findings());
    // 2 threads each: the journal's lock park and saveOrder, in name order
    assertEquals("append", rows.get(2).site().frame().methodName());
    assertFalse(rows.get(2).hasFinding());
    assertEquals(List.of(save), rows.get(3).findings());
    assertEquals(List.of(unseen), report.unobserved());
    assertEquals(rows.get(1), report.rowOf(find));
    assertNull(report.rowOf(unseen));

    ReportWriter writer = new ReportWriter(report);
    List<String> text = writer.text();
    assertTrue(
        text.get(0)
            .startsWith(
                "lockjaw contention: 4 contended lock sites (3 with a lockjaw finding) from 1 thread dump"),
        text.get(0));
    assertTrue(
        text.get(1).matches("rank  waiting threads  dumps  site {2,}waits for {2,}finding"),
        text.get(1));
    assertTrue(
        text.get(2)
            .matches(
                "\\s+1\\s+5\\s+1/1\\s+ReflectionCache\\.describe\\(ReflectionCache\\.java:19\\)\\s+"
                    + "monitor enter: ReflectionCache\\.class\\s+ClassMonitorCache"),
        text.get(2));
    assertTrue(
        text.get(4)
            .matches(
                "\\s+3\\s+2\\s+1/1\\s+AuditJournal\\.append\\(AuditJournal\\.java:27\\)\\s+"
                    + "lock park: ReentrantLock\\.lock\\s+no finding"),
        text.get(4));
    assertTrue(text.contains("   Fix: ClassMonitorCache advice"), String.join("\n", text));
    assertTrue(
        text.contains("Findings no thread was seen waiting on (1):"), String.join("\n", text));
    assertTrue(
        text.contains(
            "  app.jar: 1 finding in code no thread was seen waiting in (ThreadAliveBusyWait 1);"
                + " lockjaw's audit lists them"),
        String.join("\n", text));

    String markdown = writer.markdown();
    assertTrue(
        markdown.contains(
            "| rank | waiting threads | dumps | site | waits for | finding |\n|---:|---:|---:|---|---|---|\n"),
        markdown);
    assertTrue(
        markdown.contains(
            "| 3 | 2 | 1/1 | `AuditJournal.append(AuditJournal.java:27)` | lock park: ReentrantLock.lock"
                + " | no finding |"),
        markdown);
    assertTrue(
        markdown.contains("## 1. `ReflectionCache.describe(ReflectionCache.java:19)`"), markdown);
    assertTrue(markdown.contains("## Findings no thread was seen waiting on"), markdown);
  }

  @Test
  void blockedTimeRanksBeforeDumpCounts() throws Exception {
    Observations seen = new Observations();
    Frame a = new Frame("com.acme.A", "a", "()V", 10, "");
    Frame b = new Frame("com.acme.B", "b", "()V", 20, "");
    seen.addEvent(WaitKind.MONITOR_ENTER, List.of(a), "com.acme.A", 5_000_000, "t1", 0);
    seen.addEvent(WaitKind.MONITOR_ENTER, List.of(b), "com.acme.B", 3_000_000, "t2", 0);
    seen.addEvent(WaitKind.MONITOR_ENTER, List.of(b), "com.acme.B", 3_000_000, "t3", 0);
    int dump = seen.startDump();
    seen.addDumpThread(WaitKind.MONITOR_ENTER, List.of(a), "com.acme.A", "t4", dump, null, "");
    ContentionReport report = ContentionReport.correlate(seen, List.of());
    assertEquals("com.acme.B", report.rows().get(0).site().frame().className(), "6 ms beats 5 ms");
    ObservedSite top = report.rows().get(0).site();
    assertEquals(2, top.events());
    assertEquals(6_000_000, top.totalNanos());
    assertEquals(3_000_000, top.maxNanos());
    assertEquals(1, report.rows().get(1).site().dumpThreads());
  }

  @Test
  void aPinnedSiteIsTiedToTheVirtualThreadPinningFindingOfItsMethod() {
    // jdk.VirtualThreadPinned on JDK 21 to 23: a virtual thread sleeps inside a synchronized method
    Observations seen = new Observations();
    seen.recordedOn(21);
    Frame sleep = new Frame("java.lang.Thread", "sleep", "(J)V", -1, "");
    Frame audit = new Frame("com.acme.Shop", "audit", "(Ljava/lang/String;)V", 42, "Shop.java");
    Frame handle = new Frame("com.acme.ShopHandler", "handle", "()V", 20, "ShopHandler.java");
    seen.addEvent(WaitKind.PINNED, List.of(sleep, audit, handle), "", 300_000_000, "v-1", 0);
    StaticFinding pinning =
        bytecode("VirtualThreadPinning", "com.acme.Shop", "audit", "(Ljava/lang/String;)V", 0);
    StaticFinding elsewhere =
        bytecode("VirtualThreadPinning", "com.acme.Shop", "restock", "()V", 1);
    ContentionReport report = ContentionReport.correlate(seen, List.of(pinning, elsewhere));
    assertEquals(1, report.rows().size(), String.valueOf(report.rows()));
    ContentionReport.Row row = report.rows().get(0);
    assertEquals(WaitKind.PINNED, row.site().kind());
    assertEquals(List.of(pinning), row.findings(), "the pinned frame is in the flagged method");
    assertEquals(List.of(elsewhere), report.unobserved(), "no virtual thread pinned in restock()");
    String table = String.join("\n", new ReportWriter(report).text());
    assertTrue(table.contains("VirtualThreadPinning"), table);
  }
}
