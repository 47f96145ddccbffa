package io.github.lockjaw.maven.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Applies fix edits to a file's text, and shows them as a small unified diff. */
public final class SourceEdits {
  private SourceEdits() {}

  /** The text with the edits applied; the edits must not overlap. */
  public static String apply(String text, List<Edit> edits) {
    List<Edit> sorted = new ArrayList<>(edits);
    sorted.sort(Comparator.comparingInt(Edit::start).reversed());
    StringBuilder result = new StringBuilder(text);
    for (Edit edit : sorted) {
      if (edit.end() > result.length()) {
        throw new IllegalArgumentException("edit past the end of the file: " + edit);
      }
      result.replace(edit.start(), edit.end(), edit.text());
    }
    return result.toString();
  }

  /**
   * A unified diff of one fix: the lines it changes, with one line of context on each side,
   * {@code ---}/{@code +++} headers naming {@code displayPath}.
   */
  public static String unifiedDiff(String displayPath, String text, List<Edit> edits) {
    if (edits.isEmpty()) {
      return "";
    }
    String fixed = apply(text, edits);
    List<String> before = text.lines().toList();
    List<String> after = fixed.lines().toList();
    int prefix = 0;
    while (prefix < before.size() && prefix < after.size() && before.get(prefix).equals(after.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < before.size() - prefix
        && suffix < after.size() - prefix
        && before.get(before.size() - 1 - suffix).equals(after.get(after.size() - 1 - suffix))) {
      suffix++;
    }
    int context = 1;
    int from = Math.max(0, prefix - context);
    int beforeEnd = Math.min(before.size(), before.size() - suffix + context);
    int afterEnd = Math.min(after.size(), after.size() - suffix + context);
    StringBuilder diff = new StringBuilder();
    diff.append("--- a/").append(displayPath).append('\n');
    diff.append("+++ b/").append(displayPath).append('\n');
    diff.append("@@ -").append(from + 1).append(',').append(beforeEnd - from)
        .append(" +").append(from + 1).append(',').append(afterEnd - from).append(" @@\n");
    for (int i = from; i < prefix; i++) {
      diff.append(' ').append(before.get(i)).append('\n');
    }
    for (int i = prefix; i < before.size() - suffix; i++) {
      diff.append('-').append(before.get(i)).append('\n');
    }
    for (int i = prefix; i < after.size() - suffix; i++) {
      diff.append('+').append(after.get(i)).append('\n');
    }
    for (int i = before.size() - suffix; i < beforeEnd; i++) {
      diff.append(' ').append(before.get(i)).append('\n');
    }
    return diff.toString();
  }
}
