package shop;

import java.util.ArrayList;
import java.util.List;

/** Waits for its workers by joining them, not by polling isAlive(). */
public class FulfilmentWorkerPool {
  private final List<Thread> workers = new ArrayList<>();

  public void start(Runnable work, int size) {
    for (int i = 0; i < size; i++) {
      Thread worker = new Thread(work, "fulfilment-" + i);
      workers.add(worker);
      worker.start();
    }
  }

  public void awaitShutdown() throws InterruptedException {
    for (Thread worker : workers) {
      worker.join();
    }
  }
}
