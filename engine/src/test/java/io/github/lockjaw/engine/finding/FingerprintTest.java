package io.github.lockjaw.engine.finding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FingerprintTest {
  private static Finding finding(int line, int column, String check, String member, String code) {
    return new Finding(
        check,
        Severity.WARNING,
        "/repo/src/main/java/shop/ClassInfo.java",
        line,
        column,
        "message",
        "https://docs",
        "ClassInfo",
        member,
        code,
        List.of());
  }

  @Test
  void survivesLinesShiftingAndReformattingElsewhere() {
    Finding before =
        finding(45, 5, "ClassMonitorCache", "getInstance(Class)", "synchronized(clazz){return1;}");
    Finding after =
        finding(52, 9, "ClassMonitorCache", "getInstance(Class)", "synchronized(clazz){return1;}");
    assertEquals(
        Fingerprint.of(before, "src/main/java/shop/ClassInfo.java"),
        Fingerprint.of(after, "src/main/java/shop/ClassInfo.java"));
  }

  @Test
  void changesWithTheCheckTheMemberTheFileOrTheFlaggedCode() {
    Finding base =
        finding(45, 5, "ClassMonitorCache", "getInstance(Class)", "synchronized(clazz){}");
    String fingerprint = Fingerprint.of(base, "a/ClassInfo.java");
    assertNotEquals(
        fingerprint,
        Fingerprint.of(
            finding(45, 5, "SynchronizedMapCache", "getInstance(Class)", "synchronized(clazz){}"),
            "a/ClassInfo.java"));
    assertNotEquals(
        fingerprint,
        Fingerprint.of(
            finding(45, 5, "ClassMonitorCache", "forName(String)", "synchronized(clazz){}"),
            "a/ClassInfo.java"));
    assertNotEquals(fingerprint, Fingerprint.of(base, "b/ClassInfo.java"));
    assertNotEquals(
        fingerprint,
        Fingerprint.of(
            finding(45, 5, "ClassMonitorCache", "getInstance(Class)", "synchronized(type){}"),
            "a/ClassInfo.java"));
  }

  @Test
  void identicalFindingsInOneMemberStayDistinctInSourceOrder() {
    Finding first = finding(10, 5, "ThreadAliveBusyWait", "run()", "while(t.isAlive()){}");
    Finding second = finding(20, 5, "ThreadAliveBusyWait", "run()", "while(t.isAlive()){}");
    Map<Finding, String> all = Fingerprint.all(List.of(second, first), f -> "x/Run.java");
    assertEquals(Fingerprint.of(first, "x/Run.java"), all.get(first));
    assertEquals(Fingerprint.of(first, "x/Run.java") + ":2", all.get(second));
  }
}
