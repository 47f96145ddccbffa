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
    List<Edit> fix) {

  public Finding {
    fix = fix == null ? List.of() : List.copyOf(fix);
    member = member == null ? "" : member;
    enclosingClass = enclosingClass == null ? "" : enclosingClass;
    flaggedCode = flaggedCode == null ? "" : flaggedCode;
  }

  public boolean hasFix() {
    return !fix.isEmpty();
  }

  public Path path() {
    return Path.of(file);
  }
}
