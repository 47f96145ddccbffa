package io.github.lockjaw.cli;

/** A problem the user can fix, with its exit code and a one-paragraph message. */
final class CliException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
