package io.github.lockjaw.checks.support;

import java.util.ArrayList;
import java.util.List;

/**
 * How fixed code is laid out so that it looks hand-written in the file's own style: its indentation
 * and indentation step, its line separator, code moved to another depth keeping its shape,
 * generated blocks indented by their braces, and the comments of replaced code kept.
 */
public final class Layout {
  private Layout() {}

  /** The file's line separator: CRLF when the file uses it, else LF. */
  public static String newline(CharSequence source) {
    return source.toString().contains("\r\n") ? "\r\n" : "\n";
  }

  /** Where the line holding {@code position} starts. */
  public static int lineStart(CharSequence source, int position) {
    int i = Math.min(Math.max(position, 0), source.length());
    while (i > 0 && source.charAt(i - 1) != '\n') {
      i--;
    }
    return i;
  }

  /**
   * Whether the line starting at {@code lineStart} holds only white space (and ends in a newline).
   */
  public static boolean isBlankLine(CharSequence source, int lineStart) {
    for (int i = lineStart; i < source.length(); i++) {
      char c = source.charAt(i);
      if (c == '\n') {
        return true;
      }
      if (!Character.isWhitespace(c)) {
        return false;
      }
    }
    return false;
  }

  /** The white space before {@code position} on its line, or null when code precedes it there. */
  public static String indentationAt(CharSequence source, int position) {
    position = Math.min(Math.max(position, 0), source.length());
    int start = lineStart(source, position);
    String before = source.subSequence(start, position).toString();
    return before.isBlank() ? before.replace("\r", "") : null;
  }

  /**
   * The file's indentation step: a tab if lines are indented with tabs, else the smallest increase
   * in indentation from one code line to the next (2 when the file shows none).
   */
  public static String unit(CharSequence source) {
    int smallest = Integer.MAX_VALUE;
    int previous = -1;
    for (String line : source.toString().split("\r?\n")) {
      if (line.isBlank() || line.stripLeading().startsWith("*")) {
        continue;
      }
      if (line.startsWith("\t")) {
        return "\t";
      }
      int indent = line.length() - line.stripLeading().length();
      if (previous >= 0 && indent > previous) {
        smallest = Math.min(smallest, indent - previous);
      }
      previous = indent;
    }
    return " ".repeat(smallest == Integer.MAX_VALUE || smallest > 8 ? 2 : smallest);
  }

  /**
   * Source text moved to another depth: every line after the first that starts with {@code from}
   * starts with {@code to} instead, so the text keeps its own shape; lines end in {@code newline}.
   */
  public static String move(String text, String from, String to, String newline) {
    String[] lines = text.split("\r?\n", -1);
    StringBuilder out = new StringBuilder(lines[0]);
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (!line.isBlank() && line.startsWith(from)) {
        line = to + line.substring(from.length());
      } else if (line.isBlank()) {
        line = "";
      }
      out.append(newline).append(line);
    }
    return out.toString();
  }

  /**
   * Generated statements ({@code \n}-separated, braces balanced) laid out to replace code that
   * starts at a column whose indentation is {@code base}: the first line stays where the replaced
   * code started, every later line is indented by its brace depth, continuation lines of a
   * statement one more double step.
   */
  public static String block(String code, String base, String unit, String newline) {
    String[] lines = code.split("\r?\n", -1);
    StringBuilder out = new StringBuilder();
    int depth = 0;
    boolean continuation = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.startsWith("}")) {
        depth = Math.max(0, depth - 1);
      }
      if (i > 0) {
        out.append(newline);
        if (!line.isEmpty()) {
          out.append(base).append(unit.repeat(depth)).append(continuation ? unit.repeat(2) : "");
        }
      }
      out.append(line);
      int opens = 0;
      for (char c : code(line).toCharArray()) {
        if (c == '{') {
          opens++;
        } else if (c == '}') {
          opens--;
        }
      }
      depth = Math.max(0, depth + opens + (line.startsWith("}") ? 1 : 0));
      String statement = code(line).strip();
      continuation =
          !statement.isEmpty()
              && !(statement.endsWith(";")
                  || statement.endsWith("{")
                  || statement.endsWith("}")
                  || statement.endsWith(":")
                  || statement.startsWith("@"));
    }
    return out.toString();
  }

  /**
   * The longest line the file keeps to: its widest line, but no less than 80 columns (a file of
   * short lines says nothing about its limit). Tabs count as 4 columns.
   */
  public static int lineLimit(CharSequence source) {
    int widest = 0;
    for (String line : source.toString().split("\r?\n")) {
      widest = Math.max(widest, line.replace("\t", "    ").length());
    }
    return Math.max(80, widest);
  }

  /**
   * The comments in {@code [start, end)} of the source outside the {@code kept} ranges, each as
   * written: a replaced loop's notes are kept above the code that replaces it.
   */
  public static List<String> comments(CharSequence source, int start, int end, List<int[]> kept) {
    List<String> comments = new ArrayList<>();
    String text = source.toString();
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      int commentEnd = -1;
      if (c == '/' && i + 1 < end && text.charAt(i + 1) == '/') {
        commentEnd = text.indexOf('\n', i);
        commentEnd = commentEnd < 0 ? end : commentEnd;
        if (commentEnd > i && text.charAt(commentEnd - 1) == '\r') {
          commentEnd--;
        }
      } else if (c == '/' && i + 1 < end && text.charAt(i + 1) == '*') {
        commentEnd = text.indexOf("*/", i + 2);
        commentEnd = commentEnd < 0 ? end : commentEnd + 2;
      } else if (c == '"' || c == '\'') {
        boolean textBlock = text.startsWith("\"\"\"", i);
        String close = textBlock ? "\"\"\"" : String.valueOf(c);
        int j = i + close.length();
        while (j < end && !text.startsWith(close, j)) {
          j += text.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + close.length() - 1;
        continue;
      }
      if (commentEnd > 0) {
        int at = i;
        if (kept.stream().noneMatch(r -> r[0] <= at && at < r[1])) {
          comments.add(text.substring(i, commentEnd).strip());
        }
        i = commentEnd - 1;
      }
    }
    return comments;
  }

  /** A line without its string literals and trailing line comment, for counting braces. */
  private static String code(String line) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '/') {
        break;
      }
      if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < line.length() && line.charAt(j) != c) {
          j += line.charAt(j) == '\\' ? 2 : 1;
        }
        i = j;
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }
}
