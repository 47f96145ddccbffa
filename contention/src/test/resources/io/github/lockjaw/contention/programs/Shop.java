import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Virtual threads that block where they are pinned to their carrier, compiled with --release 21
 * by ProgramEvidenceTest: eight requests need the shop's settings, whose class initializer waits
 * 300 ms for the settings server (a blocking call inside a class initializer pins on every JDK);
 * four requests audit under a synchronized method that waits 30 ms (pins on JDK 21 to 23, not on
 * JDK 24+, JEP 491).
 */
public class Shop {
  static final class Settings {
    static final String REGION;

    static {
      pause(300);
      REGION = "eu";
    }
  }

  static synchronized void audit() {
    pause(30);
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static void main(String[] args) throws Exception {
    ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
    for (int i = 0; i < 8; i++) {
      virtual.submit(() -> Settings.REGION.length());
    }
    for (int i = 0; i < 4; i++) {
      virtual.submit(
          () -> {
            for (int n = 0; n < 5; n++) {
              audit();
            }
          });
    }
    virtual.shutdown();
    virtual.awaitTermination(60, TimeUnit.SECONDS);
  }
}
