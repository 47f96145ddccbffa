package io.github.lockjaw.engine.finding;

/** One replacement of a suggested fix: characters [start, end) of the file become {@code text}. */
public record Edit(int start, int end, String text) {
  public Edit {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad edit range [" + start + ", " + end + ")");
    }
  }

  /**
   * Whether two edits touch the same text. An insertion (an empty range) also clashes with an edit
   * that starts or ends where it inserts: their order would be ambiguous. Symmetric.
   */
  public boolean overlaps(Edit other) {
    if (start == end || other.start == other.end) {
      return start <= other.end && other.start <= end;
    }
    return start < other.end && other.start < end;
  }
}
