package io.github.lockjaw.model.bytecode;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InnerClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * The bytecode front-end of the model: one class file in, its {@link ClassFacts} out. Lambda bodies
 * ({@code lambda$…} methods) are named after the method that creates them, in the order of
 * creation, as the source front-end names them. Synthetic fields ({@code this$0}, {@code
 * $assertionsDisabled}) and synthetic methods other than lambda bodies, accessors and bridges are
 * left out.
 */
public final class ClassFileFacts {
  static final int METHOD_ACCESS =
      Modifier.PUBLIC
          | Modifier.PRIVATE
          | Modifier.PROTECTED
          | Modifier.STATIC
          | Modifier.FINAL
          | Modifier.SYNCHRONIZED
          | Modifier.NATIVE
          | Modifier.ABSTRACT
          | Opcodes.ACC_SYNTHETIC
          | Opcodes.ACC_BRIDGE;
  static final int CLASS_ACCESS =
      Modifier.PUBLIC
          | Modifier.PRIVATE
          | Modifier.PROTECTED
          | Modifier.STATIC
          | Modifier.FINAL
          | Modifier.INTERFACE
          | Modifier.ABSTRACT
          | Opcodes.ACC_SYNTHETIC
          | Opcodes.ACC_ANNOTATION
          | Opcodes.ACC_ENUM;

  /**
   * What was read, and the methods that could not be analysed (their facts are then empty).
   *
   * @param facts the class
   * @param problems one line per method that could not be analysed: its name and why
   */
  public record Read(ClassFacts facts, List<String> problems) {}

  private ClassFileFacts() {}

  /**
   * Reads one class file.
   *
   * @throws UnreadableClassException when the bytes are not a class file ASM can parse
   */
  public static Read read(byte[] bytes, String origin) throws UnreadableClassException {
    ClassNode node = new ClassNode();
    try {
      new ClassReader(bytes).accept(node, ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      throw new UnreadableClassException(origin, e);
    }
    return read(node, origin);
  }

  /**
   * Reads one class file loaded on demand (a class of the class path a call leads to): its methods'
   * bodies are read when first asked for ({@link MethodFacts#deferred}), without the exits of their
   * loops (only the analysed code's loops are queried); a body that cannot be read is empty.
   *
   * @throws UnreadableClassException when the bytes are not a class file ASM can parse
   */
  public static ClassFacts readOnDemand(byte[] bytes, String origin)
      throws UnreadableClassException {
    ClassNode node = new ClassNode();
    try {
      new ClassReader(bytes).accept(node, ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      throw new UnreadableClassException(origin, e);
    }
    return read(node, origin, true).facts();
  }

  static Read read(ClassNode node, String origin) {
    return read(node, origin, false);
  }

  private static Read read(ClassNode node, String origin, boolean deferBodies) {
    String name = node.name.replace('/', '.');
    List<String> problems = new ArrayList<>();
    Map<String, MethodNode> byKey = methodsByKey(node);
    Map<MethodNode, LambdaBody> bodies = lambdaBodies(node, byKey);
    List<MethodFacts> methods = new ArrayList<>();
    for (MethodNode method : node.methods) {
      LambdaBody lambda = bodies.get(method);
      boolean synthetic = (method.access & Opcodes.ACC_SYNTHETIC) != 0;
      if (synthetic
          && lambda == null
          && !method.name.startsWith("access$")
          && (method.access & Opcodes.ACC_BRIDGE) == 0) {
        continue;
      }
      MethodRef ref = lambda != null ? lambda.ref() : new MethodRef(name, method.name, method.desc);
      MethodRef enclosing = lambda == null ? null : lambda.enclosing();
      int captured = lambda == null ? 0 : lambda.captured();
      Supplier<MethodFacts> body =
          () -> {
            MethodReader reader =
                new MethodReader(
                    name,
                    method,
                    ref,
                    enclosing,
                    captured,
                    indyBodies(method, bodies, node, byKey),
                    !deferBodies);
            try {
              return reader.read();
            } catch (AnalyzerException | RuntimeException e) {
              problems.add(method.name + method.desc + ": " + e.getMessage());
              return new MethodFacts(
                  ref,
                  method.access & METHOD_ACCESS,
                  annotations(method.visibleAnnotations, method.invisibleAnnotations),
                  List.of(),
                  List.of(),
                  List.of(),
                  0,
                  enclosing);
            }
          };
      methods.add(
          deferBodies
              ? MethodFacts.deferred(
                  ref,
                  method.access & METHOD_ACCESS,
                  annotations(method.visibleAnnotations, method.invisibleAnnotations),
                  enclosing,
                  body)
              : body.get());
    }
    List<FieldFacts> fields = new ArrayList<>();
    for (FieldNode field : node.fields) {
      if ((field.access & Opcodes.ACC_SYNTHETIC) != 0 || field.name.contains("$")) {
        continue;
      }
      fields.add(
          new FieldFacts(
              new FieldRef(name, field.name, field.desc),
              field.access,
              annotations(field.visibleAnnotations, field.invisibleAnnotations)));
    }
    int access = node.access;
    String outer = node.outerClass == null ? null : node.outerClass.replace('/', '.');
    for (InnerClassNode inner : node.innerClasses) {
      if (inner.name.equals(node.name)) {
        access = inner.access | (node.access & Opcodes.ACC_SYNTHETIC);
        if (inner.outerName != null) {
          outer = inner.outerName.replace('/', '.');
        }
      }
    }
    List<String> interfaces = node.interfaces.stream().map(i -> i.replace('/', '.')).toList();
    String superName =
        node.superName == null || (access & Opcodes.ACC_INTERFACE) != 0
            ? null
            : node.superName.replace('/', '.');
    return new Read(
        new ClassFacts(
            name,
            access & CLASS_ACCESS,
            superName,
            interfaces,
            annotations(node.visibleAnnotations, node.invisibleAnnotations),
            outer,
            fields,
            methods,
            origin,
            false),
        problems);
  }

  /** The binary names of annotations. */
  static List<String> annotations(List<AnnotationNode> visible, List<AnnotationNode> invisible) {
    List<String> names = new ArrayList<>();
    for (List<AnnotationNode> list : List.of(nullToEmpty(visible), nullToEmpty(invisible))) {
      for (AnnotationNode annotation : list) {
        names.add(Type.getType(annotation.desc).getClassName());
      }
    }
    return names;
  }

  private static List<AnnotationNode> nullToEmpty(List<AnnotationNode> list) {
    return list == null ? List.of() : list;
  }

  /**
   * A {@code lambda$…} method: its model name, where it is written, how many values it captures.
   */
  private record LambdaBody(MethodRef ref, MethodRef enclosing, int captured) {}

  /**
   * Names every lambda body after the method that creates it: breadth first from the methods that
   * are not lambda bodies, so a lambda inside a lambda is named after the outer lambda's body.
   */
  private static Map<MethodNode, LambdaBody> lambdaBodies(
      ClassNode node, Map<String, MethodNode> byKey) {
    Map<MethodNode, LambdaBody> bodies = new LinkedHashMap<>();
    Deque<MethodNode> work = new ArrayDeque<>();
    Map<MethodNode, MethodRef> refs = new HashMap<>();
    String name = node.name.replace('/', '.');
    for (MethodNode method : node.methods) {
      if (!isLambdaBody(method)) {
        refs.put(method, new MethodRef(name, method.name, method.desc));
        work.add(method);
      }
    }
    while (!work.isEmpty()) {
      MethodNode method = work.poll();
      MethodRef ref = refs.get(method);
      int ordinal = 0;
      for (AbstractInsnNode insn : method.instructions) {
        MethodNode target = lambdaTarget(insn, node, byKey);
        if (target == null || bodies.containsKey(target)) {
          continue;
        }
        InvokeDynamicInsnNode indy = (InvokeDynamicInsnNode) insn;
        MethodRef body = MethodRef.lambda(ref, ordinal++);
        int captured = Type.getArgumentTypes(indy.desc).length;
        if ((target.access & Opcodes.ACC_STATIC) == 0) {
          captured--; // the first captured value is the receiver, this
        }
        bodies.put(target, new LambdaBody(body, ref, captured));
        refs.put(target, body);
        work.add(target);
      }
    }
    return bodies;
  }

  private static boolean isLambdaBody(MethodNode method) {
    return (method.access & Opcodes.ACC_SYNTHETIC) != 0 && method.name.startsWith("lambda$");
  }

  private static MethodNode lambdaTarget(
      AbstractInsnNode insn, ClassNode node, Map<String, MethodNode> byKey) {
    if (!(insn instanceof InvokeDynamicInsnNode indy)
        || !SymbolicInterpreter.isLambdaFactory(indy)
        || indy.bsmArgs.length < 2
        || !(indy.bsmArgs[1] instanceof Handle impl)
        || !impl.getOwner().equals(node.name)) {
      return null;
    }
    MethodNode target = byKey.get(impl.getName() + impl.getDesc());
    return target != null && isLambdaBody(target) ? target : null;
  }

  /** A class's methods by name and descriptor, built once per class. */
  private static Map<String, MethodNode> methodsByKey(ClassNode node) {
    Map<String, MethodNode> byKey = new HashMap<>();
    for (MethodNode m : node.methods) {
      byKey.put(m.name + m.desc, m);
    }
    return byKey;
  }

  /** The lambda body each lambda-creating {@code invokedynamic} of {@code method} stands for. */
  private static Map<InvokeDynamicInsnNode, MethodRef> indyBodies(
      MethodNode method,
      Map<MethodNode, LambdaBody> bodies,
      ClassNode node,
      Map<String, MethodNode> byKey) {
    Map<InvokeDynamicInsnNode, MethodRef> result = new HashMap<>();
    for (AbstractInsnNode insn : method.instructions) {
      MethodNode target = lambdaTarget(insn, node, byKey);
      if (target != null && bodies.containsKey(target)) {
        result.put((InvokeDynamicInsnNode) insn, bodies.get(target).ref());
      }
    }
    return result;
  }
}
