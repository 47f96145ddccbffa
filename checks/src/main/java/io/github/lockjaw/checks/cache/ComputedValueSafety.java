package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.MoreTrees;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.tools.JavaFileObject;

/**
 * Whether the value of a locked lookup may be computed inside {@code computeIfAbsent}, without the
 * lock: {@link ComputeIfAbsentFix} asks this before it rewrites anything. The value must be a plain
 * {@code new} expression that throws no checked exception, captures only effectively final locals,
 * reads no mutable field, and whose construction never reaches the same map or the lookup method
 * again.
 */
final class ComputedValueSafety {
  private ComputedValueSafety() {}

  /**
   * Why the value may not be computed inside computeIfAbsent, in words for a message; {@code null}
   * when it may.
   */
  static String whyUnsafe(
      ExpressionTree value, VarSymbol map, MethodSymbol enclosingMethod, VisitorState state) {
    return whyUnsafe(value, map, enclosingMethod, false, state);
  }

  /**
   * As above; with {@code mayRunTwice} (a {@code ClassValue}, whose {@code computeValue} two
   * threads may run at once for the same class), building the value must also write no static
   * field, so that a second run changes nothing.
   */
  static String whyUnsafe(
      ExpressionTree value,
      VarSymbol map,
      MethodSymbol enclosingMethod,
      boolean mayRunTwice,
      VisitorState state) {
    ExpressionTree v = ASTHelpers.stripParentheses(value);
    String shown = "'" + abbreviated(state.getSourceForNode(v)) + "'";
    if (v instanceof MethodInvocationTree call
        && MapKnowledge.isComputedValue(ASTHelpers.getSymbol(call), state)) {
      // m.getParameterTypes(): a JDK call that returns non-null and changes nothing
      return usesOnlyStableLocals(call)
          ? null
          : "the value "
              + shown
              + " is computed from something other than the key and unchanging locals";
    }
    if (!(v instanceof NewClassTree created) || created.getClassBody() != null) {
      // only 'new' is surely non-null
      return "the value "
          + shown
          + " is not a plain 'new' expression, so it may be null or have effects the lock"
          + " kept apart";
    }
    if (mentions(v, map) || (enclosingMethod != null && calls(v, enclosingMethod))) {
      return "building the value " + shown + " uses the same cache again";
    }
    if (readsMutableField(v, map, false)) {
      // new Product(id, version): 'version' was read under the lock
      return "building the value " + shown + " reads a field the lock may guard";
    }
    if (throwsChecked(v, state)) {
      return "building the value "
          + shown
          + " throws a checked exception, which a mapping function cannot";
    }
    if (capturesMutableLocal(v)) {
      return "building the value "
          + shown
          + " uses a local variable that changes, which a lambda cannot capture";
    }
    if (mayRunTwice && !constructionWritesNoStaticField(created, state)) {
      return "building the value "
          + shown
          + " writes a static field, and a ClassValue may build it twice when two threads miss at"
          + " once";
    }
    return constructionStaysOutOf(created, map, enclosingMethod, state)
        ? null
        : "the constructor of "
            + shown
            + " runs code lockjaw cannot see (in another file or a library), which may use the"
            + " cache again";
  }

  private static String abbreviated(String source) {
    String oneLine = source == null ? "" : source.replaceAll("\\s+", " ");
    return oneLine.length() <= 60 ? oneLine : oneLine.substring(0, 57) + "...";
  }

  /**
   * Whether a class is the JDK's, whose code never calls back into the cache: a {@code java.}
   * class, or one read from the platform's own class files (the run-time image or {@code ct.sym}),
   * such as {@code javax.sql.DataSource}; a {@code javax.servlet} class from a jar is not.
   */
  static boolean isJdkClass(ClassSymbol owner) {
    if (owner.getQualifiedName().toString().startsWith("java.")) {
      return true;
    }
    ClassSymbol outermost = owner.outermostClass();
    if (outermost.classfile == null || outermost.classfile.getKind() != JavaFileObject.Kind.CLASS) {
      return false; // compiled from source here
    }
    String file = outermost.classfile.toUri().toString();
    return file.startsWith("jrt:") || file.contains("ct.sym");
  }

  /**
   * Whether building the value can never reach the same map or the lookup method again: every
   * constructor, initializer and method it runs is either in the JDK or declared in this file
   * (followed transitively) and none of them touches the map. A nested computeIfAbsent on the same
   * ConcurrentHashMap can throw "Recursive update" where the locked code simply re-entered.
   */
  private static boolean constructionStaysOutOf(
      NewClassTree created, VarSymbol map, MethodSymbol enclosingMethod, VisitorState state) {
    Map<MethodSymbol, MethodTree> methods =
        MoreTrees.declaredMethods(state.getPath().getCompilationUnit());
    Map<ClassSymbol, ClassTree> classes = new HashMap<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree node, Void unused) {
        ClassSymbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null) {
          classes.put(symbol, node);
        }
        return super.visitClass(node, unused);
      }
    }.scan(state.getPath().getCompilationUnit(), null);

    ArrayDeque<Tree> work = new ArrayDeque<>();
    Set<Symbol> seen = new HashSet<>();
    work.add(created);
    while (!work.isEmpty()) {
      Tree tree = work.poll();
      if (mentions(tree, map) || (enclosingMethod != null && calls(tree, enclosingMethod))) {
        return false;
      }
      if (tree != created && readsMutableField(tree, map, true)) {
        return false;
      }
      for (MethodSymbol callee : invokedMethods(tree)) {
        if (!seen.add(callee)) {
          continue;
        }
        ClassSymbol owner = callee.enclClass();
        if (owner != null && isJdkClass(owner)) {
          continue;
        }
        MethodTree body = methods.get(callee);
        if (body == null) {
          return false; // code lockjaw cannot see may call back into the cache
        }
        work.add(body);
        if (callee.isConstructor()) {
          ClassTree declaring = classes.get(owner);
          if (declaring == null) {
            return false;
          }
          for (Tree member : declaring.getMembers()) {
            boolean instanceInit =
                (member instanceof BlockTree block && !block.isStatic())
                    || (member instanceof VariableTree field
                        && field.getInitializer() != null
                        && !field.getModifiers().getFlags().contains(Modifier.STATIC));
            if (instanceInit) {
              work.add(member);
            }
          }
          Type superclass = owner.getSuperclass();
          if (superclass != null
              && superclass.tsym instanceof ClassSymbol superSymbol
              && !isJdkClass(superSymbol)
              && !classes.containsKey(superSymbol)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /**
   * Whether building the value, through the constructors and methods of this file it runs, assigns
   * no static field.
   */
  private static boolean constructionWritesNoStaticField(NewClassTree created, VisitorState state) {
    Map<MethodSymbol, MethodTree> methods =
        MoreTrees.declaredMethods(state.getPath().getCompilationUnit());
    ArrayDeque<Tree> work = new ArrayDeque<>(List.of(created));
    Set<Symbol> seen = new HashSet<>();
    while (!work.isEmpty()) {
      Tree tree = work.poll();
      if (MoreTrees.anyMatch(tree, ComputedValueSafety::writesStaticField)) {
        return false;
      }
      for (MethodSymbol callee : invokedMethods(tree)) {
        MethodTree body = methods.get(callee);
        if (body != null && seen.add(callee)) {
          work.add(body);
        }
      }
    }
    return true;
  }

  /** An assignment, compound assignment, {@code ++} or {@code --} of a static field. */
  private static boolean writesStaticField(Tree node) {
    ExpressionTree target =
        node instanceof AssignmentTree a
            ? a.getVariable()
            : node instanceof CompoundAssignmentTree c
                ? c.getVariable()
                : node instanceof UnaryTree u && FieldAccesses.isIncrement(u)
                    ? u.getExpression()
                    : null;
    VarSymbol field = target == null ? null : FieldAccesses.fieldOf(target);
    return field != null && ASTHelpers.isStatic(field);
  }

  /**
   * Whether a {@code computed-value} call's receiver and arguments are literals, or parameters and
   * locals a lambda may capture (effectively final): it then reads nothing the lock guarded.
   */
  private static boolean usesOnlyStableLocals(MethodInvocationTree call) {
    List<ExpressionTree> operands = new ArrayList<>(call.getArguments());
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    if (receiver == null) {
      return false;
    }
    operands.add(receiver);
    for (ExpressionTree operand : operands) {
      ExpressionTree o = ASTHelpers.stripParentheses(operand);
      if (o instanceof LiteralTree) {
        continue;
      }
      if (!(o instanceof IdentifierTree)
          || !(ASTHelpers.getSymbol(o) instanceof VarSymbol var)
          || (var.getKind() != ElementKind.PARAMETER && var.getKind() != ElementKind.LOCAL_VARIABLE)
          || (var.flags() & (Flags.EFFECTIVELY_FINAL | Flags.FINAL)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Methods and constructors called in a tree, not counting lambda bodies (they run later). */
  private static Set<MethodSymbol> invokedMethods(Tree tree) {
    Set<MethodSymbol> found = new LinkedHashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        found.add(ASTHelpers.getSymbol(node));
        return super.visitMethodInvocation(node, unused);
      }

      @Override
      public Void visitNewClass(NewClassTree node, Void unused) {
        MethodSymbol constructor = ASTHelpers.getSymbol(node);
        if (constructor != null) {
          found.add(constructor);
        }
        return super.visitNewClass(node, unused);
      }
    }.scan(tree, null);
    return found;
  }

  private static boolean calls(Tree tree, MethodSymbol method) {
    return MoreTrees.anyMatch(
        tree,
        node ->
            node instanceof MethodInvocationTree call && method.equals(ASTHelpers.getSymbol(call)));
  }

  private static boolean throwsChecked(Tree tree, VisitorState state) {
    Type runtime = state.getSymtab().runtimeExceptionType;
    Type error = state.getSymtab().errorType;
    Predicate<Symbol> checked =
        symbol -> {
          if (!(symbol instanceof MethodSymbol method)) {
            return false;
          }
          for (Type thrown : method.getThrownTypes()) {
            if (!ASTHelpers.isSubtype(thrown, runtime, state)
                && !ASTHelpers.isSubtype(thrown, error, state)) {
              return true;
            }
          }
          return false;
        };
    return MoreTrees.anyMatch(
        tree,
        LambdaExpressionTree.class::isInstance,
        node ->
            (node instanceof MethodInvocationTree call && checked.test(ASTHelpers.getSymbol(call)))
                || (node instanceof NewClassTree newClass
                    && checked.test(ASTHelpers.getSymbol(newClass))));
  }

  /** A lambda may capture only effectively final locals. */
  private static boolean capturesMutableLocal(Tree tree) {
    return MoreTrees.anyMatch(
        tree,
        node ->
            node instanceof IdentifierTree
                && ASTHelpers.getSymbol(node) instanceof VarSymbol var
                && var.getKind() != ElementKind.FIELD
                && var.getKind() != ElementKind.ENUM_CONSTANT
                && (var.flags() & (Flags.FINAL | Flags.EFFECTIVELY_FINAL)) == 0);
  }

  /**
   * Whether the tree reads a field that is not final: without the lock, such a read could race with
   * the writers the lock used to exclude. With {@code staticOnly}, only static fields count (inside
   * a constructor, instance fields belong to the object being built).
   */
  private static boolean readsMutableField(Tree tree, VarSymbol map, boolean staticOnly) {
    return MoreTrees.anyMatch(
        tree,
        node ->
            (node instanceof IdentifierTree || node instanceof MemberSelectTree)
                && ASTHelpers.getSymbol(node) instanceof VarSymbol var
                && var.getKind() == ElementKind.FIELD
                && !var.equals(map)
                && (var.flags() & Flags.FINAL) == 0
                && (!staticOnly || ASTHelpers.isStatic(var)));
  }

  static boolean mentions(Tree tree, Symbol symbol) {
    return MoreTrees.anyMatch(
        tree,
        node ->
            (node instanceof IdentifierTree || node instanceof MemberSelectTree)
                && symbol.equals(ASTHelpers.getSymbol(node)));
  }
}
