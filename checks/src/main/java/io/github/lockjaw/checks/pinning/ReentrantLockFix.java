package io.github.lockjaw.checks.pinning;

import com.google.errorprone.VisitorState;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.fixes.SuggestedFixes;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.checks.support.Layout;
import io.github.lockjaw.checks.support.NewMembers;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.source.CompilationModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;

/**
 * Replaces a monitor with a {@code ReentrantLock}: {@code lock.lock(); try { ... } finally {
 * lock.unlock(); }} around the code of every {@code synchronized} method and block on that monitor
 * (all at once, so they still exclude each other). Only when lockjaw can see every user of the
 * monitor: a {@code private} lock field initialised with {@code new Object()} that is used only as
 * a monitor (it becomes the {@code ReentrantLock}), or {@code this} of a class that cannot be
 * subclassed elsewhere and that no other code in the program locks; and no code on the monitor
 * waits, notifies or asks {@code Thread.holdsLock}. Otherwise: no fix, the message names it.
 */
final class ReentrantLockFix {
  private static final String IMPORT = "java.util.concurrent.locks.ReentrantLock";

  private final VisitorState state;
  private final CompilationModel model;
  private final String source;
  private final String newline;
  private final String unit;
  private final SuggestedFix.Builder fix = SuggestedFix.builder();

  private ReentrantLockFix(CompilationModel model, VisitorState state) {
    this.model = model;
    this.state = state;
    this.source = state.getSourceCode().toString();
    this.newline = Layout.newline(source);
    this.unit = Layout.unit(source);
  }

  static Optional<SuggestedFix> build(
      TreePath region, MethodFacts method, CompilationModel model, VisitorState state) {
    try {
      return Optional.ofNullable(new ReentrantLockFix(model, state).build(region, method));
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Optional.empty();
    }
  }

  private SuggestedFix build(TreePath regionPath, MethodFacts method) {
    ClassTree owner = enclosingClass(regionPath);
    ClassSymbol ownerSymbol = owner == null ? null : ASTHelpers.getSymbol(owner);
    if (ownerSymbol == null || source.contains("\"\"\"")) {
      return null; // text blocks would change if their lines moved
    }
    Tree region = regionPath.getLeaf();
    if (region instanceof MethodTree methodTree) {
      MethodSymbol symbol = ASTHelpers.getSymbol(methodTree);
      return symbol == null || symbol.isStatic() ? null : lockThis(owner, ownerSymbol);
    }
    if (!(region instanceof SynchronizedTree block)) {
      return null;
    }
    ExpressionTree monitor = stripParentheses(block.getExpression());
    if (isThis(monitor, ownerSymbol)) {
      return lockThis(owner, ownerSymbol);
    }
    Symbol symbol = ASTHelpers.getSymbol(monitor);
    if (symbol instanceof VarSymbol field
        && field.getKind() == ElementKind.FIELD
        && field.isPrivate()
        && (field.flags() & Flags.FINAL) != 0
        && (monitor instanceof IdentifierTree
            || (monitor instanceof MemberSelectTree select
                && isThis(stripParentheses(select.getExpression()), ownerSymbol)))) {
      return lockField(field);
    }
    return null;
  }

  // ------------------------------------------------------------------- this

  private SuggestedFix lockThis(ClassTree owner, ClassSymbol ownerSymbol) {
    if (!cannotBeSubclassedElsewhere(ownerSymbol) || lockedElsewhere(ownerSymbol)) {
      return null;
    }
    List<MethodTree> methods = new ArrayList<>();
    List<SynchronizedTree> blocks = new ArrayList<>();
    boolean[] refused = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree node, Void unused) {
        if (node != owner) {
          // nested classes: their this is another object, but Owner.this is ours
          refused[0] |= mentionsOuterThis(node, ownerSymbol);
          return null;
        }
        return super.visitClass(node, null);
      }

      @Override
      public Void visitMethod(MethodTree node, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(node);
        if (symbol != null
            && !symbol.isStatic()
            && node.getModifiers().getFlags().contains(Modifier.SYNCHRONIZED)) {
          methods.add(node);
        }
        return super.visitMethod(node, null);
      }

      @Override
      public Void visitSynchronized(SynchronizedTree node, Void unused) {
        if (isThis(stripParentheses(node.getExpression()), ownerSymbol)) {
          blocks.add(node);
        }
        return super.visitSynchronized(node, null);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        refused[0] |= waitsNotifiesOrAsksHoldsLock(node);
        return super.visitMethodInvocation(node, null);
      }
    }.scan(owner, null);
    if (refused[0]
        || blocks.stream().anyMatch(b -> methods.stream().anyMatch(m -> contains(m, b)))) {
      return null; // a block inside a synchronized method: re-entered, and one rewrite too many
    }
    String name = NewMembers.uniqueName("lock", owner, state);
    Optional<NewMembers.Insertion> field =
        NewMembers.fieldAtTop(
            owner, "private final ReentrantLock " + name + " = new ReentrantLock();", state);
    if (field.isEmpty()) {
      return null;
    }
    fix.replace(field.get().position(), field.get().position(), field.get().text());
    NewMembers.handOut(name, state);
    for (MethodTree method : methods) {
      if (!wrapMethod(method, name)) {
        return null;
      }
    }
    for (SynchronizedTree block : blocks) {
      if (!wrapBlock(block, name)) {
        return null;
      }
    }
    fix.addImport(IMPORT);
    return fix.build();
  }

  /** A class that is final, anonymous or local, or private with no subclass in the program. */
  private boolean cannotBeSubclassedElsewhere(ClassSymbol symbol) {
    if (symbol.getKind() != ElementKind.CLASS) {
      return false; // a record holds no instance field, an enum's constants come first
    }
    if ((symbol.flags() & Flags.FINAL) != 0
        || symbol.getNestingKind() == NestingKind.ANONYMOUS
        || symbol.getNestingKind() == NestingKind.LOCAL) {
      return true;
    }
    String binary = symbol.flatName().toString();
    return symbol.isPrivate() && model.program().analysedSubtypes(binary).equals(Set.of(binary));
  }

  /** Whether code outside the class's own methods locks an object of the class. */
  private boolean lockedElsewhere(ClassSymbol symbol) {
    String binary = symbol.flatName().toString();
    for (ClassFacts c : model.program().classes()) {
      for (MethodFacts m : c.methods()) {
        for (Region region : m.regions()) {
          boolean ownThis = c.name().equals(binary) && region.monitor() instanceof Value.This;
          if (!ownThis
              && !region.monitorType().isEmpty()
              && model.program().isSubtype(binary, region.monitorType())
              && !region.monitorType().equals("java.lang.Object")
              && !(region.monitor() instanceof Value.ClassLiteral)) {
            return true; // synchronized on an object of this class (or of a supertype of it)
          }
        }
      }
    }
    return false;
  }

  private static boolean mentionsOuterThis(ClassTree nested, ClassSymbol owner) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        if (node.getIdentifier().contentEquals("this")
            && ASTHelpers.getSymbol(node.getExpression()) == owner) {
          found[0] = true;
        }
        return super.visitMemberSelect(node, null);
      }
    }.scan(nested, null);
    return found[0];
  }

  // ------------------------------------------------------------------- a lock field

  private SuggestedFix lockField(VarSymbol field) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    VariableTree[] declaration = {null};
    List<SynchronizedTree> blocks = new ArrayList<>();
    boolean[] refused = {false};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree node, Void unused) {
        if (ASTHelpers.getSymbol(node) == field) {
          declaration[0] = node;
        }
        return super.visitVariable(node, null);
      }

      @Override
      public Void visitSynchronized(SynchronizedTree node, Void unused) {
        if (ASTHelpers.getSymbol(stripParentheses(node.getExpression())) == field) {
          blocks.add(node);
          scan(node.getBlock(), null); // the monitor expression is this use of the field
          return null;
        }
        return super.visitSynchronized(node, null);
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        refused[0] |= ASTHelpers.getSymbol(node) == field;
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        refused[0] |= ASTHelpers.getSymbol(node) == field;
        return super.visitMemberSelect(node, null);
      }
    }.scan(unit, null);
    if (refused[0] || declaration[0] == null || blocks.isEmpty()) {
      return null; // the lock object is used for more than synchronized blocks
    }
    VariableTree variable = declaration[0];
    if (!(variable.getInitializer() instanceof NewClassTree creation)
        || creation.getClassBody() != null
        || !creation.getArguments().isEmpty()
        || !String.valueOf(ASTHelpers.getType(creation)).equals("java.lang.Object")) {
      return null;
    }
    fix.replace(variable.getType(), "ReentrantLock");
    fix.replace(creation, "new ReentrantLock()");
    String name = field.getSimpleName().toString();
    for (SynchronizedTree block : blocks) {
      if (!wrapBlock(block, name)) {
        return null;
      }
    }
    fix.addImport(IMPORT);
    return fix.build();
  }

  // ------------------------------------------------------------------- rewriting

  /** {@code synchronized (m) { body }} → {@code lock.lock(); try { body } finally { ... }}. */
  private boolean wrapBlock(SynchronizedTree block, String lock) {
    int start = ASTHelpers.getStartPosition(block);
    BlockTree body = block.getBlock();
    int open = ASTHelpers.getStartPosition(body);
    int end = state.getEndPosition(body);
    String indent = Layout.indentationAt(source, start);
    if (indent == null || open < start || end <= open || source.charAt(end - 1) != '}') {
      return false;
    }
    fix.replace(start, open + 1, lock + ".lock();" + newline + indent + "try {");
    fix.replace(
        end - 1,
        end,
        "} finally {" + newline + indent + unit + lock + ".unlock();" + newline + indent + "}");
    return true;
  }

  /**
   * A {@code synchronized} method loses the modifier; its body moves one step in, between {@code
   * lock.lock(); try {} and {@code } finally { lock.unlock(); }}.
   */
  private boolean wrapMethod(MethodTree method, String lock) {
    BlockTree body = method.getBody();
    if (body == null) {
      return false;
    }
    Optional<SuggestedFix> unsynchronized =
        SuggestedFixes.removeModifiers(method, state, Modifier.SYNCHRONIZED);
    if (unsynchronized.isEmpty()) {
      return false;
    }
    fix.merge(unsynchronized.get());
    int open = ASTHelpers.getStartPosition(body);
    int close = state.getEndPosition(body) - 1;
    String memberIndent = Layout.indentationAt(source, ASTHelpers.getStartPosition(method));
    if (memberIndent == null || close <= open || source.charAt(close) != '}') {
      return false;
    }
    String bodyIndent = memberIndent + unit;
    String[] lines = source.substring(open + 1, close).split("\r?\n", -1);
    StringBuilder text =
        new StringBuilder(newline)
            .append(bodyIndent)
            .append(lock)
            .append(".lock();")
            .append(newline)
            .append(bodyIndent)
            .append("try {");
    if (lines.length < 2) {
      text.append(newline).append(bodyIndent).append(unit).append(lines[0].strip());
    } else {
      if (!lines[0].isBlank()) {
        text.append(newline).append(bodyIndent).append(unit).append(lines[0].strip());
      }
      for (int i = 1; i < lines.length - 1; i++) {
        text.append(newline);
        if (!lines[i].isBlank()) {
          text.append(unit).append(lines[i]);
        }
      }
      if (!lines[lines.length - 1].isBlank()) {
        text.append(newline)
            .append(bodyIndent)
            .append(unit)
            .append(lines[lines.length - 1].strip());
      }
    }
    text.append(newline)
        .append(bodyIndent)
        .append("} finally {")
        .append(newline)
        .append(bodyIndent)
        .append(unit)
        .append(lock)
        .append(".unlock();")
        .append(newline)
        .append(bodyIndent)
        .append("}")
        .append(newline)
        .append(memberIndent);
    fix.replace(open + 1, close, text.toString());
    return true;
  }

  // ------------------------------------------------------------------- trees

  private static boolean contains(Tree outer, Tree inner) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        if (tree == inner) {
          found[0] = true;
        }
        return found[0] ? null : super.scan(tree, null);
      }
    }.scan(outer, null);
    return found[0];
  }

  private static ClassTree enclosingClass(TreePath path) {
    for (TreePath p = path; p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof ClassTree classTree) {
        return classTree;
      }
    }
    return null;
  }

  private static ExpressionTree stripParentheses(ExpressionTree expression) {
    while (expression instanceof ParenthesizedTree parenthesized) {
      expression = parenthesized.getExpression();
    }
    return expression;
  }

  /** {@code this}, or {@code Owner.this} of the owner itself. */
  private static boolean isThis(ExpressionTree expression, ClassSymbol owner) {
    if (expression instanceof IdentifierTree identifier) {
      return identifier.getName().contentEquals("this");
    }
    return expression instanceof MemberSelectTree select
        && select.getIdentifier().contentEquals("this")
        && ASTHelpers.getSymbol(select.getExpression()) == owner;
  }

  /** {@code wait()}, {@code notify()}, {@code notifyAll()} or {@code Thread.holdsLock(...)}. */
  private static boolean waitsNotifiesOrAsksHoldsLock(MethodInvocationTree call) {
    MethodSymbol method = ASTHelpers.getSymbol(call);
    if (method == null) {
      return false;
    }
    String name = method.getSimpleName().toString();
    String owner = method.owner.getQualifiedName().toString();
    return (owner.equals("java.lang.Object")
            && (name.equals("wait") || name.equals("notify") || name.equals("notifyAll")))
        || (owner.equals("java.lang.Thread") && name.equals("holdsLock"));
  }
}
