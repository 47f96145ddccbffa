package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;

/**
 * New members a fix adds to a class, laid out as by hand in the file's own style: a field near the
 * top (after the class's leading static fields), a method at the end, indented as the class's
 * members are, in the file's line separator; and names no other member or earlier fix in the file
 * uses.
 */
public final class NewMembers {
  /**
   * The names fixes already handed out per file: several findings in one file each get their own
   * name, so applying all their fixes declares no name twice.
   */
  private static final Map<CompilationUnitTree, Set<String>> HANDED_OUT =
      Collections.synchronizedMap(new WeakHashMap<>());

  private NewMembers() {}

  /** Text to insert at a position. */
  public record Insertion(int position, String text) {}

  /** Whether the class may declare a {@code private static} field: not an interface or inner. */
  public static boolean canHoldStaticField(ClassTree classTree) {
    ClassSymbol symbol = ASTHelpers.getSymbol(classTree);
    if (symbol == null) {
      return false;
    }
    ElementKind kind = symbol.getKind();
    if (kind != ElementKind.CLASS && kind != ElementKind.RECORD && kind != ElementKind.ENUM) {
      return false;
    }
    NestingKind nesting = symbol.getNestingKind();
    return nesting == NestingKind.TOP_LEVEL
        || (nesting == NestingKind.MEMBER && ASTHelpers.isStatic(symbol));
  }

  /**
   * A field declaration ({@code code}: lines separated by {@code \n}, each continuation line led by
   * one tab per step of indentation it takes in the file's own step) near the top of {@code
   * target}: after the class's leading static fields, else after the opening brace. Empty when the
   * class's layout leaves no such place.
   */
  public static Optional<Insertion> fieldAtTop(ClassTree target, String code, VisitorState state) {
    String source = state.getSourceCode().toString();
    int brace = openingBrace(target, state);
    List<Tree> members = explicitMembers(target, brace, state);
    if (brace < 0 || members.isEmpty()) {
      return Optional.empty();
    }
    String indent = Layout.indentationAt(source, ASTHelpers.getStartPosition(members.get(0)));
    int braceLineEnd = source.indexOf('\n', brace);
    if (indent == null
        || braceLineEnd < 0
        || braceLineEnd >= ASTHelpers.getStartPosition(members.get(0))
        || !source.substring(brace + 1, braceLineEnd).isBlank()) {
      return Optional.empty(); // members on the brace's line: no line of its own to write on
    }
    String newline = Layout.newline(source);
    String unit = Layout.unit(source);
    StringBuilder laidOut = new StringBuilder();
    for (String line : code.split("\n", -1)) {
      int depth = 0;
      while (depth < line.length() && line.charAt(depth) == '\t') {
        depth++;
      }
      laidOut
          .append(indent)
          .append(unit.repeat(depth))
          .append(line.substring(depth))
          .append(newline);
    }
    String declaration = laidOut.toString();
    int leadingStatics = 0;
    while (leadingStatics < members.size()
        && members.get(leadingStatics) instanceof VariableTree field
        && field.getModifiers().getFlags().contains(Modifier.STATIC)) {
      leadingStatics++;
    }
    if (leadingStatics > 0) {
      Tree last = members.get(leadingStatics - 1);
      int end = state.getEndPosition(last);
      int lineEnd = source.indexOf('\n', end);
      if (lineEnd > 0
          && source.substring(end, lineEnd).isBlank()
          && indent.equals(Layout.indentationAt(source, ASTHelpers.getStartPosition(last)))) {
        return Optional.of(new Insertion(lineEnd + 1, declaration));
      }
    }
    int position = braceLineEnd + 1;
    boolean blankAfterBrace = Layout.isBlankLine(source, position);
    if (blankAfterBrace) {
      position = source.indexOf('\n', position) + 1;
    }
    if (!(members.get(0) instanceof VariableTree)) {
      declaration += newline; // a field before the first method: a blank line between them
    }
    return Optional.of(new Insertion(position, declaration));
  }

  /**
   * A method ({@code code}: lines separated by {@code \n}, braces balanced) at the end of {@code
   * target}, after a blank line, indented as its members are.
   */
  public static Optional<Insertion> methodAtEnd(ClassTree target, String code, VisitorState state) {
    String source = state.getSourceCode().toString();
    int brace = openingBrace(target, state);
    List<Tree> members = explicitMembers(target, brace, state);
    int end = state.getEndPosition(target);
    if (brace < 0 || members.isEmpty() || end <= 0 || source.charAt(end - 1) != '}') {
      return Optional.empty();
    }
    String indent = Layout.indentationAt(source, ASTHelpers.getStartPosition(members.get(0)));
    int closingLine = Layout.lineStart(source, end - 1);
    if (indent == null || Layout.indentationAt(source, end - 1) == null) {
      return Optional.empty(); // code before the closing brace on its line
    }
    String newline = Layout.newline(source);
    return Optional.of(
        new Insertion(
            closingLine,
            newline + indent + Layout.block(code, indent, Layout.unit(source), newline) + newline));
  }

  /**
   * A name for a new member of {@code target}: {@code base}, or {@code base_2}, ... when a field, a
   * method or a variable of the file, a member {@code target} inherits, or an earlier fix in the
   * file has it.
   */
  public static String uniqueName(String base, ClassTree target, VisitorState state) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    Set<String> taken = new HashSet<>(HANDED_OUT.getOrDefault(unit, Set.of()));
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        taken.add(node.getName().toString());
        return super.visitVariable(node, null);
      }
    }.scan(unit, null);
    ClassSymbol symbol = ASTHelpers.getSymbol(target);
    if (symbol != null) {
      for (Type supertype : state.getTypes().closure(symbol.type)) {
        if (supertype.tsym == null) {
          continue;
        }
        for (Symbol member : supertype.tsym.getEnclosedElements()) {
          if (member instanceof VarSymbol || member instanceof MethodSymbol) {
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

  /** Records a name a fix handed out, so that the next finding in the same file picks another. */
  public static void handOut(String name, VisitorState state) {
    HANDED_OUT
        .computeIfAbsent(state.getPath().getCompilationUnit(), k -> new HashSet<>())
        .add(name);
  }

  /** {@code ObjectMapper} → {@code OBJECT_MAPPER}, {@code JAXBContext} → {@code JAXB_CONTEXT}. */
  public static String constantName(String simpleTypeName) {
    return simpleTypeName
        .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
        .replaceAll("([A-Z])([A-Z][a-z])", "$1_$2")
        .toUpperCase(Locale.ROOT);
  }

  /** {@code JAXBContext} → {@code jaxbContext}, {@code SecureRandom} → {@code secureRandom}. */
  public static String variableName(String simpleTypeName) {
    String[] words = constantName(simpleTypeName).toLowerCase(Locale.ROOT).split("_");
    StringBuilder name = new StringBuilder(words[0]);
    for (int i = 1; i < words.length; i++) {
      if (!words[i].isEmpty()) {
        name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
      }
    }
    return name.toString();
  }

  private static List<Tree> explicitMembers(ClassTree target, int brace, VisitorState state) {
    List<Tree> members = new ArrayList<>();
    for (Tree member : target.getMembers()) {
      int start = ASTHelpers.getStartPosition(member);
      if (start > brace && state.getEndPosition(member) > start) {
        members.add(member); // generated members (default constructors) have no text of their own
      }
    }
    return members;
  }

  /** The position of the '{' that opens the class body: the first one outside parentheses. */
  private static int openingBrace(ClassTree target, VisitorState state) {
    int start = ASTHelpers.getStartPosition(target);
    int end = state.getEndPosition(target);
    if (start < 0 || end <= start) {
      return -1;
    }
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
        int j = i + 1;
        while (j < end && source.charAt(j) != c) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j;
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
}
