package shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Asks the pricing service for quotes; Java 17 code (var, a record). */
public class Quotes {
  record Quote(String sku, String price) {}

  public Quote quote(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    var request = HttpRequest.newBuilder(URI.create("http://pricing/quote/" + sku)).build();
    return new Quote(sku, client.send(request, HttpResponse.BodyHandlers.ofString()).body());
  }
}
