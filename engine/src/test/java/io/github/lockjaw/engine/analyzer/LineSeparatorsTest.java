package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Item 9 of issue 17: in a CRLF file, inserted code (imports included) ends its lines in CRLF. */
class LineSeparatorsTest {
  @Test
  void crlfFilesGetCrlfAndLfFilesKeepLf() {
    String crlf = "package a;\r\nimport java.util.Map;\r\nclass A {}\r\n";
    assertEquals(
        "import java.util.Map;\r\nimport java.util.concurrent.ConcurrentHashMap;\r\n",
        LockjawAnalyzer.inFileLineSeparators(
            "import java.util.Map;\nimport java.util.concurrent.ConcurrentHashMap;\n", crlf));
    assertEquals(
        "a\r\nb\r\n", LockjawAnalyzer.inFileLineSeparators("a\r\nb\n", crlf), "no CR doubled");
    assertEquals("a\nb\n", LockjawAnalyzer.inFileLineSeparators("a\nb\n", "class A {}\n"));
  }
}
