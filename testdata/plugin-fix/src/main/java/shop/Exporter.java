package shop;

/** Exports orders on a background thread and waits for it. */
public class Exporter {
  public void export(Runnable writeCsv) throws InterruptedException {
    Thread export = new Thread(writeCsv, "order-export");
    export.start();
    while (export.isAlive()) {
      Thread.sleep(10);
    }
  }
}
