package io.github.lockjaw.checks.polling;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.lang.model.element.ElementKind;

/**
 * How long a pause call ({@code Thread.sleep(10)}, {@code TimeUnit.MILLISECONDS.sleep(5)}, {@code
 * LockSupport.parkNanos(1_000)}, ...) waits, read from its constant arguments.
 */
final class PauseDuration {

  private PauseDuration() {}

  /**
   * The pause in milliseconds, or null when lockjaw cannot tell. {@code duration} is the catalog
   * entry's {@code duration} attribute: {@code none} (yield, onSpinWait), {@code millis} (a long or
   * a {@code Duration} first argument), {@code nanos} (the last argument) or {@code unit} (a {@code
   * TimeUnit} receiver and an amount).
   */
  static Long millis(MethodInvocationTree call, String duration) {
    List<? extends ExpressionTree> args = call.getArguments();
    switch (duration) {
      case "none":
        return 0L;
      case "millis":
        {
          if (args.isEmpty()) {
            return null;
          }
          Long constant = longConstant(args.get(0));
          if (constant != null) {
            return constant;
          }
          Duration d = durationConstant(args.get(0));
          return d == null ? null : d.toMillis();
        }
      case "nanos":
        {
          if (args.isEmpty()) {
            return null;
          }
          Long nanos = longConstant(args.get(args.size() - 1));
          return nanos == null ? null : TimeUnit.NANOSECONDS.toMillis(nanos);
        }
      case "unit":
        {
          if (args.isEmpty()) {
            return null;
          }
          Long amount = longConstant(args.get(0));
          ExpressionTree receiver = ASTHelpers.getReceiver(call);
          Symbol unit = receiver == null ? null : ASTHelpers.getSymbol(receiver);
          if (amount == null || unit == null || unit.getKind() != ElementKind.ENUM_CONSTANT) {
            return null;
          }
          try {
            return TimeUnit.valueOf(unit.getSimpleName().toString()).toMillis(amount);
          } catch (IllegalArgumentException e) {
            return null;
          }
        }
      default:
        return null;
    }
  }

  private static Long longConstant(ExpressionTree tree) {
    Object value = ASTHelpers.constValue(tree);
    if (value instanceof Number n && !(value instanceof Double) && !(value instanceof Float)) {
      return n.longValue();
    }
    return null;
  }

  /** {@code Duration.ofMillis(10)}, {@code Duration.ofSeconds(1)}, ... with a constant argument. */
  private static Duration durationConstant(ExpressionTree tree) {
    if (!(ASTHelpers.stripParentheses(tree) instanceof MethodInvocationTree call)) {
      return null;
    }
    MethodSymbol method = ASTHelpers.getSymbol(call);
    if (method == null
        || !method.owner.getQualifiedName().contentEquals("java.time.Duration")
        || call.getArguments().size() != 1) {
      return null;
    }
    Long amount = longConstant(call.getArguments().get(0));
    if (amount == null) {
      return null;
    }
    return switch (method.getSimpleName().toString()) {
      case "ofNanos" -> Duration.ofNanos(amount);
      case "ofMillis" -> Duration.ofMillis(amount);
      case "ofSeconds" -> Duration.ofSeconds(amount);
      case "ofMinutes" -> Duration.ofMinutes(amount);
      default -> null;
    };
  }
}
