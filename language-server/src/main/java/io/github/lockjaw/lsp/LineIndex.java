package io.github.lockjaw.lsp;

import java.util.Arrays;
import org.eclipse.lsp4j.Position;

/**
 * Converts between character offsets into a text and LSP positions (line, UTF-16 character). A Java
 * string counts UTF-16 code units, as LSP's default position encoding does, so a character offset
 * within a line is the LSP character directly.
 */
final class LineIndex {
  private final String text;
  private final int[] lineStarts;

  LineIndex(String text) {
    this.text = text;
    int[] starts = new int[16];
    int count = 0;
    starts[count++] = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
        if (count == starts.length) {
          starts = Arrays.copyOf(starts, count * 2);
        }
        starts[count++] = i + 1;
      }
    }
    lineStarts = Arrays.copyOf(starts, count);
  }

  Position position(int offset) {
    int clamped = Math.max(0, Math.min(offset, text.length()));
    int line = Arrays.binarySearch(lineStarts, clamped);
    if (line < 0) {
      line = -line - 2;
    }
    return new Position(line, clamped - lineStarts[line]);
  }

  int offset(Position position) {
    if (position.getLine() >= lineStarts.length) {
      return text.length();
    }
    int start = lineStarts[Math.max(0, position.getLine())];
    int lineEnd =
        position.getLine() + 1 < lineStarts.length
            ? lineStarts[position.getLine() + 1]
            : text.length();
    return Math.min(start + Math.max(0, position.getCharacter()), lineEnd);
  }

  /** The offset of the end of the line holding {@code offset}, before its line break. */
  int lineEnd(int offset) {
    int end = offset;
    while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
      end++;
    }
    return end;
  }
}
