package io.github.lockjaw.checks.heavyweight;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.PackageSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.checks.support.Layout;
import io.github.lockjaw.checks.support.NewMembers;
import io.github.lockjaw.common.Resilience;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;

/**
 * Shares an object built per call: the creation moves to a {@code private static final} field of
 * the nearest enclosing class that may hold one, with the configuration calls written right after
 * it ({@code mapper.configure(...)}), and the method uses the field. A creation that throws a
 * checked exception ({@code JAXBContext.newInstance}) cannot initialise a static field; it moves to
 * a static method that builds the object on first use and keeps it in a {@code static volatile}
 * field, so a failure still reaches the caller as before. Only when the creation's arguments are
 * constants, and the method makes nothing but non-configuring calls on the object ({@code
 * shared-use} in {@code heavyweight.txt}; any call, for a registry's instance such as a logger).
 */
final class HoistSharedInstanceFix {
  private final TreePath creation;
  private final PerRequestHeavyweightQuery.Creation detail;
  private final VisitorState state;
  private final SuggestedFix.Builder fix = SuggestedFix.builder();
  private final List<StatementTree> folded = new ArrayList<>();
  private VarSymbol local;
  private ClassTree target;
  private boolean targetIsInnermost;

  private HoistSharedInstanceFix(
      TreePath creation, PerRequestHeavyweightQuery.Creation detail, VisitorState state) {
    this.creation = creation;
    this.detail = detail;
    this.state = state;
  }

  static FixOutcome build(
      TreePath creation, PerRequestHeavyweightQuery.Creation detail, VisitorState state) {
    if (!detail.isShareable()) {
      return FixOutcome.blocked("the object is not thread-safe, so it must not be shared");
    }
    if (!detail.builtAndDroppedHere()) {
      return FixOutcome.blocked(
          "the object is kept or handed on from here, so a shared one could change what its"
              + " holders see");
    }
    // the model's paths may skip nodes between an operand and its operation: take javac's own
    TreePath exact = TreePath.getPath(state.getPath().getCompilationUnit(), creation.getLeaf());
    if (exact == null) {
      return FixOutcome.blocked(UNREADABLE);
    }
    try {
      HoistSharedInstanceFix hoist = new HoistSharedInstanceFix(exact, detail, state);
      SuggestedFix built = hoist.build();
      return built != null ? FixOutcome.of(built) : FixOutcome.blocked(hoist.blocker);
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      // a shape the fix does not understand: report without a fix
      return FixOutcome.blocked(UNREADABLE);
    }
  }

  private static final String UNREADABLE = "lockjaw could not read this code's shape";

  /** Why {@link #build()} returned no fix. */
  private String blocker = UNREADABLE;

  private SuggestedFix blocked(String why) {
    blocker = why;
    return null;
  }

  private SuggestedFix build() {
    Tree leaf = creation.getLeaf();
    if (!(leaf instanceof MethodInvocationTree)
        && !(leaf instanceof NewClassTree newClass && newClass.getClassBody() == null)) {
      return blocked("the object is built by an anonymous class, which lockjaw does not move");
    }
    ExpressionTree expression = (ExpressionTree) leaf;
    TreePath outer = creation;
    while (outer.getParentPath().getLeaf() instanceof ParenthesizedTree) {
      outer = outer.getParentPath();
    }
    TreePath scope = scopeOf(outer);
    if (scope == null) {
      return blocked("it is built outside a method body lockjaw can rewrite");
    }
    if (!findTarget(outer)) {
      return blocked("no enclosing class here can hold a static field");
    }
    if (!isConstant(expression)) {
      return blocked(
          "it is built from values that may differ per call (parameters, locals or fields)");
    }
    if (!acceptsSharedObject(outer, scope)) {
      return blocked(
          "the code here changes its configuration or hands it on, so one shared instance would"
              + " change behaviour");
    }
    Type type = ASTHelpers.getType(expression);
    if (type == null || type.tsym == null) {
      return blocked("lockjaw cannot name its type");
    }
    String typeText = typeText(outer, type);
    String creationText = source(expression);
    if (creationText.contains("//") || creationText.contains("/*")) {
      // comments inside would not survive being joined onto one line
      return blocked("comments inside its creation would not survive the move");
    }
    StringBuilder initializer = new StringBuilder(oneLine(creationText));
    for (StatementTree statement : folded) {
      MethodInvocationTree call =
          (MethodInvocationTree) ((ExpressionStatementTree) statement).getExpression();
      ExpressionTree receiver = ((MemberSelectTree) call.getMethodSelect()).getExpression();
      initializer
          .append("\n\t\t\t\t")
          .append(
              state
                  .getSourceCode()
                  .subSequence(state.getEndPosition(receiver), state.getEndPosition(call))
                  .toString()
                  .strip()
                  .transform(HoistSharedInstanceFix::oneLine));
    }
    List<Type> checked = checkedExceptions(expression);
    String use;
    if (checked.isEmpty()) {
      Optional<String> existing = existingField(initializer.toString());
      if (existing.isPresent()) {
        use = existing.get();
      } else {
        use = NewMembers.uniqueName(NewMembers.constantName(simpleName(type)), target, state);
        String code =
            "private static final " + typeText + " " + use + " =\n\t\t" + initializer + ";";
        if (!insertField(oneLineUnlessFolded(code))) {
          return blocked("lockjaw could not place a new field in this class");
        }
        NewMembers.handOut(use, state);
      }
    } else {
      String name = NewMembers.uniqueName(NewMembers.variableName(simpleName(type)), target, state);
      List<String> thrown = new ArrayList<>();
      for (Type exception : checked) {
        thrown.add(SuggestedFixes.prettyType(state, fix, exception));
      }
      if (!insertField("private static volatile " + typeText + " " + name + ";")) {
        return blocked("lockjaw could not place a new field in this class");
      }
      String method =
          String.join(
              "\n",
              "private static "
                  + typeText
                  + " "
                  + name
                  + "() throws "
                  + String.join(", ", thrown)
                  + " {",
              typeText + " shared = " + name + ";",
              "if (shared == null) {",
              "shared = " + initializer.toString().replace("\t", "") + ";",
              name + " = shared;",
              "}",
              "return shared;",
              "}");
      Optional<NewMembers.Insertion> insertion = NewMembers.methodAtEnd(target, method, state);
      if (insertion.isEmpty()) {
        return blocked("lockjaw could not place a new method in this class");
      }
      fix.replace(insertion.get().position(), insertion.get().position(), insertion.get().text());
      NewMembers.handOut(name, state);
      use = name + "()";
    }
    fix.replace(outer.getLeaf(), use);
    for (StatementTree statement : folded) {
      deleteLine(statement);
    }
    return fix.build();
  }

  /** Code written over several lines, on one: a chained call joins its receiver. */
  private static String oneLine(String code) {
    return code.replaceAll("\\s*\\R\\s*(?=\\.)", "").replaceAll("\\s*\\R\\s*", " ");
  }

  /** The field's declaration on one line when nothing was folded into it. */
  /**
   * The field on one line, unless calls were folded into its initializer or the line would be wider
   * than the file's widest: then it breaks after {@code =}, one continuation step in, as a file
   * that keeps to a width breaks its own declarations.
   */
  private String oneLineUnlessFolded(String code) {
    if (!folded.isEmpty()) {
      return code;
    }
    String oneLine = code.replace(" =\n\t\t", " = ");
    CharSequence source = state.getSourceCode();
    String classIndent = Layout.indentationAt(source, ASTHelpers.getStartPosition(target));
    String memberIndent = (classIndent == null ? "" : classIndent) + Layout.unit(source);
    int width = (memberIndent + oneLine).replace("\t", "    ").length();
    return width <= Layout.lineLimit(source) ? oneLine : code;
  }

  private boolean insertField(String code) {
    Optional<NewMembers.Insertion> insertion = NewMembers.fieldAtTop(target, code, state);
    if (insertion.isEmpty()) {
      return false;
    }
    fix.replace(insertion.get().position(), insertion.get().position(), insertion.get().text());
    return true;
  }

  /** A static final field of the target that holds the same creation already. */
  private Optional<String> existingField(String initializer) {
    String wanted = initializer.replaceAll("\\s+", "");
    for (Tree member : target.getMembers()) {
      if (member instanceof VariableTree field
          && field.getInitializer() != null
          && ASTHelpers.getSymbol(field) instanceof VarSymbol symbol
          && symbol.isStatic()
          && (symbol.flags() & Flags.FINAL) != 0
          && source(field.getInitializer()).replaceAll("\\s+", "").equals(wanted)) {
        return Optional.of(field.getName().toString());
      }
    }
    return Optional.empty();
  }

  // ------------------------------------------------------------------- where and how it is used

  /** The method or lambda body the creation is in; null in a field initialiser or elsewhere. */
  private static TreePath scopeOf(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof MethodTree || p.getLeaf() instanceof LambdaExpressionTree) {
        return p;
      }
      if (p.getLeaf() instanceof ClassTree) {
        return null;
      }
    }
    return null;
  }

  /** The nearest enclosing class that may declare a private static field. */
  private boolean findTarget(TreePath path) {
    boolean innermost = true;
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof ClassTree classTree) {
        if (NewMembers.canHoldStaticField(classTree)) {
          target = classTree;
          targetIsInnermost = innermost;
          return true;
        }
        innermost = false;
      }
    }
    return false;
  }

  /**
   * Whether the method can use one shared object in place of the one it builds: the creation
   * initialises a local the method only calls shared-use methods on (after configuration calls
   * folded into the field), or it is the receiver of one such call; a registry's instance (a
   * logger) may be used in any way.
   */
  private boolean acceptsSharedObject(TreePath outer, TreePath scope) {
    Tree parent = outer.getParentPath().getLeaf();
    if (parent instanceof VariableTree variable
        && variable.getInitializer() == outer.getLeaf()
        && outer.getParentPath().getParentPath().getLeaf() instanceof BlockTree block
        && ASTHelpers.getSymbol(variable) instanceof VarSymbol symbol
        && symbol.getKind() == ElementKind.LOCAL_VARIABLE) {
      local = symbol;
      if (!detail.isRegistryInstance()) {
        foldConfiguration(block, variable);
      }
      return usesOfLocalAreShared(scope, variable);
    }
    if (parent instanceof MemberSelectTree select
        && outer.getParentPath().getParentPath().getLeaf() instanceof MethodInvocationTree call
        && call.getMethodSelect() == select) {
      return detail.isRegistryInstance() || isSharedUse(ASTHelpers.getSymbol(call));
    }
    return detail.isRegistryInstance()
        && (parent instanceof MethodInvocationTree || parent instanceof NewClassTree);
  }

  /** Configuration calls on the local right after its declaration, with constant arguments. */
  private void foldConfiguration(BlockTree block, VariableTree declaration) {
    List<? extends StatementTree> statements = block.getStatements();
    for (int i = statements.indexOf(declaration) + 1; i < statements.size(); i++) {
      if (!(statements.get(i) instanceof ExpressionStatementTree statement)
          || !(statement.getExpression() instanceof MethodInvocationTree call)
          || !(call.getMethodSelect() instanceof MemberSelectTree select)
          || !(select.getExpression() instanceof IdentifierTree receiver)
          || ASTHelpers.getSymbol(receiver) != local
          || KnownSymbols.instanceMethod(
                  HeavyweightKnowledge.FLUENT, ASTHelpers.getSymbol(call), state)
              .isEmpty()
          || !call.getArguments().stream().allMatch(this::isConstant)) {
        return;
      }
      folded.add(statement);
    }
  }

  private boolean usesOfLocalAreShared(TreePath scope, VariableTree declaration) {
    boolean[] ok = {true};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        if (ASTHelpers.getSymbol(node) == local && !isFolded(getCurrentPath())) {
          Tree parent = getCurrentPath().getParentPath().getLeaf();
          Tree grandparent = getCurrentPath().getParentPath().getParentPath().getLeaf();
          boolean sharedCall =
              parent instanceof MemberSelectTree select
                  && grandparent instanceof MethodInvocationTree call
                  && call.getMethodSelect() == select
                  && isSharedUse(ASTHelpers.getSymbol(call));
          if (!sharedCall && !detail.isRegistryInstance()) {
            ok[0] = false;
          }
        }
        return null;
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        if (ASTHelpers.getSymbol(node.getVariable()) == local) {
          ok[0] = false;
        }
        return super.visitAssignment(node, null);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        if (ASTHelpers.getSymbol(node.getVariable()) == local) {
          ok[0] = false;
        }
        return super.visitCompoundAssignment(node, null);
      }
    }.scan(scope, null);
    return ok[0];
  }

  private boolean isFolded(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (folded.contains(p.getLeaf())) {
        return true;
      }
    }
    return false;
  }

  private boolean isSharedUse(MethodSymbol method) {
    return method != null
        && KnownSymbols.instanceMethod(HeavyweightKnowledge.SHARED_USE, method, state).isPresent();
  }

  // ------------------------------------------------------------------- constant initialisers

  /**
   * Whether the expression means the same in a static field's initialiser: literals, class
   * literals, types, static final fields and enum constants, and calls and creations over those; no
   * local, parameter, instance member, {@code this}, lambda or anonymous class. Outside the
   * innermost class, a static field must be named through its class.
   */
  private boolean isConstant(ExpressionTree expression) {
    boolean[] ok = {true};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (!(symbol instanceof ClassSymbol || symbol instanceof PackageSymbol)
            && !(targetIsInnermost && isStaticConstant(symbol))) {
          ok[0] = false;
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(node);
        if (symbol instanceof VarSymbol
            && !node.getIdentifier().contentEquals("class")
            && !isStaticConstant(symbol)) {
          ok[0] = false;
        }
        return super.visitMemberSelect(node, null);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        if (node.getMethodSelect() instanceof IdentifierTree) {
          ok[0] = false; // an unqualified call: an instance method, or one of this class
          return null;
        }
        return super.visitMethodInvocation(node, null);
      }

      @Override
      public Void visitNewClass(NewClassTree node, Void unused) {
        if (node.getClassBody() != null || node.getEnclosingExpression() != null) {
          ok[0] = false;
        }
        return super.visitNewClass(node, null);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        ok[0] = false;
        return null;
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree node, Void unused) {
        ok[0] = false;
        return null;
      }

      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        ok[0] = false;
        return null;
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              ok[0] = false;
          default -> {}
        }
        return super.visitUnary(node, null);
      }
    }.scan(expression, null);
    return ok[0];
  }

  private static boolean isStaticConstant(Symbol symbol) {
    return symbol instanceof VarSymbol variable
        && variable.isStatic()
        && ((variable.flags() & Flags.FINAL) != 0
            || variable.getKind() == ElementKind.ENUM_CONSTANT);
  }

  // ------------------------------------------------------------------- text

  private String typeText(TreePath outer, Type type) {
    Tree parent = outer.getParentPath().getLeaf();
    if (parent instanceof VariableTree variable
        && variable.getType() != null
        && ASTHelpers.getStartPosition(variable.getType()) >= 0
        && state.getEndPosition(variable.getType()) > 0
        && !source(variable.getType()).equals("var")) {
      return source(variable.getType());
    }
    return SuggestedFixes.prettyType(state, fix, type);
  }

  private List<Type> checkedExceptions(ExpressionTree expression) {
    Set<Type> thrown = new LinkedHashSet<>();
    TreeScanner<Void, Void> calls =
        new TreeScanner<>() {
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
        };
    calls.scan(expression, null);
    for (StatementTree statement : folded) {
      calls.scan(statement, null);
    }
    List<Type> checked = new ArrayList<>();
    for (Type type : thrown) {
      if (!ASTHelpers.isSubtype(type, state.getSymtab().runtimeExceptionType, state)
          && !ASTHelpers.isSubtype(type, state.getSymtab().errorType, state)
          && checked.stream().noneMatch(t -> state.getTypes().isSameType(t, type))) {
        checked.add(type);
      }
    }
    return checked;
  }

  private static String simpleName(Type type) {
    return type.tsym.getSimpleName().toString();
  }

  private String source(Tree tree) {
    return state
        .getSourceCode()
        .subSequence(ASTHelpers.getStartPosition(tree), state.getEndPosition(tree))
        .toString();
  }

  /** Deletes a statement, and its line when nothing else is on it. */
  private void deleteLine(Tree statement) {
    CharSequence text = state.getSourceCode();
    int start = ASTHelpers.getStartPosition(statement);
    int end = state.getEndPosition(statement);
    int lineStart = Layout.lineStart(text, start);
    int lineEnd = end;
    while (lineEnd < text.length()
        && (text.charAt(lineEnd) == ' ' || text.charAt(lineEnd) == '\t')) {
      lineEnd++;
    }
    boolean alone =
        text.subSequence(lineStart, start).toString().isBlank()
            && (lineEnd >= text.length()
                || text.charAt(lineEnd) == '\n'
                || text.charAt(lineEnd) == '\r');
    if (alone) {
      int next = text.toString().indexOf('\n', lineEnd);
      fix.replace(lineStart, next < 0 ? text.length() : next + 1, "");
    } else {
      fix.replace(statement, "");
    }
  }
}
