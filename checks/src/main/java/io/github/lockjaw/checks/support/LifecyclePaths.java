package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import javax.lang.model.element.Modifier;
import javax.lang.model.type.TypeKind;

/**
 * The methods of one compilation unit that run only while an object is built, configured, started
 * or stopped: a method that is not public and overrides nothing (so no code outside this file can
 * be known to call it, as far as the file shows) is <em>lifecycle-only</em> when it has at least
 * one caller in the file (nested classes included) and every caller is a constructor, an
 * initialiser, a lifecycle or configuration method (the predicate a check passes, by default {@link
 * #isLifecycleMethod}), or itself lifecycle-only. Tomcat's {@code stop()} calls the protected
 * {@code clearReferences()}, which calls the private {@code clearReferencesThreads()}: both are
 * lifecycle-only.
 *
 * <p>A call inside a lambda, a call from the initialiser of a local or anonymous class, and a
 * method reference are callers lockjaw cannot place: the method is not lifecycle-only. A cycle of
 * helpers counts only when one of them is reached from a lifecycle method. The mirror of {@link
 * RequestPaths}; the bytecode detectors use {@code io.github.lockjaw.bytecode.LifecycleReach}.
 */
public final class LifecyclePaths {
  /** Who calls a method, for this analysis. */
  private sealed interface Caller {}

  /** A constructor or an initialiser of a (non-local) class. */
  private record Construction() implements Caller {}

  /** A lambda, a local or anonymous class's initialiser, or a method reference. */
  private record Unknown() implements Caller {}

  /** A method of this file. */
  private record From(MethodSymbol method, MethodTree tree) implements Caller {}

  private final Set<MethodSymbol> lifecycleOnly;

  private LifecyclePaths(Set<MethodSymbol> lifecycleOnly) {
    this.lifecycleOnly = lifecycleOnly;
  }

  /**
   * The lifecycle-only methods of the unit {@code state} is in, with {@code isLifecycle} deciding
   * which callers are lifecycle or configuration methods (constructors and initialisers always
   * are).
   */
  public static LifecyclePaths of(VisitorState state, Predicate<MethodTree> isLifecycle) {
    Tree unit = state.getPath().getCompilationUnit();
    Map<MethodSymbol, MethodTree> declared = MoreTrees.declaredMethods(unit);
    Map<MethodSymbol, List<Caller>> callers =
        callers(new TreePath(state.getPath().getCompilationUnit()), declared);

    // the candidates: not public, no override, called in this file, and only by code it can place
    Set<MethodSymbol> candidates = new HashSet<>();
    for (Map.Entry<MethodSymbol, List<Caller>> entry : callers.entrySet()) {
      MethodSymbol method = entry.getKey();
      if (isHidden(method, declared.get(method), state)
          && !entry.getValue().isEmpty()
          && entry.getValue().stream().noneMatch(c -> c instanceof Unknown)) {
        candidates.add(method);
      }
    }
    // drop every candidate with a caller that is neither an anchor nor a candidate, until stable
    boolean changed = true;
    while (changed) {
      changed = false;
      for (MethodSymbol method : new ArrayList<>(candidates)) {
        for (Caller caller : callers.get(method)) {
          if (caller instanceof From from
              && !isAnchor(from, isLifecycle)
              && !candidates.contains(from.method())) {
            candidates.remove(method);
            changed = true;
            break;
          }
        }
      }
    }
    // keep those reached from an anchor: a cycle of helpers nobody anchors is not lifecycle-only
    Set<MethodSymbol> reached = new HashSet<>();
    changed = true;
    while (changed) {
      changed = false;
      for (MethodSymbol method : candidates) {
        if (reached.contains(method)) {
          continue;
        }
        for (Caller caller : callers.get(method)) {
          if (caller instanceof Construction
              || (caller instanceof From from
                  && (isAnchor(from, isLifecycle) || reached.contains(from.method())))) {
            reached.add(method);
            changed = true;
            break;
          }
        }
      }
    }
    return new LifecyclePaths(reached);
  }

  /** The lifecycle-only methods of the unit, with {@link #isLifecycleMethod} as the predicate. */
  public static LifecyclePaths of(VisitorState state) {
    return of(state, LifecyclePaths::isLifecycleMethod);
  }

  /** Whether {@code method} runs only from construction, lifecycle or configuration code. */
  public boolean isLifecycleOnly(MethodTree method) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol != null && lifecycleOnly.contains(symbol);
  }

  /**
   * Whether the code at {@code path} runs only from construction, lifecycle or configuration code:
   * it is directly in the body of a lifecycle-only method (not in a lambda or a class inside it,
   * which may run later, elsewhere).
   */
  public boolean isLifecycleOnly(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof MethodTree method) {
        return isLifecycleOnly(method);
      }
      if (leaf instanceof LambdaExpressionTree || leaf instanceof ClassTree) {
        return false;
      }
    }
    return false;
  }

  /**
   * The lifecycle predicates of {@code entry-points.txt} on a method as written: a lifecycle name
   * ({@code stop}, {@code startInternal}), a parameterless tear-down ({@code close()}), a property
   * setter, or a set-up or tear-down annotation ({@code @PostConstruct}, {@code @PreDestroy}).
   */
  public static boolean isLifecycleMethod(MethodTree method) {
    String name = method.getName().toString();
    boolean returnsVoid =
        method.getReturnType() instanceof PrimitiveTypeTree primitive
            && primitive.getPrimitiveTypeKind() == TypeKind.VOID;
    if (Lifecycle.isLifecycleOrConfiguration(name, method.getParameters().size(), returnsVoid)) {
      return true;
    }
    List<String> annotations = Lifecycle.annotationSimpleNames();
    for (AnnotationTree annotation : method.getModifiers().getAnnotations()) {
      Tree type = annotation.getAnnotationType();
      String simpleName =
          type instanceof MemberSelectTree select
              ? select.getIdentifier().toString()
              : type instanceof IdentifierTree identifier ? identifier.getName().toString() : "";
      if (annotations.contains(simpleName)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isAnchor(From caller, Predicate<MethodTree> isLifecycle) {
    return caller.method().isConstructor()
        || caller.method().isStaticOrInstanceInit()
        || isLifecycle.test(caller.tree());
  }

  /**
   * Not public and overriding or implementing nothing: no caller outside this file is known to
   * exist (a protected or package-private method may still have one; lockjaw goes by what it sees).
   */
  private static boolean isHidden(MethodSymbol method, MethodTree tree, VisitorState state) {
    if (tree == null
        || method.isConstructor()
        || method.isStaticOrInstanceInit()
        || method.getModifiers().contains(Modifier.PUBLIC)) {
      return false;
    }
    for (AnnotationTree annotation : tree.getModifiers().getAnnotations()) {
      if (ASTHelpers.getSymbol(annotation.getAnnotationType()) instanceof ClassSymbol type
          && type.getQualifiedName().contentEquals("java.lang.Override")) {
        return false;
      }
    }
    return method.getModifiers().contains(Modifier.PRIVATE)
        || ASTHelpers.findSuperMethods(method, state.getTypes()).isEmpty();
  }

  /** Every call and method reference of a method of this file, by callee. */
  private static Map<MethodSymbol, List<Caller>> callers(
      TreePath unit, Map<MethodSymbol, MethodTree> declared) {
    Map<MethodSymbol, List<Caller>> callers = new HashMap<>();
    for (MethodSymbol method : declared.keySet()) {
      callers.put(method, new ArrayList<>());
    }
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        List<Caller> list = symbol == null ? null : callers.get(symbol);
        if (list != null) {
          list.add(callerAt(getCurrentPath(), declared));
        }
        return super.visitMethodInvocation(node, null);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        List<Caller> list = symbol == null ? null : callers.get(symbol);
        if (list != null) {
          list.add(new Unknown()); // handed out: it may run anywhere, any time
        }
        return super.visitMemberReference(node, null);
      }
    }.scan(unit, null);
    return callers;
  }

  /** The code a call at {@code path} runs in. */
  private static Caller callerAt(TreePath path, Map<MethodSymbol, MethodTree> declared) {
    for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (leaf instanceof LambdaExpressionTree) {
        return new Unknown(); // runs later, wherever the lambda is handed
      }
      if (leaf instanceof MethodTree method) {
        MethodSymbol symbol = ASTHelpers.getSymbol(method);
        return symbol == null || !declared.containsKey(symbol)
            ? new Unknown()
            : new From(symbol, method);
      }
      if (leaf instanceof ClassTree classTree) {
        // a field initialiser or an initialiser block: runs when an object of the class is built,
        // which for a local or anonymous class is wherever its creation is
        ClassSymbol type = ASTHelpers.getSymbol(classTree);
        return type == null || type.isDirectlyOrIndirectlyLocal() || type.isAnonymous()
            ? new Unknown()
            : new Construction();
      }
    }
    return new Unknown();
  }
}
