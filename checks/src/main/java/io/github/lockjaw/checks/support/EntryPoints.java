package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.knowledge.Kind;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The view of {@code entry-points.txt}: code that runs once per process ({@code main}, command-line
 * runners), container set-up code (factories, providers, init callbacks), and test code.
 */
public final class EntryPoints {

  private EntryPoints() {}

  /** Whether the compilation unit is test code: under a test source path or a test class. */
  public static boolean isTestCode(VisitorState state) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    if (unit != null && unit.getSourceFile() != null) {
      String path = unit.getSourceFile().toUri().toString().replace('\\', '/');
      for (String fragment : Kind.EntryPoints.TEST_SOURCE_PATH.values()) {
        if (path.contains(fragment)) {
          return true;
        }
      }
    }
    for (Tree tree : state.getPath()) {
      if (tree instanceof ClassTree classTree && isTestClass(classTree, state)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isTestClass(ClassTree classTree, VisitorState state) {
    ClassSymbol symbol = ASTHelpers.getSymbol(classTree);
    if (symbol == null) {
      return false;
    }
    if (KnownSymbols.hasAnnotation(Kind.EntryPoints.TEST_CLASS_ANNOTATION.index(), symbol, state)) {
      return true;
    }
    for (Tree member : classTree.getMembers()) {
      if (member instanceof MethodTree method) {
        MethodSymbol methodSymbol = ASTHelpers.getSymbol(method);
        if (methodSymbol != null
            && KnownSymbols.hasAnnotation(
                Kind.EntryPoints.TEST_ANNOTATION.index(), methodSymbol, state)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the method runs once per process: {@code main}, a command-line runner, a CLI command.
   */
  public static boolean isOneShot(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    if (symbol == null) {
      return false;
    }
    if (isMain(symbol, state)) {
      return true;
    }
    if (KnownSymbols.overridesEntry(Kind.EntryPoints.ONE_SHOT_METHOD.index(), symbol, state)) {
      return true;
    }
    String name = symbol.getSimpleName().toString();
    if ((name.equals("run") || name.equals("call")) && symbol.getParameters().isEmpty()) {
      Symbol owner = symbol.owner;
      return owner != null
          && KnownSymbols.hasAnnotation(
              Kind.EntryPoints.ONE_SHOT_CLASS_ANNOTATION.index(), owner, state);
    }
    return false;
  }

  /**
   * Whether the method is a private helper whose every call in this file comes from a one-shot
   * method ({@code main} calling {@code private static void run(...)}).
   */
  public static boolean isOnlyCalledFromOneShot(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    if (symbol == null || !method.getModifiers().getFlags().contains(Modifier.PRIVATE)) {
      return false;
    }
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    List<Boolean> callers = new ArrayList<>();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        if (symbol.equals(ASTHelpers.getSymbol(tree))) {
          MethodTree caller = MoreTrees.enclosingMethod(getCurrentPath());
          callers.add(caller != null && caller != method && isOneShot(caller, state));
        }
        return super.visitMethodInvocation(tree, null);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        if (symbol.equals(ASTHelpers.getSymbol(tree))) {
          callers.add(false); // handed out as a method reference: it may run on any path
        }
        return super.visitMemberReference(tree, null);
      }
    }.scan(unit, null);
    return !callers.isEmpty() && !callers.contains(false);
  }

  /**
   * Whether the method is container set-up: a @Bean, @Provides, @Produces or @PostConstruct method.
   */
  public static boolean isSetUp(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol != null
        && (KnownSymbols.hasAnnotation(Kind.EntryPoints.SET_UP_ANNOTATION.index(), symbol, state)
            || KnownSymbols.overridesEntry(Kind.EntryPoints.SET_UP_METHOD.index(), symbol, state));
  }

  /** Whether the method implements a start-up step ({@code start-up-method}: a JNDI factory). */
  public static boolean isStartUp(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol != null
        && KnownSymbols.overridesEntry(Kind.EntryPoints.START_UP_METHOD.index(), symbol, state);
  }

  /**
   * Whether the container runs the method for every request or call: aspect advice and interceptor
   * methods by annotation ({@code request-entry-annotation}), filters, method interceptors,
   * servlets and handlers by the method they implement ({@code request-entry-method}).
   */
  public static boolean isRequestEntry(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol != null
        && !symbol.isStatic()
        && (KnownSymbols.hasAnnotation(
                Kind.EntryPoints.REQUEST_ENTRY_ANNOTATION.index(), symbol, state)
            || KnownSymbols.overridesEntry(
                Kind.EntryPoints.REQUEST_ENTRY_METHOD.index(), symbol, state));
  }

  private static boolean isMain(MethodSymbol symbol, VisitorState state) {
    if (!symbol.getSimpleName().contentEquals("main") || !symbol.isStatic()) {
      return false;
    }
    List<Symbol.VarSymbol> params = symbol.getParameters();
    return params.size() == 1
        && state.getTypes().isArray(params.get(0).type)
        && state.getTypes().elemtype(params.get(0).type).tsym != null
        && state
            .getTypes()
            .elemtype(params.get(0).type)
            .tsym
            .getQualifiedName()
            .contentEquals("java.lang.String");
  }
}
