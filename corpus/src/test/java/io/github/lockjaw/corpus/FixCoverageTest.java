package io.github.lockjaw.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.corpus.CorpusCompiler.Finding;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How the corpus report reads a finding's fix and folds its blocker. */
@Tag("corpus") // runs with the corpus test, in the default build
class FixCoverageTest {
  private static Finding finding(String message) {
    return new Finding("SynchronizedMapCache", "A.java", 1, 1, "A", "get", "", message);
  }

  @Test
  void aBlockerWithNamesAndParenthesesIsFoldedWhole() {
    Finding f =
        finding(
            "Check-then-act cache on 'byName'. (No automatic fix: 'byName' is also used at line 42"
                + " other than by one call on it (it is passed on), which lockjaw cannot follow.)");
    assertFalse(FixCoverage.hasFix(f));
    assertEquals(
        "'…' is also used at line N other than by one call on it (it is passed on), which"
            + " lockjaw cannot follow",
        FixCoverage.blocker(f));
  }

  @Test
  void anApostropheInAWordIsNoQuote() {
    Finding f =
        finding(
            "Cache. (No automatic fix: 'CACHE' holds its keys weakly; the concurrent weak-keyed"
                + " maps (Caffeine's weakKeys(), Guava's MapMaker().weakKeys()) compare keys by"
                + " identity, and the lookup's code does more than read 'CACHE'.)");
    assertEquals(
        "'…' holds its keys weakly; the concurrent weak-keyed maps (Caffeine's weakKeys(),"
            + " Guava's MapMaker().weakKeys()) compare keys by identity, and the lookup's code"
            + " does more than read '…'",
        FixCoverage.blocker(f));
  }

  @Test
  void aFindingWithAFixHasNoBlocker() {
    Finding f = finding("Check-then-act cache on 'byName'.\n    Did you mean 'return x;'?");
    assertTrue(FixCoverage.hasFix(f));
    assertEquals("(none given)", FixCoverage.blocker(f));
  }
}
