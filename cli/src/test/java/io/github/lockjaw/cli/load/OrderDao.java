package io.github.lockjaw.cli.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A DAO in the style of OpenCms 7's {@code CmsSqlManager}: every method is {@code synchronized} on
 * the one shared instance and talks to the database server over a socket while it holds the lock.
 */
final class OrderDao {
  private final String host;
  private final int port;

  OrderDao(String host, int port) {
    this.host = host;
    this.port = port;
  }

  synchronized String findOrder(int id) {
    return roundTrip("SELECT " + id);
  }

  synchronized String saveOrder(int id, String item) {
    return roundTrip("INSERT " + id + " " + item);
  }

  private String roundTrip(String statement) {
    try (Socket socket = new Socket(host, port);
        PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
      out.println(statement);
      return in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
