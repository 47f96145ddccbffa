package io.github.lockjaw.model.source;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Kinds;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.JCTree.JCMethodInvocation;
import com.sun.tools.javac.tree.JCTree.JCNewClass;
import com.sun.tools.javac.tree.TreeInfo;
import io.github.lockjaw.model.Context;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.lang.model.element.ElementKind;

/**
 * Reads expressions from javac trees into operations, in the order javac's code runs them, with the
 * same values the bytecode front-end derives from the class file (see {@code MethodReader}): calls,
 * field reads and writes, creations, assignments to locals (followed through {@code env}), lambdas
 * and method references. {@link BodyReader} adds statements, monitors, loops and guards; conditions
 * are read by a {@link ConditionReader}.
 */
abstract class ExpressionReader {

  final SourceFacts source;
  final JavacNames names;
  private final MethodRef ref;
  final ClassSymbol owner;
  private final TreePath unit;

  final List<Op> ops = new ArrayList<>();
  final List<TreePath> opPaths = new ArrayList<>();
  final LoopRecorder loopFacts = new LoopRecorder();
  boolean iteratorStep;

  Map<Symbol, Value> env = new HashMap<>();
  final List<Integer> heldRegions = new ArrayList<>();
  final List<Integer> openLoops = new ArrayList<>();
  final List<Guard> guards = new ArrayList<>();
  boolean inHandler;

  private int lambdaOrdinal;
  private int computations;

  final ConditionReader conditions = new ConditionReader(this);

  ExpressionReader(SourceFacts source, MethodRef ref, ClassSymbol owner, TreePath unit) {
    this.source = source;
    this.names = source.names();
    this.ref = ref;
    this.owner = owner;
    this.unit = unit;
  }

  /** The cases of a {@code switch} statement or expression, as the statement reader reads them. */
  abstract void switchCases(TreePath path, ExpressionTree selector, List<? extends CaseTree> cases);

  /** A new computed value: unknown, but one identity wherever it flows. */
  Value computed() {
    return new Value.Computed(computations++);
  }

  // ---------------------------------------------------------------- expressions

  Value eval(TreePath path) {
    Tree tree = path.getLeaf();
    Object constant = constantOf(tree);
    if (constant != null && !(tree instanceof AssignmentTree)) {
      return constantValue(constant);
    }
    return switch (tree) {
      case ParenthesizedTree parens -> eval(child(path, parens.getExpression()));
      case LiteralTree literal -> constantValue(literal.getValue());
      case IdentifierTree ident -> identifier(path, ident);
      case MemberSelectTree select -> memberSelect(path, select);
      case MethodInvocationTree call -> invocation(path, call);
      case NewClassTree creation -> creation(path, creation);
      case AssignmentTree assignment -> assignment(path, assignment);
      case CompoundAssignmentTree compound -> {
        update(path, compound.getVariable(), child(path, compound.getExpression()));
        yield computed();
      }
      case UnaryTree unary -> unary(path, unary);
      case BinaryTree binary -> binary(path, binary);
      case ConditionalExpressionTree conditional -> conditional(path, conditional);
      case TypeCastTree cast -> {
        Value value = eval(child(path, cast.getExpression()));
        Type to = ((JCTree) cast).type;
        Type from = ((JCTree) cast.getExpression()).type;
        boolean primitiveConversion =
            to != null
                && from != null
                && to.isPrimitive()
                && from.isPrimitive()
                && to.getTag() != from.getTag();
        yield primitiveConversion ? computed() : value;
      }
      case InstanceOfTree instanceOf -> {
        Value value = eval(child(path, instanceOf.getExpression()));
        if (instanceOf.getPattern() instanceof BindingPatternTree binding) {
          Symbol symbol = TreeInfo.symbolFor((JCTree) binding.getVariable());
          if (symbol != null) {
            env.put(symbol, value);
            loopFacts.store(symbol, value, guards);
          }
        }
        yield computed();
      }
      case ArrayAccessTree access -> {
        eval(child(path, access.getExpression()));
        eval(child(path, access.getIndex()));
        yield computed();
      }
      case NewArrayTree array -> {
        for (ExpressionTree dimension : array.getDimensions()) {
          eval(child(path, dimension));
        }
        if (array.getInitializers() != null) {
          for (ExpressionTree element : array.getInitializers()) {
            eval(child(path, element));
          }
        }
        yield computed();
      }
      case LambdaExpressionTree lambda -> {
        MethodRef body = MethodRef.lambda(ref, lambdaOrdinal++);
        source.readLambda(path, body, ref, owner);
        yield new Value.Lambda(body);
      }
      case MemberReferenceTree reference -> methodReference(path, reference);
      case SwitchExpressionTree switchExpression -> {
        switchCases(path, switchExpression.getExpression(), switchExpression.getCases());
        yield Value.UNKNOWN;
      }
      default -> Value.UNKNOWN;
    };
  }

  static Object constantOf(Tree tree) {
    if (!(tree instanceof JCTree.JCExpression expression) || expression.type == null) {
      return null;
    }
    Object value = expression.type.constValue();
    if (value instanceof Integer i && expression.type.getTag() == TypeTag.BOOLEAN) {
      return i != 0; // javac keeps boolean constants as 0 and 1
    }
    return value;
  }

  /** A constant as the class file holds it: booleans and chars as ints; no floating point. */
  static Value constantValue(Object constant) {
    if (constant == null) {
      return Value.NULL;
    }
    return switch (constant) {
      case Boolean b -> new Value.Constant(b ? "1" : "0");
      case Character c -> new Value.Constant(Integer.toString(c));
      case Integer i -> new Value.Constant(i.toString());
      case Long l -> new Value.Constant(l.toString());
      case Short s -> new Value.Constant(s.toString());
      case Byte b -> new Value.Constant(b.toString());
      case String s -> new Value.Constant(s);
      default -> Value.UNKNOWN;
    };
  }

  private Value identifier(TreePath path, IdentifierTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    if (symbol == null) {
      return Value.UNKNOWN;
    }
    String name = tree.getName().toString();
    if (name.equals("this")) {
      return Value.THIS;
    }
    if (name.equals("super")) {
      return Value.THIS;
    }
    if (symbol instanceof VarSymbol variable) {
      if (variable.getKind() == ElementKind.FIELD
          || variable.getKind() == ElementKind.ENUM_CONSTANT) {
        if (variable.isStatic()) {
          Type site = memberSite(variable);
          FieldRef field = names.fieldRef(variable, site);
          emit(Op.Kind.GET_FIELD, null, field, null, List.of(), path);
          return new Value.FieldValue(field, null);
        }
        ClassSymbol holder = enclosingMemberHolder(variable);
        Value receiver = outerThis(holder);
        FieldRef field = names.fieldRef(variable, holder.type);
        emit(Op.Kind.GET_FIELD, null, field, receiver, List.of(), path);
        return new Value.FieldValue(field, receiver);
      }
      return env.getOrDefault(variable, Value.UNKNOWN);
    }
    return Value.UNKNOWN;
  }

  private Value memberSelect(TreePath path, MemberSelectTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    String name = tree.getIdentifier().toString();
    if (name.equals("class")) {
      Type type = ((JCTree) tree.getExpression()).type;
      return type == null ? Value.UNKNOWN : new Value.ClassLiteral(names.typeName(type));
    }
    if (name.equals("this") || name.equals("super")) {
      Symbol target = TreeInfo.symbol((JCTree) tree.getExpression());
      return target instanceof ClassSymbol outer ? outerThis(outer) : Value.THIS;
    }
    if (!(symbol instanceof VarSymbol variable)) {
      return Value.UNKNOWN; // a type or package name
    }
    if (name.equals("length")
        && variable.owner.type != null
        && variable.owner.type.getTag() == TypeTag.ARRAY) {
      eval(child(path, tree.getExpression()));
      return Value.UNKNOWN;
    }
    Type site = ((JCTree) tree.getExpression()).type;
    FieldRef field = names.fieldRef(variable, site);
    if (variable.isStatic()) {
      if (!isTypeName(tree.getExpression())) {
        eval(child(path, tree.getExpression()));
      }
      emit(Op.Kind.GET_FIELD, null, field, null, List.of(), path);
      return new Value.FieldValue(field, null);
    }
    Value receiver = eval(child(path, tree.getExpression()));
    emit(Op.Kind.GET_FIELD, null, field, receiver, List.of(), path);
    return new Value.FieldValue(field, receiver);
  }

  private static boolean isTypeName(ExpressionTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    return symbol instanceof Symbol.TypeSymbol || symbol instanceof Symbol.PackageSymbol;
  }

  /** The class, this one or an enclosing one, whose instance holds an inherited member. */
  private ClassSymbol enclosingMemberHolder(Symbol member) {
    for (Symbol c = owner; c != null; c = c.owner == null ? null : c.owner.enclClass()) {
      if (c instanceof ClassSymbol cs
          && (cs == member.owner || cs.isSubClass(member.owner, names.types()))) {
        return cs;
      }
      if (c.owner == null) {
        break;
      }
    }
    return owner;
  }

  private Type memberSite(Symbol member) {
    return enclosingMemberHolder(member).type;
  }

  /**
   * {@code this} of an enclosing class as inner classes reach it: through the {@code this$N} field
   * of each class in between, as javac compiles it.
   */
  private Value outerThis(ClassSymbol target) {
    Value value = Value.THIS;
    ClassSymbol current = owner;
    while (current != null && current != target && !current.isSubClass(target, names.types())) {
      ClassSymbol outer = current.owner == null ? null : current.owner.enclClass();
      if (outer == null || current.isStatic() || (current.flags() & Flags.INTERFACE) != 0) {
        return Value.UNKNOWN;
      }
      value =
          new Value.FieldValue(
              new FieldRef(
                  JavacNames.binaryName(current),
                  "this$" + (depth(outer)),
                  "L" + JavacNames.binaryName(outer).replace('.', '/') + ";"),
              value);
      current = outer;
    }
    return value;
  }

  private static int depth(ClassSymbol symbol) {
    int depth = 0;
    for (Symbol s = symbol.owner; s != null && s.kind != Kinds.Kind.PCK; s = s.owner) {
      if (s instanceof ClassSymbol) {
        depth++;
      }
    }
    return depth;
  }

  private Value invocation(TreePath path, MethodInvocationTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree.getMethodSelect());
    if (!(symbol instanceof MethodSymbol method)) {
      for (ExpressionTree arg : tree.getArguments()) {
        eval(child(path, arg));
      }
      return Value.UNKNOWN;
    }
    ExpressionTree select = tree.getMethodSelect();
    Value receiver = null;
    Type site = null;
    Op.Kind kind = method.isStatic() ? Op.Kind.INVOKE_STATIC : Op.Kind.INVOKE_VIRTUAL;
    boolean constructorCall = method.isConstructor();
    if (select instanceof MemberSelectTree member) {
      ExpressionTree qualifier = member.getExpression();
      String qualifierName =
          qualifier instanceof IdentifierTree id
              ? id.getName().toString()
              : qualifier instanceof MemberSelectTree ms ? ms.getIdentifier().toString() : "";
      if (qualifierName.equals("super")) {
        receiver = Value.THIS;
        kind = Op.Kind.INVOKE_SPECIAL;
        site = ((JCTree) qualifier).type;
      } else if (method.isStatic()) {
        if (!isTypeName(qualifier)) {
          eval(child(path, qualifier));
        }
        site = ((JCTree) qualifier).type;
      } else {
        receiver = eval(child(path, qualifier));
        site = ((JCTree) qualifier).type;
      }
    } else if (constructorCall) {
      receiver = Value.THIS;
      kind = Op.Kind.INVOKE_SPECIAL;
    } else if (method.isStatic()) {
      site = memberSite(method);
    } else {
      ClassSymbol holder = enclosingMemberHolder(method);
      receiver = outerThis(holder);
      site = holder.type;
    }
    if ((method.flags() & Flags.PRIVATE) != 0 && kind == Op.Kind.INVOKE_VIRTUAL) {
      kind = Op.Kind.INVOKE_SPECIAL;
    }
    List<Value> args =
        arguments(
            path, tree.getArguments(), ((JCMethodInvocation) tree).varargsElement != null, method);
    MethodRef target = constructorCall ? names.declared(method) : names.methodRef(method, site);
    if (isBoxing(target)) {
      return target.name().equals("valueOf") ? args.get(0) : receiver;
    }
    if (isStringBuilding(target.owner())) {
      // the built string is one computed value, as the bytecode front-end reads the chain
      return target.name().equals("toString") ? computed() : Value.UNKNOWN;
    }
    int index =
        emit(kind, target, null, kind == Op.Kind.INVOKE_STATIC ? null : receiver, args, path);
    return method.getReturnType().getTag() == TypeTag.VOID
        ? Value.UNKNOWN
        : new Value.Result(index);
  }

  /** {@code java.lang.Integer} and the other classes that box a primitive. */
  private static boolean isBoxType(String owner) {
    return switch (owner) {
      case "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Boolean",
          "java.lang.Short",
          "java.lang.Byte",
          "java.lang.Character",
          "java.lang.Double",
          "java.lang.Float" ->
          true;
      default -> false;
    };
  }

  /** Whether a method descriptor takes exactly one primitive argument: {@code (J)V}. */
  private static boolean takesOnePrimitive(String descriptor) {
    return descriptor.length() > 3
        && descriptor.charAt(0) == '('
        && "ZBCSIJFD".indexOf(descriptor.charAt(1)) >= 0
        && descriptor.charAt(2) == ')';
  }

  private static boolean isBoxing(MethodRef target) {
    String owner = target.owner();
    if (!isBoxType(owner)) {
      return false;
    }
    if (target.name().equals("valueOf")) {
      // valueOf(int) and its kin box; valueOf(String) parses
      return takesOnePrimitive(target.descriptor());
    }
    String simple = owner.substring("java.lang.".length());
    String unbox =
        switch (simple) {
          case "Integer" -> "intValue";
          case "Character" -> "charValue";
          default -> simple.toLowerCase(Locale.ROOT) + "Value";
        };
    return target.name().equals(unbox);
  }

  private static boolean isStringBuilding(String owner) {
    return owner.equals("java.lang.StringBuilder")
        || owner.equals("java.lang.StringBuffer")
        || owner.equals("java.lang.AbstractStringBuilder");
  }

  private List<Value> arguments(
      TreePath path,
      List<? extends ExpressionTree> arguments,
      boolean varargs,
      MethodSymbol method) {
    List<Value> values = new ArrayList<>();
    int fixed = varargs ? method.getParameters().size() - 1 : arguments.size();
    for (int i = 0; i < arguments.size(); i++) {
      Value value = eval(child(path, arguments.get(i)));
      if (i < fixed) {
        values.add(value);
      }
    }
    if (varargs) {
      values.add(computed());
    }
    return values;
  }

  private Value creation(TreePath path, NewClassTree tree) {
    Value outer = null;
    if (tree.getEnclosingExpression() != null) {
      outer = eval(child(path, tree.getEnclosingExpression()));
    }
    Symbol constructor = TreeInfo.symbol((JCTree) tree.getIdentifier());
    JCNewClass jc = (JCNewClass) tree;
    if (jc.constructor != null) {
      constructor = jc.constructor;
    }
    Type type = jc.type;
    if (tree.getClassBody() != null) {
      source.readClass(child(path, tree.getClassBody()));
    }
    if (!(constructor instanceof MethodSymbol method) || type == null) {
      for (ExpressionTree arg : tree.getArguments()) {
        eval(child(path, arg));
      }
      return Value.UNKNOWN;
    }
    List<Value> args = arguments(path, tree.getArguments(), jc.varargsElement != null, method);
    ClassSymbol created = (ClassSymbol) type.tsym;
    if (isStringBuilding(JavacNames.binaryName(created))) {
      // as its calls: the bytecode front-end leaves string builders out, javac's concatenation too
      return Value.UNKNOWN;
    }
    String descriptor = names.descriptorOf(method);
    if (isBoxType(JavacNames.binaryName(created)) && takesOnePrimitive(descriptor)) {
      return args.get(0); // new Long(n), deprecated: n boxed, as the bytecode front-end reads it
    }
    if (takesOuterInstance(created)) {
      ClassSymbol outerClass = outerClassOf(created);
      descriptor =
          "(L"
              + JavacNames.binaryName(outerClass).replace('.', '/')
              + ";"
              + descriptor.substring(1);
      List<Value> withOuter = new ArrayList<>();
      withOuter.add(outer != null ? outer : outerThis(outerClass));
      withOuter.addAll(args);
      args = withOuter;
    }
    int index =
        emit(
            Op.Kind.NEW,
            new MethodRef(JavacNames.binaryName(created), "<init>", descriptor),
            null,
            null,
            args,
            path);
    return new Value.Result(index);
  }

  /**
   * Whether a class's constructors take an enclosing instance first: a member class that is not
   * static, or a local or anonymous class declared in instance code.
   */
  static boolean takesOuterInstance(ClassSymbol created) {
    if ((created.flags() & (Flags.INTERFACE | Flags.ENUM)) != 0 || created.isRecord()) {
      return false;
    }
    Symbol owner = created.owner;
    if (owner instanceof ClassSymbol) {
      return !created.isStatic();
    }
    return owner != null && (owner.flags() & Flags.STATIC) == 0 && outerClassOf(created) != null;
  }

  /** The class whose instance encloses {@code created}. */
  static ClassSymbol outerClassOf(ClassSymbol created) {
    return created.owner == null ? null : created.owner.enclClass();
  }

  private Value assignment(TreePath path, AssignmentTree tree) {
    ExpressionTree target = TreeInfo.skipParens((JCTree.JCExpression) tree.getVariable());
    Symbol symbol = TreeInfo.symbol((JCTree) target);
    TreePath valuePath = child(path, tree.getExpression());
    if (symbol instanceof VarSymbol variable
        && variable.getKind() != ElementKind.FIELD
        && variable.getKind() != ElementKind.ENUM_CONSTANT) {
      Value value = eval(valuePath);
      env.put(variable, value);
      loopFacts.store(variable, value, guards);
      return value;
    }
    if (symbol instanceof VarSymbol field) {
      Value receiver = null;
      Type site;
      if (target instanceof MemberSelectTree select) {
        site = ((JCTree) select.getExpression()).type;
        if (!field.isStatic()) {
          receiver = eval(child(child(path, target), select.getExpression()));
        } else if (!isTypeName(select.getExpression())) {
          eval(child(child(path, target), select.getExpression()));
        }
      } else {
        ClassSymbol holder = enclosingMemberHolder(field);
        site = holder.type;
        receiver = field.isStatic() ? null : outerThis(holder);
      }
      Value value = eval(valuePath);
      emit(Op.Kind.PUT_FIELD, null, names.fieldRef(field, site), receiver, List.of(value), path);
      return value;
    }
    if (target instanceof ArrayAccessTree access) {
      TreePath targetPath = child(path, target);
      eval(child(targetPath, access.getExpression()));
      eval(child(targetPath, access.getIndex()));
    }
    return eval(valuePath);
  }

  /** {@code x += e}, {@code x++}: read, compute, write back an unknown value. */
  private void update(TreePath path, ExpressionTree variable, TreePath operand) {
    ExpressionTree target = TreeInfo.skipParens((JCTree.JCExpression) variable);
    Symbol symbol = TreeInfo.symbol((JCTree) target);
    if (symbol instanceof VarSymbol field && (field.getKind() == ElementKind.FIELD)) {
      Value receiver = null;
      Type site;
      TreePath targetPath = child(path, target);
      if (target instanceof MemberSelectTree select) {
        site = ((JCTree) select.getExpression()).type;
        if (!field.isStatic()) {
          receiver = eval(child(targetPath, select.getExpression()));
        }
      } else {
        ClassSymbol holder = enclosingMemberHolder(field);
        site = holder.type;
        receiver = field.isStatic() ? null : outerThis(holder);
      }
      FieldRef ref = names.fieldRef(field, site);
      emit(Op.Kind.GET_FIELD, null, ref, receiver, List.of(), targetPath);
      if (operand != null) {
        eval(operand);
      }
      emit(Op.Kind.PUT_FIELD, null, ref, receiver, List.of(computed()), path);
      return;
    }
    if (symbol instanceof VarSymbol local) {
      if (operand != null) {
        eval(operand);
      }
      Value updated = computed();
      env.put(local, updated);
      loopFacts.store(local, updated, guards);
      return;
    }
    TreePath targetPath = child(path, target);
    if (target instanceof ArrayAccessTree access) {
      eval(child(targetPath, access.getExpression()));
      eval(child(targetPath, access.getIndex()));
    }
    if (operand != null) {
      eval(operand);
    }
  }

  private Value unary(TreePath path, UnaryTree tree) {
    switch (tree.getKind()) {
      case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT -> {
        update(path, tree.getExpression(), null);
        return computed();
      }
      default -> {
        eval(child(path, tree.getExpression()));
        return computed();
      }
    }
  }

  private Value binary(TreePath path, BinaryTree tree) {
    if (tree.getKind() == Tree.Kind.CONDITIONAL_AND || tree.getKind() == Tree.Kind.CONDITIONAL_OR) {
      conditions.condition(path);
      return Value.UNKNOWN;
    }
    eval(child(path, tree.getLeftOperand()));
    eval(child(path, tree.getRightOperand()));
    return computed();
  }

  private Value conditional(TreePath path, ConditionalExpressionTree tree) {
    Object constant = constantOf(TreeInfo.skipParens((JCTree.JCExpression) tree.getCondition()));
    if (constant instanceof Boolean value) {
      return eval(child(path, value ? tree.getTrueExpression() : tree.getFalseExpression()));
    }
    ConditionReader.Cond cond = conditions.condition(child(path, tree.getCondition()));
    int mark = guards.size();
    guards.addAll(cond.whenTrue());
    Map<Symbol, Value> before = new HashMap<>(env);
    Value whenTrue = eval(child(path, tree.getTrueExpression()));
    truncate(guards, mark);
    Map<Symbol, Value> afterTrue = env;
    env = before;
    guards.addAll(cond.whenFalse());
    Value whenFalse = eval(child(path, tree.getFalseExpression()));
    truncate(guards, mark);
    for (Map.Entry<Symbol, Value> entry : afterTrue.entrySet()) {
      if (!entry.getValue().equals(env.get(entry.getKey()))) {
        env.put(entry.getKey(), Value.UNKNOWN);
      }
    }
    return whenTrue.equals(whenFalse) ? whenTrue : Value.UNKNOWN;
  }

  private Value methodReference(TreePath path, MemberReferenceTree tree) {
    Symbol symbol = TreeInfo.symbol((JCTree) tree);
    ExpressionTree qualifier = tree.getQualifierExpression();
    boolean viaSuper =
        qualifier instanceof IdentifierTree id && id.getName().contentEquals("super");
    if (!isTypeName(qualifier) && !viaSuper) {
      eval(child(path, qualifier));
    }
    Type qualifierType = ((JCTree) qualifier).type;
    boolean arrayConstructor =
        qualifierType != null
            && qualifierType.getTag() == TypeTag.ARRAY
            && tree.getName().contentEquals("<init>");
    if (viaSuper || arrayConstructor || ((JCTree.JCMemberReference) tree).varargsElement != null) {
      // javac writes a lambda body for these: it counts among the lambdas
      MethodRef body = MethodRef.lambda(ref, lambdaOrdinal++);
      return new Value.Lambda(body);
    }
    if (!(symbol instanceof MethodSymbol method)) {
      return Value.UNKNOWN;
    }
    return new Value.Lambda(names.declared(method));
  }

  // ---------------------------------------------------------------- operations

  int emit(
      Op.Kind kind,
      MethodRef method,
      FieldRef field,
      Value receiver,
      List<Value> args,
      TreePath path) {
    int index = ops.size();
    ops.add(
        new Op(
            index,
            kind,
            method,
            field,
            receiver,
            args,
            new Context(heldRegions, openLoops, guards, inHandler),
            line(path.getLeaf())));
    opPaths.add(path);
    if (method != null) {
      loopFacts.call(index, path.getLeaf(), iteratorStep);
    }
    return index;
  }

  int line(Tree tree) {
    JCTree jc = (JCTree) tree;
    int position = jc instanceof JCMethodInvocation ? jc.pos : jc.getStartPosition();
    if (position < 0) {
      position = jc.getStartPosition();
    }
    CompilationUnitTree compilationUnit = (CompilationUnitTree) unit.getLeaf();
    return position < 0 ? 0 : (int) compilationUnit.getLineMap().getLineNumber(position);
  }

  static TreePath child(TreePath parent, Tree tree) {
    return new TreePath(parent, tree);
  }

  static <T> void truncate(List<T> list, int size) {
    while (list.size() > size) {
      list.remove(list.size() - 1);
    }
  }

  static <T> List<T> concat(List<T> a, List<T> b) {
    if (b.isEmpty()) {
      return a;
    }
    List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
