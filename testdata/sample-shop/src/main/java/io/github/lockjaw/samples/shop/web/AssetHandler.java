package io.github.lockjaw.samples.shop.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Serves the shop's static assets (scripts, styles, images) from the class path. */
public class AssetHandler implements HttpHandler {

  private static final Object ASSET_LOCK = new Object();

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath().substring("/assets/".length());
    byte[] body;
    synchronized (ASSET_LOCK) {
      try (InputStream in = AssetHandler.class.getClassLoader().getResourceAsStream("static/" + path)) {
        body = in == null ? null : in.readAllBytes();
      }
    }
    if (body == null) {
      exchange.sendResponseHeaders(404, -1);
      return;
    }
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
