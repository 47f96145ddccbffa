package io.github.lockjaw.engine.analyzer;

import java.time.Duration;
import java.util.Optional;

/**
 * Runs in the forked analyzer JVM: ends it as soon as the Maven JVM that started it is gone, so a
 * killed build (kill -9, a CI job cancelled) leaves no analyzer running on as an orphan. The Maven
 * side passes its process id as {@value #PARENT_PID_PROPERTY}; when that process is no longer
 * alive, the analyzer halts.
 */
public final class ParentWatch {
  /** The system property that carries the Maven JVM's process id. */
  public static final String PARENT_PID_PROPERTY = "lockjaw.parentPid";

  private static final Duration INTERVAL = Duration.ofMillis(250);

  /** The exit code of an analyzer whose parent died, as after SIGTERM. */
  static final int ORPHANED = 143;

  private ParentWatch() {}

  /** Starts watching the parent named by {@value #PARENT_PID_PROPERTY}, if any. */
  public static void start() {
    String value = System.getProperty(PARENT_PID_PROPERTY);
    if (value == null || value.isBlank()) {
      return;
    }
    long pid;
    try {
      pid = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return;
    }
    Optional<ProcessHandle> parent = ProcessHandle.of(pid);
    if (parent.isEmpty() || !parent.get().isAlive()) {
      Runtime.getRuntime().halt(ORPHANED);
    }
    ProcessHandle handle = parent.get();
    Thread watch =
        new Thread(
            () -> {
              while (true) {
                if (!handle.isAlive()) {
                  Runtime.getRuntime().halt(ORPHANED);
                }
                try {
                  Thread.sleep(INTERVAL.toMillis());
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "lockjaw-parent-watch");
    watch.setDaemon(true);
    watch.start();
  }
}
