import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;

/**
 * 200 virtual threads under load, compiled with --release 21 by ProgramEvidenceTest: 150 queue on
 * a class monitor held for 40 ms (a price list that is read under its class lock), 50 on a
 * ReentrantLock held for 40 ms (an order journal), and 4 platform threads on a ledger's class
 * monitor. Prints "ready" once the load runs, and ends after the given number of seconds.
 */
public class Contended {
  static synchronized String price(int item) {
    pause(40);
    return "EUR " + item;
  }

  static final ReentrantLock JOURNAL = new ReentrantLock();

  static void append(String entry) {
    JOURNAL.lock();
    try {
      pause(40);
    } finally {
      JOURNAL.unlock();
    }
  }

  static final class Ledger {
    static synchronized void post() {
      pause(5);
    }
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static void main(String[] args) throws Exception {
    long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
    ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
    for (int i = 0; i < 150; i++) {
      int item = i;
      virtual.submit(
          () -> {
            while (System.nanoTime() < end) {
              price(item);
            }
          });
    }
    for (int i = 0; i < 50; i++) {
      virtual.submit(
          () -> {
            while (System.nanoTime() < end) {
              append("order");
            }
          });
    }
    Thread[] platform = new Thread[4];
    for (int i = 0; i < platform.length; i++) {
      platform[i] =
          new Thread(
              () -> {
                while (System.nanoTime() < end) {
                  Ledger.post();
                }
              },
              "ledger-" + i);
      platform[i].start();
    }
    System.out.println("ready");
    System.out.flush();
    for (Thread t : platform) {
      t.join();
    }
    virtual.shutdown();
    virtual.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
    System.exit(0);
  }
}
