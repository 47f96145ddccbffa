package io.github.lockjaw.checks.readmostly;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import io.github.lockjaw.checks.support.FieldAccesses;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * What a locked region does, if it only reads: the fields it reads (constants aside), how many
 * reads, and what it copies. A region that writes a field, calls anything but a known read or copy
 * call, creates anything but an exception or a copy, or holds a lambda or class is not read-only.
 */
final class ReadOnlyRegion {
  private final Set<VarSymbol> fields = new LinkedHashSet<>();
  private final List<String> copies = new ArrayList<>();
  private int reads;
  private boolean readOnly = true;

  private ReadOnlyRegion() {}

  boolean readOnly() {
    return readOnly;
  }

  Set<VarSymbol> fields() {
    return fields;
  }

  List<String> copies() {
    return copies;
  }

  int reads() {
    return reads;
  }

  static ReadOnlyRegion scan(TreePath body, VisitorState state) {
    ReadOnlyRegion region = new ReadOnlyRegion();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        return region.readOnly ? super.scan(tree, unused) : null;
      }

      @Override
      public Void visitAssignment(AssignmentTree tree, Void unused) {
        if (!isLocal(tree.getVariable())) {
          region.readOnly = false;
          return null;
        }
        return scan(tree.getExpression(), null);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree tree, Void unused) {
        if (!isLocal(tree.getVariable())) {
          region.readOnly = false;
          return null;
        }
        return scan(tree.getExpression(), null);
      }

      @Override
      public Void visitUnary(UnaryTree tree, Void unused) {
        if (FieldAccesses.isIncrement(tree) && !isLocal(tree.getExpression())) {
          region.readOnly = false;
          return null;
        }
        return super.visitUnary(tree, null);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        MethodSymbol method = ASTHelpers.getSymbol(tree);
        if (isAccessOrdered(tree, state)) {
          region.readOnly = false; // an LRU map's get() reorders it
          return null;
        }
        if (ReadMostlyKnowledge.COPY_CALLS.matches(method, state)) {
          region.copies.add(method.owner.getSimpleName() + "." + method.getSimpleName() + "()");
        } else if (!ReadMostlyKnowledge.READ_CALLS.matches(method, state)) {
          region.readOnly = false;
          return null;
        }
        return super.visitMethodInvocation(tree, null);
      }

      @Override
      public Void visitNewClass(NewClassTree tree, Void unused) {
        Type type = ASTHelpers.getType(tree);
        if (tree.getClassBody() != null || type == null) {
          region.readOnly = false;
          return null;
        }
        if (isCopyConstructor(tree, type)) {
          region.copies.add("new " + type.tsym.getSimpleName() + "(...)");
        } else if (!ASTHelpers.isSubtype(type, state.getSymtab().throwableType, state)) {
          region.readOnly = false;
          return null;
        }
        return super.visitNewClass(tree, null);
      }

      @Override
      public Void visitNewArray(NewArrayTree tree, Void unused) {
        return super.visitNewArray(tree, null); // a fresh array: storing into it is caught above
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
        region.readOnly = false;
        return null;
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        region.readOnly = false;
        return null;
      }

      @Override
      public Void visitClass(ClassTree tree, Void unused) {
        region.readOnly = false;
        return null;
      }

      @Override
      public Void visitSynchronized(SynchronizedTree tree, Void unused) {
        region.readOnly = false;
        return null;
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        noteField(tree);
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        noteField(tree);
        return super.visitMemberSelect(tree, null);
      }

      private void noteField(ExpressionTree tree) {
        Symbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol instanceof VarSymbol var
            && var.getKind() == ElementKind.FIELD
            && !FieldAccesses.isThisOrSuper(var)
            && !isConstant(var, state)) {
          region.fields.add(var);
          region.reads++;
        }
      }
    }.scan(body, null);
    return region;
  }

  /**
   * Whether a field may hold an access-ordered map: its declared type, its initializer or a value
   * assigned to it anywhere in the file is one ({@code failedUsers = new LinkedHashMap<>(n, 0.75f,
   * true) { ... }} in a start method).
   */
  static boolean mayHoldAccessOrderedMap(
      VarSymbol field, FieldAccesses accesses, VisitorState state) {
    List<Type> types = new ArrayList<>();
    types.add(field.type);
    VariableTree declaration = accesses.declaration(field);
    if (declaration != null && declaration.getInitializer() != null) {
      types.add(ASTHelpers.getType(declaration.getInitializer()));
    }
    for (FieldAccesses.Access access : accesses.of(field)) {
      if (access.kind() == FieldAccesses.Kind.ASSIGN
          && access.path().getParentPath().getLeaf() instanceof AssignmentTree assignment) {
        types.add(ASTHelpers.getType(assignment.getExpression()));
      }
    }
    return anyAccessOrdered(types, state);
  }

  private static boolean anyAccessOrdered(List<Type> types, VisitorState state) {
    for (Type type : types) {
      if (type == null || type.getTag() == TypeTag.BOT) {
        continue; // 'f = null': the null type is a subtype of every type, and holds no map
      }
      for (String ordered : ReadMostlyKnowledge.ACCESS_ORDERED_TYPES) {
        Type known = state.getTypeFromString(ordered);
        if (known != null
            && ASTHelpers.isSubtype(
                state.getTypes().erasure(type), state.getTypes().erasure(known), state)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A call on a receiver whose type, or whose field's initial value, may be access-ordered. */
  private static boolean isAccessOrdered(MethodInvocationTree call, VisitorState state) {
    if (!(call.getMethodSelect() instanceof MemberSelectTree select)) {
      return false;
    }
    List<Type> types = new ArrayList<>();
    types.add(ASTHelpers.getType(select.getExpression()));
    VarSymbol field = FieldAccesses.fieldOf(select.getExpression());
    if (field != null) {
      types.add(field.type);
    }
    for (Type type : types) {
      for (String ordered : ReadMostlyKnowledge.ACCESS_ORDERED_TYPES) {
        Type known = state.getTypeFromString(ordered);
        if (type != null
            && known != null
            && ASTHelpers.isSubtype(
                state.getTypes().erasure(type), state.getTypes().erasure(known), state)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A static final primitive or String: a constant, no state. */
  private static boolean isConstant(VarSymbol var, VisitorState state) {
    return var.getModifiers().contains(Modifier.STATIC)
        && var.getModifiers().contains(Modifier.FINAL)
        && (var.type.isPrimitive()
            || state.getTypes().isSameType(var.type, state.getSymtab().stringType));
  }

  private static boolean isCopyConstructor(NewClassTree tree, Type type) {
    if (tree.getArguments().size() != 1 || type.tsym == null) {
      return false;
    }
    Symbol pkg = type.tsym.packge();
    return pkg != null
        && ReadMostlyKnowledge.COPY_CONSTRUCTOR_PACKAGES.contains(pkg.getQualifiedName().toString())
        && !type.tsym.getSimpleName().toString().endsWith("Exception");
  }

  private static boolean isLocal(ExpressionTree tree) {
    Symbol symbol = ASTHelpers.getSymbol(ASTHelpers.stripParentheses(tree));
    return symbol != null
        && (symbol.getKind() == ElementKind.LOCAL_VARIABLE
            || symbol.getKind() == ElementKind.PARAMETER
            || symbol.getKind() == ElementKind.RESOURCE_VARIABLE
            || symbol.getKind() == ElementKind.EXCEPTION_PARAMETER);
  }

  /**
   * Whether the field's contents are state a lock reads: an array (an element assignment), or a
   * collection or map (a call on it).
   */
  static boolean holdsStateContents(FieldAccesses.Access access, VisitorState state) {
    Type type = ASTHelpers.getType(access.tree());
    if (type == null) {
      return true;
    }
    if (!(access.path().getParentPath().getParentPath().getLeaf()
        instanceof MethodInvocationTree)) {
      return true; // an array element assignment
    }
    for (String container : ReadMostlyKnowledge.CONTAINER_TYPES) {
      Type known = state.getTypeFromString(container);
      if (known != null
          && ASTHelpers.isSubtype(
              state.getTypes().erasure(type), state.getTypes().erasure(known), state)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a call through a field only reads it ({@code names.size()}, {@code names.toArray()}).
   */
  static boolean isReadOnlyUse(FieldAccesses.Access access, VisitorState state) {
    Tree call = access.path().getParentPath().getParentPath().getLeaf();
    if (!(call instanceof MethodInvocationTree invocation)) {
      return false; // an array element assignment
    }
    MethodSymbol method = ASTHelpers.getSymbol(invocation);
    return ReadMostlyKnowledge.READ_CALLS.matches(method, state)
        || ReadMostlyKnowledge.COPY_CALLS.matches(method, state);
  }

  /**
   * Whether the region starts with {@code if (snapshot != null) return snapshot;}: it already hands
   * out a published snapshot, and copies only until one exists (Spring 2.5.2's {@code
   * frozenBeanDefinitionNames}).
   */
  static boolean returnsSnapshotFirst(BlockTree body) {
    if (body.getStatements().isEmpty() || !(body.getStatements().get(0) instanceof IfTree test)) {
      return false;
    }
    if (!(ASTHelpers.stripParentheses(test.getCondition()) instanceof BinaryTree condition)
        || condition.getKind() != Tree.Kind.NOT_EQUAL_TO) {
      return false;
    }
    VarSymbol tested = FieldAccesses.fieldOf(condition.getLeftOperand());
    if (tested == null) {
      tested = FieldAccesses.fieldOf(condition.getRightOperand());
    }
    StatementTree then = test.getThenStatement();
    if (then instanceof BlockTree block && block.getStatements().size() == 1) {
      then = block.getStatements().get(0);
    }
    return tested != null
        && then instanceof ReturnTree ret
        && ret.getExpression() != null
        && tested.equals(FieldAccesses.fieldOf(ret.getExpression()));
  }
}
