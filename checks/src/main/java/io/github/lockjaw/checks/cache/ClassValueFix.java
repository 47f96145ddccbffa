package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.checks.support.Layout;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * The fix of a locked cache whose map holds its keys weakly and whose keys are classes: the map
 * becomes a {@code ClassValue}, the locked lookup its {@code get}. A ConcurrentHashMap would keep
 * every class (and its class loader) alive; a ClassValue keeps each value with its class and lets
 * both go when the class unloads, and reads without a lock.
 *
 * <p>Offered only when lockjaw can show it keeps behaviour: the map is a private static field
 * created where it is declared as a weak-keyed map ({@code maps.txt}), typed {@code Map<Class<..>,
 * V>}; the lookup is the one use of the map; the key is a variable that cannot be null there; and
 * the value is a plain {@code new} expression that uses nothing but the key and static members,
 * builds without reaching the cache again and writes no static field (two threads that miss at once
 * may both build it; one value wins).
 */
final class ClassValueFix {
  private ClassValueFix() {}

  static FixOutcome build(
      TreePath region, SourceLookup lookup, CacheField field, VisitorState state) {
    Tree root = region.getLeaf();
    VarSymbol map = field.symbol();
    String name = "'" + map.getSimpleName() + "'";
    VariableTree declaration = field.declaration().orElseThrow();
    if (!ASTHelpers.isStatic(map)) {
      return FixOutcome.blocked(
          name
              + " holds its keys weakly but belongs to each instance, and ClassValues made per"
              + " instance keep their values until the classes unload");
    }
    if (!(declaration.getType() instanceof ParameterizedTypeTree declared)
        || declared.getTypeArguments().size() != 2
        || !isClassType(ASTHelpers.getType(declared.getTypeArguments().get(0)), state)) {
      return FixOutcome.blocked(
          name
              + " holds its keys weakly and its keys are not classes, so ClassValue does not"
              + " apply; the concurrent weak-keyed maps (Caffeine's weakKeys(), Guava's"
              + " MapMaker().weakKeys()) compare keys by identity, not equals()");
    }
    Tree valueType = declared.getTypeArguments().get(1);
    if (valueType.getKind() != Tree.Kind.IDENTIFIER
        && valueType.getKind() != Tree.Kind.MEMBER_SELECT
        && valueType.getKind() != Tree.Kind.PARAMETERIZED_TYPE
        && valueType.getKind() != Tree.Kind.ARRAY_TYPE) {
      return FixOutcome.blocked("the values of " + name + " have no type a ClassValue can name");
    }
    List<? extends StatementTree> statements = SourceLookup.rewrittenStatementsOf(root);
    ComputeIfAbsentFix.Shape shape = ComputeIfAbsentFix.match(statements, lookup, state);
    if (shape == null) {
      return FixOutcome.blocked(
          "the locked code does more than read "
              + name
              + ", test for a miss and put a newly built value (the one shape lockjaw rewrites)");
    }
    ExpressionTree key = ASTHelpers.stripParentheses(lookup.key());
    Symbol keySymbol = ASTHelpers.getSymbol(key);
    if (!(key instanceof IdentifierTree)
        || keySymbol == null
        || (keySymbol.getKind() != ElementKind.LOCAL_VARIABLE
            && keySymbol.getKind() != ElementKind.PARAMETER)) {
      return FixOutcome.blocked(
          "the key '" + state.getSourceForNode(key) + "' is not a local variable or parameter");
    }
    Symbol lock =
        root instanceof SynchronizedTree sync
            ? ASTHelpers.getSymbol(ASTHelpers.stripParentheses(sync.getExpression()))
            : null;
    if (!NonNullKeys.isNonNull(key, lock, state)
        && !NonNullKeys.dereferencesUnconditionally(shape.value(), key, state)) {
      return FixOutcome.blocked(
          "the key '"
              + state.getSourceForNode(key)
              + "' may be null, and ClassValue.get rejects null where the map accepted it");
    }
    String outOfScope = usesOutOfScope(shape.value(), keySymbol);
    if (outOfScope != null) {
      return FixOutcome.blocked(
          "building the value uses "
              + outOfScope
              + ", which a ClassValue declared with the field cannot see");
    }
    String unsafe =
        ComputedValueSafety.whyUnsafe(
            shape.value(), map, ComputeIfAbsentFix.enclosingMethod(region), true, state);
    if (unsafe != null) {
      return FixOutcome.blocked(unsafe);
    }
    int regionStart = ASTHelpers.getStartPosition(statements.get(0));
    int regionEnd = state.getEndPosition(statements.get(statements.size() - 1));
    int replacedStart =
        root instanceof SynchronizedTree ? ASTHelpers.getStartPosition(root) : regionStart;
    int replacedEnd = root instanceof SynchronizedTree ? state.getEndPosition(root) : regionEnd;
    for (TreePath use : field.uses()) {
      int at = ASTHelpers.getStartPosition(use.getLeaf());
      if (at < replacedStart || at >= replacedEnd) {
        return FixOutcome.blocked(
            name
                + " is also used at line "
                + state.getPath().getCompilationUnit().getLineMap().getLineNumber(at)
                + ", and a ClassValue offers only get and remove");
      }
    }

    SuggestedFix.Builder fix = SuggestedFix.builder();
    String target = shape.assignTo() == null ? "return " : shape.assignTo() + " = ";
    String statement =
        ComputeIfAbsentFix.keptComments(
                replacedStart, replacedEnd, List.of(shape.get(), shape.value()), state)
            + target
            + shape.cast()
            + state.getSourceForNode(ASTHelpers.getReceiver(shape.get()))
            + ".get("
            + state.getSourceForNode(key)
            + ");";
    if (root instanceof SynchronizedTree) {
      fix.replace(root, statement);
    } else {
      SuggestedFixes.removeModifiers(
              ((MethodTree) root).getModifiers(), state, Set.of(Modifier.SYNCHRONIZED))
          .ifPresent(fix::merge);
      fix.replace(regionStart, regionEnd, statement);
    }
    CharSequence source = state.getSourceCode();
    String base = Layout.indentationAt(source, ASTHelpers.getStartPosition(declaration));
    String valueTypeText = state.getSourceForNode(valueType);
    String classValue = "ClassValue<" + valueTypeText + ">";
    String body =
        "new "
            + classValue
            + "() {\n@Override\nprotected "
            + valueTypeText
            + " computeValue(Class<?> "
            + keySymbol.getSimpleName()
            + ") {\nreturn "
            + state.getSourceForNode(shape.value())
            + ";\n}\n}";
    fix.replace(declaration.getType(), classValue);
    fix.replace(
        declaration.getInitializer(),
        Layout.block(body, base == null ? "" : base, Layout.unit(source), Layout.newline(source)));
    List<Tree> replaced =
        new ArrayList<>(List.of(declaration.getType(), declaration.getInitializer()));
    MapDeclarationRewrite.removeImportsLeftUnused(fix, replaced, state);
    return FixOutcome.of(fix.build());
  }

  private static boolean isClassType(Type type, VisitorState state) {
    return type != null
        && type.tsym != null
        && type.tsym.getQualifiedName().contentEquals("java.lang.Class");
  }

  /**
   * A local, parameter or instance member the value uses besides the key, as message text, or null:
   * the ClassValue is built with the static field, where none of those exist.
   */
  private static String usesOutOfScope(ExpressionTree value, Symbol key) {
    return MoreTrees.findFirst(
            value,
            IdentifierTree.class,
            node -> {
              Symbol symbol = ASTHelpers.getSymbol(node);
              if (symbol == null || symbol.equals(key)) {
                return false;
              }
              boolean local =
                  symbol.getKind() == ElementKind.LOCAL_VARIABLE
                      || symbol.getKind() == ElementKind.PARAMETER;
              boolean member =
                  (symbol.getKind() == ElementKind.FIELD || symbol.getKind() == ElementKind.METHOD)
                      && !ASTHelpers.isStatic(symbol);
              return local || member || node.getName().contentEquals("this");
            })
        .map(node -> "'" + node.getName() + "'")
        .orElse(null);
  }
}
