package io.github.lockjaw.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 17, item 19: lockjaw:check knows which checks the compile runs, and runs the others. */
class CompilerIntegrationTest {
  private static final Set<String> KNOWN =
      Set.of(
          "ClassMonitorCache",
          "PerRequestHttpClient",
          "SharedMonitorDao",
          "SynchronizedMapCache",
          "ThreadAliveBusyWait");

  @Test
  void theOldGettingStartedSnippetRanTwoOfFive() {
    Set<String> run =
        CompilerIntegration.checksRun(
            List.of(
                "-XDcompilePolicy=simple",
                "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:ClassMonitorCache:WARN -Xep:SynchronizedMapCache:WARN"),
            KNOWN);
    assertEquals(Set.of("ClassMonitorCache", "SynchronizedMapCache"), run);
  }

  @Test
  void withoutDisableAllEveryCheckRunsUnlessSwitchedOff() {
    assertEquals(KNOWN, CompilerIntegration.checksRun(List.of("-Xplugin:ErrorProne"), KNOWN));
    Set<String> run =
        CompilerIntegration.checksRun(
            List.of("-Xplugin:ErrorProne -Xep:SharedMonitorDao:OFF"), KNOWN);
    assertFalse(run.contains("SharedMonitorDao"));
    assertEquals(4, run.size());
  }

  @Test
  void namesBeforeDisableAllAreOffAgain() {
    Set<String> run =
        CompilerIntegration.checksRun(
            List.of(
                "-Xplugin:ErrorProne -Xep:ThreadAliveBusyWait:ERROR -XepDisableAllChecks -Xep:SharedMonitorDao"),
            KNOWN);
    assertEquals(Set.of("SharedMonitorDao"), run);
  }

  @Test
  void onlyALifecyclePhaseFromCompileOnRunsTheCompile() {
    assertTrue(CompilerIntegration.compileRunsInThisBuild(List.of("clean", "verify")));
    assertTrue(CompilerIntegration.compileRunsInThisBuild(List.of("compile", "lockjaw:check")));
    assertFalse(CompilerIntegration.compileRunsInThisBuild(List.of("lockjaw:check")));
    assertFalse(CompilerIntegration.compileRunsInThisBuild(List.of("clean", "lockjaw:check")));
  }
}
