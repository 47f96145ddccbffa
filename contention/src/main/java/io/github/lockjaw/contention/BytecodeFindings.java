package io.github.lockjaw.contention;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipFile;

/**
 * Findings of lockjaw's bytecode detectors (run by {@code JarAuditor}) for the correlation, and
 * which jars hold the classes the evidence saw threads waiting in, so only those are audited.
 */
public final class BytecodeFindings {
  private BytecodeFindings() {}

  /**
   * A finding in a jar or class directory; {@code where} names it (Maven coordinates, or the jar).
   * The advice is the detector's: the release that fixed it when {@code known-fixes.txt} knows one.
   */
  public static StaticFinding of(AuditFinding finding, String where, int key) {
    return new StaticFinding(
        finding.check(),
        finding.className(),
        "",
        "",
        finding.methodName(),
        finding.methodDescriptor(),
        -1,
        -1,
        finding.line(),
        where
            + " "
            + finding.readableMethod()
            + (finding.line() > 0 ? " line " + finding.line() : ""),
        finding.message(),
        finding.advice(),
        where,
        key);
  }

  /** {@code group:artifact:version} of a jar when it says so, else its file name. */
  public static String describe(Path jar) {
    if (jar == null) {
      return "unknown jar";
    }
    JarIdentity identity = JarIdentity.of(jar);
    if (!identity.coordinates().isEmpty()) {
      return identity.coordinates()
          + (identity.version().isEmpty() ? "" : ":" + identity.version());
    }
    return identity.display();
  }

  /** The classes of the sites' waiting frames (binary names), outside the Java runtime. */
  public static Set<String> siteClasses(Observations observations) {
    Set<String> classes = new LinkedHashSet<>();
    for (ObservedSite site : observations.sites()) {
      classes.add(site.frame().className());
    }
    return classes;
  }

  /**
   * The jars or class directories among {@code candidates} that hold at least one of {@code
   * classes}.
   */
  public static List<Path> holding(Set<String> classes, List<Path> candidates) {
    List<Path> holding = new ArrayList<>();
    for (Path candidate : candidates) {
      if (holdsAny(candidate, classes)) {
        holding.add(candidate);
      }
    }
    return holding;
  }

  private static boolean holdsAny(Path candidate, Set<String> classes) {
    if (Files.isDirectory(candidate)) {
      for (String name : classes) {
        if (Files.exists(candidate.resolve(name.replace('.', '/') + ".class"))) {
          return true;
        }
      }
      return false;
    }
    try (ZipFile zip = new ZipFile(candidate.toFile())) {
      for (String name : classes) {
        if (zip.getEntry(name.replace('.', '/') + ".class") != null) {
          return true;
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }
}
