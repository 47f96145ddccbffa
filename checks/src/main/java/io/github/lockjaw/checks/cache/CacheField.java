package io.github.lockjaw.checks.cache;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.common.MapLocking;
import io.github.lockjaw.knowledge.ApiCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Modifier;

/** What a compilation unit shows of a map field: how it is locked, created and used. */
public final class CacheField {

  private final VarSymbol symbol;
  private final VariableTree declaration;
  private final List<ExpressionTree> assignedValues;
  private final List<TreePath> uses;
  private final MapLocking locking;

  private CacheField(
      VarSymbol symbol,
      VariableTree declaration,
      List<ExpressionTree> assignedValues,
      List<TreePath> uses,
      MapLocking locking) {
    this.symbol = symbol;
    this.declaration = declaration;
    this.assignedValues = assignedValues;
    this.uses = uses;
    this.locking = locking;
  }

  /** Reads the field's declaration, assignments and uses in the current compilation unit. */
  public static CacheField of(VarSymbol field, VisitorState state) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    List<ExpressionTree> assigned = new ArrayList<>();
    List<TreePath> uses = new ArrayList<>();
    VariableTree[] declaration = new VariableTree[1];
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree tree, Void unused) {
        if (field.equals(ASTHelpers.getSymbol(tree))) {
          declaration[0] = tree;
          if (tree.getInitializer() != null) {
            assigned.add(tree.getInitializer());
          }
        }
        return super.visitVariable(tree, unused);
      }

      @Override
      public Void visitAssignment(AssignmentTree tree, Void unused) {
        if (field.equals(ASTHelpers.getSymbol(tree.getVariable()))) {
          assigned.add(tree.getExpression());
        }
        return super.visitAssignment(tree, unused);
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        if (field.equals(ASTHelpers.getSymbol(tree))) {
          uses.add(getCurrentPath());
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        if (field.equals(ASTHelpers.getSymbol(tree))) {
          uses.add(getCurrentPath());
          return null;
        }
        return super.visitMemberSelect(tree, unused);
      }
    }.scan(new TreePath(unit), null);
    return new CacheField(
        field,
        declaration[0],
        List.copyOf(assigned),
        List.copyOf(uses),
        locking(field, assigned, state));
  }

  private static MapLocking locking(
      VarSymbol field, List<ExpressionTree> assigned, VisitorState state) {
    if (MapKnowledge.isConcurrent(field.type, state)) {
      return MapLocking.CONCURRENT;
    }
    if (MapKnowledge.coarselyLockedType(field.type, state).isPresent()) {
      return MapLocking.COARSE;
    }
    if (assigned.isEmpty()) {
      return MapLocking.UNKNOWN;
    }
    MapLocking result = null;
    for (ExpressionTree value : assigned) {
      MapLocking one = lockingOfValue(value, state);
      if (one == MapLocking.CONCURRENT || one == MapLocking.UNKNOWN) {
        return one;
      }
      result = result == null || result == one ? one : MapLocking.UNKNOWN;
    }
    return result;
  }

  private static MapLocking lockingOfValue(ExpressionTree value, VisitorState state) {
    ExpressionTree v = ASTHelpers.stripParentheses(value);
    if (MapKnowledge.isConcurrent(ASTHelpers.getType(v), state)) {
      return MapLocking.CONCURRENT;
    }
    if (MapKnowledge.isCoarselyLockingFactory(v)
        || MapKnowledge.coarselyLockedType(ASTHelpers.getType(v), state).isPresent()) {
      return MapLocking.COARSE;
    }
    if (v instanceof NewClassTree created
        && MapKnowledge.plainType(ASTHelpers.getType(created), state).isPresent()) {
      return MapLocking.PLAIN;
    }
    return MapLocking.UNKNOWN;
  }

  public VarSymbol symbol() {
    return symbol;
  }

  public MapLocking locking() {
    return locking;
  }

  /** The declaration, when the field is declared in this compilation unit. */
  public Optional<VariableTree> declaration() {
    return Optional.ofNullable(declaration);
  }

  /** Every reference to the field in this compilation unit. */
  public List<TreePath> uses() {
    return uses;
  }

  /**
   * Whether every use of the field is visible here: a private field assigned once, where declared.
   */
  public boolean isConfined() {
    return declaration != null
        && declaration.getModifiers().getFlags().contains(Modifier.PRIVATE)
        && declaration.getInitializer() != null
        && assignedValues.size() == 1;
  }

  /**
   * The map construction a fix could swap for a ConcurrentHashMap: {@code new HashMap<>()} or
   * {@code new Hashtable<>()}, bare or inside {@code Collections.synchronizedMap(...)}, with no
   * arguments but a capacity. Empty when the construction is anything else.
   */
  public Optional<NewClassTree> replaceableConstruction(VisitorState state) {
    if (!isConfined()) {
      return Optional.empty();
    }
    ExpressionTree init = ASTHelpers.stripParentheses(declaration.getInitializer());
    if (MapKnowledge.isCoarselyLockingFactory(init)) {
      List<? extends ExpressionTree> args = ((MethodInvocationTree) init).getArguments();
      init = args.size() == 1 ? ASTHelpers.stripParentheses(args.get(0)) : null;
    }
    if (!(init instanceof NewClassTree created) || created.getClassBody() != null) {
      return Optional.empty();
    }
    Optional<ApiCatalog.Entry> entry = MapKnowledge.constructedMapEntry(created, state);
    if (entry.isEmpty() || !entry.get().hasAttribute("replaceable")) {
      return Optional.empty();
    }
    for (ExpressionTree arg : created.getArguments()) {
      if (ASTHelpers.constValue(arg) == null) {
        return Optional.empty(); // new HashMap(otherMap) may copy null keys or values
      }
    }
    return Optional.of(created);
  }

  /**
   * Whether the field, confined to its class, is created as a map that holds its keys weakly
   * ({@code weak-keys} in {@code maps.txt}), bare or inside {@code Collections.synchronizedMap}.
   */
  public boolean holdsKeysWeakly(VisitorState state) {
    if (!isConfined()) {
      return false;
    }
    ExpressionTree init = ASTHelpers.stripParentheses(declaration.getInitializer());
    if (MapKnowledge.isCoarselyLockingFactory(init)) {
      List<? extends ExpressionTree> args = ((MethodInvocationTree) init).getArguments();
      init = args.size() == 1 ? ASTHelpers.stripParentheses(args.get(0)) : null;
    }
    return init instanceof NewClassTree created
        && created.getClassBody() == null
        && MapKnowledge.constructedMapEntry(created, state)
            .map(e -> e.hasAttribute("weak-keys"))
            .orElse(false);
  }

  /**
   * Why {@link #replaceableConstruction} and {@link #replacementConstruction} find nothing, in
   * words for a message.
   */
  public String whyNotReplaceable(VisitorState state) {
    String name = "'" + symbol.getSimpleName() + "'";
    if (declaration == null) {
      return name + " is declared in another file, where lockjaw cannot see all its uses";
    }
    if (!declaration.getModifiers().getFlags().contains(Modifier.PRIVATE)) {
      return name + " is not private, so code in other files may use it";
    }
    if (declaration.getInitializer() == null) {
      return name + " is not created where it is declared";
    }
    if (assignedValues.size() != 1) {
      return name + " is assigned more than once";
    }
    ExpressionTree init = ASTHelpers.stripParentheses(declaration.getInitializer());
    if (MapKnowledge.isCoarselyLockingFactory(init)) {
      List<? extends ExpressionTree> args = ((MethodInvocationTree) init).getArguments();
      init = args.size() == 1 ? ASTHelpers.stripParentheses(args.get(0)) : init;
    }
    if (!(init instanceof NewClassTree created)) {
      return name + " is created by a call lockjaw does not know, not by a map constructor";
    }
    if (created.getClassBody() != null) {
      return name + " is an anonymous subclass of its map type, whose overrides would be lost";
    }
    Optional<ApiCatalog.Entry> entry = MapKnowledge.constructedMapEntry(created, state);
    if (entry.isPresent() && entry.get().hasAttribute("weak-keys")) {
      return name
          + " holds its keys weakly, and a ConcurrentHashMap would keep every key (classes, class"
          + " loaders) alive: use ClassValue for Class keys, or a concurrent weak-keyed map"
          + " (Caffeine weakKeys(), Guava MapMaker().weakKeys())";
    }
    if (entry.isEmpty() || !entry.get().hasAttribute("replaceable")) {
      Type type = ASTHelpers.getType(created);
      return name
          + " is a "
          + (type == null ? "map" : type.tsym.getSimpleName())
          + ", whose behaviour a ConcurrentHashMap does not keep (ordering, identity or weak keys,"
          + " or a type lockjaw does not know)";
    }
    return name + " is built as a copy of another map, which may hold null keys or values";
  }

  /**
   * The field's {@code new ConcurrentHashMap<>(...)} (the {@code replacement} type of {@code
   * maps.txt}, whose computeIfAbsent runs the mapping function once, atomically), when the field is
   * confined to its class as {@link #replaceableConstruction} requires.
   */
  public Optional<NewClassTree> replacementConstruction(VisitorState state) {
    if (!isConfined()
        || !(ASTHelpers.stripParentheses(declaration.getInitializer())
            instanceof NewClassTree created)
        || created.getClassBody() != null) {
      return Optional.empty();
    }
    Type type = ASTHelpers.getType(created);
    return type != null
            && type.tsym != null
            && type.tsym.getQualifiedName().contentEquals(MapKnowledge.replacementType())
        ? Optional.of(created)
        : Optional.empty();
  }

  /** Whether the map as constructed already throws on null keys and values (Hashtable). */
  public boolean rejectsNulls(NewClassTree construction, VisitorState state) {
    return MapKnowledge.constructedMapEntry(construction, state)
        .map(e -> e.hasAttribute("rejects-nulls"))
        .orElse(false);
  }

  /** The innermost enclosing tree of a use that is one of {@code kinds}, or null. */
  static Tree enclosing(TreePath use, Class<?>... kinds) {
    for (TreePath p = use.getParentPath(); p != null; p = p.getParentPath()) {
      for (Class<?> kind : kinds) {
        if (kind.isInstance(p.getLeaf())) {
          return p.getLeaf();
        }
      }
    }
    return null;
  }
}
