package io.github.lockjaw.model.source;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Attribute;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.FieldFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Value;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.ElementKind;

/**
 * The source front-end of the model: the classes of one attributed compilation unit (nested, local
 * and anonymous ones included) into {@link ClassFacts}, the same facts the bytecode front-end reads
 * from their class files, with {@link Origins} that lead back to the trees.
 */
public final class SourceFacts {
  private static final int BRIDGE = 0x40;
  private static final int SYNTHETIC = 0x1000;

  /** What the front-end read from one compilation unit. */
  public record Unit(List<ClassFacts> classes, Origins origins) {}

  private final JavacNames names;
  private final TreePath unit;
  private final String origin;
  private final List<ClassFacts> classes = new ArrayList<>();
  private final Origins origins = new Origins();

  /** The methods (and lambda bodies) of the class being read. */
  private List<MethodFacts> methods;

  private SourceFacts(Types types, TreePath unit) {
    this.names = new JavacNames(types);
    this.unit = unit;
    CompilationUnitTree tree = (CompilationUnitTree) unit.getLeaf();
    this.origin = tree.getSourceFile() == null ? "" : tree.getSourceFile().toUri().getPath();
  }

  /** Reads every class of an attributed compilation unit. */
  public static Unit read(CompilationUnitTree compilationUnit, Types types) {
    TreePath unitPath = new TreePath(compilationUnit);
    SourceFacts facts = new SourceFacts(types, unitPath);
    for (Tree declaration : compilationUnit.getTypeDecls()) {
      if (declaration instanceof ClassTree) {
        facts.readClass(new TreePath(unitPath, declaration));
      }
    }
    return new Unit(List.copyOf(facts.classes), facts.origins);
  }

  JavacNames names() {
    return names;
  }

  /** Reads a class declaration (a member, local or anonymous class too) and its nested classes. */
  void readClass(TreePath path) {
    ClassTree tree = (ClassTree) path.getLeaf();
    Symbol found = TreeInfo.symbolFor((JCTree) tree);
    if (!(found instanceof ClassSymbol symbol)) {
      return;
    }
    List<MethodFacts> outerMethods = methods;
    methods = new ArrayList<>();
    List<FieldFacts> fields = new ArrayList<>();
    List<TreePath> instanceInitializers = new ArrayList<>();
    List<TreePath> staticInitializers = new ArrayList<>();
    List<TreePath> nested = new ArrayList<>();
    for (Tree member : tree.getMembers()) {
      TreePath memberPath = new TreePath(path, member);
      switch (member) {
        case VariableTree variable -> {
          Symbol fieldSymbol = TreeInfo.symbolFor((JCTree) variable);
          if (fieldSymbol instanceof VarSymbol field) {
            fields.add(
                new FieldFacts(
                    names.fieldRef(field, null), JavacNames.access(field), annotations(field)));
            boolean constant = field.getConstValue() != null && field.isStatic();
            if (variable.getInitializer() != null && !constant) {
              (field.isStatic() ? staticInitializers : instanceInitializers).add(memberPath);
            }
          }
        }
        case BlockTree block ->
            (block.isStatic() ? staticInitializers : instanceInitializers).add(memberPath);
        case ClassTree inner -> nested.add(memberPath);
        default -> {}
      }
    }
    for (Tree member : tree.getMembers()) {
      if (member instanceof MethodTree method) {
        readMethod(new TreePath(path, member), method, symbol, instanceInitializers);
      }
    }
    if (!staticInitializers.isEmpty()) {
      readStaticInitializer(path, symbol, staticInitializers);
    }
    Type superclass = symbol.getSuperclass();
    String superName =
        symbol.isInterface() || superclass == null || superclass.getTag() != TypeTag.CLASS
            ? null
            : JavacNames.binaryName(superclass.tsym);
    List<String> interfaces =
        symbol.getInterfaces().stream().map(i -> JavacNames.binaryName(i.tsym)).toList();
    ClassSymbol enclosing = symbol.owner == null ? null : symbol.owner.enclClass();
    classes.add(
        new ClassFacts(
            JavacNames.binaryName(symbol),
            JavacNames.access(symbol),
            superName,
            interfaces,
            annotations(symbol),
            enclosing == null || enclosing == symbol ? null : JavacNames.binaryName(enclosing),
            fields,
            methods,
            origin,
            true));
    methods = outerMethods;
    for (TreePath inner : nested) {
      readClass(inner);
    }
  }

  private void readMethod(
      TreePath path, MethodTree tree, ClassSymbol owner, List<TreePath> instanceInitializers) {
    Symbol found = TreeInfo.symbolFor((JCTree) tree);
    if (!(found instanceof MethodSymbol symbol)) {
      return;
    }
    MethodRef ref = constructorRef(symbol, owner);
    BodyReader reader = new BodyReader(this, ref, owner, unit);
    int index = 0;
    for (VariableTree parameter : tree.getParameters()) {
      reader.bindParameter(TreeInfo.symbolFor((JCTree) parameter), index++);
    }
    if ((symbol.flags() & Flags.SYNCHRONIZED) != 0) {
      reader.lockWholeMethod(path, symbol.isStatic());
    }
    if (tree.getBody() != null) {
      TreePath body = new TreePath(path, tree.getBody());
      List<? extends StatementTree> statements = tree.getBody().getStatements();
      if (symbol.isConstructor() && !statements.isEmpty() && isSuperCall(statements.get(0))) {
        reader.statement(new TreePath(body, statements.get(0)));
        for (TreePath initializer : instanceInitializers) {
          readInitializer(reader, initializer);
        }
        reader.block(body, statements.subList(1, statements.size()));
      } else {
        reader.block(body, statements);
      }
      if (symbol.getReturnType().getTag() == TypeTag.VOID && completesNormally(tree.getBody())) {
        reader.emitReturn(body, List.of());
      }
    }
    record(reader, ref, JavacNames.access(symbol), annotations(symbol), path, null);
    readBridges(path, symbol, owner, ref, reader.ops.isEmpty() ? 0 : reader.ops.get(0).line());
  }

  /**
   * The bridge methods javac writes for a method that overrides one with another erasure (a generic
   * or covariant override): {@code doHandle(Object)} calls {@code doHandle(String)} on {@code
   * this}, so that a call through the supertype reaches the override, as in the class file.
   */
  private void readBridges(
      TreePath path, MethodSymbol symbol, ClassSymbol owner, MethodRef ref, int line) {
    if (symbol.isStatic()
        || symbol.isConstructor()
        || (symbol.flags() & Flags.PRIVATE) != 0
        || owner.isInterface()) {
      return;
    }
    try {
      addBridges(path, symbol, owner, ref, line);
    } catch (RuntimeException e) {
      // a supertype javac could not complete: no bridge, as no override is known
    }
  }

  private void addBridges(
      TreePath path, MethodSymbol symbol, ClassSymbol owner, MethodRef ref, int line) {
    Types types = names.types();
    List<String> written = new ArrayList<>();
    for (Type supertype : types.closure(owner.type)) {
      if (supertype.tsym == owner) {
        continue;
      }
      for (Symbol member : supertype.tsym.members().getSymbolsByName(symbol.name)) {
        if (!(member instanceof MethodSymbol overridden)
            || overridden.isStatic()
            || (overridden.flags() & Flags.PRIVATE) != 0
            || !symbol.overrides(overridden, owner, types, true)) {
          continue;
        }
        String descriptor = names.declared(overridden).descriptor();
        if (descriptor.equals(ref.descriptor())
            || written.contains(descriptor)
            || declares(owner, symbol, descriptor)) {
          continue;
        }
        written.add(descriptor);
        MethodRef bridge = new MethodRef(ref.owner(), ref.name(), descriptor);
        List<Value> args = new ArrayList<>();
        for (int i = 0; i < symbol.getParameters().size(); i++) {
          args.add(new Value.Param(i));
        }
        boolean returns = symbol.getReturnType().getTag() != TypeTag.VOID;
        Context plain = new Context(List.of(), List.of(), List.of(), false);
        List<Op> ops =
            List.of(
                new Op(0, Op.Kind.INVOKE_VIRTUAL, ref, null, Value.THIS, args, plain, line),
                new Op(
                    1,
                    Op.Kind.RETURN,
                    null,
                    null,
                    null,
                    returns ? List.of(new Value.Result(0)) : List.of(),
                    plain,
                    line));
        int access =
            (JavacNames.access(symbol) & (Modifier.PUBLIC | Modifier.PROTECTED))
                | BRIDGE
                | SYNTHETIC;
        methods.add(
            new MethodFacts(bridge, access, List.of(), ops, List.of(), List.of(), line, null));
        origins.method(bridge, path, List.of(path, path), List.of());
      }
    }
  }

  /** Whether the class declares a method of this name and descriptor itself. */
  private boolean declares(ClassSymbol owner, MethodSymbol symbol, String descriptor) {
    for (Symbol member : owner.members().getSymbolsByName(symbol.name)) {
      if (member instanceof MethodSymbol declared
          && names.declared(declared).descriptor().equals(descriptor)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A constructor's name as the class file has it: an inner member class's constructors take the
   * enclosing instance first, an enum's the constant's name and ordinal.
   */
  private MethodRef constructorRef(MethodSymbol symbol, ClassSymbol owner) {
    MethodRef declared = names.declared(symbol);
    if (!symbol.isConstructor()) {
      return declared;
    }
    String descriptor = declared.descriptor();
    if ((owner.flags() & Flags.ENUM) != 0) {
      descriptor = "(Ljava/lang/String;I" + descriptor.substring(1);
    } else if (BodyReader.takesOuterInstance(owner)) {
      ClassSymbol outer = BodyReader.outerClassOf(owner);
      descriptor =
          "(L" + JavacNames.binaryName(outer).replace('.', '/') + ";" + descriptor.substring(1);
    }
    return new MethodRef(declared.owner(), declared.name(), descriptor);
  }

  private static boolean isSuperCall(StatementTree statement) {
    if (!(statement instanceof ExpressionStatementTree expression)
        || !(expression.getExpression() instanceof MethodInvocationTree call)) {
      return false;
    }
    String name = TreeInfo.name((JCTree.JCExpression) call.getMethodSelect()).toString();
    return name.equals("super");
  }

  private static boolean completesNormally(BlockTree body) {
    List<? extends StatementTree> statements = body.getStatements();
    if (statements.isEmpty()) {
      return true;
    }
    return switch (statements.get(statements.size() - 1).getKind()) {
      case RETURN, THROW -> false;
      default -> true;
    };
  }

  private void readInitializer(BodyReader reader, TreePath initializer) {
    if (initializer.getLeaf() instanceof VariableTree variable) {
      VarSymbol field = (VarSymbol) TreeInfo.symbolFor((JCTree) variable);
      TreePath valuePath = new TreePath(initializer, variable.getInitializer());
      Value value = reader.eval(valuePath);
      reader.emit(
          Op.Kind.PUT_FIELD,
          null,
          names.fieldRef(field, null),
          field.isStatic() ? null : Value.THIS,
          List.of(value),
          initializer);
    } else {
      BlockTree block = (BlockTree) initializer.getLeaf();
      reader.block(initializer, block.getStatements());
    }
  }

  private void readStaticInitializer(TreePath classPath, ClassSymbol owner, List<TreePath> parts) {
    MethodRef ref = new MethodRef(JavacNames.binaryName(owner), "<clinit>", "()V");
    BodyReader reader = new BodyReader(this, ref, owner, unit);
    for (TreePath part : parts) {
      readInitializer(reader, part);
    }
    reader.emitReturn(classPath, List.of());
    record(reader, ref, Modifier.STATIC, List.of(), classPath, null);
  }

  /** Reads a lambda body as a method of its own, named after the method it is written in. */
  void readLambda(TreePath path, MethodRef ref, MethodRef enclosing, ClassSymbol owner) {
    LambdaExpressionTree tree = (LambdaExpressionTree) path.getLeaf();
    BodyReader reader = new BodyReader(this, ref, owner, unit);
    int index = 0;
    for (VariableTree parameter : tree.getParameters()) {
      reader.bindParameter(TreeInfo.symbolFor((JCTree) parameter), index++);
    }
    TreePath body = new TreePath(path, tree.getBody());
    if (tree.getBody() instanceof BlockTree block) {
      reader.block(body, block.getStatements());
    } else {
      Value value = reader.eval(body);
      Type type = ((JCTree) tree).type;
      boolean returnsValue = returnsValue(type);
      reader.emitReturn(body, returnsValue ? List.of(value) : List.of());
    }
    record(reader, ref, Modifier.PRIVATE, List.of(), path, enclosing);
  }

  private boolean returnsValue(Type functionalInterface) {
    if (functionalInterface == null) {
      return false;
    }
    try {
      Type descriptor = names.types().findDescriptorType(functionalInterface);
      return descriptor.getReturnType().getTag() != TypeTag.VOID;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void record(
      BodyReader reader,
      MethodRef ref,
      int access,
      List<String> annotations,
      TreePath path,
      MethodRef enclosing) {
    methods.add(
        new MethodFacts(
            ref,
            access,
            annotations,
            reader.ops,
            reader.regions,
            reader.loops,
            reader.ops.isEmpty() ? 0 : reader.ops.get(0).line(),
            enclosing,
            parameterNames(path)));
    origins.method(ref, path, reader.opPaths, reader.regionPaths);
  }

  /** The names of a method declaration's parameters (none for a lambda or an initialiser). */
  private static List<String> parameterNames(TreePath path) {
    if (!(path.getLeaf() instanceof MethodTree method)) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (VariableTree parameter : method.getParameters()) {
      names.add(parameter.getName().toString());
    }
    return names;
  }

  /** The binary names of the annotations a class file keeps (not those of source retention). */
  private static List<String> annotations(Symbol symbol) {
    List<String> names = new ArrayList<>();
    for (Attribute.Compound annotation : symbol.getRawAttributes()) {
      Symbol.TypeSymbol type = annotation.type.tsym;
      if (retention(type) != RetentionPolicy.SOURCE) {
        names.add(JavacNames.binaryName(type));
      }
    }
    return names;
  }

  private static RetentionPolicy retention(Symbol.TypeSymbol annotationType) {
    for (Attribute.Compound meta : annotationType.getRawAttributes()) {
      if (meta.type.tsym.getQualifiedName().contentEquals("java.lang.annotation.Retention")) {
        for (var pair : meta.values) {
          if (pair.snd instanceof Attribute.Enum value) {
            return RetentionPolicy.valueOf(value.value.getSimpleName().toString());
          }
        }
      }
    }
    return RetentionPolicy.CLASS;
  }

  static boolean isField(Symbol symbol) {
    return symbol.getKind() == ElementKind.FIELD;
  }
}
