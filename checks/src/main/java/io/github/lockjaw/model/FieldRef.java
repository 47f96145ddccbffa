package io.github.lockjaw.model;

/**
 * A field as both front-ends name it: the declaring class's binary name, the field's name and its
 * erased JVM descriptor.
 */
public record FieldRef(String owner, String name, String descriptor) {

  /** The field's type as a binary name ({@code java.util.Map}, {@code long}). */
  public String type() {
    return Descriptors.toBinaryName(descriptor);
  }

  @Override
  public String toString() {
    return owner + "." + name;
  }
}
