package io.github.lockjaw.samples.shop.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/** Worker threads that pack and ship paid orders in the background. */
public class FulfilmentWorkerPool {

  private static final String SHUTDOWN = "";

  private final BlockingQueue<String> paidOrders = new LinkedBlockingQueue<>();
  private final List<Thread> workers = new ArrayList<>();

  public FulfilmentWorkerPool(int size, Consumer<String> fulfilment) {
    for (int i = 0; i < size; i++) {
      Thread worker = new Thread(() -> work(fulfilment), "fulfilment-" + i);
      workers.add(worker);
      worker.start();
    }
  }

  public void submit(String orderId) {
    paidOrders.add(orderId);
  }

  /** Lets the workers finish the orders already queued, then waits until they have stopped. */
  public void shutdown() throws InterruptedException {
    for (int i = 0; i < workers.size(); i++) {
      paidOrders.add(SHUTDOWN);
    }
    for (Thread worker : workers) {
      while (worker.isAlive()) {
        Thread.sleep(10);
      }
    }
  }

  private void work(Consumer<String> fulfilment) {
    try {
      for (String orderId = paidOrders.take(); !orderId.equals(SHUTDOWN); orderId = paidOrders.take()) {
        fulfilment.accept(orderId);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
