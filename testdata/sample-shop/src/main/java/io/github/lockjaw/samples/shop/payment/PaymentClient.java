package io.github.lockjaw.samples.shop.payment;

import io.github.lockjaw.samples.shop.catalog.ClassInfo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Calls the payment service over HTTP at checkout. */
public class PaymentClient {

  private final URI paymentService;

  public PaymentClient(URI paymentService) {
    this.paymentService = paymentService;
  }

  /** Charges the card and returns the payment service's transaction id. */
  public String charge(PaymentRequest payment) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest request =
        HttpRequest.newBuilder(paymentService.resolve("/v1/charges"))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(toJson(payment)))
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 201) {
      throw new IOException(
          "Payment service refused order " + payment.orderId() + ": HTTP " + response.statusCode());
    }
    return response.body();
  }

  private static String toJson(Object body) {
    ClassInfo info = ClassInfo.getInstance(body.getClass());
    StringBuilder json = new StringBuilder("{");
    for (String property : info.getReadablePropertyNames()) {
      if (json.length() > 1) {
        json.append(',');
      }
      Object value = info.getValue(body, property);
      json.append('"').append(property).append("\":");
      if (value instanceof Number) {
        json.append(value);
      } else {
        json.append('"').append(String.valueOf(value).replace("\"", "\\\"")).append('"');
      }
    }
    return json.append('}').toString();
  }
}
