package io.github.lockjaw.model;

import java.util.List;
import java.util.Optional;

/**
 * The direct supertypes of classes the program does not hold facts for: the JDK, and libraries on
 * the class path. javac answers from its symbols, the audit from class file headers.
 */
public interface TypeHierarchy {
  /** A class's superclass ({@code null} for interfaces and Object) and interfaces. */
  record Supertypes(String superName, List<String> interfaces, boolean isInterface) {}

  /** The direct supertypes of a class (binary name), or empty when the class is unknown. */
  Optional<Supertypes> supertypes(String binaryName);

  TypeHierarchy NONE = name -> Optional.empty();
}
