package shop;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;

/**
 * The shop's load test: for five seconds, 8 order threads (six lookups for each save), 5 catalogue
 * threads and 3 journal threads, against a database server on a local socket that answers each
 * statement after 2 ms. The build records it with JFR (the surefire argLine in the POM).
 */
class LoadTest {
  @Test
  void fiveSecondsOfOrdersLookupsAndJournalEntries() throws Exception {
    long end = System.nanoTime() + 5_000_000_000L;
    AtomicLongArray done = new AtomicLongArray(3);
    try (ServerSocket database = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> serve(database), "database");
      server.setDaemon(true);
      server.start();
      OrderDao orders =
          new OrderDao(InetAddress.getLoopbackAddress().getHostAddress(), database.getLocalPort());
      Journal journal = new Journal();
      List<Thread> users = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        users.add(
            new Thread(
                () -> {
                  int n = 0;
                  while (System.nanoTime() < end) {
                    for (int lookup = 0; lookup < 6; lookup++) {
                      orders.find(n + lookup);
                    }
                    orders.save(n++, "book");
                    done.addAndGet(0, 7);
                  }
                },
                "order-" + i));
      }
      for (int i = 0; i < 5; i++) {
        users.add(
            new Thread(
                () -> {
                  while (System.nanoTime() < end) {
                    ProductCatalog.describe(ThreadLocalRandom.current().nextInt(1_000_000));
                    done.incrementAndGet(1);
                  }
                },
                "catalog-" + i));
      }
      for (int i = 0; i < 3; i++) {
        users.add(
            new Thread(
                () -> {
                  int n = 0;
                  while (System.nanoTime() < end) {
                    journal.append("event " + n++);
                    done.incrementAndGet(2);
                  }
                },
                "journal-" + i));
      }
      users.forEach(Thread::start);
      for (Thread user : users) {
        user.join();
      }
    }
    assertTrue(done.get(0) > 0 && done.get(1) > 0 && done.get(2) > 0, done.toString());
  }

  private static void serve(ServerSocket database) {
    while (!database.isClosed()) {
      try (Socket client = database.accept();
          BufferedReader in =
              new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
          PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
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
