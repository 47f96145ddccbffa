package io.github.lockjaw.cli.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A small server under load for the contention integration test: request threads hit a Class-locked
 * cache, a DAO that does socket I/O under its monitor, a journal lock no check is about, and a
 * search that polls its worker thread with isAlive() and a sleep, for the given number of seconds.
 * Prints {@code ready} once the load runs, then {@code done} with the request counts.
 *
 * <pre>java -XX:StartFlightRecording=... -cp test-classes io.github.lockjaw.cli.load.LoadProgram 4
 * </pre>
 */
public final class LoadProgram {
  private LoadProgram() {}

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 4;
    long end = System.nanoTime() + (long) (seconds * 1e9);
    try (ServerSocket database = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> serve(database), "database");
      server.setDaemon(true);
      server.start();
      OrderDao dao =
          new OrderDao(InetAddress.getLoopbackAddress().getHostAddress(), database.getLocalPort());
      AuditJournal journal = new AuditJournal();
      SearchService searches = new SearchService();
      AtomicLongArray counts = new AtomicLongArray(4);
      List<Thread> workers = new ArrayList<>();
      // Thread counts and mix set the expected ranking by blocked time, each about twice the next:
      // the DAO's findOrder (8 threads queue on the DAO, six lookups for each save), then the
      // catalogue cache (5 threads), then the journal (3 threads) and saveOrder.
      for (int i = 0; i < 8; i++) {
        workers.add(
            new Thread(
                () -> {
                  int n = 0;
                  while (System.nanoTime() < end) {
                    for (int lookup = 0; lookup < 6; lookup++) {
                      dao.findOrder(n + lookup);
                    }
                    dao.saveOrder(n++, "book");
                    counts.addAndGet(0, 7);
                  }
                },
                "order-" + i));
      }
      for (int i = 0; i < 5; i++) {
        workers.add(
            new Thread(
                () -> {
                  while (System.nanoTime() < end) {
                    ReflectionCache.describe(
                        "type-" + ThreadLocalRandom.current().nextInt(1_000_000));
                    counts.incrementAndGet(1);
                  }
                },
                "catalog-" + i));
      }
      for (int i = 0; i < 3; i++) {
        workers.add(
            new Thread(
                () -> {
                  int n = 0;
                  while (System.nanoTime() < end) {
                    journal.append("event " + n++);
                    counts.incrementAndGet(2);
                  }
                },
                "journal-" + i));
      }
      workers.add(
          new Thread(
              () -> {
                int n = 0;
                while (System.nanoTime() < end) {
                  try {
                    searches.search("query " + n++);
                  } catch (InterruptedException e) {
                    return;
                  }
                  counts.incrementAndGet(3);
                }
              },
              "search-0"));
      workers.forEach(Thread::start);
      System.out.println("ready");
      System.out.flush();
      for (Thread worker : workers) {
        worker.join();
      }
      System.out.println(
          "done orders="
              + counts.get(0)
              + " lookups="
              + counts.get(1)
              + " journal="
              + counts.get(2)
              + " searches="
              + counts.get(3));
    }
  }

  /** The "database": answers each statement after a 2 ms round trip. */
  private static void serve(ServerSocket database) {
    while (!database.isClosed()) {
      try (Socket client = database.accept();
          BufferedReader in =
              new BufferedReader(
                  new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
          PrintWriter out =
              new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
        String statement = in.readLine();
        Thread.sleep(2);
        out.println("ok " + statement);
      } catch (IOException e) {
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
