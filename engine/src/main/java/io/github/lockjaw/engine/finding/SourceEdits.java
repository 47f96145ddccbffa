package io.github.lockjaw.engine.finding;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Applies fix edits to a file's text, and shows them as a small unified diff. */
public final class SourceEdits {
  private SourceEdits() {}

  /** The text with the edits applied; the edits must not overlap. */
  public static String apply(String text, List<Edit> edits) {
    List<Edit> sorted = new ArrayList<>(edits);
    // from the end, so earlier offsets stay valid; at one offset the longer edit first, then
    // insertions
    sorted.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end).reversed());
    StringBuilder result = new StringBuilder(text);
    for (Edit edit : sorted) {
      if (edit.end() > result.length()) {
        throw new IllegalArgumentException("edit past the end of the file: " + edit);
      }
      result.replace(edit.start(), edit.end(), edit.text());
    }
    return result.toString();
  }

  private static final int CONTEXT = 1;

  /**
   * A unified diff of one fix: the lines it changes, with one line of context on each side, {@code
   * ---}/{@code +++} headers naming {@code displayPath}, one hunk per changed region.
   */
  public static String unifiedDiff(String displayPath, String text, List<Edit> edits) {
    if (edits.isEmpty()) {
      return "";
    }
    List<String> before = text.lines().toList();
    List<String> after = apply(text, edits).lines().toList();
    List<char[]> script = lineScript(before, after);
    StringBuilder diff = new StringBuilder();
    diff.append("--- a/").append(displayPath).append('\n');
    diff.append("+++ b/").append(displayPath).append('\n');
    int i = 0;
    while (i < script.size()) {
      if (script.get(i)[0] == ' ') {
        i++;
        continue;
      }
      // a hunk: from CONTEXT lines before this change to CONTEXT lines after the last change
      // that is no more than 2 * CONTEXT unchanged lines away from the previous one
      int start = Math.max(0, i - CONTEXT);
      int end = i;
      int lastChange = i;
      while (end < script.size()) {
        if (script.get(end)[0] != ' ') {
          lastChange = end;
        } else if (end - lastChange > 2 * CONTEXT) {
          break;
        }
        end++;
      }
      end = Math.min(script.size(), lastChange + 1 + CONTEXT);
      int oldLine = 1 + count(script, 0, start, '+');
      int newLine = 1 + count(script, 0, start, '-');
      int oldCount = count(script, start, end, '+');
      int newCount = count(script, start, end, '-');
      diff.append("@@ -")
          .append(oldLine)
          .append(',')
          .append(oldCount)
          .append(" +")
          .append(newLine)
          .append(',')
          .append(newCount)
          .append(" @@\n");
      for (int k = start; k < end; k++) {
        char[] op = script.get(k);
        diff.append(op[0]).append(op, 1, op.length - 1).append('\n');
      }
      i = end;
    }
    return diff.toString();
  }

  /** Lines before the index {@code to} whose operation is not {@code excluded}. */
  private static int count(List<char[]> script, int from, int to, char excluded) {
    int n = 0;
    for (int k = from; k < to; k++) {
      if (script.get(k)[0] != excluded) {
        n++;
      }
    }
    return n;
  }

  /** A line edit script (' ', '-' or '+' followed by the line), by longest common subsequence. */
  private static List<char[]> lineScript(List<String> before, List<String> after) {
    int n = before.size();
    int m = after.size();
    int prefix = 0;
    while (prefix < n && prefix < m && before.get(prefix).equals(after.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < n - prefix
        && suffix < m - prefix
        && before.get(n - 1 - suffix).equals(after.get(m - 1 - suffix))) {
      suffix++;
    }
    List<char[]> script = new ArrayList<>();
    for (int k = 0; k < prefix; k++) {
      script.add(op(' ', before.get(k)));
    }
    List<String> a = before.subList(prefix, n - suffix);
    List<String> b = after.subList(prefix, m - suffix);
    if ((long) a.size() * b.size() > 4_000_000L) {
      a.forEach(line -> script.add(op('-', line)));
      b.forEach(line -> script.add(op('+', line)));
    } else {
      int[][] lcs = new int[a.size() + 1][b.size() + 1];
      for (int x = a.size() - 1; x >= 0; x--) {
        for (int y = b.size() - 1; y >= 0; y--) {
          lcs[x][y] =
              a.get(x).equals(b.get(y))
                  ? lcs[x + 1][y + 1] + 1
                  : Math.max(lcs[x + 1][y], lcs[x][y + 1]);
        }
      }
      int x = 0;
      int y = 0;
      while (x < a.size() || y < b.size()) {
        if (x < a.size() && y < b.size() && a.get(x).equals(b.get(y))) {
          script.add(op(' ', a.get(x++)));
          y++;
        } else if (x < a.size() && (y == b.size() || lcs[x + 1][y] >= lcs[x][y + 1])) {
          script.add(op('-', a.get(x++)));
        } else {
          script.add(op('+', b.get(y++)));
        }
      }
    }
    for (int k = n - suffix; k < n; k++) {
      script.add(op(' ', before.get(k)));
    }
    return script;
  }

  private static char[] op(char kind, String line) {
    char[] result = new char[line.length() + 1];
    result[0] = kind;
    line.getChars(0, line.length(), result, 1);
    return result;
  }
}
