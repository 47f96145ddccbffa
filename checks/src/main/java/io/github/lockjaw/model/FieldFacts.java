package io.github.lockjaw.model;

import java.lang.reflect.Modifier;
import java.util.List;

/**
 * A field of a class.
 *
 * @param ref the field's name
 * @param access JVM access flags
 * @param annotations the binary names of its annotations
 */
public record FieldFacts(FieldRef ref, int access, List<String> annotations) {
  public FieldFacts {
    annotations = List.copyOf(annotations);
  }

  public boolean isStatic() {
    return Modifier.isStatic(access);
  }

  public boolean isFinal() {
    return Modifier.isFinal(access);
  }

  public boolean isVolatile() {
    return Modifier.isVolatile(access);
  }

  public boolean isPrivate() {
    return Modifier.isPrivate(access);
  }
}
