package io.github.lockjaw.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

class CheckSelectionTest {
  private static final Set<String> KNOWN = Set.of("ClassMonitorCache", "ThreadAliveBusyWait");

  @Test
  void namesAndLevelsBecomeErrorProneFlags() throws Exception {
    assertEquals(
        List.of(
            "-Xep:ClassMonitorCache:ERROR",
            "-Xep:ThreadAliveBusyWait:OFF",
            "-Xep:ClassMonitorCache:WARN"),
        CheckSelection.toErrorProneFlags(
            Arrays.asList(
                "ClassMonitorCache:error",
                " ThreadAliveBusyWait:OFF ",
                "ClassMonitorCache",
                "",
                null),
            KNOWN));
  }

  @Test
  void anUnknownNameListsTheRealOnes() {
    MojoFailureException e =
        assertThrows(
            MojoFailureException.class,
            () -> CheckSelection.toErrorProneFlags(List.of("ClassMonitorCahce:OFF"), KNOWN));
    assertTrue(e.getMessage().contains("no check named 'ClassMonitorCahce'"), e.getMessage());
    assertTrue(e.getMessage().contains("ClassMonitorCache"), e.getMessage());
  }

  @Test
  void anUnknownLevelSaysWhichAreAllowed() {
    MojoFailureException e =
        assertThrows(
            MojoFailureException.class,
            () -> CheckSelection.toErrorProneFlags(List.of("ClassMonitorCache:LOUD"), KNOWN));
    assertTrue(e.getMessage().contains("OFF, WARN, ERROR or DEFAULT"), e.getMessage());
  }

  @Test
  void theShippedChecksAreFoundThroughTheServiceRegistration() throws Exception {
    Set<String> known = CheckSelection.knownChecks(getClass().getClassLoader());
    assertTrue(
        known.containsAll(
            Set.of(
                "ClassMonitorCache",
                "SynchronizedMapCache",
                "ThreadAliveBusyWait",
                "SharedMonitorDao",
                "PerRequestHttpClient")),
        known.toString());
  }
}
