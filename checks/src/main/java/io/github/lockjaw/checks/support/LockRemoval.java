package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.tree.JCTree;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The text that replaces a {@code synchronized (lock) { ... }} block by its statements, with edits
 * inside the block applied and the statements moved out one level, so the file keeps its layout:
 * each line loses the indentation its first statement has beyond the {@code synchronized}
 * keyword's.
 */
public final class LockRemoval {

  /** A replacement of source positions [start, end) inside the block by {@code text}. */
  public record Edit(int start, int end, String text) {}

  private LockRemoval() {}

  /**
   * The block's statements and comments, edited and de-indented; null when the block is empty or
   * its source is not available (generated code).
   */
  public static String unwrap(SynchronizedTree block, List<Edit> edits, VisitorState state) {
    List<? extends StatementTree> statements = block.getBlock().getStatements();
    CharSequence source = state.getSourceCode();
    if (statements.isEmpty() || source == null) {
      return null;
    }
    // the statements replace the block in place: only where the block is a statement of a block
    // (not the only statement of an if, loop or label, which would then guard the first alone),
    // and only when it declares nothing that would move into the enclosing scope
    TreePath path = TreePath.getPath(state.getPath().getCompilationUnit(), block);
    if (path == null
        || !(path.getParentPath().getLeaf() instanceof BlockTree
            || path.getParentPath().getLeaf() instanceof CaseTree)) {
      return null;
    }
    for (StatementTree statement : statements) {
      if (statement instanceof VariableTree || statement instanceof ClassTree) {
        return null;
      }
    }
    int firstStatement = ((JCTree) statements.get(0)).getStartPosition();
    int blockStart = ((JCTree) block).getStartPosition();
    int open = ((JCTree) block.getBlock()).getStartPosition();
    int close = state.getEndPosition(block.getBlock()) - 1;
    if (firstStatement < 0
        || blockStart < 0
        || open < 0
        || close <= open
        || source.charAt(open) != '{'
        || source.charAt(close) != '}') {
      return null;
    }
    // everything between the braces moves out, comments before the first statement and after
    // the last included; only the blank space next to the braces stays behind
    int start = open + 1;
    while (start < close && Character.isWhitespace(source.charAt(start))) {
      start++;
    }
    int end = close;
    while (end > start && Character.isWhitespace(source.charAt(end - 1))) {
      end--;
    }
    List<Edit> sorted = new ArrayList<>(edits);
    sorted.sort(Comparator.comparingInt(Edit::start).reversed());
    StringBuilder text = new StringBuilder(source.subSequence(start, end));
    int limit = end;
    for (Edit edit : sorted) {
      if (edit.start() < start || edit.end() > limit || edit.start() > edit.end()) {
        return null; // overlapping or outside the block: not a rewrite lockjaw can show safe
      }
      text.replace(edit.start() - start, edit.end() - start, edit.text());
      limit = edit.start();
    }
    String outer = indentOfLine(source, blockStart);
    String inner = indentOfLine(source, firstStatement);
    if (!inner.startsWith(outer) || inner.length() == outer.length()) {
      return text.toString();
    }
    String extra = inner.substring(outer.length());
    String[] lines = text.toString().split("\n", -1);
    StringBuilder result = new StringBuilder(lines[0]);
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      result.append('\n').append(line.startsWith(inner) ? line.substring(extra.length()) : line);
    }
    return result.toString();
  }

  private static String indentOfLine(CharSequence source, int position) {
    int lineStart = position;
    while (lineStart > 0 && source.charAt(lineStart - 1) != '\n') {
      lineStart--;
    }
    int i = lineStart;
    while (i < position && (source.charAt(i) == ' ' || source.charAt(i) == '\t')) {
      i++;
    }
    return source.subSequence(lineStart, i).toString();
  }
}
