package io.github.lockjaw.checks.polling;

import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * The object a polling loop polls, as its receiver expression names it: whether another thread may
 * swap that object while the loop waits (a fix waits on the object the receiver names once; the
 * loop re-read it on every pass).
 */
final class PollReceiver {

  private PollReceiver() {}

  /** A record's component accessor: reads a final field. */
  static boolean isRecordAccessor(MethodSymbol method) {
    if (method == null
        || !method.getParameters().isEmpty()
        || !(method.owner instanceof Symbol.ClassSymbol owner)
        || !owner.isRecord()) {
      return false;
    }
    return owner.getRecordComponents().stream()
        .anyMatch(
            c ->
                c.getSimpleName().contentEquals(method.getSimpleName())
                    && c.getAccessor() != null
                    && c.getAccessor().equals(method));
  }

  /**
   * Why the object {@code receiver} (may be null) names might be swapped for another one by another
   * thread while the loop waits (a volatile field, an array slot, a collection element), or empty
   * when it is a local, a parameter, {@code this} or a final or plain field.
   */
  static Optional<String> sharedReason(ExpressionTree receiver) {
    if (receiver == null) {
      return Optional.empty();
    }
    ExpressionTree e = ASTHelpers.stripParentheses(receiver);
    if (e instanceof ArrayAccessTree) {
      return Optional.of(
          "another thread may store a different object in that array slot while"
              + " the loop waits");
    }
    if (e instanceof MethodInvocationTree call) {
      if (isRecordAccessor(ASTHelpers.getSymbol(call))) {
        ExpressionTree record = ASTHelpers.getReceiver(call);
        return record == null || !sharedContainer(record)
            ? Optional.empty()
            : Optional.of("another thread may swap the object while the loop waits");
      }
      return Optional.of(
          "another thread may replace that collection element while the loop" + " waits");
    }
    Symbol symbol = ASTHelpers.getSymbol(e);
    if (symbol == null) {
      return Optional.of("lockjaw cannot tell what the receiver names");
    }
    if (symbol.getKind() == ElementKind.FIELD
        && symbol.getModifiers().contains(Modifier.VOLATILE)) {
      return Optional.of(
          "the field is volatile, so another thread may swap it while the loop" + " waits");
    }
    if (e instanceof MemberSelectTree select
        && !(select.getExpression() instanceof IdentifierTree)
        && sharedContainer(select.getExpression())) {
      return Optional.of("another thread may swap the object while the loop waits");
    }
    return Optional.empty();
  }

  private static boolean sharedContainer(ExpressionTree tree) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof IdentifierTree) {
      return false;
    }
    if (e instanceof MemberSelectTree select) {
      Symbol symbol = ASTHelpers.getSymbol(select);
      if (symbol != null && symbol.getModifiers().contains(Modifier.VOLATILE)) {
        return true;
      }
      return sharedContainer(select.getExpression());
    }
    return true;
  }
}
