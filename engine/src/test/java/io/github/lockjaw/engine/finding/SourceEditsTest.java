package io.github.lockjaw.engine.finding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SourceEditsTest {
  private static final String SOURCE =
      "class A {\n  void run() {\n    while (t.isAlive()) {}\n  }\n}\n";

  @Test
  void appliesEditsFromTheEndSoOffsetsStayValid() {
    int start = SOURCE.indexOf("while");
    int end = SOURCE.indexOf("{}") + 2;
    String fixed =
        SourceEdits.apply(
            SOURCE, List.of(new Edit(0, 5, "final class"), new Edit(start, end, "t.join();")));
    assertEquals("final class A {\n  void run() {\n    t.join();\n  }\n}\n", fixed);
  }

  @Test
  void showsOnlyTheChangedLinesWithOneLineOfContext() {
    int start = SOURCE.indexOf("while");
    int end = SOURCE.indexOf("{}") + 2;
    String diff =
        SourceEdits.unifiedDiff("src/A.java", SOURCE, List.of(new Edit(start, end, "t.join();")));
    assertEquals(
        "--- a/src/A.java\n+++ b/src/A.java\n@@ -2,3 +2,3 @@\n   void run() {\n-    while (t.isAlive()) {}\n+    t.join();\n   }\n",
        diff);
  }

  @Test
  void anInsertionAndAReplacementAtTheSameOffsetBothApply() {
    assertEquals(
        "01234XY89",
        SourceEdits.apply("0123456789", List.of(new Edit(5, 5, "X"), new Edit(5, 8, "Y"))));
    assertTrue(new Edit(5, 8, "Y").overlaps(new Edit(5, 5, "X")));
    assertTrue(new Edit(5, 5, "X").overlaps(new Edit(5, 8, "Y")));
  }

  @Test
  void rejectsEditsPastTheEnd() {
    assertThrows(
        IllegalArgumentException.class,
        () -> SourceEdits.apply("abc", List.of(new Edit(2, 9, "x"))));
  }

  @Test
  void overlapIsDetectedForRangesAndInsertionsAtTheSamePoint() {
    assertTrue(new Edit(0, 5, "").overlaps(new Edit(4, 8, "")));
    assertFalse(new Edit(0, 5, "").overlaps(new Edit(5, 8, "")));
    assertTrue(new Edit(3, 3, "a").overlaps(new Edit(3, 3, "b")));
  }
}
