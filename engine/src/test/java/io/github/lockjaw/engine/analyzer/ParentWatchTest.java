package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Item 15 of issue 17: a killed Maven leaves no analyzer running on. */
class ParentWatchTest {

  @Test
  void theAnalyzerEndsWhenItsParentIsKilled() throws Exception {
    ProcessHandle child = killParentOf("watch");
    try {
      boolean ended =
          child.onExit().thenApply(p -> true).completeOnTimeout(false, 20, TimeUnit.SECONDS).get();
      assertTrue(ended, "the watched analyzer outlived the killed Maven JVM");
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void withoutTheWatchTheChildWouldRunOnAsAnOrphan() throws Exception {
    ProcessHandle child = killParentOf("nowatch");
    try {
      Thread.sleep(2_000);
      assertTrue(
          child.isAlive(),
          "control: an unwatched child survives its parent (else the test above proves nothing)");
    } finally {
      child.destroyForcibly();
    }
  }

  /** Starts a parent that forks a child, kills the parent with SIGKILL, returns the child. */
  private static ProcessHandle killParentOf(String mode) throws Exception {
    var command = OrphanFixture.java(OrphanFixture.Parent.class);
    command.add(mode);
    Process parent =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    long pid;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream()))) {
      pid = Long.parseLong(out.readLine().trim());
    }
    ProcessHandle child = ProcessHandle.of(pid).orElseThrow();
    Thread.sleep(1_000); // let the child start its watch
    assertTrue(child.isAlive(), "the child should run while its parent does");
    parent.destroyForcibly(); // SIGKILL: no shutdown hook runs, as when Maven is killed
    assertTrue(parent.waitFor(10, TimeUnit.SECONDS));
    assertFalse(parent.isAlive());
    return child;
  }
}
