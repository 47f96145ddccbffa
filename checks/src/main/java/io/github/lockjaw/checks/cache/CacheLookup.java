package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.tree.JCTree;
import io.github.lockjaw.checks.support.GuardingMonitor;
import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.common.MonitorKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.ElementKind;

/**
 * A memoising lookup on a map field: a check ({@code get} or {@code containsKey}) whose outcome
 * guards a {@code put} of the same key, with the cached value read back. Registries that throw on a
 * duplicate key, and counters that {@code put(k, get(k) + 1)}, are not lookups.
 *
 * @param map the map field
 * @param check the first {@code get}/{@code containsKey} of the key
 * @param put the {@code put} that fills the cache
 */
public record CacheLookup(VarSymbol map, MethodInvocationTree check, MethodInvocationTree put) {

  /** The key expression of the {@code put}. */
  public ExpressionTree key() {
    return put.getArguments().get(0);
  }

  /** The value expression of the {@code put}. */
  public ExpressionTree value() {
    return put.getArguments().get(1);
  }

  /**
   * The lookups made directly in a region: the body of the given {@code synchronized} block, method
   * or lambda, not counting nested lambdas, classes or {@code synchronized} blocks (they are
   * regions of their own). At most one lookup per map, the first.
   */
  /**
   * Whether a cache check reports a lookup in this region: under a {@code Class} monitor on any
   * map, a concurrent one too, since the JVM-wide lock is the bottleneck (ClassMonitorCache); under
   * an object monitor on a coarsely locked or plain map, or without a lock on a coarsely locked map
   * (SynchronizedMapCache).
   */
  public static boolean isReported(MonitorKind monitor, MapLocking locking) {
    return switch (monitor) {
      case CLASS -> true;
      case OBJECT -> locking == MapLocking.COARSE || locking == MapLocking.PLAIN;
      case NONE -> locking == MapLocking.COARSE;
    };
  }

  /**
   * Whether the region locks the looked-up map itself ({@code synchronized (cache) { get ... put
   * }}): then every reader of the map queues on that monitor while a value is built, however
   * concurrent the map is (Spring 2.5.1's {@code getMergedBeanDefinition}).
   */
  public boolean isLockedByItsOwnMonitor(Tree region) {
    if (!(region instanceof SynchronizedTree block)) {
      return false;
    }
    Symbol lock = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(block.getExpression()));
    return lock != null && lock.equals(map);
  }

  /**
   * Whether the region locks the map itself on every call: not when the method first reads the map
   * without the lock ({@code v = cache.get(k); if (v == null) { synchronized (cache) { ... } }},
   * Spring's double-checked metadata caches), so the lock is taken only on a miss.
   */
  public boolean isLockedByItsOwnMonitorOnEveryCall(TreePath region) {
    return isLockedByItsOwnMonitor(region.getLeaf()) && !isReadBeforeTheRegion(region);
  }

  /**
   * Whether the method reads the map (a get or containsKey) before the region, without its lock: a
   * double-checked lookup, which takes the lock only when that read missed.
   */
  public boolean isReadBeforeTheRegion(TreePath region) {
    MethodTree method = null;
    for (TreePath path = region.getParentPath(); path != null; path = path.getParentPath()) {
      if (path.getLeaf() instanceof MethodTree m) {
        method = m;
        break;
      }
    }
    if (method == null || method.getBody() == null) {
      return false;
    }
    int regionStart = ((JCTree) region.getLeaf()).getStartPosition();
    Tree lockedRegion = region.getLeaf();
    boolean[] readBefore = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        return tree == lockedRegion || readBefore[0] ? null : super.scan(tree, unused);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(call);
        if (symbol != null
            && map.equals(receiverField(call))
            && MapKnowledge.LOOKUP_METHOD_NAMES.contains(symbol.getSimpleName().toString())
            && call.getArguments().size() == 1
            && ((JCTree) call).getStartPosition() < regionStart) {
          readBefore[0] = true;
        }
        return super.visitMethodInvocation(call, unused);
      }
    }.scan(method.getBody(), null);
    return readBefore[0];
  }

  /**
   * Whether the region is a {@code synchronized} block entered only after a lock-free read of the
   * same key found nothing ({@code if ((v = cache.get(k)) == null) { synchronized (cache) { ... }
   * }}, OGNL 3.1's {@code getParameterTypes(Constructor)}): a hit never takes the lock, so readers
   * do not queue on it. On a plain {@code HashMap} that first read is a data race, but it is not
   * contention; on a coarsely locked map the first read locks too (callers decide).
   */
  public boolean isReachedOnlyAfterLockFreeMiss(TreePath region, VisitorState state) {
    if (!(region.getLeaf() instanceof SynchronizedTree)) {
      return false;
    }
    TreePath scope = null;
    for (TreePath path = region.getParentPath(); path != null; path = path.getParentPath()) {
      Tree leaf = path.getLeaf();
      if (leaf instanceof ClassTree) {
        return false;
      }
      if (leaf instanceof MethodTree || leaf instanceof LambdaExpressionTree) {
        scope = path;
        break;
      }
      if (leaf instanceof SynchronizedTree) {
        return false; // the outer lock is taken on every call
      }
    }
    if (scope == null) {
      return false;
    }
    MapCalls outside = new MapCalls(scope, state); // skips the region: it is a region root
    outside.scan(scope, null);
    outside.propagateValueLocals();
    return isGuarded(region, scope.getLeaf(), map, key(), outside, state);
  }

  /** Whether a cache check reports a lookup in the region at {@code region} (see above). */
  public static boolean reportedIn(TreePath region, VisitorState state) {
    MonitorKind monitor = GuardingMonitor.of(region.getLeaf(), state);
    for (CacheLookup lookup : findIn(region, state)) {
      MapLocking locking = CacheField.of(lookup.map(), state).locking();
      if (monitor == MonitorKind.OBJECT
          && locking != MapLocking.COARSE
          && lookup.isReachedOnlyAfterLockFreeMiss(region, state)) {
        continue; // SynchronizedMapCache does not report a lock taken only on a miss
      }
      if (isReported(monitor, locking)
          || (monitor != MonitorKind.CLASS && lookup.isLockedByItsOwnMonitorOnEveryCall(region))) {
        return true;
      }
    }
    return false;
  }

  public static List<CacheLookup> findIn(TreePath region, VisitorState state) {
    MapCalls calls = new MapCalls(region, state);
    calls.scan(region, null);
    calls.propagateValueLocals();
    Map<VarSymbol, CacheLookup> found = new LinkedHashMap<>();
    for (TreePath putPath : calls.puts) {
      MethodInvocationTree put = (MethodInvocationTree) putPath.getLeaf();
      VarSymbol map = receiverField(put);
      if (map == null || found.containsKey(map) || put.getArguments().size() != 2) {
        continue;
      }
      ExpressionTree key = put.getArguments().get(0);
      List<TreePath> checks = calls.checksOn(map, key, state);
      if (checks.isEmpty() || !readsValue(calls, map, key, state)) {
        continue;
      }
      if (calls.lockGuardsMore(map, key)) {
        continue; // the lock also guards what the value holds, or other fields: not a plain cache
      }
      if (isGuarded(putPath, region.getLeaf(), map, key, calls, state)) {
        found.put(map, new CacheLookup(map, (MethodInvocationTree) checks.get(0).getLeaf(), put));
      }
    }
    return List.copyOf(found.values());
  }

  /** The field a map call is made on ({@code cache.get(k)}, {@code this.cache.get(k)}), or null. */
  public static VarSymbol receiverField(MethodInvocationTree call) {
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    if (receiver == null) {
      return null;
    }
    Symbol symbol = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(receiver));
    if (symbol instanceof VarSymbol var
        && symbol.getKind() == ElementKind.FIELD
        && !symbol.getSimpleName().contentEquals("this")
        && !symbol.getSimpleName().contentEquals("super")) {
      return var;
    }
    return null;
  }

  /** Whether two key expressions denote the same key: same variable, or the same code. */
  public static boolean sameKey(ExpressionTree a, ExpressionTree b, VisitorState state) {
    ExpressionTree left = ASTHelpers.stripParentheses(a);
    ExpressionTree right = ASTHelpers.stripParentheses(b);
    Symbol leftSymbol = ASTHelpers.getSymbol(left);
    Symbol rightSymbol = ASTHelpers.getSymbol(right);
    if (leftSymbol instanceof VarSymbol
        && rightSymbol instanceof VarSymbol
        && !(left instanceof MemberSelectTree)
        && !(right instanceof MemberSelectTree)) {
      return leftSymbol.equals(rightSymbol);
    }
    String leftSource = state.getSourceForNode(left);
    String rightSource = state.getSourceForNode(right);
    return leftSource != null
        && rightSource != null
        && leftSource.replaceAll("\\s+", "").equals(rightSource.replaceAll("\\s+", ""));
  }

  /** The map calls of a region, with their paths. */
  private static final class MapCalls extends TreePathScanner<Void, Void> {
    private final Tree root;
    private final TreePath rootPath;
    private final VisitorState state;
    final List<TreePath> checks = new ArrayList<>();
    final List<TreePath> puts = new ArrayList<>();

    /** Locals holding the result of a {@code get}: {@code V v = (V) map.get(k)}. */
    final Map<VarSymbol, MethodInvocationTree> valueLocals = new LinkedHashMap<>();

    /**
     * Every local assignment in the region: {@code v = expression} and {@code T v = expression}.
     */
    private final List<Map.Entry<VarSymbol, ExpressionTree>> localAssignments = new ArrayList<>();

    MapCalls(TreePath rootPath, VisitorState state) {
      this.root = rootPath.getLeaf();
      this.rootPath = rootPath;
      this.state = state;
    }

    /**
     * Effectively final locals that only rename another effectively final local or parameter
     * ({@code final Class fclz = clz;}, for an anonymous class in Java 7 and older), to what they
     * rename; read from the enclosing method, computed on first use.
     */
    private Map<Symbol, Symbol> aliases;

    /** {@link CacheLookup#sameKey}, where an alias of a local is the local itself. */
    boolean sameKey(ExpressionTree a, ExpressionTree b) {
      if (CacheLookup.sameKey(a, b, state)) {
        return true;
      }
      Symbol left = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(a));
      Symbol right = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(b));
      if (!(ASTHelpers.stripParentheses(a) instanceof IdentifierTree)
          || !(ASTHelpers.stripParentheses(b) instanceof IdentifierTree)
          || !isLocalOrParameter(left)
          || !isLocalOrParameter(right)) {
        return false;
      }
      return renamed(left).equals(renamed(right));
    }

    private Symbol renamed(Symbol symbol) {
      if (aliases == null) {
        aliases = collectAliases();
      }
      Symbol result = symbol;
      for (int hops = 0; hops < 8 && aliases.containsKey(result); hops++) {
        result = aliases.get(result);
      }
      return result;
    }

    private Map<Symbol, Symbol> collectAliases() {
      Tree scope = root;
      for (TreePath path = rootPath; path != null; path = path.getParentPath()) {
        if (path.getLeaf() instanceof MethodTree method) {
          scope = method;
          break;
        }
        if (path.getLeaf() instanceof ClassTree) {
          break;
        }
      }
      Map<Symbol, Symbol> found = new LinkedHashMap<>();
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitVariable(VariableTree variable, Void unused) {
          Symbol alias = ASTHelpers.getSymbol(variable);
          ExpressionTree initializer =
              variable.getInitializer() == null
                  ? null
                  : ASTHelpers.stripParentheses(variable.getInitializer());
          Symbol original =
              initializer instanceof IdentifierTree ? ASTHelpers.getSymbol(initializer) : null;
          if (alias != null
              && alias.getKind() == ElementKind.LOCAL_VARIABLE
              && isLocalOrParameter(original)
              && ASTHelpers.isConsideredFinal(alias)
              && ASTHelpers.isConsideredFinal(original)) {
            found.put(alias, original);
          }
          return super.visitVariable(variable, unused);
        }
      }.scan(scope, null);
      return found;
    }

    private static boolean isLocalOrParameter(Symbol symbol) {
      return symbol instanceof VarSymbol
          && (symbol.getKind() == ElementKind.LOCAL_VARIABLE
              || symbol.getKind() == ElementKind.PARAMETER);
    }

    @Override
    public Void scan(Tree tree, Void unused) {
      if (tree != null && tree != root && GuardingMonitor.isRegionRoot(tree)) {
        return null;
      }
      return super.scan(tree, unused);
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
      // cheap name test first: this runs on every call in every method and lambda
      if (!MapKnowledge.LOOKUP_METHOD_NAMES.contains(
          ASTHelpers.getSymbol(call).getSimpleName().toString())) {
        return super.visitMethodInvocation(call, unused);
      }
      VarSymbol field = receiverField(call);
      if (field != null && MapKnowledge.isMap(field.type, state)) {
        MethodSymbol method = ASTHelpers.getSymbol(call);
        if (MapKnowledge.isCheckMethod(method, state) && call.getArguments().size() == 1) {
          checks.add(getCurrentPath());
          if (method.getSimpleName().contentEquals("get")) {
            recordValueLocal(call);
          }
        } else if (MapKnowledge.isActMethod(method, state)) {
          puts.add(getCurrentPath());
        }
      }
      return super.visitMethodInvocation(call, unused);
    }

    /** Locals used as the receiver of a call whose result is dropped: {@code list.add(x);}. */
    private final List<Map.Entry<Symbol, TreePath>> mutatedLocals = new ArrayList<>();

    /** Whether the region assigns or increments a field other than a map it looks up. */
    private final List<Symbol> writtenFields = new ArrayList<>();

    @Override
    public Void visitExpressionStatement(ExpressionStatementTree statement, Void unused) {
      if (statement.getExpression() instanceof MethodInvocationTree call) {
        // the root of the receiver chain: 'lock' in lock.count.incrementAndGet()
        ExpressionTree receiver = ASTHelpers.getReceiver(call);
        while (receiver != null) {
          ExpressionTree stripped = ASTHelpers.stripParentheses(receiver);
          if (stripped instanceof MemberSelectTree select) {
            receiver = select.getExpression();
          } else if (stripped instanceof MethodInvocationTree inner) {
            receiver = ASTHelpers.getReceiver(inner);
          } else {
            receiver = stripped;
            break;
          }
        }
        Symbol target = receiver == null ? null : ASTHelpers.getSymbol(receiver);
        if (target != null && target.getKind() == ElementKind.LOCAL_VARIABLE) {
          mutatedLocals.add(Map.entry(target, getCurrentPath()));
        }
      }
      Tree expression = statement.getExpression();
      ExpressionTree written = null;
      if (expression instanceof AssignmentTree assignment) {
        written = assignment.getVariable();
      } else if (expression instanceof CompoundAssignmentTree compound) {
        written = compound.getVariable();
      } else if (expression instanceof UnaryTree unary) {
        written = unary.getExpression();
      }
      Symbol field = written == null ? null : ASTHelpers.getSymbol(written);
      if (field != null && field.getKind() == ElementKind.FIELD) {
        writtenFields.add(field);
      }
      return super.visitExpressionStatement(statement, unused);
    }

    /**
     * Whether the lock does more than make the lookup atomic: the region changes the cached value
     * ({@code listeners.get(e)} then {@code list.add(l)}: a multimap) or other fields.
     */
    boolean lockGuardsMore(VarSymbol map, ExpressionTree key) {
      for (Map.Entry<Symbol, TreePath> mutation : mutatedLocals) {
        if (isValueLocalOf(mutation.getKey(), map, key)
            && !isFreshValueBuiltInSteps(mutation.getKey(), mutation.getValue())
            && !isReassignedFreshBefore(mutation.getKey(), mutation.getValue())) {
          return true;
        }
      }
      return writtenFields.stream().anyMatch(field -> !field.equals(map));
    }

    /**
     * {@code if (info == null) { info = new Info(type); info.init(); map.put(type, info); }}: the
     * call initialises the object this miss has just created, before anyone else can see it; that
     * is part of the fill, not a change to a cached value.
     */
    private boolean isFreshValueBuiltInSteps(Symbol local, TreePath mutation) {
      int at = startOf(mutation.getLeaf());
      for (TreePath path = mutation.getParentPath();
          path != null && path.getLeaf() != root;
          path = path.getParentPath()) {
        if (!(path.getLeaf() instanceof IfTree branch)
            || !isNullTest(branch.getCondition(), local)
            || !contains(branch.getThenStatement(), mutation.getLeaf())) {
          continue;
        }
        boolean[] fresh = {false};
        new TreeScanner<Void, Void>() {
          @Override
          public Void visitAssignment(AssignmentTree assignment, Void unused) {
            if (local.equals(ASTHelpers.getSymbol(assignment.getVariable()))
                && unwrapCasts(assignment.getExpression()) instanceof NewClassTree
                && startOf(assignment) < at) {
              fresh[0] = true;
            }
            return super.visitAssignment(assignment, unused);
          }
        }.scan(branch.getThenStatement(), null);
        if (fresh[0]) {
          return true;
        }
      }
      return false;
    }

    /**
     * {@code result = type.getDeclaredMethod(name); result.setAccessible(true);} (XStream 1.4's
     * SerializationMembers) or {@code try { instance = newInstance(className); } catch (...) {
     * return null; } actions.put(className, instance); instance.setServlet(servlet);} (Struts 1.3's
     * RequestProcessor): on every path to the call, the local was last assigned a value made by
     * this call (a {@code new}, or a method called on a parameter, local or class, not on a field),
     * so the call sets up the value being filled in, not one another thread can already see.
     */
    private boolean isReassignedFreshBefore(Symbol local, TreePath mutation) {
      Tree child = mutation.getLeaf();
      for (TreePath path = mutation.getParentPath();
          path != null && child != root;
          path = path.getParentPath()) {
        Tree parent = path.getLeaf();
        if (parent instanceof BlockTree block) {
          List<? extends StatementTree> statements = block.getStatements();
          int index = statements.indexOf(child);
          for (int i = index - 1; i >= 0; i--) {
            StatementTree earlier = statements.get(i);
            if (assignsFresh(earlier, local)) {
              return true;
            }
            if (assigns(earlier, local)) {
              return false;
            }
          }
        } else if (parent instanceof IfTree branch) {
          if (child != branch.getCondition() && assigns(branch.getCondition(), local)) {
            return false;
          }
        } else if (parent instanceof WhileLoopTree
            || parent instanceof DoWhileLoopTree
            || parent instanceof ForLoopTree
            || parent instanceof EnhancedForLoopTree) {
          if (assigns(parent, local)) {
            return false; // an earlier iteration may have assigned something else
          }
        } else if (parent instanceof LambdaExpressionTree || parent instanceof ClassTree) {
          return false;
        }
        child = parent;
      }
      return false;
    }

    /** Whether the statement, when it completes normally, leaves a fresh value in the local. */
    private boolean assignsFresh(StatementTree statement, Symbol local) {
      if (statement instanceof ExpressionStatementTree expression
          && expression.getExpression() instanceof AssignmentTree assignment) {
        return local.equals(ASTHelpers.getSymbol(assignment.getVariable()))
            && isFreshValue(assignment.getExpression(), local);
      }
      if (statement instanceof BlockTree block) {
        List<? extends StatementTree> statements = block.getStatements();
        for (int i = statements.size() - 1; i >= 0; i--) {
          if (assignsFresh(statements.get(i), local)) {
            return true;
          }
          if (assigns(statements.get(i), local)) {
            return false;
          }
        }
        return false;
      }
      if (statement instanceof IfTree branch) {
        return branch.getElseStatement() != null
            && !assigns(branch.getCondition(), local)
            && assignsFresh(branch.getThenStatement(), local)
            && assignsFresh(branch.getElseStatement(), local);
      }
      if (statement instanceof TryTree tryTree) {
        if (tryTree.getFinallyBlock() != null && assigns(tryTree.getFinallyBlock(), local)) {
          return false;
        }
        if (!tryTree.getResources().isEmpty() || !assignsFresh(tryTree.getBlock(), local)) {
          return false;
        }
        for (CatchTree handler : tryTree.getCatches()) {
          if (!cannotCompleteNormally(handler.getBlock())
              && !assignsFresh(handler.getBlock(), local)) {
            return false;
          }
        }
        return true;
      }
      return false;
    }

    /**
     * A value this call makes: {@code new T(...)}, or a method called on a parameter, a local or a
     * class ({@code type.getDeclaredMethod(name)}, {@code RequestUtils.applicationInstance(name)}),
     * not on a field (a shared object the lock may guard), taking no value of the looked-up map.
     */
    private boolean isFreshValue(ExpressionTree expression, Symbol local) {
      ExpressionTree value = unwrapCasts(expression);
      if (!(value instanceof NewClassTree) && !(value instanceof MethodInvocationTree)) {
        return false;
      }
      if (value instanceof MethodInvocationTree call) {
        ExpressionTree receiver = ASTHelpers.getReceiver(call);
        while (receiver != null) {
          ExpressionTree stripped = unwrapCasts(receiver);
          if (stripped instanceof MethodInvocationTree inner) {
            receiver = ASTHelpers.getReceiver(inner);
            continue;
          }
          Symbol root = ASTHelpers.getSymbol(stripped);
          if (root == null || root.getKind() == ElementKind.FIELD) {
            return false;
          }
          break;
        }
        if (receiver == null && !ASTHelpers.getSymbol(call).isStatic()) {
          return false; // this.method(...): may hand back state of this object
        }
      }
      boolean[] usesCachedValue = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitIdentifier(IdentifierTree identifier, Void unused) {
          Symbol symbol = ASTHelpers.getSymbol(identifier);
          if (symbol != null && (symbol.equals(local) || valueLocals.containsKey(symbol))) {
            usesCachedValue[0] = true;
          }
          return null;
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
          VarSymbol field = receiverField(call);
          if (field != null && MapKnowledge.isMap(field.type, state)) {
            usesCachedValue[0] = true;
          }
          return super.visitMethodInvocation(call, unused);
        }
      }.scan(value, null);
      return !usesCachedValue[0];
    }

    /** Whether the tree assigns the local anywhere ({@code =}, compound, {@code ++}). */
    private static boolean assigns(Tree tree, Symbol local) {
      boolean[] found = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitAssignment(AssignmentTree assignment, Void unused) {
          if (local.equals(ASTHelpers.getSymbol(assignment.getVariable()))) {
            found[0] = true;
          }
          return super.visitAssignment(assignment, unused);
        }

        @Override
        public Void visitCompoundAssignment(CompoundAssignmentTree assignment, Void unused) {
          if (local.equals(ASTHelpers.getSymbol(assignment.getVariable()))) {
            found[0] = true;
          }
          return super.visitCompoundAssignment(assignment, unused);
        }

        @Override
        public Void visitUnary(UnaryTree unary, Void unused) {
          if (local.equals(ASTHelpers.getSymbol(unary.getExpression()))) {
            found[0] = true;
          }
          return super.visitUnary(unary, unused);
        }
      }.scan(tree, null);
      return found[0];
    }

    private static boolean isNullTest(ExpressionTree condition, Symbol local) {
      ExpressionTree test = ASTHelpers.stripParentheses(condition);
      if (!(test instanceof BinaryTree binary) || binary.getKind() != Tree.Kind.EQUAL_TO) {
        return false;
      }
      ExpressionTree left = ASTHelpers.stripParentheses(binary.getLeftOperand());
      ExpressionTree right = ASTHelpers.stripParentheses(binary.getRightOperand());
      return (left.getKind() == Tree.Kind.NULL_LITERAL && local.equals(ASTHelpers.getSymbol(right)))
          || (right.getKind() == Tree.Kind.NULL_LITERAL
              && local.equals(ASTHelpers.getSymbol(left)));
    }

    private static boolean contains(Tree outer, Tree inner) {
      boolean[] found = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void scan(Tree tree, Void unused) {
          if (tree == inner) {
            found[0] = true;
          }
          return found[0] ? null : super.scan(tree, unused);
        }
      }.scan(outer, null);
      return found[0];
    }

    private static int startOf(Tree tree) {
      return ((JCTree) tree).getStartPosition();
    }

    @Override
    public Void visitVariable(VariableTree variable, Void unused) {
      if (variable.getInitializer() != null
          && ASTHelpers.getSymbol(variable) instanceof VarSymbol var
          && var.getKind() == ElementKind.LOCAL_VARIABLE) {
        localAssignments.add(Map.entry(var, variable.getInitializer()));
      }
      return super.visitVariable(variable, unused);
    }

    @Override
    public Void visitAssignment(AssignmentTree assignment, Void unused) {
      if (ASTHelpers.getSymbol(assignment.getVariable()) instanceof VarSymbol var
          && var.getKind() == ElementKind.LOCAL_VARIABLE) {
        localAssignments.add(Map.entry(var, assignment.getExpression()));
      }
      return super.visitAssignment(assignment, unused);
    }

    /**
     * Follows the cached value through locals: {@code results = (Results) value} or {@code results
     * = ref.get()} where {@code value}/{@code ref} already hold what {@code get} returned (Spring
     * 2.5's CachedIntrospectionResults keeps values behind a Reference).
     */
    void propagateValueLocals() {
      boolean changed = true;
      while (changed) {
        changed = false;
        for (Map.Entry<VarSymbol, ExpressionTree> assignment : localAssignments) {
          if (valueLocals.containsKey(assignment.getKey())) {
            continue;
          }
          ExpressionTree source = unwrapCasts(assignment.getValue());
          if (source instanceof MethodInvocationTree call && call.getArguments().isEmpty()) {
            ExpressionTree receiver = ASTHelpers.getReceiver(call);
            source = receiver == null ? null : unwrapCasts(receiver);
          }
          Symbol from = source == null ? null : ASTHelpers.getSymbol(source);
          if (source instanceof IdentifierTree && from != null && valueLocals.containsKey(from)) {
            valueLocals.put(assignment.getKey(), valueLocals.get(from));
            changed = true;
          }
        }
      }
    }

    private static ExpressionTree unwrapCasts(ExpressionTree tree) {
      ExpressionTree e = ASTHelpers.stripParentheses(tree);
      while (e instanceof TypeCastTree cast) {
        e = ASTHelpers.stripParentheses(cast.getExpression());
      }
      return e;
    }

    private void recordValueLocal(MethodInvocationTree get) {
      TreePath path = getCurrentPath().getParentPath();
      while (path != null
          && (path.getLeaf() instanceof ParenthesizedTree
              || path.getLeaf() instanceof TypeCastTree)) {
        path = path.getParentPath();
      }
      if (path == null) {
        return;
      }
      Symbol local = null;
      if (path.getLeaf() instanceof VariableTree variable) {
        local = ASTHelpers.getSymbol(variable);
      } else if (path.getLeaf() instanceof AssignmentTree assignment) {
        local = ASTHelpers.getSymbol(assignment.getVariable());
      }
      if (local instanceof VarSymbol var && local.getKind() == ElementKind.LOCAL_VARIABLE) {
        valueLocals.put(var, get);
      }
    }

    List<TreePath> checksOn(VarSymbol map, ExpressionTree key, VisitorState state) {
      List<TreePath> result = new ArrayList<>();
      for (TreePath path : checks) {
        MethodInvocationTree call = (MethodInvocationTree) path.getLeaf();
        if (map.equals(receiverField(call)) && sameKey(call.getArguments().get(0), key)) {
          result.add(path);
        }
      }
      return result;
    }

    boolean isValueLocalOf(Symbol symbol, VarSymbol map, ExpressionTree key) {
      MethodInvocationTree get = valueLocals.get(symbol);
      return get != null
          && map.equals(receiverField(get))
          && sameKey(get.getArguments().get(0), key);
    }
  }

  /**
   * Whether the cached value is read: a {@code get} of the key whose result is used, not only
   * compared with null.
   */
  private static boolean readsValue(
      MapCalls calls, VarSymbol map, ExpressionTree key, VisitorState state) {
    for (TreePath path : calls.checksOn(map, key, state)) {
      MethodInvocationTree call = (MethodInvocationTree) path.getLeaf();
      if (!ASTHelpers.getSymbol(call).getSimpleName().contentEquals("get")) {
        continue;
      }
      TreePath parent = path.getParentPath();
      while (parent.getLeaf() instanceof ParenthesizedTree
          || parent.getLeaf() instanceof TypeCastTree) {
        parent = parent.getParentPath();
      }
      if (!isNullComparison(parent.getLeaf())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNullComparison(Tree tree) {
    if (!(tree instanceof BinaryTree binary)) {
      return false;
    }
    boolean equality =
        binary.getKind() == Tree.Kind.EQUAL_TO || binary.getKind() == Tree.Kind.NOT_EQUAL_TO;
    return equality
        && (isNullLiteral(binary.getLeftOperand()) || isNullLiteral(binary.getRightOperand()));
  }

  private static boolean isNullLiteral(ExpressionTree tree) {
    return ASTHelpers.stripParentheses(tree).getKind() == Tree.Kind.NULL_LITERAL;
  }

  /** What a condition says about the key when it is true. */
  private enum Test {
    ABSENT,
    PRESENT,
    UNRELATED
  }

  private static Test test(
      ExpressionTree condition,
      VarSymbol map,
      ExpressionTree key,
      MapCalls calls,
      VisitorState state) {
    ExpressionTree cond = ASTHelpers.stripParentheses(condition);
    if (cond instanceof UnaryTree unary && cond.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
      return switch (test(unary.getExpression(), map, key, calls, state)) {
        case ABSENT -> Test.PRESENT;
        case PRESENT -> Test.ABSENT;
        case UNRELATED -> Test.UNRELATED;
      };
    }
    if (cond instanceof BinaryTree binary) {
      if (cond.getKind() == Tree.Kind.CONDITIONAL_AND) {
        Test left = test(binary.getLeftOperand(), map, key, calls, state);
        return left != Test.UNRELATED
            ? left
            : test(binary.getRightOperand(), map, key, calls, state);
      }
      if (isNullComparison(binary)) {
        ExpressionTree operand =
            isNullLiteral(binary.getLeftOperand())
                ? binary.getRightOperand()
                : binary.getLeftOperand();
        if (holdsCachedValue(operand, map, key, calls, state)) {
          return cond.getKind() == Tree.Kind.EQUAL_TO ? Test.ABSENT : Test.PRESENT;
        }
      }
      return Test.UNRELATED;
    }
    if (cond instanceof MethodInvocationTree call
        && map.equals(receiverField(call))
        && ASTHelpers.getSymbol(call).getSimpleName().contentEquals("containsKey")
        && call.getArguments().size() == 1
        && calls.sameKey(call.getArguments().get(0), key)) {
      return Test.PRESENT;
    }
    return Test.UNRELATED;
  }

  /** {@code map.get(key)}, {@code (V) map.get(key)}, {@code v} or {@code (v = map.get(key))}. */
  private static boolean holdsCachedValue(
      ExpressionTree expression,
      VarSymbol map,
      ExpressionTree key,
      MapCalls calls,
      VisitorState state) {
    ExpressionTree e = ASTHelpers.stripParentheses(expression);
    while (e instanceof TypeCastTree cast) {
      e = ASTHelpers.stripParentheses(cast.getExpression());
    }
    if (e instanceof AssignmentTree assignment) {
      return holdsCachedValue(assignment.getExpression(), map, key, calls, state);
    }
    if (e instanceof MethodInvocationTree call) {
      return map.equals(receiverField(call))
          && ASTHelpers.getSymbol(call).getSimpleName().contentEquals("get")
          && call.getArguments().size() == 1
          && calls.sameKey(call.getArguments().get(0), key);
    }
    Symbol symbol = ASTHelpers.getSymbol(e);
    return symbol != null && calls.isValueLocalOf(symbol, map, key);
  }

  /**
   * Whether the put runs only when the key was found absent: inside the "absent" branch of an
   * {@code if}, or after an {@code if (present) return ...;} in an enclosing block.
   */
  private static boolean isGuarded(
      TreePath putPath,
      Tree root,
      VarSymbol map,
      ExpressionTree key,
      MapCalls calls,
      VisitorState state) {
    Tree child = putPath.getLeaf();
    for (TreePath path = putPath.getParentPath(); path != null; path = path.getParentPath()) {
      Tree parent = path.getLeaf();
      if (parent instanceof IfTree ifTree) {
        Test test = test(ifTree.getCondition(), map, key, calls, state);
        if ((child == ifTree.getThenStatement() && test == Test.ABSENT)
            || (child == ifTree.getElseStatement() && test == Test.PRESENT)) {
          return true;
        }
      } else if (parent instanceof BlockTree block) {
        for (StatementTree statement : block.getStatements()) {
          if (statement == child) {
            break;
          }
          if (statement instanceof IfTree earlier
              && earlier.getElseStatement() == null
              && test(earlier.getCondition(), map, key, calls, state) == Test.PRESENT
              && exitsWhenPresent(earlier.getThenStatement(), map, key, calls, state)
              && handsBackAValue(earlier.getThenStatement())) {
            return true;
          }
        }
      }
      if (parent == root) {
        return false;
      }
      child = parent;
    }
    return false;
  }

  /**
   * Whether the branch taken when the key is present leaves the method: {@code return x;}, a {@code
   * throw} (XStream 1.4's CachingMapper caches the exception of a failed lookup and rethrows it),
   * an {@code if}/{@code else} both of whose branches leave, or a block ending in one of these;
   * also a block ending in {@code if (cached != null) return cached;} where {@code cached} is
   * unwrapped from the found value (XStream 1.3's {@code WeakReference}s: a cleared reference falls
   * through to the fill, like a miss).
   */
  private static boolean exitsWhenPresent(
      StatementTree statement,
      VarSymbol map,
      ExpressionTree key,
      MapCalls calls,
      VisitorState state) {
    if (statement instanceof ReturnTree ret) {
      return ret.getExpression() != null;
    }
    if (statement instanceof ThrowTree) {
      return true;
    }
    if (statement instanceof BlockTree block && !block.getStatements().isEmpty()) {
      return exitsWhenPresent(
          block.getStatements().get(block.getStatements().size() - 1), map, key, calls, state);
    }
    if (statement instanceof IfTree branch) {
      if (branch.getElseStatement() != null) {
        return exitsWhenPresent(branch.getThenStatement(), map, key, calls, state)
            && exitsWhenPresent(branch.getElseStatement(), map, key, calls, state);
      }
      return test(branch.getCondition(), map, key, calls, state) == Test.PRESENT
          && exitsWhenPresent(branch.getThenStatement(), map, key, calls, state);
    }
    return false;
  }

  /**
   * Whether the branch returns a value somewhere (not in a nested lambda or class): a lookup hands
   * the found value back, a registry that only throws on a duplicate key does not.
   */
  private static boolean handsBackAValue(StatementTree statement) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitReturn(ReturnTree ret, Void unused) {
        if (ret.getExpression() != null) {
          found[0] = true;
        }
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree type, Void unused) {
        return null;
      }
    }.scan(statement, null);
    return found[0];
  }

  /** A return, a throw, or a block ending in one (what a catch block that gives up does). */
  private static boolean cannotCompleteNormally(StatementTree statement) {
    if (statement instanceof ReturnTree || statement instanceof ThrowTree) {
      return true;
    }
    if (statement instanceof BlockTree block && !block.getStatements().isEmpty()) {
      return cannotCompleteNormally(block.getStatements().get(block.getStatements().size() - 1));
    }
    if (statement instanceof IfTree branch) {
      return branch.getElseStatement() != null
          && cannotCompleteNormally(branch.getThenStatement())
          && cannotCompleteNormally(branch.getElseStatement());
    }
    return false;
  }

  /** The body whose statements a region guards. */
  public static List<? extends StatementTree> statementsOf(Tree regionRoot) {
    if (regionRoot instanceof SynchronizedTree sync) {
      return sync.getBlock().getStatements();
    }
    if (regionRoot instanceof MethodTree method && method.getBody() != null) {
      return method.getBody().getStatements();
    }
    if (regionRoot instanceof LambdaExpressionTree lambda
        && lambda.getBody() instanceof BlockTree block) {
      return block.getStatements();
    }
    return List.of();
  }
}
