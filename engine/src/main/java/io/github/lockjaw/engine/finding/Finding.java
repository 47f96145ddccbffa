package io.github.lockjaw.engine.finding;

import java.nio.file.Path;
import java.util.List;

/**
 * One finding, from source (Error Prone) or bytecode: what every reporter, the baseline and the
 * verdict work from.
 *
 * @param check the check's name, e.g. {@code ClassMonitorCache}
 * @param severity its severity in this build
 * @param file the absolute path of the source file
 * @param line 1-based line of the flagged code
 * @param column 1-based column of the flagged code
 * @param message what is wrong and what to do
 * @param helpUri the check's documentation page
 * @param enclosingClass the class holding the flagged code, e.g. {@code Outer.Inner}
 * @param member the method or field holding it, e.g. {@code getInstance(Class)}, or empty
 * @param flaggedCode the head of the flagged code (its first line up to a brace), white space
 *     removed
 * @param fix the suggested fix's replacements, empty when there is none
 * @param requestPath how requests reach the flagged code: the entry point first, then each call;
 *     empty when the finding does not depend on it or it is not known
 * @param effectChain what the code under the lock does, through which helpers: the first call in
 *     the flagged code first, the effect (the I/O call, the fill, the counter update) last; empty
 *     when the effect is in the flagged code itself
 */
public record Finding(
    String check,
    Severity severity,
    String file,
    int line,
    int column,
    String message,
    String helpUri,
    String enclosingClass,
    String member,
    String flaggedCode,
    List<Edit> fix,
    List<TraceStep> requestPath,
    List<TraceStep> effectChain) {

  public Finding {
    fix = fix == null ? List.of() : List.copyOf(fix);
    requestPath = requestPath == null ? List.of() : List.copyOf(requestPath);
    effectChain = effectChain == null ? List.of() : List.copyOf(effectChain);
    member = member == null ? "" : member;
    enclosingClass = enclosingClass == null ? "" : enclosingClass;
    flaggedCode = flaggedCode == null ? "" : flaggedCode;
  }

  /** A finding without a request path or an effect chain. */
  public Finding(
      String check,
      Severity severity,
      String file,
      int line,
      int column,
      String message,
      String helpUri,
      String enclosingClass,
      String member,
      String flaggedCode,
      List<Edit> fix) {
    this(
        check,
        severity,
        file,
        line,
        column,
        message,
        helpUri,
        enclosingClass,
        member,
        flaggedCode,
        fix,
        List.of(),
        List.of());
  }

  /** This finding with its request path and effect chain. */
  public Finding withTrace(List<TraceStep> requestPath, List<TraceStep> effectChain) {
    return new Finding(
        check,
        severity,
        file,
        line,
        column,
        message,
        helpUri,
        enclosingClass,
        member,
        flaggedCode,
        fix,
        requestPath,
        effectChain);
  }

  public boolean hasFix() {
    return !fix.isEmpty();
  }

  public Path path() {
    return Path.of(file);
  }
}
