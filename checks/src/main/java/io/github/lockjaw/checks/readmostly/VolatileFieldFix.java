package io.github.lockjaw.checks.readmostly;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.LockRemoval;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * ReadMostlyStateUnderLock's fix for one reference read under a lock whose writers only assign it:
 * the field becomes {@code volatile} and the reader reads it without the lock (Spring 5.1.16's fix
 * of {@code getBeanFactory()}), and the conditions under which that keeps the meaning.
 */
final class VolatileFieldFix {
  private VolatileFieldFix() {}

  /**
   * Why a volatile field would not keep the meaning, or null: the field must be private and neither
   * final nor volatile, the region must read it exactly once and nothing else, and every write must
   * be a plain assignment in a method that does not read it (writers only assign).
   */
  static String whyNot(
      VarSymbol field, int reads, int fields, FieldAccesses accesses, VisitorState state) {
    Set<Modifier> modifiers = field.getModifiers();
    if (!modifiers.contains(Modifier.PRIVATE)) {
      return "'" + field.getSimpleName() + "' is not private, so other classes may write it";
    }
    if (modifiers.contains(Modifier.FINAL) || modifiers.contains(Modifier.VOLATILE)) {
      return "'" + field.getSimpleName() + "' is final or volatile already";
    }
    if (reads != 1 || fields != 1) {
      return "the lock holds several reads, which it keeps consistent with each other";
    }
    Set<MethodTree> writers = new LinkedHashSet<>();
    boolean goesOn = false;
    for (FieldAccesses.Access access : accesses.of(field)) {
      if (access.kind() == FieldAccesses.Kind.ASSIGN) {
        TreePath statement = access.path().getParentPath().getParentPath();
        if (!(statement.getLeaf() instanceof ExpressionStatementTree)) {
          return "an assignment to '" + field.getSimpleName() + "' is used as a value";
        }
        goesOn |= !isLastUnderItsLock(statement);
        if (access.method() != null) {
          writers.add(access.method());
        }
      } else if (access.kind() != FieldAccesses.Kind.READ) {
        return "'" + field.getSimpleName() + "' is changed by more than a plain assignment";
      }
    }
    for (FieldAccesses.Access access : accesses.of(field)) {
      if (access.kind() == FieldAccesses.Kind.READ && writers.contains(access.method())) {
        return access.method().getName()
            + "() reads '"
            + field.getSimpleName()
            + "' before it writes it, under the same lock";
      }
    }
    if (goesOn) {
      // this.foo = f; f.init(); under the lock: an unlocked reader could see a half-built foo
      return "a writer goes on after it assigns '"
          + field.getSimpleName()
          + "', which an unlocked reader could then see half done";
    }
    return null;
  }

  /**
   * The fix: the field becomes volatile and the reader drops its lock; empty when it cannot be
   * written.
   */
  static Optional<SuggestedFix> of(
      Tree region, VarSymbol field, FieldAccesses accesses, VisitorState state) {
    VariableTree declaration = accesses.declaration(field);
    if (declaration == null) {
      return Optional.empty();
    }
    Optional<SuggestedFix> volatileField =
        SuggestedFixes.addModifiers(declaration, state, Modifier.VOLATILE);
    if (volatileField.isEmpty()) {
      return Optional.empty();
    }
    SuggestedFix.Builder fix = SuggestedFix.builder().merge(volatileField.get());
    if (region instanceof MethodTree method) {
      Optional<SuggestedFix> unlocked =
          SuggestedFixes.removeModifiers(method, state, Modifier.SYNCHRONIZED);
      if (unlocked.isEmpty()) {
        return Optional.empty();
      }
      fix.merge(unlocked.get());
    } else if (region instanceof SynchronizedTree block) {
      String body = LockRemoval.unwrap(block, new ArrayList<>(), state);
      if (body == null) {
        return Optional.empty();
      }
      fix.replace(block, body);
    } else {
      return Optional.empty();
    }
    return Optional.of(fix.build());
  }

  /** The statement is the last one of a method body or of a synchronized block. */
  private static boolean isLastUnderItsLock(TreePath statement) {
    if (!(statement.getParentPath().getLeaf() instanceof BlockTree block)) {
      return false;
    }
    List<? extends StatementTree> statements = block.getStatements();
    if (statements.isEmpty() || statements.get(statements.size() - 1) != statement.getLeaf()) {
      return false;
    }
    Tree owner = statement.getParentPath().getParentPath().getLeaf();
    return owner instanceof MethodTree || owner instanceof SynchronizedTree;
  }
}
