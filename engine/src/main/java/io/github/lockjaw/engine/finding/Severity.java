package io.github.lockjaw.engine.finding;

import java.util.Locale;

/** Error Prone's severity levels, in increasing order. */
public enum Severity {
  SUGGESTION,
  WARNING,
  ERROR;

  /** Parses a user-supplied level, case-insensitively; null when it names no level. */
  public static Severity parse(String text) {
    if (text == null) {
      return null;
    }
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  public boolean atLeast(Severity other) {
    return compareTo(other) >= 0;
  }

  /** The SARIF 2.1.0 {@code level} of this severity. */
  public String sarifLevel() {
    return switch (this) {
      case ERROR -> "error";
      case WARNING -> "warning";
      case SUGGESTION -> "note";
    };
  }
}
