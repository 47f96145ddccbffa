package io.github.lockjaw.model;

import java.lang.reflect.Modifier;
import java.util.List;

/**
 * What one method (or lambda body) does, as a front-end read it: its operations in program order,
 * the monitor regions and loops they sit in.
 *
 * @param ref the method's name
 * @param access JVM access flags ({@link java.lang.reflect.Modifier} bits; synthetic and bridge
 *     methods are not recorded)
 * @param annotations the binary names of its annotations
 * @param ops its operations in program order
 * @param regions its monitor regions
 * @param loops its loops
 * @param line the line of its declaration (the first line of code for class files), or 0
 * @param enclosing for a lambda body, the method it is written in; {@code null} otherwise
 * @param parameterNames the declared parameters' names as written, where the front-end knows them
 *     (class files compiled without {@code -g} or {@code -parameters} have none); empty for lambda
 *     bodies
 */
public record MethodFacts(
    MethodRef ref,
    int access,
    List<String> annotations,
    List<Op> ops,
    List<Region> regions,
    List<Loop> loops,
    int line,
    MethodRef enclosing,
    List<String> parameterNames) {

  /** Facts without parameter names. */
  public MethodFacts(
      MethodRef ref,
      int access,
      List<String> annotations,
      List<Op> ops,
      List<Region> regions,
      List<Loop> loops,
      int line,
      MethodRef enclosing) {
    this(ref, access, annotations, ops, regions, loops, line, enclosing, List.of());
  }

  public MethodFacts {
    parameterNames = List.copyOf(parameterNames);
    annotations = List.copyOf(annotations);
    ops = List.copyOf(ops);
    regions = List.copyOf(regions);
    loops = List.copyOf(loops);
  }

  public boolean isStatic() {
    return Modifier.isStatic(access);
  }

  public boolean isSynchronized() {
    return Modifier.isSynchronized(access);
  }

  public boolean isPublic() {
    return Modifier.isPublic(access);
  }

  /**
   * Whether code of other packages can call the method: it is public or protected. Where a package
   * is analysed whole, as a module's are, every caller of any other method is in sight.
   */
  public boolean isVisibleOutsideItsPackage() {
    return Modifier.isPublic(access) || Modifier.isProtected(access);
  }

  public boolean isPrivate() {
    return Modifier.isPrivate(access);
  }

  public boolean isAbstract() {
    return Modifier.isAbstract(access) || Modifier.isNative(access);
  }

  public boolean hasAnnotation(String binaryName) {
    return annotations.contains(binaryName);
  }

  /** The operation a {@link Value.Result} names, or {@code null}. */
  public Op producer(Value value) {
    return value instanceof Value.Result result && result.op() < ops.size()
        ? ops.get(result.op())
        : null;
  }

  /** The name of declared parameter {@code index}, or {@code parameter <index>} when unknown. */
  public String parameterName(int index) {
    return index < parameterNames.size() && !parameterNames.get(index).isEmpty()
        ? parameterNames.get(index)
        : "parameter " + index;
  }

  /** The operations that run while region {@code id} is held (nested regions included). */
  public List<Op> opsIn(int regionId) {
    return ops.stream().filter(op -> op.isIn(regionId)).toList();
  }
}
