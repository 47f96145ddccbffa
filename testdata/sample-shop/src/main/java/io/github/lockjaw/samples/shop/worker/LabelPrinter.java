package io.github.lockjaw.samples.shop.worker;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Prints the shipping label of every packed order, each on a virtual thread of its own. */
public final class LabelPrinter {

  private final ExecutorService printing = Executors.newVirtualThreadPerTaskExecutor();
  private final BlockingQueue<String> freePrinters =
      new ArrayBlockingQueue<>(2, false, List.of("dock-1", "dock-2"));
  private final Object printerLock = new Object();

  public void printAll(List<String> orderIds) {
    for (String orderId : orderIds) {
      printing.submit(() -> print(orderId));
    }
  }

  void print(String orderId) {
    synchronized (printerLock) {
      String printer;
      try {
        printer = freePrinters.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      System.out.println(printer + " prints the label of order " + orderId);
      freePrinters.add(printer);
    }
  }
}
