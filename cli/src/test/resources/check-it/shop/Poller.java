package shop;

/** Waits for the export thread: added after the baseline was written. */
public class Poller {
  public void awaitExport(Thread export) {
    while (export.isAlive()) {
      Thread.onSpinWait();
    }
  }
}
