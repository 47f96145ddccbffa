package io.github.lockjaw.model.bytecode;

/** A class file that cannot be parsed: truncated, garbled, or of a format ASM does not know. */
public final class UnreadableClassException extends Exception {
  private static final long serialVersionUID = 1L;

  public UnreadableClassException(String origin, Throwable cause) {
    super(origin + ": not a readable class file (" + cause + ")", cause);
  }
}
