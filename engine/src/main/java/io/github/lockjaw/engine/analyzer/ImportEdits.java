package io.github.lockjaw.engine.analyzer;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.tools.javac.tree.JCTree;
import io.github.lockjaw.engine.finding.Edit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The import changes of a fix as the smallest edit: a new import goes where the file's own order
 * puts it, a removed one loses its line, and every other line of the block stays as written. Error
 * Prone's own import rewriting reorders the whole block into Google style, which on real code
 * turned a one-line fix into a diff of every import.
 *
 * <p>Where a new import goes: next to the existing import that shares the longest prefix with it
 * (same kind, static or not). If that import's group (the imports between blank lines) is sorted,
 * the new one takes its sorted place in the group; otherwise it follows that neighbour. A file with
 * no import of that kind gets the new one after its last import (non-static) or before its first
 * (static), a blank line between; a file with no import at all gets it after the package line.
 */
final class ImportEdits {
  private static final Pattern IMPORT_LINE =
      Pattern.compile("\\s*import\\s+(static\\s+)?([\\w.$*]+)\\s*;\\s*");

  /** One import as the fix names it: {@code import java.util.Map}, {@code import static a.B.c}. */
  record Import(boolean isStatic, String name) {
    static Import parse(String text) {
      String rest = text.strip();
      rest = rest.startsWith("import ") ? rest.substring("import ".length()).strip() : rest;
      boolean isStatic = rest.startsWith("static ");
      if (isStatic) {
        rest = rest.substring("static ".length()).strip();
      }
      if (rest.endsWith(";")) {
        rest = rest.substring(0, rest.length() - 1).strip();
      }
      return new Import(isStatic, rest);
    }

    String line() {
      return "import " + (isStatic ? "static " : "") + name + ";";
    }

    /** Whether an on-demand import ({@code a.b.*}) of the same kind already brings this in. */
    boolean isCoveredBy(Import onDemand) {
      return onDemand.isStatic == isStatic
          && onDemand.name.endsWith(".*")
          && name.lastIndexOf('.') == onDemand.name.length() - 2
          && name.startsWith(onDemand.name.substring(0, onDemand.name.length() - 1));
    }
  }

  /** A line of the import block: its text with its line break, and the import on it, if any. */
  private record Line(String text, Import parsed) {
    boolean isBlank() {
      return text.isBlank();
    }
  }

  private ImportEdits() {}

  /**
   * The edit that adds {@code toAdd} and removes {@code toRemove} ({@code "import a.B"} as Error
   * Prone's fixes name them), or empty when the imports are already as asked.
   */
  static Optional<Edit> edit(
      CompilationUnitTree unit,
      String source,
      Collection<String> toAdd,
      Collection<String> toRemove) {
    String lineBreak = source.contains("\r\n") ? "\r\n" : "\n";
    List<? extends ImportTree> imports = unit.getImports();
    List<Import> adds = new ArrayList<>();
    for (String text : toAdd) {
      Import add = Import.parse(text);
      if (!adds.contains(add)) {
        adds.add(add);
      }
    }
    List<Import> removes = toRemove.stream().map(Import::parse).toList();
    if (imports.isEmpty()) {
      return intoFileWithoutImports(unit, source, adds, lineBreak);
    }
    int blockStart = lineStart(source, ((JCTree) imports.get(0)).getStartPosition());
    int lastStart = ((JCTree) imports.get(imports.size() - 1)).getStartPosition();
    int semicolon = source.indexOf(';', lastStart);
    int blockEnd = lineEnd(source, semicolon < 0 ? lastStart : semicolon);
    List<Line> lines = new ArrayList<>();
    for (int at = blockStart; at < blockEnd; ) {
      int end = lineEnd(source, at);
      String text = source.substring(at, end);
      Matcher m = IMPORT_LINE.matcher(text);
      lines.add(
          new Line(text, m.matches() ? new Import(m.group(1) != null, m.group(2).strip()) : null));
      at = end;
    }
    List<Line> result = new ArrayList<>(lines);
    result.removeIf(line -> line.parsed() != null && removes.contains(line.parsed()));
    for (Import add : adds) {
      boolean present =
          result.stream()
              .anyMatch(
                  l ->
                      l.parsed() != null
                          && (l.parsed().equals(add) || add.isCoveredBy(l.parsed())));
      if (!present) {
        insert(result, add, lineBreak);
      }
    }
    if (result.equals(lines)) {
      return Optional.empty();
    }
    // the smallest span: from the first line that changed to the last
    int first = 0;
    while (first < lines.size()
        && first < result.size()
        && lines.get(first).equals(result.get(first))) {
      first++;
    }
    int oldLast = lines.size();
    int newLast = result.size();
    while (oldLast > first
        && newLast > first
        && lines.get(oldLast - 1).equals(result.get(newLast - 1))) {
      oldLast--;
      newLast--;
    }
    int start = blockStart;
    for (int i = 0; i < first; i++) {
      start += lines.get(i).text().length();
    }
    int end = start;
    for (int i = first; i < oldLast; i++) {
      end += lines.get(i).text().length();
    }
    StringBuilder text = new StringBuilder();
    for (int i = first; i < newLast; i++) {
      text.append(result.get(i).text());
    }
    return Optional.of(new Edit(start, end, text.toString()));
  }

  private static void insert(List<Line> lines, Import add, String lineBreak) {
    Line line = new Line(add.line() + lineBreak, add);
    int neighbour = -1;
    int shared = -1;
    for (int i = 0; i < lines.size(); i++) {
      Import existing = lines.get(i).parsed();
      if (existing != null && existing.isStatic() == add.isStatic()) {
        int prefix = commonPrefix(existing.name(), add.name());
        if (prefix > shared) {
          shared = prefix;
          neighbour = i;
        }
      }
    }
    if (neighbour < 0) {
      insertFirstOfItsKind(lines, line, add.isStatic(), lineBreak);
      return;
    }
    int groupStart = neighbour;
    while (groupStart > 0 && lines.get(groupStart - 1).parsed() != null) {
      groupStart--;
    }
    int groupEnd = neighbour + 1;
    while (groupEnd < lines.size() && lines.get(groupEnd).parsed() != null) {
      groupEnd++;
    }
    List<Line> group = lines.subList(groupStart, groupEnd);
    if (isSorted(group)) {
      int at = groupStart;
      while (at < groupEnd && lines.get(at).parsed().name().compareTo(add.name()) < 0) {
        at++;
      }
      lines.add(at, line);
    } else {
      lines.add(neighbour + 1, line);
    }
  }

  private static void insertFirstOfItsKind(
      List<Line> lines, Line line, boolean isStatic, String lineBreak) {
    Line blank = new Line(lineBreak, null);
    if (isStatic) {
      int first = 0;
      while (first < lines.size() && lines.get(first).parsed() == null) {
        first++;
      }
      lines.add(first, blank);
      lines.add(first, line);
    } else {
      int last = lines.size();
      while (last > 0 && lines.get(last - 1).parsed() == null) {
        last--;
      }
      lines.add(last, line);
      lines.add(last, blank);
    }
  }

  private static Optional<Edit> intoFileWithoutImports(
      CompilationUnitTree unit, String source, List<Import> adds, String lineBreak) {
    if (adds.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder text = new StringBuilder();
    adds.stream()
        .sorted(
            (a, b) ->
                a.isStatic() != b.isStatic()
                    ? (a.isStatic() ? -1 : 1)
                    : a.name().compareTo(b.name()))
        .forEach(add -> text.append(add.line()).append(lineBreak));
    if (unit.getPackage() == null) {
      return Optional.of(new Edit(0, 0, text + lineBreak));
    }
    int semicolon = source.indexOf(';', ((JCTree) unit.getPackage()).getStartPosition());
    int at = lineEnd(source, semicolon);
    // after "package a;" and its blank line, the imports and a blank line of their own
    boolean blankFollows = source.startsWith(lineBreak, at);
    return Optional.of(
        new Edit(at, at, blankFollows ? lineBreak + text : lineBreak + text + lineBreak));
  }

  private static boolean isSorted(List<Line> group) {
    for (int i = 1; i < group.size(); i++) {
      if (group.get(i - 1).parsed().name().compareTo(group.get(i).parsed().name()) > 0) {
        return false;
      }
    }
    return true;
  }

  private static int commonPrefix(String a, String b) {
    int n = 0;
    while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
      n++;
    }
    return n;
  }

  private static int lineStart(String source, int position) {
    int at = position;
    while (at > 0 && source.charAt(at - 1) != '\n') {
      at--;
    }
    return at;
  }

  /** The position after the line break that ends the line of {@code position}. */
  private static int lineEnd(String source, int position) {
    int newline = source.indexOf('\n', position);
    return newline < 0 ? source.length() : newline + 1;
  }
}
