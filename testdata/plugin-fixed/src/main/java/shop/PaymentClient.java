package shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** One shared, pooled client for every charge. */
public class PaymentClient {
  private static final HttpClient HTTP_CLIENT = HttpClient.newHttpClient();
  private final URI paymentService;

  public PaymentClient(URI paymentService) {
    this.paymentService = paymentService;
  }

  public String charge(String json) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(paymentService.resolve("/v1/charges"))
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build();
    return HTTP_CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }
}
