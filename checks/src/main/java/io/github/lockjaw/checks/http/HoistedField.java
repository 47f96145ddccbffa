package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.Layout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;

/**
 * The static field {@link HoistHttpClientFix} adds: which class may hold it, what it is called (a
 * name no other field or earlier finding in the file uses), and where its declaration goes, laid
 * out as by hand.
 */
final class HoistedField {
  /**
   * The field names this analysis already handed out per file: several findings in one file each
   * get their own name, so applying all their fixes (from SARIF, say) declares no name twice.
   */
  private static final Map<CompilationUnitTree, Set<String>> NAMES_HANDED_OUT =
      Collections.synchronizedMap(new WeakHashMap<>());

  private HoistedField() {}

  /** Records a name handed out, so that the next finding in the same file picks another. */
  static void handOut(String name, VisitorState state) {
    NAMES_HANDED_OUT
        .computeIfAbsent(state.getPath().getCompilationUnit(), k -> new HashSet<>())
        .add(name);
  }

  /** Text to insert at a position. */
  record Insertion(int position, String text) {}

  /**
   * The new field near the top of {@code target}, written as by hand: on its own line after the
   * class's opening brace (or after its leading static fields), indented as the class's members
   * are, its continuation lines shifted with it, in the file's line separator, and followed by a
   * blank line when the class separates its members by blank lines and the next member is not a
   * field.
   */
  static Insertion insertion(
      ClassTree target,
      String head,
      String initializer,
      ExpressionTree creation,
      VisitorState state) {
    String source = state.getSourceCode().toString();
    int brace = openingBrace(target, state);
    if (brace < 0) {
      return null;
    }
    String newline = Layout.newline(source);
    List<Tree> members = new ArrayList<>();
    for (Tree member : target.getMembers()) {
      int start = ASTHelpers.getStartPosition(member);
      if (start > brace
          && state.getEndPosition(member) > start) { // not generated (record accessors)
        members.add(member);
      }
    }
    if (members.isEmpty()) {
      return null;
    }
    Tree first = members.get(0);
    String indent = Layout.indentationAt(source, ASTHelpers.getStartPosition(first));
    if (indent == null) {
      return null;
    }
    // continuation lines keep their place relative to the statement the initializer came from
    int creationLine = Layout.lineStart(source, ASTHelpers.getStartPosition(creation));
    String creationText = source.substring(creationLine, ASTHelpers.getStartPosition(creation));
    String fromIndent =
        creationText.substring(0, creationText.length() - creationText.stripLeading().length());
    StringBuilder declaration =
        new StringBuilder(indent)
            .append(head)
            .append(Layout.move(initializer, fromIndent, indent, newline));
    declaration.append(';').append(newline);
    int lineEnd = source.indexOf('\n', brace);
    if (lineEnd < 0
        || lineEnd >= ASTHelpers.getStartPosition(first)
        || !source.substring(brace + 1, lineEnd).isBlank()) {
      return null; // members on the brace's line: no place for a line of its own
    }
    int position = lineEnd + 1;
    boolean blankAfterBrace = Layout.isBlankLine(source, position);
    if (blankAfterBrace) {
      position = source.indexOf('\n', position) + 1;
    }
    // after the class's leading constants (and fields hoisted before), so that several hoisted
    // clients read in the order of their methods
    int constants = 0;
    while (constants < members.size()
        && members.get(constants) instanceof VariableTree field
        && field.getModifiers().getFlags().contains(Modifier.STATIC)) {
      constants++;
    }
    if (constants > 0) {
      Tree last = members.get(constants - 1);
      int end = state.getEndPosition(last);
      int afterLast = source.indexOf('\n', end);
      String lastIndent = Layout.indentationAt(source, ASTHelpers.getStartPosition(last));
      if (afterLast > 0
          && source.substring(end, afterLast).isBlank()
          && indent.equals(lastIndent)) {
        return new Insertion(afterLast + 1, declaration.toString());
      }
    }
    if (!(first instanceof VariableTree)
        && (blankAfterBrace || separatedByBlankLines(source, members))) {
      declaration.append(newline);
    }
    return new Insertion(position, declaration.toString());
  }

  /** The position of the '{' that opens the class body: the first one outside parentheses. */
  private static int openingBrace(ClassTree target, VisitorState state) {
    int start = ASTHelpers.getStartPosition(target);
    int end = state.getEndPosition(target);
    if (start < 0 || end <= start) {
      return -1;
    }
    // a small scan of the header: comments and literals (annotation arguments) are skipped
    String source = state.getSourceCode().toString();
    int depth = 0;
    for (int i = start; i < end; i++) {
      char c = source.charAt(i);
      if (c == '/' && i + 1 < end && source.charAt(i + 1) == '/') {
        i = source.indexOf('\n', i);
        if (i < 0) {
          return -1;
        }
      } else if (c == '/' && i + 1 < end && source.charAt(i + 1) == '*') {
        i = source.indexOf("*/", i + 2);
        if (i < 0) {
          return -1;
        }
        i++;
      } else if (c == '"' || c == '\'') {
        boolean textBlock = source.startsWith("\"\"\"", i);
        String close = textBlock ? "\"\"\"" : String.valueOf(c);
        int j = i + close.length();
        while (j < end && !source.startsWith(close, j)) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + close.length() - 1;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == '{' && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static boolean separatedByBlankLines(String source, List<Tree> members) {
    for (int i = 1; i < members.size(); i++) {
      int start = Layout.lineStart(source, ASTHelpers.getStartPosition(members.get(i)));
      if (start >= 2 && Layout.isBlankLine(source, Layout.lineStart(source, start - 1))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every simple name in the initializer means the same in {@code target}'s body: a type or
   * an imported name, or a member of {@code target}, of a class around it, or of one of their
   * supertypes. A constant the creation's class inherits from elsewhere does not resolve.
   */
  static boolean namesResolveIn(ClassTree target, ExpressionTree initializer, VisitorState state) {
    ClassSymbol targetSymbol = ASTHelpers.getSymbol(target);
    if (targetSymbol == null) {
      return false;
    }
    List<ClassSymbol> scope = new ArrayList<>();
    for (Symbol s = targetSymbol; s != null; s = s.owner) {
      if (s instanceof ClassSymbol c) {
        scope.add(c);
      }
    }
    Set<String> staticImports = new HashSet<>();
    for (ImportTree importTree : state.getPath().getCompilationUnit().getImports()) {
      if (importTree.isStatic()) {
        String text = importTree.getQualifiedIdentifier().toString();
        staticImports.add(text.substring(text.lastIndexOf('.') + 1));
      }
    }
    boolean[] ok = {true};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol == null || !(symbol.owner instanceof ClassSymbol owner)) {
          return null; // a package, a top-level type, or a local the creation check already
          // refused
        }
        if (symbol instanceof ClassSymbol c && c.getNestingKind() == NestingKind.TOP_LEVEL) {
          return null;
        }
        if (staticImports.contains(node.getName().toString()) || staticImports.contains("*")) {
          return null;
        }
        for (ClassSymbol c : scope) {
          if (c.isSubClass(owner, state.getTypes())) {
            return null;
          }
        }
        ok[0] = false;
        return null;
      }
    }.scan(initializer, null);
    return ok[0];
  }

  static boolean canHoldStaticField(ClassTree classTree) {
    ClassSymbol symbol = ASTHelpers.getSymbol(classTree);
    if (symbol == null
        || (symbol.getKind() != ElementKind.CLASS && symbol.getKind() != ElementKind.RECORD)) {
      return false;
    }
    NestingKind nesting = symbol.getNestingKind();
    return nesting == NestingKind.TOP_LEVEL
        || (nesting == NestingKind.MEMBER && ASTHelpers.isStatic(symbol));
  }

  static String uniqueName(String base, List<ClassTree> enclosing, VisitorState state) {
    Set<String> taken =
        new HashSet<>(
            NAMES_HANDED_OUT.getOrDefault(state.getPath().getCompilationUnit(), Set.of()));
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        taken.add(node.getName().toString());
        return super.visitVariable(node, null);
      }
    }.scan(state.getPath().getCompilationUnit(), null);
    for (ClassTree classTree : enclosing) {
      ClassSymbol symbol = ASTHelpers.getSymbol(classTree);
      if (symbol == null) {
        continue;
      }
      for (Type supertype : state.getTypes().closure(symbol.type)) {
        if (supertype.tsym == null) {
          continue;
        }
        for (Symbol member : supertype.tsym.getEnclosedElements()) {
          if (member instanceof VarSymbol) {
            taken.add(member.getSimpleName().toString());
          }
        }
      }
    }
    String name = base;
    for (int i = 2; taken.contains(name); i++) {
      name = base + "_" + i;
    }
    return name;
  }

  static String baseName(Type type) {
    String simple = type.tsym == null ? "HttpClient" : type.tsym.getSimpleName().toString();
    if (simple.startsWith("Closeable") && simple.length() > "Closeable".length()) {
      simple = simple.substring("Closeable".length());
    }
    return simple.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }
}
