package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * What the source fix of a SharedMonitorDao finding must know about the code of one compilation
 * unit before it drops a lock: which mutable state a region touches (directly or through methods of
 * the same file), whether the file waits on or notifies a monitor, and whether it locks an object
 * of the class from outside. One instance per compilation unit and finding.
 */
final class FixEvidence {
  private static final KnowledgeIndex IMMUTABLE_TYPES =
      KnowledgeIndex.of(Kind.ThreadSafety.IMMUTABLE_TYPE);
  private static final KnowledgeIndex THREAD_SAFE_TYPES =
      KnowledgeIndex.of(
          Kind.ThreadSafety.THREAD_SAFE_TYPE, Kind.Jdbc.THREAD_SAFE_TYPE, Kind.Io.THREAD_SAFE_TYPE);

  private final VisitorState state;
  private final TreePath unit;
  private final Map<MethodSymbol, TreePath> methods = new HashMap<>();
  private final Map<MethodSymbol, Optional<String>> touches = new HashMap<>();

  private FixEvidence(TreePath unit, VisitorState state) {
    this.unit = unit;
    this.state = state;
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethod(MethodTree tree, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol != null && tree.getBody() != null) {
          methods.put(symbol, getCurrentPath());
        }
        return super.visitMethod(tree, unused);
      }
    }.scan(unit, null);
  }

  /** The facts of the compilation unit that {@code any} belongs to. */
  static FixEvidence forUnit(TreePath any, VisitorState state) {
    TreePath path = any;
    while (path.getParentPath() != null) {
      path = path.getParentPath();
    }
    return new FixEvidence(path, state);
  }

  /**
   * The first piece of mutable state that a region touches, directly or through methods of the same
   * file, described for a message ({@code field 'openCount'}); empty when the region uses only its
   * parameters, locals, constants and final fields of thread-safe types. The lock expression of a
   * {@code synchronized} block is not part of its region.
   */
  Optional<String> mutableStateTouchedBy(Tree region) {
    Tree body =
        region instanceof MethodTree method
            ? method.getBody()
            : region instanceof SynchronizedTree block ? block.getBlock() : region;
    if (body == null) {
      return Optional.of("an abstract method");
    }
    TreePath bodyPath = TreePath.getPath(unit, body);
    return bodyPath == null ? Optional.of("code lockjaw cannot locate") : scanForState(bodyPath);
  }

  private Optional<String> touchesOfMethod(MethodSymbol symbol) {
    if (touches.containsKey(symbol)) {
      return touches.get(symbol);
    }
    touches.put(symbol, Optional.empty()); // a recursive call adds nothing new
    TreePath path = methods.get(symbol);
    Optional<String> result =
        path == null
            ? Optional.of("method " + symbol.getSimpleName() + "()")
            : mutableStateTouchedBy(path.getLeaf());
    touches.put(symbol, result);
    return result;
  }

  private Optional<String> scanForState(TreePath body) {
    String[] found = {null};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        return found[0] != null ? null : super.scan(tree, unused);
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        if (tree.getName().contentEquals("this") || tree.getName().contentEquals("super")) {
          if (!(getCurrentPath().getParentPath().getLeaf() instanceof MemberSelectTree)) {
            found[0] = "'" + tree.getName() + "', passed on as a value";
          }
          return null;
        }
        checkField(ASTHelpers.getSymbol(tree));
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        checkField(ASTHelpers.getSymbol(tree));
        return super.visitMemberSelect(tree, unused);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        Symbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol instanceof MethodSymbol method && methods.containsKey(method)) {
          touchesOfMethod(method).ifPresent(s -> found[0] = s);
        }
        return super.visitMemberReference(tree, unused);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        MethodSymbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol == null) {
          found[0] = "a call lockjaw cannot resolve";
          return null;
        }
        String name = symbol.getSimpleName().toString();
        if ((name.equals("wait") || name.equals("notify") || name.equals("notifyAll"))
            && symbol.owner == state.getSymtab().objectType.tsym) {
          found[0] = name + "() on a monitor";
          return null;
        }
        if (methods.containsKey(symbol)) {
          touchesOfMethod(symbol).ifPresent(s -> found[0] = s);
        } else if (!symbol.isStatic() && isOwnReceiver(tree.getMethodSelect())) {
          found[0] = "inherited method " + name + "()";
        }
        return super.visitMethodInvocation(tree, unused);
      }

      @Override
      public Void visitNewClass(NewClassTree tree, Void unused) {
        MethodSymbol constructor = ASTHelpers.getSymbol(tree);
        Type type = ASTHelpers.getType(tree);
        if (type != null
            && type.tsym instanceof Symbol.ClassSymbol created
            && tree.getClassBody() == null
            && hasOuterInstance(created)) {
          found[0] = "inner class " + created.getSimpleName() + ", which captures 'this'";
          return null;
        }
        if (constructor != null && methods.containsKey(constructor)) {
          touchesOfMethod(constructor).ifPresent(s -> found[0] = s);
        }
        return super.visitNewClass(tree, unused);
      }

      private void checkField(Symbol symbol) {
        if (!(symbol instanceof VarSymbol field) || field.getKind() != ElementKind.FIELD) {
          return;
        }
        if (field.getConstValue() != null) {
          return;
        }
        boolean isFinal = field.getModifiers().contains(Modifier.FINAL);
        if (!isFinal || !isThreadSafe(field.type)) {
          found[0] = "field '" + field.getSimpleName() + "'";
        }
      }
    }.scan(body, null);
    return Optional.ofNullable(found[0]);
  }

  private static boolean hasOuterInstance(Symbol.ClassSymbol created) {
    try {
      return created.hasOuterInstance();
    } catch (RuntimeException e) {
      return true;
    }
  }

  private static boolean isOwnReceiver(ExpressionTree select) {
    if (select instanceof IdentifierTree) {
      return true; // implicit this
    }
    if (select instanceof MemberSelectTree member
        && ASTHelpers.stripParentheses(member.getExpression()) instanceof IdentifierTree receiver) {
      return receiver.getName().contentEquals("this") || receiver.getName().contentEquals("super");
    }
    return false;
  }

  /** Whether any code in the file calls {@code wait}, {@code notify} or {@code notifyAll}. */
  boolean usesWaitOrNotify() {
    return MoreTrees.anyMatch(
        unit.getLeaf(),
        node -> {
          if (!(node instanceof MethodInvocationTree call)) {
            return false;
          }
          MethodSymbol symbol = ASTHelpers.getSymbol(call);
          if (symbol == null || symbol.owner != state.getSymtab().objectType.tsym) {
            return false;
          }
          String name = symbol.getSimpleName().toString();
          return name.equals("wait") || name.equals("notify") || name.equals("notifyAll");
        });
  }

  /**
   * Whether code in the file locks an object of the given class from outside it ({@code
   * synchronized (dao)}), making the class's instance monitor part of a wider protocol.
   */
  boolean locksFromOutside(Symbol.ClassSymbol owner) {
    return MoreTrees.anyMatch(
        unit.getLeaf(),
        node -> {
          if (!(node instanceof SynchronizedTree tree)) {
            return false;
          }
          ExpressionTree lock = ASTHelpers.stripParentheses(tree.getExpression());
          boolean isThis =
              (lock instanceof IdentifierTree id && id.getName().contentEquals("this"))
                  || (lock instanceof MemberSelectTree s
                      && s.getIdentifier().contentEquals("this"));
          Type type = ASTHelpers.getType(lock);
          return !isThis
              && type != null
              && state
                  .getTypes()
                  .isSubtype(state.getTypes().erasure(type), state.getTypes().erasure(owner.type));
        });
  }

  /** Whether a block has exactly one statement, the given one. */
  static boolean isWholeBody(BlockTree body, Tree statement) {
    return body != null
        && body.getStatements().size() == 1
        && body.getStatements().get(0) == statement;
  }

  /**
   * Whether a final field of this type holds nothing that a lock must guard: primitives, boxes,
   * enums, immutable values and types built for concurrent use (a {@code DataSource}).
   */
  private boolean isThreadSafe(Type type) {
    if (type == null) {
      return false;
    }
    if (type.isPrimitive()) {
      return true;
    }
    if (type.tsym != null && type.tsym.getKind() == ElementKind.ENUM) {
      return true;
    }
    try {
      if (state.getTypes().unboxedType(type).isPrimitive()) {
        return true;
      }
    } catch (RuntimeException e) {
      return false;
    }
    return KnownSymbols.sameTypeEntry(IMMUTABLE_TYPES, type, state).isPresent()
        || KnownSymbols.anySupertypeOrUnresolved(THREAD_SAFE_TYPES, type, state);
  }
}
