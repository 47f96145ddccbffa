package io.github.lockjaw.checks.http;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.Types;
import io.github.lockjaw.checks.support.ImmediateCodeScanner;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.common.Resilience;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Moves an HTTP client created per request to a {@code private static final} field of the nearest
 * enclosing class that may hold one, and drops the per-call close: the try-with-resources resource,
 * a {@code client.close();} statement, and a {@code finally} or {@code try} left empty by that. Any
 * shape it cannot rewrite with certainty yields no fix.
 */
public final class HoistHttpClientFix {

  /** The fix and the name of the field it adds. */
  public record Hoist(SuggestedFix fix, String fieldName) {}

  private HoistHttpClientFix() {}

  public static Optional<Hoist> build(
      HttpClientCreation creation, HttpClientUsage usage, VisitorState state) {
    try {
      return Optional.ofNullable(new Builder(creation, usage, state).build());
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Optional.empty(); // a shape the fix does not understand: report without a fix
    } catch (AssertionError e) {
      Resilience.rethrowIfStrict(e);
      return Optional.empty();
    }
  }

  private static final class Builder {
    private final HttpClientCreation creation;
    private final HttpClientUsage usage;
    private final VisitorState state;
    private final Edits edits;
    private final SuggestedFix.Builder fix = SuggestedFix.builder();

    Builder(HttpClientCreation creation, HttpClientUsage usage, VisitorState state) {
      this.creation = creation;
      this.usage = usage;
      this.state = state;
      this.edits = new Edits(state.getSourceCode());
    }

    Hoist build() {
      if (!creation.canHoist()
          || usage.reassigned()
          || usage.closedInExpression()
          || usage.tornDown()) {
        // tornDown: per-call teardown of a part of the client would shut the shared one down
        return null;
      }
      List<ClassTree> enclosing = new ArrayList<>();
      ClassTree target = null;
      for (TreePath p = usage.creationPath(); p != null; p = p.getParentPath()) {
        if (p.getLeaf() instanceof ClassTree classTree) {
          enclosing.add(classTree);
          if (target == null && HoistedField.canHoldStaticField(classTree)) {
            target = classTree;
          }
        }
      }
      // The innermost class that may hold the field; if the initializer names something only in
      // scope further in (a constant inherited by a nested class), no class outside works either.
      if (target == null || !HoistedField.namesResolveIn(target, creation.expression(), state)) {
        return null;
      }
      Type type = ASTHelpers.getType(creation.expression());
      if (type == null) {
        return null;
      }
      String typeText;
      VariableTree declaration = usage.declaration();
      if (usage.shape() != HttpClientUsage.Shape.INLINE) {
        if (declaration == null
            || declaration.getInitializer() == null
            || ASTHelpers.stripParentheses(declaration.getInitializer()) != creation.expression()) {
          return null;
        }
        String declared = state.getSourceForNode(declaration.getType());
        typeText =
            declared == null || declared.equals("var")
                ? SuggestedFixes.qualifyType(state, fix, state.getTypes().erasure(type))
                : declared;
      } else {
        typeText = SuggestedFixes.qualifyType(state, fix, state.getTypes().erasure(type));
      }
      String name = HoistedField.uniqueName(HoistedField.baseName(type), enclosing, state);
      String initializer = state.getSourceForNode(creation.expression());
      if (initializer == null) {
        return null;
      }

      boolean ok =
          switch (usage.shape()) {
            case INLINE -> replaceTree(creation.expression(), name);
            case LOCAL_VARIABLE -> rewriteLocal(name);
            case RESOURCE -> rewriteResource(name);
          };
      if (!ok) {
        return null;
      }
      HoistedField.Insertion field =
          HoistedField.insertion(
              target,
              "private static final " + typeText + " " + name + " = ",
              initializer,
              creation.expression(),
              state);
      if (field == null || !edits.add(field.position(), field.position(), field.text())) {
        return null;
      }
      edits.forEach(fix::replace);
      HoistedField.handOut(name, state);
      return new Hoist(fix.build(), name);
    }

    private boolean rewriteLocal(String name) {
      TreePath declarationPath = usage.declarationPath();
      if (!(declarationPath.getParentPath().getLeaf() instanceof BlockTree)) {
        return false;
      }
      if (!deleteStatement(declarationPath) || !renameUses(name)) {
        return false;
      }
      for (TreePath close : usage.closeStatements()) {
        if (!(close.getParentPath().getLeaf() instanceof BlockTree) || !deleteStatement(close)) {
          return false;
        }
      }
      // A finally block left empty goes; a try left with nothing but its block is unwrapped.
      Set<Tree> deleted = new HashSet<>();
      for (TreePath close : usage.closeStatements()) {
        deleted.add(close.getLeaf());
      }
      deleted.add(declarationPath.getLeaf());
      for (TreePath close : usage.closeStatements()) {
        TreePath blockPath = close.getParentPath();
        TreePath tryPath = blockPath.getParentPath();
        if (tryPath.getLeaf() instanceof TryTree tryTree
            && tryTree.getFinallyBlock() == blockPath.getLeaf()
            && deleted.containsAll(tryTree.getFinallyBlock().getStatements())) {
          if (!dropFinally(tryTree, tryPath)) {
            return false;
          }
        }
      }
      for (Tree statement : deleted) {
        TreePath path = pathOf(statement);
        for (TryTree tryTree : HttpClientUsage.enclosingTryBlocks(path, usage.scope().getLeaf())) {
          if (!catchesStayReachable(tryTree, deleted, tryTree.getResources())) {
            return false;
          }
        }
      }
      return true;
    }

    private boolean rewriteResource(String name) {
      if (!usage.closeStatements().isEmpty()) {
        return false;
      }
      TreePath tryPath = usage.declarationPath().getParentPath();
      if (!(tryPath.getLeaf() instanceof TryTree tryTree)) {
        return false;
      }
      if (!renameUses(name)) {
        return false;
      }
      List<Tree> remaining = new ArrayList<>(tryTree.getResources());
      remaining.remove(usage.declaration());
      Set<Tree> removed = Set.of(usage.declaration());
      if (!catchesStayReachable(tryTree, removed, remaining)) {
        return false;
      }
      String source = state.getSourceCode().toString();
      List<? extends Tree> resources = tryTree.getResources();
      int first = ASTHelpers.getStartPosition(resources.get(0));
      int last = state.getEndPosition(resources.get(resources.size() - 1));
      if (!remaining.isEmpty()) {
        List<String> texts = new ArrayList<>();
        for (Tree resource : remaining) {
          texts.add(
              edits.render(ASTHelpers.getStartPosition(resource), state.getEndPosition(resource)));
        }
        return edits.replace(first, last, String.join("; ", texts));
      }
      if (tryTree.getCatches().isEmpty() && tryTree.getFinallyBlock() == null) {
        return unwrap(tryTree, tryPath);
      }
      int open = source.lastIndexOf('(', first);
      int close = source.indexOf(')', last);
      int blockStart = ASTHelpers.getStartPosition(tryTree.getBlock());
      if (open < ASTHelpers.getStartPosition(tryTree) || close < 0 || close > blockStart) {
        return false;
      }
      return edits.replace(open, close + 1, "");
    }

    /** Removes a finally block whose statements were all deleted. */
    private boolean dropFinally(TryTree tryTree, TreePath tryPath) {
      BlockTree finallyBlock = tryTree.getFinallyBlock();
      if (!tryTree.getCatches().isEmpty()) {
        CatchTree lastCatch = tryTree.getCatches().get(tryTree.getCatches().size() - 1);
        return edits.replace(
            state.getEndPosition(lastCatch), state.getEndPosition(finallyBlock), "");
      }
      if (!tryTree.getResources().isEmpty()) {
        return edits.replace(
            state.getEndPosition(tryTree.getBlock()), state.getEndPosition(finallyBlock), "");
      }
      return unwrap(tryTree, tryPath);
    }

    /** Replaces a try statement by its block's statements (or by its block, if names clash). */
    private boolean unwrap(TryTree tryTree, TreePath tryPath) {
      BlockTree body = tryTree.getBlock();
      int bodyStart = ASTHelpers.getStartPosition(body);
      int bodyEnd = state.getEndPosition(body);
      Tree parent = tryPath.getParentPath().getLeaf();
      boolean inline = parent instanceof BlockTree block && !clashes(body, block, tryTree);
      String text =
          inline
              ? edits.render(bodyStart + 1, bodyEnd - 1).strip()
              : edits.render(bodyStart, bodyEnd);
      return edits.replace(
          ASTHelpers.getStartPosition(tryTree), state.getEndPosition(tryTree), text);
    }

    /** Whether a name the body declares is declared or used after the try in the same block. */
    private boolean clashes(BlockTree body, BlockTree block, TryTree tryTree) {
      Set<String> declared = new HashSet<>();
      for (StatementTree statement : body.getStatements()) {
        if (statement instanceof VariableTree variable) {
          declared.add(variable.getName().toString());
        } else if (statement instanceof ClassTree classTree) {
          declared.add(classTree.getSimpleName().toString());
        }
      }
      if (declared.isEmpty()) {
        return false;
      }
      int index = block.getStatements().indexOf(tryTree);
      Set<String> later = new HashSet<>();
      TreeScanner<Void, Void> names =
          new TreeScanner<>() {
            @Override
            public Void visitVariable(VariableTree node, Void unused) {
              later.add(node.getName().toString());
              return super.visitVariable(node, null);
            }

            @Override
            public Void visitIdentifier(IdentifierTree node, Void unused) {
              later.add(node.getName().toString());
              return null;
            }

            @Override
            public Void visitClass(ClassTree node, Void unused) {
              later.add(node.getSimpleName().toString());
              return super.visitClass(node, null);
            }
          };
      for (StatementTree statement :
          block.getStatements().subList(index + 1, block.getStatements().size())) {
        names.scan(statement, null);
      }
      later.retainAll(declared);
      return !later.isEmpty();
    }

    /** Deletes a statement, and its line when nothing else is on it. */
    private boolean deleteStatement(TreePath statement) {
      CharSequence source = state.getSourceCode();
      int start = ASTHelpers.getStartPosition(statement.getLeaf());
      int end = state.getEndPosition(statement.getLeaf());
      int lineStart = start;
      while (lineStart > 0
          && (source.charAt(lineStart - 1) == ' ' || source.charAt(lineStart - 1) == '\t')) {
        lineStart--;
      }
      int lineEnd = end;
      while (lineEnd < source.length()
          && (source.charAt(lineEnd) == ' ' || source.charAt(lineEnd) == '\t')) {
        lineEnd++;
      }
      boolean wholeLine =
          (lineStart == 0 || source.charAt(lineStart - 1) == '\n')
              && lineEnd < source.length()
              && source.charAt(lineEnd) == '\n';
      return wholeLine ? edits.add(lineStart, lineEnd + 1, "") : edits.add(start, end, "");
    }

    private boolean replaceTree(Tree tree, String text) {
      return edits.add(ASTHelpers.getStartPosition(tree), state.getEndPosition(tree), text);
    }

    private boolean renameUses(String name) {
      for (TreePath use : usage.uses()) {
        if (usage.closeStatements().stream().anyMatch(c -> contains(c, use.getLeaf()))) {
          continue; // deleted with its statement
        }
        if (!replaceTree(use.getLeaf(), name)) {
          return false;
        }
      }
      return true;
    }

    private static boolean contains(TreePath outer, Tree inner) {
      return MoreTrees.contains(outer.getLeaf(), inner);
    }

    private TreePath pathOf(Tree tree) {
      return TreePath.getPath(state.getPath().getCompilationUnit(), tree);
    }

    /**
     * javac rejects a catch of a checked exception that the try block cannot throw. After removing
     * {@code removed}, every checked exception a catch names must still be thrown by the block or
     * by closing a remaining resource.
     */
    private boolean catchesStayReachable(
        TryTree tryTree, Set<Tree> removed, List<? extends Tree> remainingResources) {
      if (tryTree.getCatches().isEmpty()) {
        return true;
      }
      List<Type> thrown = new ArrayList<>();
      collectThrown(tryTree.getBlock(), removed, thrown);
      for (Tree resource : remainingResources) {
        collectThrown(resource, removed, thrown);
        Type resourceType = ASTHelpers.getType(resource);
        MethodSymbol close = closeMethod(resourceType);
        if (close == null) {
          return false;
        }
        thrown.addAll(close.getThrownTypes());
      }
      Types types = state.getTypes();
      Type runtime = state.getSymtab().runtimeExceptionType;
      Type error = state.getSymtab().errorType;
      Type exception = state.getSymtab().exceptionType;
      Type throwable = state.getSymtab().throwableType;
      for (CatchTree catchTree : tryTree.getCatches()) {
        for (Tree alternative : MoreTrees.caughtTypes(catchTree)) {
          Type caught = ASTHelpers.getType(alternative);
          if (caught == null) {
            return false;
          }
          if (types.isSubtype(caught, runtime)
              || types.isSubtype(caught, error)
              || types.isSameType(caught, exception)
              || types.isSameType(caught, throwable)) {
            continue;
          }
          boolean reachable = false;
          for (Type t : thrown) {
            if (types.isSubtype(t, caught) || types.isSubtype(caught, t)) {
              reachable = true;
              break;
            }
          }
          if (!reachable) {
            return false;
          }
        }
      }
      return true;
    }

    private MethodSymbol closeMethod(Type type) {
      if (type == null) {
        return null;
      }
      for (Type supertype : state.getTypes().closure(type)) {
        if (supertype.tsym == null) {
          continue;
        }
        for (Symbol member : supertype.tsym.getEnclosedElements()) {
          if (member instanceof MethodSymbol method
              && method.getSimpleName().contentEquals("close")
              && method.getParameters().isEmpty()) {
            return method;
          }
        }
      }
      return null;
    }

    /**
     * Checked exceptions thrown by calls and throw statements, ignoring nested try blocks with
     * catches.
     */
    private void collectThrown(Tree tree, Set<Tree> removed, List<Type> thrown) {
      new ImmediateCodeScanner<Void, Void>() {
        @Override
        public Void scan(Tree node, Void unused) {
          return node == null || removed.contains(node) ? null : super.scan(node, null);
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
          MethodSymbol method = ASTHelpers.getSymbol(node);
          if (method != null) {
            thrown.addAll(method.getThrownTypes());
          }
          return super.visitMethodInvocation(node, null);
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void unused) {
          MethodSymbol constructor = ASTHelpers.getSymbol(node);
          if (constructor != null) {
            thrown.addAll(constructor.getThrownTypes());
          }
          return super.visitNewClass(node, null);
        }

        @Override
        public Void visitThrow(ThrowTree node, Void unused) {
          Type type = ASTHelpers.getType(node.getExpression());
          if (type != null) {
            thrown.add(type);
          }
          return super.visitThrow(node, null);
        }

        @Override
        public Void visitTry(TryTree node, Void unused) {
          if (node.getCatches().isEmpty()) {
            return super.visitTry(node, null);
          }
          scan(node.getCatches(), null);
          scan(node.getFinallyBlock(), null);
          return null;
        }
      }.scan(tree, null);
    }
  }

  /**
   * Non-overlapping text edits over the compilation unit; big rewrites absorb the small ones
   * inside.
   */
  private static final class Edits {
    private final CharSequence source;
    private final TreeMap<Integer, int[]> ranges = new TreeMap<>();
    private final Map<Integer, String> texts = new HashMap<>();

    Edits(CharSequence source) {
      this.source = source;
    }

    boolean add(int start, int end, String text) {
      if (start < 0 || end < start) {
        return false;
      }
      for (int[] range : ranges.values()) {
        if (start < range[1] && range[0] < end) {
          return false;
        }
      }
      ranges.put(start, new int[] {start, end});
      texts.put(start, text);
      return true;
    }

    /** Replaces [start, end), absorbing the edits inside; false if an edit straddles a bound. */
    boolean replace(int start, int end, String text) {
      if (start < 0 || end < start) {
        return false;
      }
      List<Integer> inside = new ArrayList<>();
      for (int[] range : ranges.values()) {
        boolean overlaps = start < range[1] && range[0] < end;
        boolean contained = start <= range[0] && range[1] <= end;
        if (overlaps && !contained) {
          return false;
        }
        if (contained) {
          inside.add(range[0]);
        }
      }
      inside.forEach(
          k -> {
            ranges.remove(k);
            texts.remove(k);
          });
      return add(start, end, text);
    }

    /** The source of [start, end) with the edits inside applied. */
    String render(int start, int end) {
      StringBuilder out = new StringBuilder();
      int position = start;
      for (int[] range : ranges.subMap(start, true, end, true).values()) {
        if (range[1] > end) {
          throw new IllegalStateException("edit straddles the rendered range");
        }
        out.append(source, position, range[0]).append(texts.get(range[0]));
        position = range[1];
      }
      out.append(source, position, end);
      return out.toString();
    }

    void forEach(TriConsumer consumer) {
      for (int[] range : ranges.values()) {
        consumer.accept(range[0], range[1], texts.get(range[0]));
      }
    }
  }

  @FunctionalInterface
  private interface TriConsumer {
    void accept(int start, int end, String text);
  }
}
