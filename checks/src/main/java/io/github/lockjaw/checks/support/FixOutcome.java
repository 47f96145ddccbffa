package io.github.lockjaw.checks.support;

import com.google.errorprone.fixes.SuggestedFix;
import java.util.Optional;

/**
 * A fix, or the one reason lockjaw does not offer it: the exact blocker (a key that may be null,
 * another use of the map at line 12, a field written in the region), so that a person can apply the
 * rewrite by hand once they have checked it.
 *
 * @param fix the rewrite, when lockjaw can show it keeps behaviour
 * @param blocker why there is none: a clause without a final period, {@code null} with a fix
 */
public record FixOutcome(Optional<SuggestedFix> fix, String blocker) {

  public FixOutcome {
    if (fix.isPresent() == (blocker != null)) {
      throw new IllegalArgumentException("a fix outcome has a fix or a blocker, not both");
    }
  }

  public static FixOutcome of(SuggestedFix fix) {
    return new FixOutcome(Optional.of(fix), null);
  }

  public static FixOutcome blocked(String blocker) {
    return new FixOutcome(Optional.empty(), blocker);
  }

  public boolean hasFix() {
    return fix.isPresent();
  }

  /** What a message appends: nothing with a fix, else {@code " (No automatic fix: why.)"}. */
  public String note() {
    return fix.isPresent() ? "" : " (No automatic fix: " + blocker + ".)";
  }
}
