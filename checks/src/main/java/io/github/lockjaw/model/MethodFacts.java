package io.github.lockjaw.model;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What one method (or lambda body) does, as a front-end read it: its operations in program order,
 * the monitor regions and loops they sit in.
 */
public final class MethodFacts {
  private final MethodRef ref;
  private final int access;
  private final List<String> annotations;
  private final MethodRef enclosing;

  /** The reader of a body not read yet; volatile, so that its clearing publishes the body. */
  private volatile Supplier<MethodFacts> deferred;

  private List<Op> ops;
  private List<Region> regions;
  private List<Loop> loops;
  private int line;
  private List<String> parameterNames;

  public MethodFacts(
      MethodRef ref,
      int access,
      List<String> annotations,
      List<Op> ops,
      List<Region> regions,
      List<Loop> loops,
      int line,
      MethodRef enclosing,
      List<String> parameterNames) {
    this.ref = ref;
    this.access = access;
    this.annotations = List.copyOf(annotations);
    this.enclosing = enclosing;
    this.ops = List.copyOf(ops);
    this.regions = List.copyOf(regions);
    this.loops = List.copyOf(loops);
    this.line = line;
    this.parameterNames = List.copyOf(parameterNames);
  }

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

  private MethodFacts(
      MethodRef ref,
      int access,
      List<String> annotations,
      MethodRef enclosing,
      Supplier<MethodFacts> read) {
    this.ref = ref;
    this.access = access;
    this.annotations = List.copyOf(annotations);
    this.enclosing = enclosing;
    this.deferred = read;
  }

  /**
   * A method whose body is read the first time its operations, regions, loops, line or parameter
   * names are asked for: a class loaded on demand from the class path has many methods no call
   * leads to, and reading a body (data flow, loops, dominators) is the costly part.
   *
   * @param read reads the whole method; its name, access, annotations and enclosing method must be
   *     these
   */
  public static MethodFacts deferred(
      MethodRef ref,
      int access,
      List<String> annotations,
      MethodRef enclosing,
      Supplier<MethodFacts> read) {
    return new MethodFacts(ref, access, annotations, enclosing, read);
  }

  private void readBody() {
    if (deferred != null) {
      readBodyOnce();
    }
  }

  /** Reads a deferred body once, also when two threads ask for it at once. */
  private synchronized void readBodyOnce() {
    Supplier<MethodFacts> read = deferred;
    if (read != null) {
      MethodFacts body = read.get();
      ops = body.ops();
      regions = body.regions();
      loops = body.loops();
      line = body.line();
      parameterNames = body.parameterNames();
      deferred = null;
    }
  }

  /** The method's name. */
  public MethodRef ref() {
    return ref;
  }

  /**
   * JVM access flags ({@link java.lang.reflect.Modifier} bits; synthetic and bridge methods are not
   * recorded).
   */
  public int access() {
    return access;
  }

  /** The binary names of its annotations. */
  public List<String> annotations() {
    return annotations;
  }

  /** For a lambda body, the method it is written in; {@code null} otherwise. */
  public MethodRef enclosing() {
    return enclosing;
  }

  /** Its operations in program order. */
  public List<Op> ops() {
    readBody();
    return ops;
  }

  /** Its monitor regions. */
  public List<Region> regions() {
    readBody();
    return regions;
  }

  /** Its loops. */
  public List<Loop> loops() {
    readBody();
    return loops;
  }

  /** The line of its declaration (the first line of code for class files), or 0. */
  public int line() {
    readBody();
    return line;
  }

  /**
   * The declared parameters' names as written, where the front-end knows them (class files compiled
   * without {@code -g} or {@code -parameters} have none); empty for lambda bodies.
   */
  public List<String> parameterNames() {
    readBody();
    return parameterNames;
  }

  /** Two facts are of the same method when they name it alike (a program holds one per method). */
  @Override
  public boolean equals(Object other) {
    return other instanceof MethodFacts that
        && ref.equals(that.ref)
        && access == that.access
        && Objects.equals(enclosing, that.enclosing);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ref, access, enclosing);
  }

  @Override
  public String toString() {
    return "MethodFacts[" + ref + "]";
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
    List<Op> all = ops();
    return value instanceof Value.Result result && result.op() < all.size()
        ? all.get(result.op())
        : null;
  }

  /** The name of declared parameter {@code index}, or {@code parameter <index>} when unknown. */
  public String parameterName(int index) {
    List<String> names = parameterNames();
    return index < names.size() && !names.get(index).isEmpty()
        ? names.get(index)
        : "parameter " + index;
  }

  /**
   * Whether the operation is on a failure path: in a {@code catch} clause, or in a branch that ends
   * by throwing ({@code if (name == null) { log(...); throw new IllegalArgumentException(...); }}):
   * a {@code throw} follows it under the same conditions, with nothing in between that leaves the
   * branch, returns or is a {@code catch} clause. Such code runs per failed call, not per call.
   */
  public boolean isOnFailurePath(Op op) {
    if (op.context().inHandler()) {
      return true;
    }
    List<Guard> guards = op.context().guards();
    List<Op> all = ops();
    for (int i = op.index() + 1; i < all.size(); i++) {
      Op next = all.get(i);
      List<Guard> nextGuards = next.context().guards();
      if (nextGuards.size() < guards.size()
          || !nextGuards.subList(0, guards.size()).equals(guards)
          || !next.context().loops().equals(op.context().loops())
          || next.context().inHandler()
          || next.kind() == Op.Kind.RETURN) {
        return false;
      }
      if (next.kind() == Op.Kind.THROW && nextGuards.size() == guards.size()) {
        return true;
      }
    }
    return false;
  }

  /** The operations that run while region {@code id} is held (nested regions included). */
  public List<Op> opsIn(int regionId) {
    return ops().stream().filter(op -> op.isIn(regionId)).toList();
  }
}
