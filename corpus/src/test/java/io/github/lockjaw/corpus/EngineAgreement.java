package io.github.lockjaw.corpus;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;

/**
 * Both engines on the same real classes: the Error Prone checks on a targeted library's source
 * files and the SpotBugs detectors on the same classes in its binary jar from Maven Central. A
 * finding is compared as {@code <Check> <class>#<member>} (nested classes as written in the class
 * file, {@code Outer$Inner}); where the engines disagree, one of them misses a shape the other
 * knows, and the test says which.
 */
final class EngineAgreement {
  private static final JarAuditor AUDITOR = new JarAuditor();

  /** What each engine found in the compiled classes, and how they differ. */
  record Result(Set<String> source, Set<String> bytecode) {
    /** Findings of the source checks that the bytecode detectors do not report. */
    Set<String> sourceOnly() {
      Set<String> only = new TreeSet<>(source);
      only.removeAll(bytecode);
      return only;
    }

    /** Findings of the bytecode detectors that the source checks do not report. */
    Set<String> bytecodeOnly() {
      Set<String> only = new TreeSet<>(bytecode);
      only.removeAll(source);
      return only;
    }

    boolean agree() {
      return source.equals(bytecode);
    }
  }

  private EngineAgreement() {}

  /** Audits the library's binary jar and compares its findings in the compiled classes. */
  static Result compare(Corpus.Prepared prepared, List<CorpusCompiler.Finding> sourceFindings)
      throws Exception {
    List<String> classes = classesOf(prepared);
    Set<String> source = new TreeSet<>();
    for (CorpusCompiler.Finding f : sourceFindings) {
      if (inClasses(classes, f.className())) {
        source.add(f.check() + " " + f.className() + "#" + f.member());
      }
    }
    List<Path> auxiliary =
        prepared.classpath().stream().filter(p -> !p.equals(prepared.binaryJar())).toList();
    Set<String> bytecode = new TreeSet<>();
    for (AuditFinding f : AUDITOR.audit(List.of(prepared.binaryJar()), auxiliary)) {
      if (inClasses(classes, f.className())) {
        bytecode.add(f.check() + " " + f.className() + "#" + f.methodName());
      }
    }
    return new Result(source, bytecode);
  }

  /**
   * The classes of the compiled files, as the binary jar names them: a file's path in the
   * -sources.jar is its class name, or ends with it when the jar keeps the sources under a folder
   * ({@code java/ognl/OgnlRuntime.java} in OGNL 2.6.9 is {@code ognl.OgnlRuntime}).
   */
  private static List<String> classesOf(Corpus.Prepared prepared) throws IOException {
    List<String> classes = new ArrayList<>();
    try (JarFile jar = new JarFile(prepared.binaryJar().toFile())) {
      for (String file : prepared.library().compile()) {
        String path = file.substring(0, file.length() - ".java".length());
        String found = null;
        for (String suffix = path; found == null; ) {
          if (jar.getEntry(suffix + ".class") != null) {
            found = suffix;
          } else if (suffix.indexOf('/') < 0) {
            break;
          } else {
            suffix = suffix.substring(suffix.indexOf('/') + 1);
          }
        }
        if (found == null) {
          throw new IllegalStateException(
              prepared.library().id()
                  + ": "
                  + file
                  + " has no class in "
                  + prepared.binaryJar().getFileName()
                  + ", so the engines cannot be compared on it; list a file of this release");
        }
        classes.add(found.replace('/', '.'));
      }
    }
    return classes;
  }

  private static boolean inClasses(List<String> classes, String className) {
    return classes.stream().anyMatch(c -> className.equals(c) || className.startsWith(c + "$"));
  }
}
