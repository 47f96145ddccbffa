package io.github.lockjaw.model;

import java.lang.reflect.Modifier;
import java.util.List;

/**
 * What a front-end read of one class: its place in the type hierarchy, its fields and methods.
 *
 * @param name the binary name ({@code a.b.Outer$Inner})
 * @param access JVM access flags ({@code Modifier.INTERFACE} for interfaces)
 * @param superName the superclass's binary name, or {@code null} for {@code java.lang.Object} and
 *     interfaces
 * @param interfaces the binary names of the interfaces it implements or extends
 * @param annotations the binary names of its annotations
 * @param outer the binary name of the class it is nested in, or {@code null}
 * @param fields its fields
 * @param methods its methods and lambda bodies
 * @param origin where it was read from: a source file's path, or a jar or directory (with {@code
 *     !/} and the entry for a jar)
 * @param fromSource whether a source front-end read it (fixes can be offered), not a class file
 */
public record ClassFacts(
    String name,
    int access,
    String superName,
    List<String> interfaces,
    List<String> annotations,
    String outer,
    List<FieldFacts> fields,
    List<MethodFacts> methods,
    String origin,
    boolean fromSource) {

  public ClassFacts {
    interfaces = List.copyOf(interfaces);
    annotations = List.copyOf(annotations);
    fields = List.copyOf(fields);
    methods = List.copyOf(methods);
  }

  public boolean isInterface() {
    return Modifier.isInterface(access);
  }

  public boolean isAbstract() {
    return Modifier.isAbstract(access);
  }

  public boolean isPublic() {
    return Modifier.isPublic(access);
  }

  public boolean hasAnnotation(String binaryName) {
    return annotations.contains(binaryName);
  }

  /** The simple name as people write it: {@code Outer.Inner}. */
  public String simpleName() {
    return name.substring(name.lastIndexOf('.') + 1).replace('$', '.');
  }

  public FieldFacts field(String fieldName) {
    for (FieldFacts field : fields) {
      if (field.ref().name().equals(fieldName)) {
        return field;
      }
    }
    return null;
  }
}
