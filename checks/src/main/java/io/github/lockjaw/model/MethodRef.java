package io.github.lockjaw.model;

/**
 * A method as both front-ends name it: the declaring class's binary name ({@code a.b.Outer$Inner}),
 * the method's name ({@code <init>} for constructors, {@code <clinit>} for static initialisers) and
 * its erased JVM descriptor ({@code (Ljava/lang/String;)V}). A lambda body is named after the
 * method it is written in (see {@link #lambda}), so that javac trees and class files agree on it.
 */
public record MethodRef(String owner, String name, String descriptor) {

  /** The body of the {@code ordinal}-th lambda written directly in {@code enclosing} (0-based). */
  public static MethodRef lambda(MethodRef enclosing, int ordinal) {
    return new MethodRef(
        enclosing.owner(),
        "lambda#" + ordinal + "@" + enclosing.name() + enclosing.descriptor(),
        "");
  }

  public boolean isConstructor() {
    return name.equals("<init>");
  }

  public boolean isStaticInitializer() {
    return name.equals("<clinit>");
  }

  public boolean isLambdaBody() {
    return name.startsWith("lambda#");
  }

  /** The number of declared parameters, from the descriptor (0 for a lambda body). */
  public int parameterCount() {
    return Descriptors.parameterTypes(descriptor).size();
  }

  /** The return type's binary name ({@code void}, {@code int}, {@code java.lang.String}). */
  public String returnType() {
    return Descriptors.returnType(descriptor);
  }

  /** The simple class name and the method name: {@code OrderDao.load}, {@code Outer.Inner.run}. */
  public String display() {
    String simple = owner.substring(owner.lastIndexOf('.') + 1).replace('$', '.');
    String method =
        isConstructor()
            ? "<init>"
            : isLambdaBody()
                ? "lambda in "
                    + name.substring(name.indexOf('@') + 1, name.indexOf('(', name.indexOf('@')))
                : name;
    return simple + "." + method;
  }

  /** {@code owner#name descriptor}, stable and unique: for maps, dumps and tests. */
  @Override
  public String toString() {
    return owner + "#" + name + descriptor;
  }
}
