package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.classfile.ClassDescriptor;
import edu.umd.cs.findbugs.classfile.DescriptorFactory;
import edu.umd.cs.findbugs.classfile.Global;
import edu.umd.cs.findbugs.classfile.ICodeBase;
import edu.umd.cs.findbugs.classfile.analysis.ClassData;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which library each class SpotBugs reads belongs to: the jar's own identity, or, in a shaded jar,
 * the bundled library whose package the class is in. The audit registers what it knows better than
 * the jar (Maven's coordinates, the original of a multi-release view).
 */
final class JarRegistry {
  /** What lockjaw knows of each jar it reads: its identity, and what a shaded jar bundles. */
  private record JarContents(JarIdentity own, List<JarIdentity> bundled) {}

  private static final Map<Path, JarContents> JARS = new ConcurrentHashMap<>();

  private JarRegistry() {}

  /**
   * The library a class (binary name) belongs to, from the jar or directory SpotBugs read it from.
   */
  static JarIdentity jarOf(String className) {
    String path;
    try {
      ClassDescriptor descriptor =
          DescriptorFactory.createClassDescriptor(className.replace('.', '/'));
      ClassData data = Global.getAnalysisCache().getClassAnalysis(ClassData.class, descriptor);
      ICodeBase codeBase = data.getCodeBaseEntry().getCodeBase();
      path = codeBase.getPathName();
    } catch (Exception e) {
      path = null;
    }
    return path == null ? new JarIdentity(null, "", "", "") : identity(Path.of(path), className);
  }

  /**
   * Tells the detectors who a jar is when the caller knows better than the jar itself: Maven's
   * coordinates of a dependency, or the original of a multi-release view.
   */
  static void register(Path jar, JarIdentity identity, List<JarIdentity> bundled) {
    JARS.put(jar.toAbsolutePath().normalize(), new JarContents(identity, bundled));
  }

  /** The library a class (binary name) of {@code jar} belongs to. */
  static JarIdentity identity(Path jar, String className) {
    if (jar == null) {
      return new JarIdentity(null, "", "", "");
    }
    JarContents contents =
        JARS.computeIfAbsent(
            jar.toAbsolutePath().normalize(),
            p -> new JarContents(JarIdentity.of(p), JarIdentity.bundled(p)));
    return JarIdentity.forClass(contents.bundled(), contents.own(), className);
  }
}
