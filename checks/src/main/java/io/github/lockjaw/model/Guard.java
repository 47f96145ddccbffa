package io.github.lockjaw.model;

/**
 * A condition that must hold for an operation to run: the operation sits in the branch of an {@code
 * if}, a conditional or a loop condition where {@code subject} tested as {@code test} came out
 * {@code outcome}. {@code if (v == null) { put }} gives the put the guard {@code (v, NULL, true)};
 * {@code if (!map.containsKey(k))} gives {@code (#containsKey, TRUE, false)}.
 */
public record Guard(Value subject, Test test, boolean outcome) {

  /** What was tested. */
  public enum Test {
    /** {@code subject == null}. */
    NULL,
    /** {@code subject} is {@code true} (a boolean) or not zero. */
    TRUE,
    /** {@code subject > 0}: a count compared with zero ({@link LoopExit} tests only). */
    POSITIVE
  }

  @Override
  public String toString() {
    return (outcome ? "" : "!") + "(" + subject + (test == Test.NULL ? "==null" : "") + ")";
  }
}
