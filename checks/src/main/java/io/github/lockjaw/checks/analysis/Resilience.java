package io.github.lockjaw.checks.analysis;

/**
 * A check must never crash javac: on a tree shape it does not expect, it stays silent or reports
 * without a fix. Tests must still see such surprises, so with {@code -Dlockjaw.strict=true} (set
 * by lockjaw's own unit and corpus tests) the swallowed exception is thrown again.
 */
public final class Resilience {
  private static final boolean STRICT = Boolean.getBoolean("lockjaw.strict");

  private Resilience() {}

  /** Call in the catch block that turns an unexpected exception into "no finding" or "no fix". */
  public static void rethrowIfStrict(RuntimeException e) {
    if (STRICT) {
      throw e;
    }
  }
}
