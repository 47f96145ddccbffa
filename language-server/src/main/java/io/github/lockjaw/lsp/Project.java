package io.github.lockjaw.lsp;

import java.nio.file.Path;
import java.util.List;

/**
 * The Maven project (or reactor module) a file belongs to, as far as analysing it needs: its
 * compile and test classpath and its source roots, whose other files javac reads when the edited
 * file refers to them.
 *
 * @param pom the module's {@code pom.xml}, or null for a file outside any Maven project (analysed
 *     with the JDK alone)
 * @param classpath the resolved classpath; empty when unknown
 * @param sourceRoots {@code src/main/java}, {@code src/test/java} as far as they exist
 * @param problem why the classpath is unknown, or null
 */
record Project(Path pom, List<String> classpath, List<Path> sourceRoots, String problem) {
  static final Project NONE = new Project(null, List.of(), List.of(), null);
}
