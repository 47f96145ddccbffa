package io.github.lockjaw.model.source;

import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.LocalStore;
import io.github.lockjaw.model.Loop;
import io.github.lockjaw.model.LoopExit;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The loop facts the source front-end adds to {@link Loop}: how each loop is left (its condition's
 * false paths, {@code break} and labeled {@code continue} statements) with the tests on the way,
 * the assignments of a local its exit tests, and the calls whose operands read a local it assigns.
 * {@link BodyReader} tells it what it reads, in javac's order; the bytecode front-end derives the
 * same facts from the control-flow graph.
 */
final class LoopRecorder {
  /**
   * A path through a condition to one outcome: the guards that hold on the way, the deciding test
   * (its subject not yet made unknown when opaque) and the local that test reads, if any.
   */
  record Edge(List<Guard> before, Guard deciding, Symbol tested) {
    Edge after(List<Guard> prefix) {
      if (prefix.isEmpty()) {
        return this;
      }
      List<Guard> all = new ArrayList<>(prefix);
      all.addAll(before);
      return new Edge(all, deciding, tested);
    }
  }

  private static final Guard UNKNOWN = new Guard(Value.UNKNOWN, Guard.Test.TRUE, true);

  private record Store(Symbol symbol, Value value, List<Guard> guards) {}

  private record PendingExit(List<Guard> guards, Symbol tested) {}

  private static final class Open {
    final int id;
    final int mark;
    final boolean inHandler;
    final String label;
    final Set<Symbol> assigned;
    final List<PendingExit> exits = new ArrayList<>();
    final List<Store> stores = new ArrayList<>();
    final TreeSet<Integer> varying = new TreeSet<>();

    Open(int id, int mark, boolean inHandler, String label, Set<Symbol> assigned) {
      this.id = id;
      this.mark = mark;
      this.inHandler = inHandler;
      this.label = label;
      this.assigned = assigned;
    }
  }

  /** A statement a plain {@code break} leaves: a loop (its open index) or a switch (-1). */
  private final List<Integer> breakables = new ArrayList<>();

  private final List<Open> open = new ArrayList<>();

  /** Labels of statements that are not loops, with how many loops were open at them. */
  private final List<String> blockLabels = new ArrayList<>();

  private final List<Integer> blockLabelDepths = new ArrayList<>();

  void open(int id, Tree loop, String label, int guardMark, boolean inHandler) {
    open.add(new Open(id, guardMark, inHandler, label, LocalScans.assignedLocals(loop)));
    breakables.add(open.size() - 1);
  }

  /** The loop {@code plain} with the exits and varying calls recorded while it was open. */
  Loop close(Loop plain) {
    Open loop = open.remove(open.size() - 1);
    breakables.remove(breakables.size() - 1);
    List<LoopExit> exits = new ArrayList<>();
    for (PendingExit exit : loop.exits) {
      List<LocalStore> stores = new ArrayList<>();
      if (exit.tested() != null && loop.assigned.contains(exit.tested())) {
        for (Store store : loop.stores) {
          if (store.symbol().equals(exit.tested())) {
            stores.add(new LocalStore(store.value(), store.guards()));
          }
        }
      }
      exits.add(new LoopExit(exit.guards(), stores));
    }
    return new Loop(plain.id(), plain.parent(), plain.line(), exits, List.copyOf(loop.varying));
  }

  void enterSwitch() {
    breakables.add(-1);
  }

  void exitSwitch() {
    breakables.remove(breakables.size() - 1);
  }

  void enterLabel(String label) {
    blockLabels.add(label);
    blockLabelDepths.add(open.size());
  }

  void exitLabel() {
    blockLabels.remove(blockLabels.size() - 1);
    blockLabelDepths.remove(blockLabelDepths.size() - 1);
  }

  /** The false paths of the innermost loop's condition, read with {@code guards} current. */
  void conditionExits(List<Edge> edges, List<Guard> guards, boolean inHandler) {
    if (open.isEmpty()) {
      return;
    }
    Open loop = open.get(open.size() - 1);
    for (Edge edge : edges) {
      boolean carried = edge.tested() != null && loop.assigned.contains(edge.tested());
      Guard deciding = collapsed(edge.deciding(), carried);
      List<Guard> all = new ArrayList<>(relative(guards, loop));
      all.addAll(edge.before());
      all.add(deciding);
      loop.exits.add(new PendingExit(all, carried ? edge.tested() : null));
    }
  }

  /**
   * A {@code break} or {@code continue}: an exit of every loop it jumps out of. {@code test}, when
   * not null, is the path through the condition of the {@code if} whose only statement it is: its
   * deciding test replaces the last guard (a count compared with zero, a flag the loop assigns).
   */
  void jump(Tree statement, List<Guard> guards, boolean inHandler, Edge test) {
    int firstLeft = firstLoopLeft(statement);
    for (int i = firstLeft; i >= 0 && i < open.size(); i++) {
      Open loop = open.get(i);
      if (inHandler && !loop.inHandler) {
        continue; // a catch clause in the loop leaves it on a failure path: not recorded
      }
      List<Guard> exit = relative(guards, loop);
      Symbol tested = null;
      if (test != null && !exit.isEmpty()) {
        boolean carried = test.tested() != null && loop.assigned.contains(test.tested());
        exit = new ArrayList<>(exit);
        exit.set(exit.size() - 1, collapsed(test.deciding(), carried));
        tested = carried ? test.tested() : null;
      }
      loop.exits.add(new PendingExit(exit, tested));
    }
  }

  private static Guard collapsed(Guard deciding, boolean carried) {
    if (!deciding.subject().isOpaque()) {
      return deciding;
    }
    return carried ? new Guard(Value.UNKNOWN, deciding.test(), deciding.outcome()) : UNKNOWN;
  }

  /** The open index of the outermost loop a jump leaves, or -1 when it leaves none. */
  private int firstLoopLeft(Tree statement) {
    if (statement instanceof BreakTree brk) {
      if (brk.getLabel() == null) {
        int target = breakables.isEmpty() ? -1 : breakables.get(breakables.size() - 1);
        return target;
      }
      return labelDepth(brk.getLabel().toString(), false);
    }
    if (statement instanceof ContinueTree next && next.getLabel() != null) {
      return labelDepth(next.getLabel().toString(), true);
    }
    return -1; // a plain continue goes on with the innermost loop
  }

  private int labelDepth(String label, boolean continues) {
    for (int i = open.size() - 1; i >= 0; i--) {
      if (label.equals(open.get(i).label)) {
        return continues ? (i + 1 < open.size() ? i + 1 : -1) : i;
      }
    }
    for (int i = blockLabels.size() - 1; i >= 0; i--) {
      if (label.equals(blockLabels.get(i))) {
        int depth = blockLabelDepths.get(i);
        return depth < open.size() ? depth : -1;
      }
    }
    return -1;
  }

  private static List<Guard> relative(List<Guard> guards, Open loop) {
    return loop.mark <= guards.size()
        ? new ArrayList<>(guards.subList(loop.mark, guards.size()))
        : List.of();
  }

  /** An assignment of a local, with the guards current where it is made. */
  void store(Symbol symbol, Value value, List<Guard> guards) {
    if (symbol == null) {
      return;
    }
    for (Open loop : open) {
      if (loop.assigned.contains(symbol)) {
        loop.stores.add(new Store(symbol, value, List.copyOf(relative(guards, loop))));
      }
    }
  }

  /**
   * A call read at {@code tree}: varying in each open loop whose assigned locals its operands read.
   * {@code iteratorStep} marks the {@code hasNext()} and {@code next()} of an enhanced {@code for}:
   * their iterator is made anew on each pass of every loop around it.
   */
  void call(int index, Tree tree, boolean iteratorStep) {
    if (open.isEmpty()) {
      return;
    }
    if (iteratorStep) {
      for (int i = 0; i < open.size() - 1; i++) {
        open.get(i).varying.add(index);
      }
      return;
    }
    List<Tree> operands = operands(tree);
    for (Open loop : open) {
      for (Tree operand : operands) {
        if (readsAny(operand, loop.assigned)) {
          loop.varying.add(index);
          break;
        }
      }
    }
  }

  private static List<Tree> operands(Tree tree) {
    List<Tree> operands = new ArrayList<>();
    if (tree instanceof MethodInvocationTree call) {
      if (call.getMethodSelect() instanceof MemberSelectTree select) {
        operands.add(select.getExpression());
      }
      operands.addAll(call.getArguments());
    } else if (tree instanceof NewClassTree creation) {
      if (creation.getEnclosingExpression() != null) {
        operands.add(creation.getEnclosingExpression());
      }
      operands.addAll(creation.getArguments());
    } else {
      operands.add(tree);
    }
    return operands;
  }

  /** Whether an operand reads one of {@code locals}, not counting values calls return. */
  private static boolean readsAny(Tree operand, Set<Symbol> locals) {
    if (locals.isEmpty()) {
      return false;
    }
    if (operand instanceof VariableTree variable) {
      return locals.contains(TreeInfo.symbolFor((JCTree) variable));
    }
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        Symbol symbol = TreeInfo.symbol((JCTree) node);
        found[0] |= symbol != null && locals.contains(symbol);
        return null;
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitNewClass(NewClassTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null;
      }
    }.scan(operand, null);
    return found[0];
  }

  /**
   * Whether a statement has a {@code continue} (not in a lambda or class): it jumps to the test.
   */
  static boolean continuesIn(Tree body) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitContinue(ContinueTree node, Void unused) {
        found[0] = true;
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree node, Void unused) {
        return null;
      }
    }.scan(body, null);
    return found[0];
  }

  /** Whether a condition's subject is a local (through parentheses), for its stores. */
  static Symbol testedLocal(ExpressionTree tree) {
    Tree e = TreeInfo.skipParens((JCTree.JCExpression) tree);
    if (e instanceof IdentifierTree) {
      Symbol symbol = TreeInfo.symbol((JCTree) e);
      if (symbol != null && symbol.owner instanceof Symbol.MethodSymbol) {
        return symbol;
      }
    }
    return null;
  }
}
