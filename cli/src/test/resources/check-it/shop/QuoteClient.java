package shop;

import java.io.IOException;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asks the quote service for a price, once per order line. */
public class QuoteClient {
  private static final Logger LOG = LoggerFactory.getLogger(QuoteClient.class);

  private final String service;

  public QuoteClient(String service) {
    this.service = service;
  }

  public String quote(String sku) throws IOException {
    CloseableHttpClient client = HttpClients.createDefault();
    try (CloseableHttpResponse response = client.execute(new HttpGet(service + "/quotes/" + sku))) {
      LOG.debug("quoted {}", sku);
      return EntityUtils.toString(response.getEntity());
    }
  }
}
