package shop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Orders in the database: every method holds the DAO's monitor while it talks to the database server. */
public final class OrderDao {
  private final String host;
  private final int port;

  public OrderDao(String host, int port) {
    this.host = host;
    this.port = port;
  }

  public synchronized String find(int id) {
    return statement("SELECT " + id);
  }

  public synchronized String save(int id, String item) {
    return statement("INSERT " + id + " " + item);
  }

  private String statement(String sql) {
    try (Socket socket = new Socket(host, port);
        PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
        BufferedReader in =
            new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
      out.println(sql);
      return in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
