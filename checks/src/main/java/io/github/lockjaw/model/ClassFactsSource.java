package io.github.lockjaw.model;

import java.util.Optional;

/**
 * Facts for classes outside the analysed code, read on demand through the bytecode front-end: a
 * superclass in a jar, a helper in another module. javac reads them from its class path, the audit
 * from the jars it was given.
 */
public interface ClassFactsSource {
  /** The facts of a class (binary name), or empty when it cannot be found or read. */
  Optional<ClassFacts> load(String binaryName);

  ClassFactsSource NONE = name -> Optional.empty();
}
