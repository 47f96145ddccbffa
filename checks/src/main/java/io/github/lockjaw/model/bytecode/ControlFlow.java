package io.github.lockjaw.model.bytecode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * A method's control-flow graph at instruction level (normal and exception edges, as ASM's analyzer
 * reports them), with the facts the model needs from it: immediate dominators, loops (from back
 * edges) and exception handler entries.
 */
final class ControlFlow {
  private final int size;
  private final List<List<Integer>> successors;
  private final List<List<Integer>> predecessors;
  private final BitSet handlerEntries = new BitSet();
  private int[] idom;
  private int[] order; // reverse postorder position of each reachable instruction, -1 otherwise

  ControlFlow(int size) {
    this.size = size;
    successors = new ArrayList<>(size);
    predecessors = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      successors.add(new ArrayList<>(2));
      predecessors.add(new ArrayList<>(2));
    }
  }

  void addEdge(int from, int to) {
    if (!successors.get(from).contains(to)) {
      successors.get(from).add(to);
      predecessors.get(to).add(from);
    }
  }

  void addHandlerEntry(int handler) {
    handlerEntries.set(handler);
  }

  private final BitSet cleanupEntries = new BitSet();

  /**
   * Marks the entries of the method's handlers: a failure path for typed {@code catch} clauses,
   * cleanup for {@code cleanups} (finally, synchronized and try-with-resources handlers).
   */
  static void markHandlers(ControlFlow flow, MethodNode method, Set<TryCatchBlockNode> cleanups) {
    InsnList insns = method.instructions;
    for (TryCatchBlockNode block : method.tryCatchBlocks) {
      int entry = insns.indexOf(block.handler);
      if (cleanups.contains(block)) {
        flow.cleanupEntries.set(entry);
      } else {
        flow.addHandlerEntry(entry);
      }
    }
    flow.handlerEntries.andNot(flow.cleanupEntries);
  }

  /** Whether a cleanup handler's entry dominates {@code insn}. */
  boolean inCleanupHandler(int insn) {
    int node = insn;
    while (isReachable(node)) {
      if (cleanupEntries.get(node)) {
        return true;
      }
      int up = idom[node];
      if (up == node || up < 0) {
        return false;
      }
      node = up;
    }
    return false;
  }

  /** Whether {@code insn} is the entry of any handler, cleanup or not (no loop head). */
  boolean isAnyHandlerEntry(int insn) {
    return handlerEntries.get(insn) || cleanupEntries.get(insn);
  }

  List<Integer> successors(int insn) {
    return successors.get(insn);
  }

  List<Integer> predecessors(int insn) {
    return predecessors.get(insn);
  }

  boolean isHandlerEntry(int insn) {
    return handlerEntries.get(insn);
  }

  BitSet handlerEntries() {
    return handlerEntries;
  }

  /** Computes dominators from instruction 0 (Cooper, Harvey and Kennedy's iterative algorithm). */
  void computeDominators() {
    order = new int[size];
    Arrays.fill(order, -1);
    List<Integer> postorder = new ArrayList<>(size);
    // iterative depth-first search
    int[] next = new int[size];
    boolean[] seen = new boolean[size];
    int[] stack = new int[size + 1];
    int top = 0;
    if (size == 0) {
      idom = new int[0];
      return;
    }
    stack[top++] = 0;
    seen[0] = true;
    while (top > 0) {
      int node = stack[top - 1];
      List<Integer> succ = successors.get(node);
      if (next[node] < succ.size()) {
        int s = succ.get(next[node]++);
        if (!seen[s]) {
          seen[s] = true;
          stack[top++] = s;
        }
      } else {
        postorder.add(node);
        top--;
      }
    }
    int count = postorder.size();
    int[] rpo = new int[count];
    for (int i = 0; i < count; i++) {
      rpo[i] = postorder.get(count - 1 - i);
      order[rpo[i]] = i;
    }
    idom = new int[size];
    Arrays.fill(idom, -1);
    idom[0] = 0;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = 1; i < count; i++) {
        int node = rpo[i];
        int newIdom = -1;
        for (int p : predecessors.get(node)) {
          if (order[p] < 0 || idom[p] < 0) {
            continue;
          }
          newIdom = newIdom < 0 ? p : intersect(p, newIdom);
        }
        if (newIdom >= 0 && idom[node] != newIdom) {
          idom[node] = newIdom;
          changed = true;
        }
      }
    }
  }

  private int intersect(int a, int b) {
    while (a != b) {
      while (order[a] > order[b]) {
        a = idom[a];
      }
      while (order[b] > order[a]) {
        b = idom[b];
      }
    }
    return a;
  }

  boolean isReachable(int insn) {
    return order[insn] >= 0 && idom[insn] >= 0;
  }

  /** Whether {@code a} dominates {@code b} (every path from the entry to b passes through a). */
  boolean dominates(int a, int b) {
    if (!isReachable(a) || !isReachable(b)) {
      return false;
    }
    int node = b;
    while (true) {
      if (node == a) {
        return true;
      }
      int up = idom[node];
      if (up == node) {
        return false;
      }
      node = up;
    }
  }

  /** The immediate dominator chain of {@code insn}, innermost first, excluding itself. */
  int immediateDominator(int insn) {
    return idom[insn];
  }

  /**
   * The loops, one per loop head: a back edge goes from an instruction to one at or before it that
   * dominates it. Each loop is {@code [head, last]} in instruction order.
   */
  List<int[]> loops() {
    List<int[]> loops = new ArrayList<>();
    for (int from = 0; from < size; from++) {
      for (int to : successors.get(from)) {
        if (to <= from && !isAnyHandlerEntry(to) && isReachable(from)) {
          int[] found = null;
          for (int[] loop : loops) {
            if (loop[0] == to) {
              found = loop;
            }
          }
          if (found == null) {
            loops.add(new int[] {to, from});
          } else {
            found[1] = Math.max(found[1], from);
          }
        }
      }
    }
    loops.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(b[1], a[1]));
    return loops;
  }
}
