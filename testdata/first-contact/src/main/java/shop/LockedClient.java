package shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Read-only in the working copy: lockjaw:fix reports it and leaves it as it is. */
public class LockedClient {
  public String stock(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://inventory/stock/" + sku)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }
}
