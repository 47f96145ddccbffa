package io.github.lockjaw.maven.model;

/** One replacement of a suggested fix: characters [start, end) of the file become {@code text}. */
public record Edit(int start, int end, String text) {
  public Edit {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad edit range [" + start + ", " + end + ")");
    }
  }

  public boolean overlaps(Edit other) {
    return start < other.end && other.start < end || (start == end && start == other.start);
  }
}
