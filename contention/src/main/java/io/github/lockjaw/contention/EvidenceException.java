package io.github.lockjaw.contention;

/**
 * The evidence cannot be read: a corrupt or truncated file, an unrecognised format, a missing file.
 * Its message is one paragraph for the user that says what to do; no stack trace is needed.
 */
public final class EvidenceException extends Exception {
  private static final long serialVersionUID = 1L;

  public EvidenceException(String message) {
    super(message);
  }

  public EvidenceException(String message, Throwable cause) {
    super(message, cause);
  }
}
