package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.common.MapLocking;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fix of a cache whose fill is more than lockjaw rewrites into one {@code computeIfAbsent} (it
 * recurses, builds in several steps, caches a sentinel for a miss), on a coarsely locked map
 * ({@code Collections.synchronizedMap}, {@code Hashtable}) that the lookup reads without a lock of
 * its own: only the map's declaration changes, to a {@code ConcurrentHashMap}, and the code stays
 * as written. Its reads then stop queuing on the map's one monitor, and each call stays one atomic
 * step, as before. The check-then-act stays too: where it had no lock, two threads that miss at
 * once still both build the value, exactly as before; where a {@code synchronized (map)} block
 * makes the fill exclusive, it still does.
 *
 * <p>Offered only when that keeps behaviour: the field is private, assigned once, built as {@code
 * new HashMap}/{@code new Hashtable}; every use in the file is one call on it that is one atomic
 * step on a ConcurrentHashMap too (no iteration, whose order would change; no escape); keys and
 * values are provably non-null unless the map already rejected nulls; and when {@code synchronized
 * (map)} blocks exist, every write happens inside one, because a ConcurrentHashMap's own calls no
 * longer wait for those blocks.
 */
final class ConcurrentMapSwap {
  private ConcurrentMapSwap() {}

  /**
   * The swap for the map {@code map} of a lookup in {@code region}, or empty when it does not
   * apply: the map is not coarsely locked, or the region's method never reads it outside a lock, so
   * a swap would leave every reader queuing as before.
   */
  static Optional<FixOutcome> build(TreePath region, VarSymbol map, VisitorState state) {
    CacheField field = CacheField.of(map, state);
    if (field.locking() != MapLocking.COARSE
        || field.holdsKeysWeakly(state) // ClassValue or a weak-keyed map is its cure
        || !readWithoutALock(field, region)) {
      return Optional.empty();
    }
    NewClassTree construction = field.replaceableConstruction(state).orElse(null);
    if (construction == null) {
      return Optional.of(FixOutcome.blocked(field.whyNotReplaceable(state)));
    }
    String blocker = whyNotSwappable(field, field.rejectsNulls(construction, state), state);
    if (blocker != null) {
      return Optional.of(FixOutcome.blocked(blocker));
    }
    SuggestedFix.Builder fix = SuggestedFix.builder();
    blocker = MapDeclarationRewrite.rewrite(fix, field, construction, state);
    if (blocker != null) {
      return Optional.of(FixOutcome.blocked(blocker));
    }
    fix.setShortDescription(
        "Make '"
            + map.getSimpleName()
            + "' a ConcurrentHashMap: its reads stop queuing on one lock, and the fill stays as"
            + " written");
    return Optional.of(FixOutcome.of(fix.build()));
  }

  /** Whether the method of {@code region} calls the map outside every lock. */
  private static boolean readWithoutALock(CacheField field, TreePath region) {
    Tree method = enclosingMethod(region);
    if (method == null) {
      return false;
    }
    for (TreePath use : field.uses()) {
      if (callOn(use) != null
          && enclosingMethod(use) == method
          && ComputeIfAbsentFix.enclosingLock(use) == null) {
        return true;
      }
    }
    return false;
  }

  private static Tree enclosingMethod(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof MethodTree
          || p.getLeaf() instanceof LambdaExpressionTree
          || p.getLeaf() instanceof ClassTree) {
        return p.getLeaf() instanceof MethodTree ? p.getLeaf() : null;
      }
    }
    return null;
  }

  /**
   * Why some use of the map would behave differently on a ConcurrentHashMap, or {@code null}: the
   * map escapes or is iterated, a key or value may be null, or a write outside the {@code
   * synchronized (map)} blocks would no longer wait for them.
   */
  private static String whyNotSwappable(
      CacheField field, boolean rejectsNulls, VisitorState state) {
    String name = "'" + field.symbol().getSimpleName() + "'";
    boolean lockedOn = false;
    Map<SynchronizedTree, Integer> writesPerBlock = new HashMap<>();
    String writeOutsideItsLock = null;
    for (TreePath use : field.uses()) {
      String where =
          " at line "
              + state
                  .getPath()
                  .getCompilationUnit()
                  .getLineMap()
                  .getLineNumber(ASTHelpers.getStartPosition(use.getLeaf()));
      if (isLockExpression(use)) {
        lockedOn = true;
        continue;
      }
      MethodInvocationTree call = callOn(use);
      if (call == null) {
        return name
            + " is also used"
            + where
            + " other than by one call on it (it is passed on or iterated), which lockjaw cannot"
            + " follow";
      }
      String notAtomic =
          ComputeIfAbsentFix.whyNotOneAtomicCall(name, call, where, rejectsNulls, state);
      if (notAtomic != null) {
        return notAtomic;
      }
      String method = ASTHelpers.getSymbol(call).getSimpleName() + "()";
      boolean writes =
          MapKnowledge.atomicMethod(ASTHelpers.getSymbol(call), state)
              .map(entry -> entry.hasAttribute("writes"))
              .orElse(false);
      if (writes) {
        SynchronizedTree block = lockOn(use, field.symbol());
        if (block == null) {
          writeOutsideItsLock = writeOutsideItsLock == null ? method + where : writeOutsideItsLock;
        } else if (writesPerBlock.merge(block, 1, Integer::sum) > 1) {
          return "a synchronized ("
              + field.symbol().getSimpleName()
              + ") block writes it twice (again"
              + where
              + "), and readers outside the block would see the map between the writes";
        } else {
          Optional<String> other =
              ComputeIfAbsentFix.fieldWrittenBesides(
                  block.getBlock().getStatements(), field.symbol());
          if (other.isPresent()) {
            return "the synchronized ("
                + field.symbol().getSimpleName()
                + ") block that writes it"
                + where
                + " also writes '"
                + other.get()
                + "', which readers of the map see in step only while they wait for that lock";
          }
        }
      }
    }
    if (lockedOn && writeOutsideItsLock != null) {
      return name
          + " is written by "
          + writeOutsideItsLock
          + " outside the synchronized ("
          + field.symbol().getSimpleName()
          + ") blocks, and as a ConcurrentHashMap its writes would no longer wait for them";
    }
    return null;
  }

  /** The call a use of the map is the receiver of ({@code map.get(k)}), or null. */
  private static MethodInvocationTree callOn(TreePath use) {
    TreePath parent = use.getParentPath();
    return parent != null
            && parent.getLeaf() instanceof MemberSelectTree select
            && parent.getParentPath().getLeaf() instanceof MethodInvocationTree call
            && call.getMethodSelect() == select
        ? call
        : null;
  }

  /** Whether a use of the map is the lock of a {@code synchronized (map)} block. */
  private static boolean isLockExpression(TreePath use) {
    TreePath parent = use.getParentPath();
    while (parent != null && parent.getLeaf() instanceof ParenthesizedTree) {
      parent = parent.getParentPath();
    }
    return parent != null
        && parent.getLeaf() instanceof SynchronizedTree sync
        && ASTHelpers.stripParentheses(sync.getExpression()) == use.getLeaf();
  }

  /**
   * The {@code synchronized (map)} block a use sits inside, in the same method or lambda, or null.
   */
  private static SynchronizedTree lockOn(TreePath use, VarSymbol map) {
    for (TreePath p = use.getParentPath(); p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof SynchronizedTree sync) {
        ExpressionTree lock = ASTHelpers.stripParentheses(sync.getExpression());
        if (map.equals(ASTHelpers.getSymbol(lock))) {
          return sync;
        }
      }
      if (leaf instanceof MethodTree
          || leaf instanceof LambdaExpressionTree
          || leaf instanceof ClassTree) {
        return null;
      }
    }
    return null;
  }
}
