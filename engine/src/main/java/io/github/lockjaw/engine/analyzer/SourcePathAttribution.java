package io.github.lockjaw.engine.analyzer;

import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.api.JavacTaskImpl;
import com.sun.tools.javac.api.JavacTrees;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.comp.AttrContext;
import com.sun.tools.javac.comp.Env;
import com.sun.tools.javac.comp.Todo;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.JCTree.JCNewClass;
import com.sun.tools.javac.tree.TreeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;

/**
 * With a source path, javac would attribute every class the edited file reaches, transitively (a
 * large part of a project). lockjaw's checks read the bodies of the methods they see called, a few
 * calls deep (PollingLoop: three), so after the edited file only the source-path classes declaring
 * a method reached by calls within that depth are attributed: the checks then see those bodies as
 * the build (which compiles every file) does, and nothing else costs time.
 */
final class SourcePathAttribution {
  /** How many calls deep the checks look into methods of the same source tree. */
  static final int CALL_DEPTH = 3;

  private SourcePathAttribution() {}

  /**
   * Attributes the source-path classes whose methods {@code roots} reach within CALL_DEPTH calls.
   */
  static void attributeCallees(JavacTaskImpl task, Iterable<? extends Tree> roots) {
    JavacTrees trees = JavacTrees.instance(task.getContext());
    Todo todo = Todo.instance(task.getContext());
    Set<MethodSymbol> seen = new HashSet<>();
    Set<MethodSymbol> frontier = calledMethods(roots);
    for (int depth = 1; depth <= CALL_DEPTH && !frontier.isEmpty(); depth++) {
      Map<ClassSymbol, Env<AttrContext>> waiting = new HashMap<>();
      for (Env<AttrContext> env : todo) {
        if (env.enclClass != null && env.enclClass.sym != null) {
          waiting.put(env.enclClass.sym, env);
        }
      }
      List<Element> toAttribute = new ArrayList<>();
      for (MethodSymbol method : frontier) {
        ClassSymbol outermost = method.outermostClass();
        if (outermost != null
            && waiting.containsKey(outermost)
            && !toAttribute.contains(outermost)) {
          toAttribute.add(outermost);
        }
      }
      if (!toAttribute.isEmpty()) {
        task.analyze(toAttribute);
      }
      seen.addAll(frontier);
      if (depth == CALL_DEPTH) {
        break;
      }
      List<Tree> bodies = new ArrayList<>();
      for (MethodSymbol method : frontier) {
        MethodTree declaration = trees.getTree(method);
        if (declaration != null && declaration.getBody() != null) {
          bodies.add(declaration.getBody());
        }
      }
      Set<MethodSymbol> next = calledMethods(bodies);
      next.removeAll(seen);
      frontier = next;
    }
  }

  /** The methods and constructors called in the trees, as far as javac resolved them. */
  private static Set<MethodSymbol> calledMethods(Iterable<? extends Tree> roots) {
    Set<MethodSymbol> called = new LinkedHashSet<>();
    TreeScanner<Void, Void> scanner =
        new TreeScanner<>() {
          @Override
          public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
            add(TreeInfo.symbol((JCTree) tree.getMethodSelect()));
            return super.visitMethodInvocation(tree, unused);
          }

          @Override
          public Void visitNewClass(NewClassTree tree, Void unused) {
            add(((JCNewClass) tree).constructor);
            return super.visitNewClass(tree, unused);
          }

          private void add(Symbol symbol) {
            if (symbol instanceof MethodSymbol method) {
              called.add(method);
            }
          }
        };
    for (Tree root : roots) {
      scanner.scan(root, null);
    }
    return called;
  }
}
