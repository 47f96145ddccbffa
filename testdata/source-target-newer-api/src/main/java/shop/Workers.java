package shop;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs tasks on virtual threads when the JVM has them (Java 21+), else on a cached pool: the newer
 * API is looked up by reflection, so the jar still runs on Java 11.
 */
public final class Workers {
  private Workers() {}

  public static ExecutorService newExecutor() {
    if (Runtime.version().feature() >= 21) {
      try {
        MethodHandle perTask =
            MethodHandles.publicLookup()
                .findStatic(
                    Executors.class,
                    "newThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class, java.util.concurrent.ThreadFactory.class));
        Thread.Builder.OfVirtual virtual = Thread.ofVirtual().name("worker-", 0);
        return (ExecutorService) perTask.invoke(virtual.factory());
      } catch (Throwable e) {
        // fall back to platform threads
      }
    }
    return Executors.newCachedThreadPool();
  }
}
