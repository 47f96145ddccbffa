package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.checks.support.Layout;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * The suggested fix of the cache checks: the map becomes a {@code ConcurrentHashMap}, the locked
 * lookup becomes one {@code computeIfAbsent} call, and the lock goes. Offered only for the
 * canonical shapes, and only when lockjaw can show that the change keeps behaviour:
 *
 * <ul>
 *   <li>the field is private, assigned once, and built as {@code new HashMap}/{@code new Hashtable}
 *       (bare or in {@code Collections.synchronizedMap}), or already as {@code new
 *       ConcurrentHashMap} (then only the lock goes); every other use is a single atomic call, and
 *       no other synchronized region makes two calls on it;
 *   <li>keys and values are provably non-null (ConcurrentHashMap rejects null), unless the map
 *       already rejected nulls;
 *   <li>the computed value is a {@code new} expression that throws no checked exception, whose
 *       class is visible here or in the JDK and never touches the same map (computeIfAbsent must
 *       not recurse into its own map), and whose captured locals are effectively final.
 * </ul>
 */
public final class ComputeIfAbsentFix {

  private ComputeIfAbsentFix() {}

  /** The canonical lookup found in a region's statements. */
  record Shape(MethodInvocationTree get, ExpressionTree value, String cast, String assignTo) {}

  public static FixOutcome build(TreePath region, SourceLookup lookup, VisitorState state) {
    try {
      FixOutcome outcome = buildOutcome(region, lookup, state);
      if (outcome.hasFix()) {
        return outcome;
      }
      // the fill stays as written: a read without a lock stops queuing on the map's monitor
      Optional<FixOutcome> swap = ConcurrentMapSwap.build(region, lookup.map(), state);
      if (swap.isEmpty() || outcome.blocker().equals(swap.get().blocker())) {
        return outcome;
      }
      return swap.get().hasFix()
          ? swap.get()
          : FixOutcome.blocked(
              outcome.blocker()
                  + "; nor can '"
                  + lookup.map().getSimpleName()
                  + "' just become a ConcurrentHashMap: "
                  + swap.get().blocker());
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      // A fix is a convenience: never let an unexpected tree shape break the compile.
      return FixOutcome.blocked("lockjaw could not read this code's shape");
    } catch (AssertionError e) {
      Resilience.rethrowIfStrict(
          e); // Error Prone's fix helpers assert on shapes they do not expect
      return FixOutcome.blocked("lockjaw could not read this code's shape");
    }
  }

  private static FixOutcome buildOutcome(TreePath region, SourceLookup lookup, VisitorState state) {
    Tree root = region.getLeaf();
    if (!(root instanceof SynchronizedTree) && !(root instanceof MethodTree)) {
      return FixOutcome.blocked("the lock is not a synchronized block or method around the lookup");
    }
    CacheField field = CacheField.of(lookup.map(), state);
    String name = "'" + lookup.map().getSimpleName() + "'";
    NewClassTree construction = field.replaceableConstruction(state).orElse(null);
    // already a ConcurrentHashMap (filled under a Class lock, say): only the lock goes
    boolean alreadyConcurrent = false;
    if (construction == null) {
      construction = field.replacementConstruction(state).orElse(null);
      alreadyConcurrent = construction != null;
    }
    if (construction == null) {
      return field.holdsKeysWeakly(state)
          ? ClassValueFix.build(region, lookup, field, state)
          : FixOutcome.blocked(field.whyNotReplaceable(state));
    }
    boolean rejectsNulls = alreadyConcurrent || field.rejectsNulls(construction, state);
    List<? extends StatementTree> statements = SourceLookup.rewrittenStatementsOf(root);
    Shape shape = match(statements, lookup, state);
    boolean locked =
        root instanceof SynchronizedTree
            || ((MethodTree) root).getModifiers().getFlags().contains(Modifier.SYNCHRONIZED);
    if (shape == null) {
      Optional<String> counter =
          locked ? fieldWrittenBesides(statements, lookup.map()) : Optional.empty();
      if (counter.isPresent()) {
        return FixOutcome.blocked(
            "the lock also keeps the write of '"
                + counter.get()
                + "' atomic with the fill; make '"
                + counter.get()
                + "' an AtomicLong (or a LongAdder, for a count) before the lock goes");
      }
      return FixOutcome.blocked(
          (locked ? "the locked code" : "the lookup's code")
              + " does more than read "
              + name
              + ", test for a miss and put a newly built value (the one shape lockjaw rewrites)");
    }
    Symbol lock =
        root instanceof SynchronizedTree sync
            ? ASTHelpers.getSymbol(ASTHelpers.stripParentheses(sync.getExpression()))
            : null;
    if (!rejectsNulls
        && !NonNullKeys.isNonNull(lookup.key(), lock, state)
        && !NonNullKeys.dereferencesUnconditionally(shape.value(), lookup.key(), state)) {
      return FixOutcome.blocked(
          "the key '"
              + state.getSourceForNode(lookup.key())
              + "' may be null, and a ConcurrentHashMap rejects null keys");
    }
    MethodSymbol enclosingMethod = enclosingMethod(region);
    String unsafeValue =
        ComputedValueSafety.whyUnsafe(shape.value(), lookup.map(), enclosingMethod, state);
    if (unsafeValue != null) {
      return FixOutcome.blocked(unsafeValue);
    }
    int regionStart = ASTHelpers.getStartPosition(statements.get(0));
    int regionEnd = state.getEndPosition(statements.get(statements.size() - 1));
    int replacedStart =
        root instanceof SynchronizedTree ? ASTHelpers.getStartPosition(root) : regionStart;
    int replacedEnd = root instanceof SynchronizedTree ? state.getEndPosition(root) : regionEnd;
    // a synchronized block goes whole, its lock expression ('synchronized (cache)') with it
    String otherUse = nonAtomicOtherUse(field, replacedStart, replacedEnd, rejectsNulls, state);
    if (otherUse != null) {
      return FixOutcome.blocked(otherUse);
    }

    SuggestedFix.Builder fix = SuggestedFix.builder();
    String param = freshName(state.getPath().getCompilationUnit());
    String receiver = state.getSourceForNode(ASTHelpers.getReceiver(shape.get()));
    String opening = shape.cast() + receiver + ".computeIfAbsent(";
    String arguments =
        state.getSourceForNode(shape.get().getArguments().get(0))
            + ", "
            + mappingFunction(shape.value(), lookup, param, state)
            + ")";
    String target = shape.assignTo() == null ? "return " : shape.assignTo() + " = ";
    String statement =
        target + opening + brokenIfTooWide(target + opening, arguments + ";", region, state);

    statement =
        keptComments(replacedStart, replacedEnd, List.of(shape.get(), shape.value()), state)
            + statement;
    if (root instanceof SynchronizedTree) {
      fix.replace(root, statement);
    } else {
      MethodTree method = (MethodTree) root;
      SuggestedFixes.removeModifiers(method.getModifiers(), state, Set.of(Modifier.SYNCHRONIZED))
          .ifPresent(fix::merge);
      fix.replace(regionStart, regionEnd, statement);
    }

    if (alreadyConcurrent) {
      return FixOutcome.of(fix.build());
    }
    String blocker = MapDeclarationRewrite.rewrite(fix, field, construction, state);
    return blocker == null ? FixOutcome.of(fix.build()) : FixOutcome.blocked(blocker);
  }

  /**
   * A field other than the map that the locked statements assign or bump ({@code nextId++}, {@code
   * misses += 1}), outside lambdas and class bodies: the lock makes that write atomic with the
   * fill.
   */
  static Optional<String> fieldWrittenBesides(
      List<? extends StatementTree> statements, VarSymbol map) {
    for (StatementTree statement : statements) {
      Optional<Tree> write =
          MoreTrees.findFirst(
              statement,
              MoreTrees.DEFERRED_CODE,
              node -> writtenField(node) != null && !writtenField(node).equals(map));
      if (write.isPresent()) {
        return Optional.of(writtenField(write.get()).getSimpleName().toString());
      }
    }
    return Optional.empty();
  }

  /** The field an assignment, compound assignment or {@code ++}/{@code --} writes, or null. */
  private static VarSymbol writtenField(Tree node) {
    ExpressionTree target =
        switch (node) {
          case AssignmentTree assignment -> assignment.getVariable();
          case CompoundAssignmentTree compound -> compound.getVariable();
          case UnaryTree unary when FieldAccesses.isIncrement(unary) -> unary.getExpression();
          default -> null;
        };
    return target == null ? null : FieldAccesses.fieldOf(target);
  }

  /**
   * The arguments, on the statement's line when it fits the file's widest line, else on the next
   * line one continuation step in ({@code computeIfAbsent(\n key, k -> ...)}), as a file that keeps
   * to a width breaks its own calls.
   */
  private static String brokenIfTooWide(
      String head, String arguments, TreePath region, VisitorState state) {
    CharSequence source = state.getSourceCode();
    int start = ASTHelpers.getStartPosition(region.getLeaf());
    String base = Layout.indentationAt(source, start);
    if (base == null || arguments.contains("\n")) {
      return arguments;
    }
    if (region.getLeaf() instanceof MethodTree) {
      base = base + Layout.unit(source);
    }
    int limit = Layout.lineLimit(source);
    if (base.length() + head.length() + arguments.length() <= limit) {
      return arguments;
    }
    String unit = Layout.unit(source);
    return Layout.newline(source) + base + unit + unit + arguments;
  }

  /**
   * The comments of the replaced code, outside the expressions the new statement reuses, each on a
   * line of its own at the statement's indentation, ready to precede it.
   */
  static String keptComments(int start, int end, List<Tree> reused, VisitorState state) {
    CharSequence source = state.getSourceCode();
    String base = Layout.indentationAt(source, start);
    if (base == null) {
      base = "";
    }
    String unit = Layout.unit(source);
    String newline = Layout.newline(source);
    List<int[]> kept = new ArrayList<>();
    for (Tree tree : reused) {
      kept.add(new int[] {ASTHelpers.getStartPosition(tree), state.getEndPosition(tree)});
    }
    StringBuilder out = new StringBuilder();
    for (String comment : Layout.comments(source, start, end, kept)) {
      out.append(Layout.move(comment, base + unit, base, newline)).append(newline).append(base);
    }
    return out.toString();
  }

  /** Recognises the three canonical shapes of a locked lookup. */
  static Shape match(
      List<? extends StatementTree> statements, SourceLookup lookup, VisitorState state) {
    VarSymbol map = lookup.map();
    // V v = (V) map.get(k); if (v == null) { v = new V(..); map.put(k, v); } return v;
    if (statements.size() == 3
        && statements.get(0) instanceof VariableTree local
        && local.getInitializer() != null
        && statements.get(2) instanceof ReturnTree ret
        && ret.getExpression() != null
        && isLocal(ret.getExpression(), ASTHelpers.getSymbol(local))) {
      return fillIfAbsent(
          local.getInitializer(), ASTHelpers.getSymbol(local), statements.get(1), map, null, state);
    }
    // V v; if ((v = (V) map.get(k)) == null) { map.put(k, v = new V(..)); } return v;
    if (statements.size() == 3
        && statements.get(0) instanceof VariableTree local
        && local.getInitializer() == null
        && statements.get(1) instanceof IfTree ifTree
        && ifTree.getElseStatement() == null
        && statements.get(2) instanceof ReturnTree ret
        && ret.getExpression() != null
        && isLocal(ret.getExpression(), ASTHelpers.getSymbol(local))) {
      return fillInCondition(ifTree, ASTHelpers.getSymbol(local), map, state);
    }
    if (statements.size() == 2) {
      // v = (V) map.get(k); if (v == null) { v = new V(..); map.put(k, v); }   (v declared outside)
      if (statements.get(0) instanceof ExpressionStatementTree expression
          && expression.getExpression() instanceof AssignmentTree assignment
          && ASTHelpers.getSymbol(assignment.getVariable()) instanceof VarSymbol v
          && v.getKind() == ElementKind.LOCAL_VARIABLE
          && assignment.getVariable() instanceof IdentifierTree) {
        return fillIfAbsent(
            assignment.getExpression(),
            v,
            statements.get(1),
            map,
            v.getSimpleName().toString(),
            state);
      }
      // if (!map.containsKey(k)) { map.put(k, new V(..)); } return (V) map.get(k);
      if (statements.get(0) instanceof IfTree ifTree
          && ifTree.getElseStatement() == null
          && statements.get(1) instanceof ReturnTree ret
          && ret.getExpression() != null) {
        Cast returned = Cast.unwrap(ret.getExpression(), state);
        MethodInvocationTree get = asCall(returned.expression(), map, "get");
        List<? extends StatementTree> then = statementsOf(ifTree.getThenStatement());
        if (get != null
            && isAbsenceTestOnMap(ifTree.getCondition(), map, get.getArguments().get(0), state)
            && then.size() == 1
            && then.get(0) instanceof ExpressionStatementTree putStatement) {
          MethodInvocationTree put = asCall(putStatement.getExpression(), map, "put");
          if (put != null
              && SourceLookup.sameKey(
                  put.getArguments().get(0), get.getArguments().get(0), state)) {
            return new Shape(get, put.getArguments().get(1), returned.text(), null);
          }
        }
      }
    }
    return null;
  }

  /**
   * {@code if ((v = (V) map.get(k)) == null) { map.put(k, v = value); }}: the read assigned in the
   * null test, the fill assigned inside the put (OGNL 2.6's {@code getParameterTypes}).
   */
  private static Shape fillInCondition(IfTree ifTree, Symbol v, VarSymbol map, VisitorState state) {
    if (!(ASTHelpers.stripParentheses(ifTree.getCondition()) instanceof BinaryTree test)
        || test.getKind() != Tree.Kind.EQUAL_TO
        || !isNull(test.getRightOperand())
        || !(ASTHelpers.stripParentheses(test.getLeftOperand()) instanceof AssignmentTree read)
        || !isLocal(read.getVariable(), v)) {
      return null;
    }
    Cast cast = Cast.unwrap(read.getExpression(), state);
    MethodInvocationTree get = asCall(cast.expression(), map, "get");
    List<? extends StatementTree> then = statementsOf(ifTree.getThenStatement());
    if (get == null
        || then.size() != 1
        || !(then.get(0) instanceof ExpressionStatementTree statement)) {
      return null;
    }
    MethodInvocationTree put = asCall(statement.getExpression(), map, "put");
    if (put == null
        || !(ASTHelpers.stripParentheses(put.getArguments().get(1)) instanceof AssignmentTree fill)
        || !isLocal(fill.getVariable(), v)
        || !SourceLookup.sameKey(put.getArguments().get(0), get.getArguments().get(0), state)
        || ComputedValueSafety.mentions(fill.getExpression(), v)) {
      return null;
    }
    return new Shape(get, fill.getExpression(), cast.text(), null);
  }

  /**
   * {@code init} reads the cache into {@code v}; {@code guard} fills it when absent: {@code v =
   * value; map.put(k, v);} or {@code map.put(k, v = value);}.
   */
  private static Shape fillIfAbsent(
      ExpressionTree init,
      Symbol v,
      StatementTree guard,
      VarSymbol map,
      String assignTo,
      VisitorState state) {
    if (init == null || !(guard instanceof IfTree ifTree) || ifTree.getElseStatement() != null) {
      return null;
    }
    Cast read = Cast.unwrap(init, state);
    MethodInvocationTree get = asCall(read.expression(), map, "get");
    if (get == null || !isNullTestOf(ifTree.getCondition(), v)) {
      return null;
    }
    List<? extends StatementTree> then = statementsOf(ifTree.getThenStatement());
    ExpressionTree value = null;
    MethodInvocationTree put = null;
    if (then.size() == 2
        && then.get(0) instanceof ExpressionStatementTree first
        && first.getExpression() instanceof AssignmentTree assign
        && isLocal(assign.getVariable(), v)
        && then.get(1) instanceof ExpressionStatementTree second) {
      value = assign.getExpression();
      put = asCall(second.getExpression(), map, "put");
      if (put != null && !isLocal(put.getArguments().get(1), v)) {
        put = null;
      }
    } else if (then.size() == 1
        && then.get(0) instanceof ExpressionStatementTree only
        && asCall(only.getExpression(), map, "put") instanceof MethodInvocationTree fill
        && ASTHelpers.stripParentheses(fill.getArguments().get(1)) instanceof AssignmentTree assign
        && isLocal(assign.getVariable(), v)) {
      // if (v == null) map.put(k, v = new V(..));   (Hudson's ParsedQuickSilver.get)
      value = assign.getExpression();
      put = fill;
    }
    if (put == null
        || !SourceLookup.sameKey(put.getArguments().get(0), get.getArguments().get(0), state)) {
      return null;
    }
    if (ComputedValueSafety.mentions(value, v)) {
      return null;
    }
    return new Shape(get, value, read.text(), assignTo);
  }

  /** An expression with its optional cast, as {@code "(Foo) "} text. */
  private record Cast(ExpressionTree expression, String text) {
    static Cast unwrap(ExpressionTree tree, VisitorState state) {
      ExpressionTree e = ASTHelpers.stripParentheses(tree);
      if (e instanceof TypeCastTree cast) {
        return new Cast(
            ASTHelpers.stripParentheses(cast.getExpression()),
            "(" + state.getSourceForNode(cast.getType()) + ") ");
      }
      return new Cast(e, "");
    }
  }

  private static List<? extends StatementTree> statementsOf(StatementTree statement) {
    return statement instanceof BlockTree block ? block.getStatements() : List.of(statement);
  }

  private static MethodInvocationTree asCall(ExpressionTree tree, VarSymbol map, String name) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof MethodInvocationTree call
        && map.equals(SourceLookup.receiverField(call))
        && ASTHelpers.getSymbol(call).getSimpleName().contentEquals(name)
        && call.getArguments().size() == (name.equals("put") ? 2 : 1)) {
      return call;
    }
    return null;
  }

  private static boolean isLocal(ExpressionTree tree, Symbol v) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    return e instanceof IdentifierTree && v != null && v.equals(ASTHelpers.getSymbol(e));
  }

  private static boolean isNullTestOf(ExpressionTree condition, Symbol v) {
    ExpressionTree c = ASTHelpers.stripParentheses(condition);
    if (c.getKind() != Tree.Kind.EQUAL_TO) {
      return false;
    }
    var binary = (BinaryTree) c;
    return (isLocal(binary.getLeftOperand(), v) && isNull(binary.getRightOperand()))
        || (isLocal(binary.getRightOperand(), v) && isNull(binary.getLeftOperand()));
  }

  private static boolean isAbsenceTestOnMap(
      ExpressionTree condition, VarSymbol map, ExpressionTree key, VisitorState state) {
    ExpressionTree c = ASTHelpers.stripParentheses(condition);
    if (c instanceof UnaryTree not && c.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      MethodInvocationTree contains = asCall(not.getExpression(), map, "containsKey");
      return contains != null && SourceLookup.sameKey(contains.getArguments().get(0), key, state);
    }
    if (c.getKind() == Tree.Kind.EQUAL_TO) {
      var binary = (BinaryTree) c;
      ExpressionTree other =
          isNull(binary.getLeftOperand())
              ? binary.getRightOperand()
              : isNull(binary.getRightOperand()) ? binary.getLeftOperand() : null;
      MethodInvocationTree get =
          other == null ? null : asCall(Cast.unwrap(other, state).expression(), map, "get");
      return get != null && SourceLookup.sameKey(get.getArguments().get(0), key, state);
    }
    return false;
  }

  private static boolean isNull(ExpressionTree tree) {
    return ASTHelpers.stripParentheses(tree).getKind() == Tree.Kind.NULL_LITERAL;
  }

  static MethodSymbol enclosingMethod(TreePath region) {
    for (TreePath p = region; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof MethodTree method) {
        return ASTHelpers.getSymbol(method);
      }
      if (p.getLeaf() instanceof ClassTree || p.getLeaf() instanceof LambdaExpressionTree) {
        return null;
      }
    }
    return null;
  }

  /**
   * Why not every use of the map outside the rewritten region is a single atomic call with non-null
   * arguments, or why another synchronized region relies on making two calls under one lock; {@code
   * null} when they all are and none does.
   */
  private static String nonAtomicOtherUse(
      CacheField field, int regionStart, int regionEnd, boolean rejectsNulls, VisitorState state) {
    String name = "'" + field.symbol().getSimpleName() + "'";
    Map<Tree, Integer> usesPerLock = new HashMap<>();
    for (TreePath use : field.uses()) {
      Tree leaf = use.getLeaf();
      int start = ASTHelpers.getStartPosition(leaf);
      if (start >= regionStart && start < regionEnd) {
        continue;
      }
      String where =
          " at line " + state.getPath().getCompilationUnit().getLineMap().getLineNumber(start);
      TreePath parent = use.getParentPath();
      if (!(parent.getLeaf() instanceof MemberSelectTree select)
          || !(parent.getParentPath().getLeaf() instanceof MethodInvocationTree call)
          || call.getMethodSelect() != select) {
        // the map escapes, is iterated, or is locked on: lockjaw cannot follow it
        return name
            + " is also used"
            + where
            + " other than by one call on it (it is passed on,"
            + " iterated or locked on), which lockjaw cannot follow";
      }
      String notAtomic = whyNotOneAtomicCall(name, call, where, rejectsNulls, state);
      if (notAtomic != null) {
        return notAtomic;
      }
      Tree lock = enclosingLock(parent.getParentPath());
      if (lock != null && usesPerLock.merge(lock, 1, Integer::sum) > 1) {
        return "the synchronized region"
            + where
            + " makes two calls on "
            + name
            + " that the lock keeps together";
      }
    }
    return null;
  }

  /**
   * Why a call on the map would not behave the same on a ConcurrentHashMap: it is not one atomic
   * step there ({@code atomic-method} in {@code maps.txt}), or its key or value may be null, which
   * a ConcurrentHashMap rejects (unless the map already did); {@code null} when it would.
   */
  static String whyNotOneAtomicCall(
      String name,
      MethodInvocationTree call,
      String where,
      boolean rejectsNulls,
      VisitorState state) {
    Optional<ApiCatalog.Entry> atomic =
        MapKnowledge.atomicMethod(ASTHelpers.getSymbol(call), state);
    String method = ASTHelpers.getSymbol(call).getSimpleName() + "()";
    if (atomic.isEmpty()) {
      return name
          + " is also used"
          + where
          + " by "
          + method
          + ", which is not one atomic step on a ConcurrentHashMap";
    }
    if (rejectsNulls) {
      return null;
    }
    if (atomic.get().hasAttribute("key-arg")
        && !NonNullKeys.isNonNull(call.getArguments().get(0), null, state)) {
      return "the key of "
          + method
          + where
          + " may be null, and a ConcurrentHashMap rejects null keys";
    }
    if (atomic.get().hasAttribute("value-arg")
        && !NonNullKeys.isNonNull(call.getArguments().get(1), null, state)) {
      return "the value of "
          + method
          + where
          + " may be null, and a ConcurrentHashMap rejects null values";
    }
    return null;
  }

  static Tree enclosingLock(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof SynchronizedTree) {
        return leaf;
      }
      if (leaf instanceof MethodTree method) {
        return method.getModifiers().getFlags().contains(Modifier.SYNCHRONIZED) ? method : null;
      }
      if (leaf instanceof LambdaExpressionTree || leaf instanceof ClassTree) {
        return null;
      }
    }
    return null;
  }

  /**
   * The mapping function: {@code ClassInfo::new} when the value is built from the key alone, else a
   * lambda that uses its own parameter for the key ({@code k -> new Label("code-" + k)}), never the
   * captured variable, where that keeps meaning: the key is a local or parameter whose type is
   * exactly the map's key type, so the parameter has the same type and overloads resolve as before.
   * Otherwise the lambda keeps the value's source, {@code k -> new Label(code)}.
   */
  private static String mappingFunction(
      ExpressionTree value, SourceLookup lookup, String param, VisitorState state) {
    String source = state.getSourceForNode(value);
    Symbol key = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(lookup.key()));
    Type keyType = mapKeyType(lookup.map(), state);
    if (!(ASTHelpers.stripParentheses(lookup.key()) instanceof IdentifierTree)
        || key == null
        || (key.getKind() != ElementKind.LOCAL_VARIABLE && key.getKind() != ElementKind.PARAMETER)
        || keyType == null
        || !state.getTypes().isSameType(key.type, keyType)) {
      return param + " -> " + source;
    }
    if (value instanceof NewClassTree newClass
        && newClass.getClassBody() == null
        && newClass.getEnclosingExpression() == null
        && newClass.getTypeArguments().isEmpty()
        && !(newClass.getIdentifier() instanceof ParameterizedTypeTree)
        && newClass.getArguments().size() == 1
        && ASTHelpers.stripParentheses(newClass.getArguments().get(0))
            instanceof IdentifierTree argument
        && key.equals(ASTHelpers.getSymbol(argument))
        && !ASTHelpers.getSymbol(newClass).isVarArgs()) {
      return state.getSourceForNode(newClass.getIdentifier()) + "::new";
    }
    int start = ASTHelpers.getStartPosition(value);
    List<int[]> uses = new ArrayList<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        if (key.equals(ASTHelpers.getSymbol(node))) {
          uses.add(
              new int[] {
                ASTHelpers.getStartPosition(node) - start, state.getEndPosition(node) - start
              });
        }
        return null;
      }
    }.scan(value, null);
    StringBuilder body = new StringBuilder(source);
    for (int i = uses.size() - 1; i >= 0; i--) {
      int[] use = uses.get(i);
      if (use[0] < 0 || use[1] > body.length()) {
        return param + " -> " + source;
      }
      body.replace(use[0], use[1], param);
    }
    return param + " -> " + body;
  }

  /** K of the map's {@code Map<K, V>} type, or null when it is raw or unknown. */
  private static Type mapKeyType(Symbol map, VisitorState state) {
    Type type = map == null ? null : map.type;
    Symbol mapInterface = state.getSymbolFromString("java.util.Map");
    if (type == null || mapInterface == null) {
      return null;
    }
    Type asMap = state.getTypes().asSuper(type, mapInterface);
    return asMap == null || asMap.getTypeArguments().size() != 2
        ? null
        : asMap.getTypeArguments().get(0);
  }

  /** A lambda parameter name used nowhere in the file, so it shadows nothing. */
  private static String freshName(CompilationUnitTree unit) {
    Set<String> names = MoreTrees.names(unit);
    for (String candidate : List.of("k", "key", "absentKey")) {
      if (!names.contains(candidate)) {
        return candidate;
      }
    }
    for (int i = 0; ; i++) {
      if (!names.contains("key" + i)) {
        return "key" + i;
      }
    }
  }
}
