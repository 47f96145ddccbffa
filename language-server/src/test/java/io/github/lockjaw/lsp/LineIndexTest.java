package io.github.lockjaw.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.eclipse.lsp4j.Position;
import org.junit.jupiter.api.Test;

class LineIndexTest {
  @Test
  void positionsAndOffsetsAgreeForEveryLineBreakStyle() {
    String text = "class A {\r\n  int x;\n\r  // é𝄞\r\n}";
    LineIndex index = new LineIndex(text);
    for (int offset = 0; offset <= text.length(); offset++) {
      Position position = index.position(offset);
      boolean insideCrLf =
          offset > 0
              && text.charAt(offset - 1) == '\r'
              && offset < text.length()
              && text.charAt(offset) == '\n';
      if (!insideCrLf) {
        assertEquals(offset, index.offset(position), "offset " + offset + " -> " + position);
      }
    }
    assertEquals(new Position(1, 2), index.position(text.indexOf("int")));
    assertEquals(
        new Position(3, 0), index.position(text.indexOf("  //")), "a lone \\r ends line 2");
    // UTF-16 code units, as LSP counts by default: the clef is two
    assertEquals(new Position(3, 8), index.position(text.indexOf("\r\n}")));
    assertEquals(text.indexOf("\r\n}"), index.lineEnd(text.indexOf("//")));
  }

  @Test
  void positionsBeyondTheTextAreClamped() {
    LineIndex index = new LineIndex("a\nbc");
    assertEquals(4, index.offset(new Position(7, 0)));
    assertEquals(4, index.offset(new Position(1, 99)));
    assertEquals(2, index.offset(new Position(0, 99)), "the end of line 0 is after its line break");
    assertEquals(new Position(1, 2), index.position(99));
  }
}
