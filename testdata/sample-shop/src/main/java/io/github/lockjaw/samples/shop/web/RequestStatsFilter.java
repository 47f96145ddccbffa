package io.github.lockjaw.samples.shop.web;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;

/** Counts the shop's requests and their time, for the operations dashboard. */
public class RequestStatsFilter extends Filter {

  private long requests;
  private long totalNanos;

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    long start = System.nanoTime();
    try {
      chain.doFilter(exchange);
    } finally {
      long elapsed = System.nanoTime() - start;
      synchronized (this) {
        requests++;
        totalNanos += elapsed;
      }
    }
  }

  /** The average request time in milliseconds, for the dashboard. */
  public double averageMillis() {
    long count = requests;
    return count == 0 ? 0 : totalNanos / 1_000_000.0 / count;
  }

  @Override
  public String description() {
    return "request statistics";
  }
}
