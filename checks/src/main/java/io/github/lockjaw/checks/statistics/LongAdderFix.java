package io.github.lockjaw.checks.statistics;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.tree.JCTree;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.LockRemoval;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Moves counters and sums updated under a lock to {@code LongAdder} fields and drops the lock:
 * {@code hits++} becomes {@code hits.increment()}, {@code total += x} becomes {@code total.add(x)},
 * a read becomes {@code total.sum()} ({@code intValue()} for an {@code int}), a reset {@code total
 * = 0} becomes {@code total.reset()}. Only when every access of those fields is in this file and
 * one of these shapes, the fields are private {@code long} or {@code int}, and the lock guards
 * nothing else (no other code in the file takes it, nothing waits on it).
 */
final class LongAdderFix {
  private static final String LONG_ADDER = StatisticsKnowledge.replacement("count-or-sum");

  private LongAdderFix() {}

  /**
   * One statistic the query found updated in the region.
   *
   * @param name the field's name (the map's, for counters per key)
   * @param kind what it keeps
   * @param update the tree of the update ({@code hits++}, {@code total += x}), or null
   */
  record Counter(String name, CounterUpdates.Kind kind, TreePath update) {}

  static Optional<SuggestedFix> build(
      Tree region,
      BlockTree body,
      List<Counter> counters,
      boolean lockTakenElsewhere,
      VisitorState state,
      List<String> reasons) {
    List<ExpressionTree> updates = new ArrayList<>();
    Set<VarSymbol> fields = new LinkedHashSet<>();
    for (Counter counter : counters) {
      if (counter.kind() != CounterUpdates.Kind.COUNT_OR_SUM) {
        reasons.add(
            "only counts and sums have a mechanical rewrite; move '"
                + counter.name()
                + "' by hand");
        return Optional.empty();
      }
      ExpressionTree target = updatedField(counter.update());
      VarSymbol field = target == null ? null : FieldAccesses.fieldOf(target);
      if (field == null) {
        reasons.add("'" + counter.name() + "' is updated by more than ++, --, += or -=");
        return Optional.empty();
      }
      updates.add((ExpressionTree) counter.update().getLeaf());
      fields.add(field);
    }
    if (lockTakenElsewhere) {
      reasons.add(
          "other code in this file takes the same lock, which may keep the statistics"
              + " consistent with each other");
      return Optional.empty();
    }
    TreePath unit = new TreePath(state.getPath().getCompilationUnit());
    if (usesWaitOrNotify(unit.getLeaf(), state)) {
      reasons.add(
          "this file waits on or notifies a monitor, so the lock may be part of that protocol");
      return Optional.empty();
    }
    FieldAccesses accesses = FieldAccesses.of(unit);
    int bodyStart = ((JCTree) body).getStartPosition();
    int bodyEnd = state.getEndPosition(body);

    SuggestedFix.Builder fix = SuggestedFix.builder().addImport(LONG_ADDER);
    List<LockRemoval.Edit> inside = new ArrayList<>();
    for (VarSymbol field : fields) {
      String why = whyNotField(field, accesses.declaration(field), state);
      if (why != null) {
        reasons.add(why);
        return Optional.empty();
      }
      fix.replace(
          accesses.declaration(field), declaration(field, accesses.declaration(field), state));
      for (FieldAccesses.Access access : accesses.of(field)) {
        int start = ((JCTree) access.tree()).getStartPosition();
        boolean inRegion = start >= bodyStart && start < bodyEnd;
        if (inRegion) {
          if (access.kind() == FieldAccesses.Kind.READ) {
            // long n = count; under the lock: a LongAdder cannot be read into a long as it is
            reasons.add("the region reads '" + field.getSimpleName() + "' besides updating it");
            return Optional.empty();
          }
          continue; // the updates below rewrite these
        }
        String source = state.getSourceForNode(access.tree());
        if (access.kind() == FieldAccesses.Kind.READ) {
          fix.replace(
              access.tree(),
              source + (field.type.getTag() == TypeTag.INT ? ".intValue()" : ".sum()"));
        } else if (access.kind() == FieldAccesses.Kind.ASSIGN && isZeroReset(access)) {
          fix.replace(access.path().getParentPath().getLeaf(), source + ".reset()");
        } else {
          reasons.add(
              "'"
                  + field.getSimpleName()
                  + "' is changed elsewhere in a way lockjaw does not rewrite");
          return Optional.empty();
        }
      }
    }
    for (ExpressionTree expression : updates) {
      Optional<String> rewritten = rewrite(expression, fields, state);
      if (rewritten.isEmpty()) {
        reasons.add("an update reads a statistic or adds a value that is not a whole number");
        return Optional.empty();
      }
      JCTree tree = (JCTree) expression;
      inside.add(
          new LockRemoval.Edit(
              tree.getStartPosition(), state.getEndPosition(tree), rewritten.get()));
    }
    if (region instanceof SynchronizedTree block) {
      String unwrapped = LockRemoval.unwrap(block, inside, state);
      if (unwrapped == null) {
        return Optional.empty();
      }
      fix.replace(block, unwrapped);
    } else if (region instanceof MethodTree method) {
      Optional<SuggestedFix> unlocked =
          SuggestedFixes.removeModifiers(method, state, Modifier.SYNCHRONIZED);
      if (unlocked.isEmpty()) {
        return Optional.empty();
      }
      fix.merge(unlocked.get());
      for (LockRemoval.Edit edit : inside) {
        fix.replace(edit.start(), edit.end(), edit.text());
      }
    } else {
      return Optional.empty();
    }
    return Optional.of(fix.build());
  }

  /**
   * The field an update statement changes: the operand of {@code f++} or the target of {@code f +=
   * x}, when the update is a statement of its own; null otherwise.
   */
  private static ExpressionTree updatedField(TreePath update) {
    if (update == null || !(update.getParentPath().getLeaf() instanceof ExpressionStatementTree)) {
      return null;
    }
    Tree leaf = update.getLeaf();
    if (leaf instanceof UnaryTree unary && FieldAccesses.isIncrement(unary)) {
      return unary.getExpression();
    }
    if (leaf instanceof CompoundAssignmentTree compound
        && (compound.getKind() == Tree.Kind.PLUS_ASSIGNMENT
            || compound.getKind() == Tree.Kind.MINUS_ASSIGNMENT)) {
      return compound.getVariable();
    }
    return null;
  }

  private static String whyNotField(VarSymbol field, VariableTree declaration, VisitorState state) {
    String name = "'" + field.getSimpleName() + "'";
    if (declaration == null) {
      return name + " is declared in another file";
    }
    if (!field.getModifiers().contains(Modifier.PRIVATE)) {
      return name + " is not private, so other classes may use it";
    }
    if (field.type.getTag() != TypeTag.LONG && field.type.getTag() != TypeTag.INT) {
      return name + " is neither a long nor an int";
    }
    String source = state.getSourceForNode(declaration);
    if (source == null
        || source.contains(",")
        || declaration.getModifiers().getAnnotations().size() > 0) {
      return name + " shares its declaration or carries annotations";
    }
    ExpressionTree initializer = declaration.getInitializer();
    if (initializer != null && !isZero(initializer)) {
      return name + " starts at a value other than zero";
    }
    return null;
  }

  private static String declaration(VarSymbol field, VariableTree declaration, VisitorState state) {
    String modifiers = state.getSourceForNode(declaration.getModifiers());
    modifiers = modifiers == null ? "" : modifiers.replaceAll("\\bvolatile\\b\\s*", "").strip();
    if (!field.getModifiers().contains(Modifier.FINAL)) {
      modifiers = modifiers.isEmpty() ? "final" : modifiers + " final";
    }
    return modifiers + " LongAdder " + field.getSimpleName() + " = new LongAdder();";
  }

  private static Optional<String> rewrite(
      ExpressionTree expression, Set<VarSymbol> fields, VisitorState state) {
    if (expression instanceof UnaryTree unary) {
      String target = state.getSourceForNode(unary.getExpression());
      boolean up =
          unary.getKind() == Tree.Kind.POSTFIX_INCREMENT
              || unary.getKind() == Tree.Kind.PREFIX_INCREMENT;
      return Optional.of(target + (up ? ".increment()" : ".decrement()"));
    }
    if (expression instanceof CompoundAssignmentTree compound) {
      ExpressionTree value = compound.getExpression();
      Type type = ASTHelpers.getType(value);
      if (type == null || !isWholeNumber(type) || readsAny(value, fields)) {
        return Optional.empty();
      }
      String target = state.getSourceForNode(compound.getVariable());
      String amount = state.getSourceForNode(value);
      return Optional.of(
          compound.getKind() == Tree.Kind.PLUS_ASSIGNMENT
              ? target + ".add(" + amount + ")"
              : target + ".add(-(long) (" + amount + "))");
    }
    return Optional.empty();
  }

  private static boolean isWholeNumber(Type type) {
    return switch (type.getTag()) {
      case INT, LONG, SHORT, BYTE, CHAR -> true;
      default -> false;
    };
  }

  private static boolean readsAny(Tree tree, Set<VarSymbol> fields) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        found[0] |= fields.contains(FieldAccesses.fieldOf(node));
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        found[0] |= fields.contains(FieldAccesses.fieldOf(node));
        return super.visitMemberSelect(node, null);
      }
    }.scan(tree, null);
    return found[0];
  }

  private static boolean isZeroReset(FieldAccesses.Access access) {
    Tree assignment = access.path().getParentPath().getLeaf();
    return assignment instanceof AssignmentTree a
        && isZero(a.getExpression())
        && access.path().getParentPath().getParentPath().getLeaf()
            instanceof ExpressionStatementTree;
  }

  private static boolean isZero(ExpressionTree tree) {
    return ASTHelpers.stripParentheses(tree) instanceof LiteralTree literal
        && literal.getValue() instanceof Number number
        && number.doubleValue() == 0;
  }

  private static boolean usesWaitOrNotify(Tree unit, VisitorState state) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        if (StatisticsKnowledge.MONITOR_SIGNAL_CALLS.matches(ASTHelpers.getSymbol(node), state)) {
          found[0] = true;
        }
        return super.visitMethodInvocation(node, null);
      }
    }.scan(unit, null);
    return found[0];
  }
}
