package io.github.lockjaw.contention;

/**
 * A lockjaw finding, from source (Error Prone) or bytecode (the SpotBugs detectors), as the
 * correlation needs it: where its code is and what the user should do.
 *
 * @param check the check's name, e.g. {@code ClassMonitorCache}
 * @param className the binary class name (bytecode findings); empty for source findings
 * @param sourceFile the absolute path of the source file (source findings); empty for bytecode
 * @param enclosingClass the class as source names it, {@code Outer.Inner} (source findings)
 * @param methodName the member's name, {@code <init>} for a constructor; empty for a field
 * @param descriptor the JVM descriptor (bytecode findings); empty when unknown
 * @param firstLine the member's first line, or -1 when unknown
 * @param lastLine the member's last line, or -1 when unknown
 * @param line the flagged line, or -1
 * @param location where to show it: a repository-relative path, or {@code group:artifact:version}
 * @param message what is wrong
 * @param advice the fix: a suggested change, or for a dependency the release that fixed it; may be
 *     empty
 * @param artifact the jar a bytecode finding is in, as the user knows it ({@code
 *     group:artifact:version}); empty for the module's own (source) findings
 * @param key an identifier the caller maps back to its own finding (e.g. an index)
 * @param fixDiff the suggested fix as a unified diff (source findings with a fix); may be empty
 */
public record StaticFinding(
    String check,
    String className,
    String sourceFile,
    String enclosingClass,
    String methodName,
    String descriptor,
    int firstLine,
    int lastLine,
    int line,
    String location,
    String message,
    String advice,
    String artifact,
    int key,
    String fixDiff) {

  /** A finding without a fix diff (bytecode findings: the advice names the release). */
  public StaticFinding(
      String check,
      String className,
      String sourceFile,
      String enclosingClass,
      String methodName,
      String descriptor,
      int firstLine,
      int lastLine,
      int line,
      String location,
      String message,
      String advice,
      String artifact,
      int key) {
    this(
        check,
        className,
        sourceFile,
        enclosingClass,
        methodName,
        descriptor,
        firstLine,
        lastLine,
        line,
        location,
        message,
        advice,
        artifact,
        key,
        "");
  }

  public StaticFinding {
    className = className == null ? "" : className;
    sourceFile = sourceFile == null ? "" : sourceFile;
    enclosingClass = enclosingClass == null ? "" : enclosingClass;
    methodName = methodName == null ? "" : methodName;
    descriptor = descriptor == null ? "" : descriptor;
    advice = advice == null ? "" : advice;
    message = message == null ? "" : message;
    artifact = artifact == null ? "" : artifact;
    fixDiff = fixDiff == null ? "" : fixDiff;
  }

  /** Whether the finding's member holds the code of this frame. */
  public boolean covers(Frame frame) {
    if (methodName.isEmpty() || !sameClass(frame)) {
      return false;
    }
    boolean sameMethod = methodName.equals(frame.methodName());
    if (!sameMethod && !methodName.equals(frame.sourceMethodName())) {
      return false;
    }
    if (sameMethod
        && !descriptor.isEmpty()
        && !frame.descriptor().isEmpty()
        && !descriptor.equals(frame.descriptor())) {
      return false; // an overload
    }
    if (firstLine > 0 && lastLine >= firstLine && frame.line() > 0) {
      return frame.line() >= firstLine && frame.line() <= lastLine;
    }
    return true;
  }

  private boolean sameClass(Frame frame) {
    if (!className.isEmpty()) {
      return className.equals(frame.className());
    }
    if (sourceFile.isEmpty() || enclosingClass.isEmpty()) {
      return false;
    }
    String top = frame.topLevelClassName();
    String expected = (top.replace('.', '/') + ".java");
    String file = sourceFile.replace('\\', '/');
    if (!(file.endsWith("/" + expected) || file.equals(expected))) {
      return false;
    }
    String pkg = frame.packageName();
    String nested =
        pkg.isEmpty() ? frame.className() : frame.className().substring(pkg.length() + 1);
    return sourceName(nested).equals(enclosingClass);
  }

  /**
   * How source names a nested binary name: {@code Outer.Inner} for {@code Outer$Inner}, {@code
   * Outer.<anonymous>} for {@code Outer$1}, {@code Outer.Local} for the local class {@code
   * Outer$1Local}.
   */
  static String sourceName(String binaryNested) {
    String[] parts = binaryNested.split("\\$", -1);
    StringBuilder name = new StringBuilder(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i];
      int digits = 0;
      while (digits < part.length() && Character.isDigit(part.charAt(digits))) {
        digits++;
      }
      name.append('.').append(digits == part.length() ? "<anonymous>" : part.substring(digits));
    }
    return name.toString();
  }
}
