package io.github.lockjaw.checks.statistics;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;

/**
 * A locked region that only updates statistics: counters ({@code hits++}), sums ({@code total +=
 * elapsed}), maxima and minima ({@code if (elapsed > max) max = elapsed}, {@code max =
 * Math.max(max, elapsed)}) and maps of counters ({@code counts.merge(key, 1, Integer::sum)}), with
 * local variables that compute the values. Anything else in the region means the lock guards more
 * than statistics.
 */
final class StatisticsRegion {

  /** What a statistic keeps. */
  enum Kind {
    COUNT,
    SUM,
    EXTREMUM,
    PER_KEY
  }

  /** One update of one statistic field. */
  record Update(VarSymbol field, Kind kind, StatementTree statement) {}

  private StatisticsRegion() {}

  /** The updates, when the region is nothing but statistics updates; empty otherwise. */
  static Optional<List<Update>> scan(BlockTree body, VisitorState state) {
    List<Update> updates = new ArrayList<>();
    for (StatementTree statement : body.getStatements()) {
      if (statement instanceof VariableTree local) {
        if (local.getInitializer() != null && !isPure(local.getInitializer(), state)) {
          return Optional.empty();
        }
        continue;
      }
      Optional<Update> update = classify(statement, state);
      if (update.isEmpty()) {
        return Optional.empty();
      }
      updates.add(update.get());
    }
    return updates.isEmpty() ? Optional.empty() : Optional.of(updates);
  }

  private static Optional<Update> classify(StatementTree statement, VisitorState state) {
    if (statement instanceof IfTree test) {
      return extremum(test, state);
    }
    if (!(statement instanceof ExpressionStatementTree expressionStatement)) {
      return Optional.empty();
    }
    ExpressionTree expression = expressionStatement.getExpression();
    if (expression instanceof UnaryTree unary && FieldAccesses.isIncrement(unary)) {
      VarSymbol field = numericField(unary.getExpression());
      return field == null
          ? Optional.empty()
          : Optional.of(new Update(field, Kind.COUNT, statement));
    }
    if (expression instanceof CompoundAssignmentTree compound
        && (compound.getKind() == Tree.Kind.PLUS_ASSIGNMENT
            || compound.getKind() == Tree.Kind.MINUS_ASSIGNMENT)) {
      VarSymbol field = numericField(compound.getVariable());
      return field != null && isPure(compound.getExpression(), state)
          ? Optional.of(new Update(field, Kind.SUM, statement))
          : Optional.empty();
    }
    if (expression instanceof AssignmentTree assignment) {
      VarSymbol field = numericField(assignment.getVariable());
      if (field != null
          && assignment.getExpression() instanceof MethodInvocationTree call
          && isMathExtremum(call, field, state)
          && isPure(call, state)) {
        return Optional.of(new Update(field, Kind.EXTREMUM, statement));
      }
      return Optional.empty();
    }
    if (expression instanceof MethodInvocationTree call
        && call.getMethodSelect() instanceof MemberSelectTree select) {
      VarSymbol map = FieldAccesses.fieldOf(select.getExpression());
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (map != null
          && StatisticsKnowledge.MAP_WRITES.matches(method, state)
          && call.getArguments().stream().allMatch(argument -> isPure(argument, state))) {
        return Optional.of(new Update(map, Kind.PER_KEY, statement));
      }
    }
    return Optional.empty();
  }

  /** {@code if (value > max) max = value;} (or any comparison of the field), without an else. */
  private static Optional<Update> extremum(IfTree test, VisitorState state) {
    if (test.getElseStatement() != null
        || !(ASTHelpers.stripParentheses(test.getCondition()) instanceof BinaryTree comparison)) {
      return Optional.empty();
    }
    switch (comparison.getKind()) {
      case LESS_THAN, LESS_THAN_EQUAL, GREATER_THAN, GREATER_THAN_EQUAL -> {}
      default -> {
        return Optional.empty();
      }
    }
    StatementTree then = test.getThenStatement();
    if (then instanceof BlockTree block && block.getStatements().size() == 1) {
      then = block.getStatements().get(0);
    }
    if (!(then instanceof ExpressionStatementTree statement)
        || !(statement.getExpression() instanceof AssignmentTree assignment)) {
      return Optional.empty();
    }
    VarSymbol field = numericField(assignment.getVariable());
    if (field == null
        || !isPure(comparison, state)
        || !isPure(assignment.getExpression(), state)
        || !(field.equals(FieldAccesses.fieldOf(comparison.getLeftOperand()))
            || field.equals(FieldAccesses.fieldOf(comparison.getRightOperand())))) {
      return Optional.empty();
    }
    return Optional.of(new Update(field, Kind.EXTREMUM, test));
  }

  private static boolean isMathExtremum(
      MethodInvocationTree call, VarSymbol field, VisitorState state) {
    return StatisticsKnowledge.EXTREMUM_CALLS.matches(ASTHelpers.getSymbol(call), state)
        && call.getArguments().stream().anyMatch(a -> field.equals(FieldAccesses.fieldOf(a)));
  }

  /** A field of a numeric primitive type (not boolean). */
  static VarSymbol numericField(ExpressionTree tree) {
    VarSymbol field = FieldAccesses.fieldOf(tree);
    if (field == null || !field.type.isPrimitive()) {
      return null;
    }
    return field.type.getTag() == TypeTag.BOOLEAN ? null : field;
  }

  /**
   * Whether an expression computes a value without side effects: known pure calls, reads of a
   * counter map, accessor calls on locals ({@code stopWatch.getTotalTimeMillis()}), {@code
   * Integer::sum}; no assignments, increments, object creation or lambdas.
   */
  static boolean isPure(Tree expression, VisitorState state) {
    boolean[] pure = {true};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        return pure[0] ? super.scan(tree, unused) : null;
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        MethodSymbol method = ASTHelpers.getSymbol(call);
        if (!StatisticsKnowledge.PURE_CALLS.matches(method, state)
            && !isMapRead(call, method, state)
            && !isLocalAccessor(call, method)) {
          pure[0] = false;
          return null;
        }
        return super.visitMethodInvocation(call, null);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree reference, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(reference);
        if (!(symbol instanceof MethodSymbol method)
            || !StatisticsKnowledge.PURE_CALLS.matches(method, state)) {
          pure[0] = false;
        }
        return null;
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        pure[0] = false;
        return null;
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        pure[0] = false;
        return null;
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        if (FieldAccesses.isIncrement(node)) {
          pure[0] = false;
          return null;
        }
        return super.visitUnary(node, null);
      }

      @Override
      public Void visitNewClass(NewClassTree node, Void unused) {
        pure[0] = false;
        return null;
      }

      @Override
      public Void visitNewArray(NewArrayTree node, Void unused) {
        pure[0] = false;
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        pure[0] = false;
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        pure[0] = false;
        return null;
      }
    }.scan(expression, null);
    return pure[0];
  }

  private static boolean isMapRead(
      MethodInvocationTree call, MethodSymbol method, VisitorState state) {
    return call.getMethodSelect() instanceof MemberSelectTree select
        && FieldAccesses.fieldOf(select.getExpression()) != null
        && StatisticsKnowledge.MAP_READS.matches(method, state);
  }

  private static boolean isLocalAccessor(MethodInvocationTree call, MethodSymbol method) {
    if (method == null
        || !(call.getMethodSelect() instanceof MemberSelectTree select)
        || !Lifecycle.hasPrefix(
            method.getSimpleName().toString(), StatisticsKnowledge.LOCAL_ACCESSOR_PREFIXES)) {
      return false;
    }
    Symbol receiver = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(select.getExpression()));
    return receiver != null
        && (receiver.getKind() == ElementKind.LOCAL_VARIABLE
            || receiver.getKind() == ElementKind.PARAMETER);
  }

  /** Whether the type is {@code long} or {@code int}: what a LongAdder replaces exactly. */
  static boolean isLongOrInt(Type type) {
    return type.getTag() == TypeTag.LONG || type.getTag() == TypeTag.INT;
  }
}
