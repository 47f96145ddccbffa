package io.github.lockjaw.checks.dao;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.tools.javac.api.JavacTrees;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Scope;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.checks.support.ImmediateCodeScanner;
import io.github.lockjaw.common.ClassFileMethods;
import io.github.lockjaw.common.InheritedTemplates;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import javax.tools.JavaFileObject;

/**
 * Source side of {@link InheritedTemplates}: whether a method overrides a hook that a {@code
 * synchronized} template method of a superclass calls on {@code this}, so that the method runs
 * under the inherited instance monitor. The superclass may be anywhere javac finds it: in a class
 * file (a jar, target/classes; its code is read with {@link ClassFileMethods}, since javac keeps
 * only its signatures), or in source, in this file or another (its method tree is read; an
 * unattributed tree, as a source-path class in the editor, resolves the call by name among the
 * superclass's members). Whatever cannot be read is no evidence: the answer is then empty.
 */
final class InheritedTemplateLock {

  /**
   * A template that holds the monitor while the hook runs.
   *
   * @param superclass the class that declares the template
   * @param template the template's name
   */
  record Found(ClassSymbol superclass, String template) {}

  /** What class files were read to say, per superclass; the symbols of one compilation. */
  private static final Map<ClassSymbol, Optional<List<InheritedTemplates.Template>>> READ =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** Whether a class declares a synchronized instance method, per class of one compilation. */
  private static final Map<ClassSymbol, Boolean> SYNCHRONIZES =
      Collections.synchronizedMap(new WeakHashMap<>());

  private InheritedTemplateLock() {}

  /** The first template (nearest superclass first) whose monitor {@code method} runs under. */
  static Optional<Found> find(MethodTree method, VisitorState state) {
    MethodSymbol hook = ASTHelpers.getSymbol(method);
    if (hook == null
        || method.getBody() == null
        || hook.isStatic()
        || hook.isConstructor()
        || (hook.flags() & (Flags.PRIVATE | Flags.SYNCHRONIZED | Flags.ABSTRACT)) != 0
        || !(hook.owner instanceof ClassSymbol owner)
        || owner.isInterface()) {
      return Optional.empty(); // a synchronized override is reported for its own lock
    }
    Types types = state.getTypes();
    if (!anySuperclassSynchronizes(owner, types)) {
      return Optional.empty(); // most classes: nothing to look for, and no supertype walk
    }
    Set<MethodSymbol> overridden = new LinkedHashSet<>(ASTHelpers.findSuperMethods(hook, types));
    if (overridden.isEmpty()) {
      return Optional.empty();
    }
    for (ClassSymbol superclass : readSuperclasses(owner, types)) {
      Optional<String> template = templateCalling(superclass, owner, hook, overridden, state);
      if (template.isPresent()) {
        return Optional.of(new Found(superclass, template.get()));
      }
    }
    return Optional.empty();
  }

  /**
   * The superclasses whose templates are read, nearest first: up to {@link
   * InheritedTemplates#MAX_DEPTH}, stopping at the first one {@link
   * InheritedTemplates#isReadSuperclass} leaves out (the JDK's).
   */
  private static List<ClassSymbol> readSuperclasses(ClassSymbol owner, Types types) {
    List<ClassSymbol> read = new ArrayList<>();
    Type superType = types.supertype(owner.type);
    while (read.size() < InheritedTemplates.MAX_DEPTH
        && superType != null
        && superType.hasTag(TypeTag.CLASS)
        && superType.tsym instanceof ClassSymbol superclass
        && InheritedTemplates.isReadSuperclass(superclass.flatName().toString())) {
      read.add(superclass);
      superType = types.supertype(superclass.type);
    }
    return read;
  }

  /** Whether a superclass that is read declares a synchronized instance method. */
  private static boolean anySuperclassSynchronizes(ClassSymbol owner, Types types) {
    for (ClassSymbol superclass : readSuperclasses(owner, types)) {
      if (SYNCHRONIZES.computeIfAbsent(superclass, InheritedTemplateLock::synchronizes)) {
        return true;
      }
    }
    return false;
  }

  private static boolean synchronizes(ClassSymbol type) {
    for (Symbol member : type.members().getSymbols(Scope.LookupKind.NON_RECURSIVE)) {
      if (member instanceof MethodSymbol method
          && (method.flags() & Flags.SYNCHRONIZED) != 0
          && !method.isStatic()) {
        return true;
      }
    }
    return false;
  }

  /** A template of {@code superclass} that calls the hook on {@code this} and still runs. */
  private static Optional<String> templateCalling(
      ClassSymbol superclass,
      ClassSymbol owner,
      MethodSymbol hook,
      Set<MethodSymbol> overridden,
      VisitorState state) {
    Types types = state.getTypes();
    List<MethodSymbol> templates = new ArrayList<>();
    for (Symbol member : superclass.members().getSymbols(Scope.LookupKind.NON_RECURSIVE)) {
      if (member instanceof MethodSymbol candidate
          && InheritedTemplates.mayBeTemplate(
              (candidate.flags() & Flags.SYNCHRONIZED) != 0,
              candidate.isStatic(),
              (candidate.flags() & (Flags.ABSTRACT | Flags.NATIVE)) == 0,
              candidate.getSimpleName().toString(),
              candidate.getParameters().size(),
              candidate.getReturnType() != null && candidate.getReturnType().hasTag(TypeTag.VOID))
          && candidate.implementation(owner, types, true) == candidate) {
        templates.add(0, candidate); // the scope lists the last declared first
      }
    }
    if (templates.isEmpty()) {
      return Optional.empty();
    }
    JavaFileObject file = superclass.classfile;
    if (file != null && file.getKind() == JavaFileObject.Kind.CLASS) {
      return inClassFile(superclass, templates, overridden, state);
    }
    JavacTrees trees = JavacTrees.instance(state.context);
    for (MethodSymbol template : templates) {
      JCTree.JCMethodDecl tree = trees.getTree(template);
      if (tree != null && tree.getBody() != null && callsHookOnThis(tree, owner, hook, state)) {
        return Optional.of(template.getSimpleName().toString());
      }
    }
    return Optional.empty(); // a superclass javac has no tree for: no evidence
  }

  private static Optional<String> inClassFile(
      ClassSymbol superclass,
      List<MethodSymbol> templates,
      Set<MethodSymbol> overridden,
      VisitorState state) {
    Types types = state.getTypes();
    // the hook as the superclass's code calls it: the overridden method, erased
    Set<String> hooks = new LinkedHashSet<>();
    for (MethodSymbol method : overridden) {
      if (superclass.isSubClass(method.owner, types)) {
        descriptor(method, types).ifPresent(d -> hooks.add(method.getSimpleName() + d));
      }
    }
    if (hooks.isEmpty()) {
      return Optional.empty();
    }
    Map<String, MethodSymbol> byDescriptor = new HashMap<>();
    for (MethodSymbol template : templates) {
      descriptor(template, types)
          .ifPresent(d -> byDescriptor.put(template.getSimpleName() + d, template));
    }
    Optional<List<InheritedTemplates.Template>> read =
        READ.computeIfAbsent(superclass, InheritedTemplateLock::readClassFile);
    for (InheritedTemplates.Template template : read.orElse(List.of())) {
      if (hooks.contains(template.hook())
          && byDescriptor.containsKey(template.name() + template.descriptor())) {
        return Optional.of(template.name());
      }
    }
    return Optional.empty();
  }

  /** Every template of the class file with every call it makes that could be a hook. */
  private static Optional<List<InheritedTemplates.Template>> readClassFile(ClassSymbol superclass) {
    try (InputStream in = superclass.classfile.openInputStream()) {
      return ClassFileMethods.read(in)
          .map(methods -> InheritedTemplates.callingHooks(methods, call -> true));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // unreadable: no evidence
    }
  }

  /**
   * Whether the template's body calls the hook on {@code this} where it runs (not in a lambda or a
   * nested class): {@code doHandle(e)} or {@code this.doHandle(e)}, resolved to a method that the
   * class's {@code hook} implements.
   */
  private static boolean callsHookOnThis(
      JCTree.JCMethodDecl template, ClassSymbol owner, MethodSymbol hook, VisitorState state) {
    boolean[] calls = {false};
    new ImmediateCodeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        if (!calls[0] && isOnThis(tree.getMethodSelect())) {
          MethodSymbol called = resolve(tree);
          calls[0] =
              called != null
                  && !called.isStatic()
                  && called.implementation(owner, state.getTypes(), true) == hook;
        }
        return super.visitMethodInvocation(tree, unused);
      }
    }.scan(template.getBody(), null);
    return calls[0];
  }

  /**
   * The method a call resolves to, or null when the tree is not attributed. javac attributes a
   * class's superclasses before the class (Attr.attribClass), so the template of a superclass from
   * source, in this file, another file or the editor's source path, has its symbols; a tree without
   * them is no evidence.
   */
  private static MethodSymbol resolve(MethodInvocationTree tree) {
    return TreeInfo.symbol((JCTree) tree.getMethodSelect()) instanceof MethodSymbol method
        ? method
        : null;
  }

  /** {@code doHandle(e)}, {@code this.doHandle(e)}; not {@code super.doHandle(e)}. */
  private static boolean isOnThis(ExpressionTree select) {
    if (select instanceof IdentifierTree) {
      return true;
    }
    return select instanceof MemberSelectTree member
        && ASTHelpers.stripParentheses(member.getExpression()) instanceof IdentifierTree receiver
        && receiver.getName().contentEquals("this");
  }

  /** A method's descriptor as a class file names it, from its erased type. */
  private static Optional<String> descriptor(MethodSymbol method, Types types) {
    Type erased = types.erasure(method.type);
    if (!(erased instanceof Type.MethodType type)) {
      return Optional.empty();
    }
    StringBuilder descriptor = new StringBuilder("(");
    for (Type parameter : type.getParameterTypes()) {
      if (!appendDescriptor(descriptor, parameter)) {
        return Optional.empty();
      }
    }
    descriptor.append(')');
    return appendDescriptor(descriptor, type.getReturnType())
        ? Optional.of(descriptor.toString())
        : Optional.empty();
  }

  private static boolean appendDescriptor(StringBuilder descriptor, Type type) {
    switch (type.getTag()) {
      case BOOLEAN -> descriptor.append('Z');
      case BYTE -> descriptor.append('B');
      case CHAR -> descriptor.append('C');
      case SHORT -> descriptor.append('S');
      case INT -> descriptor.append('I');
      case LONG -> descriptor.append('J');
      case FLOAT -> descriptor.append('F');
      case DOUBLE -> descriptor.append('D');
      case VOID -> descriptor.append('V');
      case ARRAY -> {
        descriptor.append('[');
        return appendDescriptor(descriptor, ((Type.ArrayType) type).getComponentType());
      }
      case CLASS -> {
        if (!(type.tsym instanceof ClassSymbol symbol)) {
          return false;
        }
        descriptor.append('L').append(symbol.flatName().toString().replace('.', '/')).append(';');
      }
      default -> {
        return false;
      }
    }
    return true;
  }
}
