package io.github.lockjaw.cli.load;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A search in the style of the blog server whose search took 550 ms against 18 ms for a page: the
 * request thread starts a worker and polls {@code isAlive()} with a sleep until it ends, instead of
 * {@code join()}. Under load the request threads are seen sleeping in the poll loop.
 */
final class SearchService {
  String search(String query) throws InterruptedException {
    AtomicReference<String> result = new AtomicReference<>();
    Thread worker = new Thread(() -> result.set(index(query)), "search-worker");
    worker.start();
    while (worker.isAlive()) {
      Thread.sleep(20);
    }
    return result.get();
  }

  /** The index lookup: a few milliseconds of waiting for the index server. */
  private static String index(String query) {
    try {
      Thread.sleep(15);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "results for " + query;
  }
}
