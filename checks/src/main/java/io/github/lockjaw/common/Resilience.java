package io.github.lockjaw.common;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * A check must never crash javac: on a tree shape it does not expect, it stays silent or reports
 * without a fix. Tests must still see such surprises, so with {@code -Dlockjaw.strict=true} (set by
 * lockjaw's own unit and corpus tests) the swallowed exception is thrown again.
 */
public final class Resilience {
  private static final boolean STRICT = Boolean.getBoolean("lockjaw.strict");

  private static final List<String> SWALLOWED = Collections.synchronizedList(new ArrayList<>());

  private Resilience() {}

  /**
   * For code whose caller swallows exceptions itself (SpotBugs logs a detector's exception and goes
   * on): in strict mode, remembers it for {@link #swallowed()}.
   */
  public static void recordIfStrict(String where, RuntimeException e) {
    if (STRICT) {
      SWALLOWED.add(where + ": " + e);
    }
  }

  /** What {@link #recordIfStrict} remembered; tests assert it stays empty. */
  public static List<String> swallowed() {
    return List.copyOf(SWALLOWED);
  }

  /**
   * Runs a check's matcher: an unexpected exception (a tree shape the check did not foresee) gives
   * {@code fallback}, "no finding", instead of crashing javac; in strict mode it is thrown.
   */
  public static <T> T orElse(Supplier<T> matcher, T fallback) {
    try {
      return matcher.get();
    } catch (RuntimeException e) {
      rethrowIfStrict(e);
      return fallback;
    } catch (AssertionError e) {
      rethrowIfStrict(e);
      return fallback;
    }
  }

  /** Call in the catch block that turns an unexpected exception into "no finding" or "no fix". */
  public static void rethrowIfStrict(RuntimeException e) {
    if (STRICT) {
      throw e;
    }
  }

  /**
   * As {@link #rethrowIfStrict(RuntimeException)}, for the AssertionError that javac's and Error
   * Prone's helpers throw on shapes they do not expect (e.g. SuggestedFixes.addMembers on a
   * record).
   */
  public static void rethrowIfStrict(AssertionError e) {
    if (STRICT) {
      throw e;
    }
  }
}
