package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol;
import io.github.lockjaw.checks.support.Layout;
import io.github.lockjaw.common.Resilience;
import java.util.Optional;
import javax.lang.model.element.Modifier;

/**
 * The fix for a shared monitor held around blocking I/O: drop the method's {@code synchronized}
 * modifier or unwrap the {@code synchronized} block, only when nothing shows that the lock guards
 * anything else; otherwise the reason there is no fix.
 */
final class DropMonitorLockFix {

  /** The fix, or (when empty) the reason there is none in {@code noFixReason}. */
  record FixResult(Optional<SuggestedFix> fix, String noFixReason) {}

  private DropMonitorLockFix() {}

  static FixResult build(
      SharedMonitor monitor,
      Tree region,
      MethodTree method,
      FixFacts model,
      FixEvidence facts,
      VisitorState state) {
    String noFixReason = whyNoFix(monitor, region, method, model, facts);
    Optional<SuggestedFix> fix = Optional.empty();
    if (noFixReason == null) {
      fix = buildFix(region, method, state);
      if (fix.isEmpty()) {
        noFixReason = "lockjaw could not rewrite this declaration";
      }
    }
    return new FixResult(fix, noFixReason);
  }

  /**
   * Why dropping the lock could change behaviour, or null when it cannot: the region touches no
   * mutable state, nothing waits on or notifies a monitor, no member of the monitor runs several
   * statements that the lock may keep atomic, and nothing else locks the monitor.
   */
  private static String whyNoFix(
      SharedMonitor monitor, Tree region, MethodTree method, FixFacts model, FixEvidence facts) {
    if (region instanceof SynchronizedTree && !FixEvidence.isWholeBody(method.getBody(), region)) {
      return "the synchronized block is only part of "
          + method.getName()
          + "(), so lockjaw cannot tell what else it guards";
    }
    Optional<String> touched = facts.mutableStateTouchedBy(region);
    if (touched.isPresent()) {
      return "it uses " + touched.get() + ", state the lock may guard";
    }
    if (facts.usesWaitOrNotify()) {
      return "this file waits on or notifies a monitor, so the lock may be part of that protocol";
    }
    for (FixFacts.Member member : model.members()) {
      if (member.executions() > 1) {
        return member.name()
            + " runs several statements under the same monitor, which the lock may keep atomic";
      }
    }
    if (monitor.kind() == SharedMonitor.Kind.INSTANCE
        && monitor.symbol() instanceof Symbol.ClassSymbol owner
        && facts.locksFromOutside(owner)) {
      return "other code in this file locks a " + owner.getSimpleName() + " object as well";
    }
    if (monitor.kind() == SharedMonitor.Kind.FIELD
        && !monitor.symbol().getModifiers().contains(Modifier.PRIVATE)) {
      return "lock field '"
          + monitor.symbol().getSimpleName()
          + "' is not private, so other classes may lock it too";
    }
    return null;
  }

  private static Optional<SuggestedFix> buildFix(
      Tree region, MethodTree method, VisitorState state) {
    try {
      if (region instanceof MethodTree) {
        return SuggestedFixes.removeModifiers(method, state, Modifier.SYNCHRONIZED);
      }
      if (region instanceof SynchronizedTree block) {
        String body = state.getSourceForNode(block.getBlock());
        if (body == null) {
          return Optional.empty();
        }
        int open = body.indexOf('{');
        int close = body.lastIndexOf('}');
        if (open < 0 || close <= open) {
          return Optional.empty();
        }
        // the body moves one level out: its lines lose one step of indentation, comments stay
        CharSequence source = state.getSourceCode();
        String inner = body.substring(open + 1, close).strip();
        int blockStart = ASTHelpers.getStartPosition(block);
        String to = lineIndentation(source, blockStart);
        String from =
            block.getBlock().getStatements().isEmpty()
                ? to
                : lineIndentation(
                    source, ASTHelpers.getStartPosition(block.getBlock().getStatements().get(0)));
        return Optional.of(
            SuggestedFix.replace(block, Layout.move(inner, from, to, Layout.newline(source))));
      }
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Optional.empty();
    } catch (AssertionError e) {
      Resilience.rethrowIfStrict(e);
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** The white space that starts the line holding {@code position}. */
  private static String lineIndentation(CharSequence source, int position) {
    int start = Layout.lineStart(source, position);
    String line = source.subSequence(start, position).toString();
    return line.substring(0, line.length() - line.stripLeading().length()).replace("\r", "");
  }
}
