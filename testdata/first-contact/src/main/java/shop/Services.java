package shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Six services, each asked through a client made for one call: one lockjaw:fix run fixes all six. */
public class Services {
  public String stock(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    return client.send(HttpRequest.newBuilder(URI.create("http://stock/" + sku)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  public String price(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    return client.send(HttpRequest.newBuilder(URI.create("http://price/" + sku)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  public String tax(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    return client.send(HttpRequest.newBuilder(URI.create("http://tax/" + sku)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  public String shipping(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    return client.send(HttpRequest.newBuilder(URI.create("http://shipping/" + sku)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  public String reviews(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    return client.send(HttpRequest.newBuilder(URI.create("http://reviews/" + sku)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  public String images(String sku) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    return client.send(HttpRequest.newBuilder(URI.create("http://images/" + sku)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }
}
