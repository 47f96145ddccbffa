package io.github.lockjaw.engine.finding;

import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.common.LockjawDocs;
import java.util.List;

/**
 * Findings of lockjaw's bytecode detectors in the one finding model: how {@code lockjaw:audit},
 * {@code lockjaw:contention} and lockjaw-cli report a jar's anti-patterns.
 */
public final class AuditFindings {
  private AuditFindings() {}

  /** The finding of the detector's result; its file is the jar (or class directory). */
  public static Finding toFinding(AuditFinding a) {
    return toFinding(a, Severity.WARNING);
  }

  /** The finding of the detector's result at the given severity. */
  public static Finding toFinding(AuditFinding a, Severity severity) {
    return new Finding(
        a.check(),
        severity,
        a.jar() == null ? "" : a.jar().toAbsolutePath().toString(),
        Math.max(a.line(), 0),
        0,
        a.message() + " " + a.advice(),
        LockjawDocs.forCheck(a.check()),
        a.className(),
        methodOnly(a),
        a.methodName() + a.methodDescriptor(),
        List.of());
  }

  /** The rule reporters list for a check found in bytecode. */
  public static Rule rule(String check) {
    return new Rule(
        check,
        "lockjaw's " + check + " anti-pattern, found in a dependency's bytecode",
        LockjawDocs.forCheck(check),
        Severity.WARNING);
  }

  /** {@code borrowObject()} from {@code GenericObjectPool.borrowObject()}. */
  static String methodOnly(AuditFinding finding) {
    String simpleClass =
        finding.className().substring(finding.className().lastIndexOf('.') + 1).replace('$', '.');
    String readable = finding.readableMethod();
    return readable.startsWith(simpleClass + ".")
        ? readable.substring(simpleClass.length() + 1)
        : readable;
  }
}
