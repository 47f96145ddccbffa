package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * The object a polling loop polls, as its receiver expression names it: whether the expression
 * names the same object on every pass, and whether another thread may swap that object.
 */
final class PollReceiver {

  private PollReceiver() {}

  /**
   * A receiver that names the same object on every pass: a local, field, array element or
   * collection element reached without side effects (and not {@code Thread.currentThread()}).
   */
  static boolean stable(MethodInvocationTree call, VisitorState state) {
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    if (receiver == null) {
      // implicit this: only in a Thread (or Process...) subclass, polling itself from outside.
      return call.getMethodSelect() instanceof IdentifierTree;
    }
    return pure(receiver, state);
  }

  private static boolean pure(ExpressionTree tree, VisitorState state) {
    ExpressionTree e = ASTHelpers.stripParentheses(tree);
    if (e instanceof IdentifierTree || e instanceof LiteralTree) {
      return true;
    }
    if (e instanceof MemberSelectTree select) {
      Symbol symbol = ASTHelpers.getSymbol(select);
      return symbol != null
          && (symbol.getKind() == ElementKind.FIELD
              || symbol.getKind() == ElementKind.ENUM_CONSTANT
              || symbol instanceof Symbol.ClassSymbol)
          && pure(select.getExpression(), state);
    }
    if (e instanceof ArrayAccessTree access) {
      return pure(access.getExpression(), state) && pure(access.getIndex(), state);
    }
    if (e instanceof MethodInvocationTree call) {
      MethodSymbol method = ASTHelpers.getSymbol(call);
      if (isRecordAccessor(method) && ASTHelpers.getReceiver(call) != null) {
        return pure(ASTHelpers.getReceiver(call), state);
      }
      if (method == null || !method.getSimpleName().contentEquals("get")) {
        return false;
      }
      if (!BlockingKnowledge.isNonBlocking(method, state)
          || BlockingKnowledge.isBlockingCall(method, call.getArguments().size(), state)) {
        return false; // Future#get is not a collection element
      }
      ExpressionTree receiver = ASTHelpers.getReceiver(call);
      if (receiver == null || !pure(receiver, state)) {
        return false;
      }
      for (ExpressionTree argument : call.getArguments()) {
        if (!pure(argument, state)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

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

  /** Whether {@code loop} assigns a variable or field that {@code receiver} (may be null) reads. */
  static boolean changesIn(ExpressionTree receiver, StatementTree loop) {
    Set<Symbol> used = new HashSet<>();
    if (receiver == null) {
      return false;
    }
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null) {
          used.add(symbol);
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null) {
          used.add(symbol);
        }
        return super.visitMemberSelect(node, unused);
      }
    }.scan(receiver, null);
    boolean[] changed = {false};
    new TreeScanner<Void, Void>() {
      private void target(ExpressionTree variable) {
        Symbol symbol = ASTHelpers.getSymbol(variable);
        if (symbol != null && used.contains(symbol)) {
          changed[0] = true;
        }
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        target(node.getVariable());
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        target(node.getVariable());
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              target(node.getExpression());
          default -> {}
        }
        return super.visitUnary(node, unused);
      }
    }.scan(loop, null);
    return changed[0];
  }
}
