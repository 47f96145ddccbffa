package io.github.lockjaw.model.source;

import static io.github.lockjaw.model.source.ExpressionReader.child;
import static io.github.lockjaw.model.source.ExpressionReader.concat;
import static io.github.lockjaw.model.source.ExpressionReader.constantOf;
import static io.github.lockjaw.model.source.ExpressionReader.truncate;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a method's conditions for {@link BodyReader}: the reader.guards that hold when a condition
 * is true and when it is false ({@code x == null}, {@code !done}, {@code a && b}), and its paths to
 * each outcome, which a loop's exits are read from. Operands are evaluated through the reader, so
 * their operations are recorded in javac's order.
 */
final class ConditionReader {

  /**
   * The reader.guards that hold when a condition is true and when it is false, and its paths to
   * each outcome (for loop exits).
   */
  record Cond(
      List<Guard> whenTrue,
      List<Guard> whenFalse,
      List<LoopRecorder.Edge> trueEdges,
      List<LoopRecorder.Edge> falseEdges) {
    Cond(List<Guard> whenTrue, List<Guard> whenFalse) {
      this(whenTrue, whenFalse, edges(whenTrue), edges(whenFalse));
    }

    private static List<LoopRecorder.Edge> edges(List<Guard> guards) {
      return guards.isEmpty()
          ? List.of(new LoopRecorder.Edge(List.of(), UNKNOWN_GUARD, null))
          : List.of(
              new LoopRecorder.Edge(
                  guards.subList(0, guards.size() - 1), guards.get(guards.size() - 1), null));
    }
  }

  static final Guard UNKNOWN_GUARD = new Guard(Value.UNKNOWN, Guard.Test.TRUE, true);

  private final ExpressionReader reader;

  ConditionReader(ExpressionReader reader) {
    this.reader = reader;
  }

  static Guard guard(Value subject, Guard.Test test, boolean outcome) {
    if (subject.isOpaque()) {
      // a null test of a value no operation names (a local that paths assign differently) is
      // still a null test: "some value was null" (the bytecode front-end reads it the same way)
      return test == Guard.Test.NULL ? new Guard(Value.UNKNOWN, test, outcome) : UNKNOWN_GUARD;
    }
    return new Guard(subject, test, outcome);
  }

  Cond condition(TreePath path) {
    Tree tree = path.getLeaf();
    if (tree instanceof ParenthesizedTree parens) {
      return condition(child(path, parens.getExpression()));
    }
    if (tree instanceof UnaryTree unary && tree.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      Cond inner = condition(child(path, unary.getExpression()));
      return new Cond(inner.whenFalse(), inner.whenTrue(), inner.falseEdges(), inner.trueEdges());
    }
    if (tree instanceof BinaryTree binary) {
      switch (tree.getKind()) {
        case CONDITIONAL_AND -> {
          Cond left = condition(child(path, binary.getLeftOperand()));
          int mark = reader.guards.size();
          reader.guards.addAll(left.whenTrue());
          Cond right = condition(child(path, binary.getRightOperand()));
          truncate(reader.guards, mark);
          return new Cond(
              concat(left.whenTrue(), right.whenTrue()),
              List.of(),
              after(left.whenTrue(), right.trueEdges()),
              concat(left.falseEdges(), after(left.whenTrue(), right.falseEdges())));
        }
        case CONDITIONAL_OR -> {
          Cond left = condition(child(path, binary.getLeftOperand()));
          int mark = reader.guards.size();
          reader.guards.addAll(left.whenFalse());
          Cond right = condition(child(path, binary.getRightOperand()));
          truncate(reader.guards, mark);
          return new Cond(
              List.of(),
              concat(left.whenFalse(), right.whenFalse()),
              concat(left.trueEdges(), after(left.whenFalse(), right.trueEdges())),
              after(left.whenFalse(), right.falseEdges()));
        }
        case EQUAL_TO, NOT_EQUAL_TO -> {
          boolean equal = tree.getKind() == Tree.Kind.EQUAL_TO;
          ExpressionTree left = binary.getLeftOperand();
          ExpressionTree right = binary.getRightOperand();
          if (isNullLiteral(right) || isNullLiteral(left)) {
            ExpressionTree tested = isNullLiteral(right) ? left : right;
            Value value = reader.eval(child(path, tested));
            return new Cond(
                List.of(guard(value, Guard.Test.NULL, equal)),
                List.of(guard(value, Guard.Test.NULL, !equal)),
                edge(value, Guard.Test.NULL, equal, tested),
                edge(value, Guard.Test.NULL, !equal, tested));
          }
          if (isIntZero(right) && isIntLike(left)) {
            Value value = reader.eval(child(path, left));
            return new Cond(
                List.of(guard(value, Guard.Test.TRUE, !equal)),
                List.of(guard(value, Guard.Test.TRUE, equal)),
                edge(value, Guard.Test.TRUE, !equal, left),
                edge(value, Guard.Test.TRUE, equal, left));
          }
          Value leftValue = reader.eval(child(path, left));
          Value rightValue = reader.eval(child(path, right));
          Cond compared = comparedWithZeroOrOne(tree.getKind(), left, leftValue, right, rightValue);
          return compared != null
              ? compared
              : new Cond(List.of(UNKNOWN_GUARD), List.of(UNKNOWN_GUARD));
        }
        case GREATER_THAN, GREATER_THAN_EQUAL, LESS_THAN, LESS_THAN_EQUAL -> {
          ExpressionTree left = binary.getLeftOperand();
          ExpressionTree right = binary.getRightOperand();
          Value leftValue = reader.eval(child(path, left));
          Value rightValue = reader.eval(child(path, right));
          reader.computed(); // the comparison's own value, as eval numbers it
          Cond compared = comparedWithZeroOrOne(tree.getKind(), left, leftValue, right, rightValue);
          return compared != null
              ? compared
              : new Cond(List.of(UNKNOWN_GUARD), List.of(UNKNOWN_GUARD));
        }
        default -> {}
      }
    }
    Type type = ((JCTree) tree).type;
    Value value = reader.eval(path);
    if (type != null
        && (type.getTag() == TypeTag.BOOLEAN || isBoxedBoolean(type))
        && !(tree instanceof BinaryTree)
        && !(tree instanceof InstanceOfTree)
        && !(tree instanceof ConditionalExpressionTree)) {
      ExpressionTree expression = (ExpressionTree) tree;
      return new Cond(
          List.of(guard(value, Guard.Test.TRUE, true)),
          List.of(guard(value, Guard.Test.TRUE, false)),
          edge(value, Guard.Test.TRUE, true, expression),
          edge(value, Guard.Test.TRUE, false, expression));
    }
    return new Cond(List.of(UNKNOWN_GUARD), List.of(UNKNOWN_GUARD));
  }

  /** A path whose deciding test is {@code value}'s, with the local {@code tested} reads. */
  private static List<LoopRecorder.Edge> edge(
      Value value, Guard.Test test, boolean outcome, ExpressionTree tested) {
    return List.of(
        new LoopRecorder.Edge(
            List.of(), new Guard(value, test, outcome), LoopRecorder.testedLocal(tested)));
  }

  private static List<LoopRecorder.Edge> after(List<Guard> prefix, List<LoopRecorder.Edge> edges) {
    List<LoopRecorder.Edge> all = new ArrayList<>(edges.size());
    for (LoopRecorder.Edge edge : edges) {
      all.add(edge.after(prefix));
    }
    return all;
  }

  /**
   * A count compared with zero or one ({@code n != 0}, {@code n > 0}, {@code 0 < n}, {@code n >=
   * 1}, {@code n == 0}, ...): ops see no guard (as before), but a loop exit sees the test. {@code
   * null} for other comparisons.
   */
  private static Cond comparedWithZeroOrOne(
      Tree.Kind kind,
      ExpressionTree left,
      Value leftValue,
      ExpressionTree right,
      Value rightValue) {
    Long leftConstant = zeroOrOne(left);
    Long rightConstant = zeroOrOne(right);
    if ((leftConstant == null) == (rightConstant == null)) {
      return null;
    }
    boolean constantOnLeft = leftConstant != null;
    ExpressionTree counted = constantOnLeft ? right : left;
    Value value = constantOnLeft ? rightValue : leftValue;
    long constant = constantOnLeft ? leftConstant : rightConstant;
    if (!isIntLike(counted) && !isLong(counted)) {
      return null;
    }
    if (constantOnLeft) {
      kind =
          switch (kind) {
            case GREATER_THAN -> Tree.Kind.LESS_THAN;
            case LESS_THAN -> Tree.Kind.GREATER_THAN;
            case GREATER_THAN_EQUAL -> Tree.Kind.LESS_THAN_EQUAL;
            case LESS_THAN_EQUAL -> Tree.Kind.GREATER_THAN_EQUAL;
            default -> kind;
          };
    }
    // value <kind> constant, as a test whose outcome is true when the comparison holds
    Guard.Test test;
    boolean holdsWhen;
    if (constant == 0 && (kind == Tree.Kind.EQUAL_TO || kind == Tree.Kind.NOT_EQUAL_TO)) {
      test = Guard.Test.TRUE;
      holdsWhen = kind == Tree.Kind.NOT_EQUAL_TO;
    } else if ((constant == 0 && kind == Tree.Kind.GREATER_THAN)
        || (constant == 1 && kind == Tree.Kind.GREATER_THAN_EQUAL)) {
      test = Guard.Test.POSITIVE;
      holdsWhen = true;
    } else if ((constant == 0 && kind == Tree.Kind.LESS_THAN_EQUAL)
        || (constant == 1 && kind == Tree.Kind.LESS_THAN)) {
      test = Guard.Test.POSITIVE;
      holdsWhen = false;
    } else {
      return null;
    }
    return new Cond(
        List.of(UNKNOWN_GUARD),
        List.of(UNKNOWN_GUARD),
        edge(value, test, holdsWhen, counted),
        edge(value, test, !holdsWhen, counted));
  }

  private static Long zeroOrOne(ExpressionTree tree) {
    Object value = constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree));
    if ((value instanceof Integer || value instanceof Long)
        && (((Number) value).longValue() == 0 || ((Number) value).longValue() == 1)) {
      return ((Number) value).longValue();
    }
    return null;
  }

  private static boolean isLong(ExpressionTree tree) {
    Type type = ((JCTree) tree).type;
    return type != null && type.getTag() == TypeTag.LONG;
  }

  private static boolean isBoxedBoolean(Type type) {
    return type.tsym != null && type.tsym.getQualifiedName().contentEquals("java.lang.Boolean");
  }

  private static boolean isNullLiteral(ExpressionTree tree) {
    return TreeInfo.skipParens((JCTree.JCExpression) tree).getKind() == Tree.Kind.NULL_LITERAL;
  }

  private static boolean isIntZero(ExpressionTree tree) {
    Object value =
        ((JCTree.JCExpression) TreeInfo.skipParens((JCTree.JCExpression) tree)).type == null
            ? null
            : constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree));
    return (value instanceof Integer i && i == 0) || Boolean.FALSE.equals(value);
  }

  private static boolean isIntLike(ExpressionTree tree) {
    Type type = ((JCTree) tree).type;
    if (type == null) {
      return false;
    }
    return switch (type.getTag()) {
      case INT, SHORT, BYTE, CHAR, BOOLEAN -> true;
      default -> false;
    };
  }
}
