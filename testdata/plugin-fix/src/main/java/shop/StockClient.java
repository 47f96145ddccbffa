package shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Asks the inventory service for stock levels. */
public class StockClient {
  public String stock(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://inventory/stock/" + sku)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }
}
