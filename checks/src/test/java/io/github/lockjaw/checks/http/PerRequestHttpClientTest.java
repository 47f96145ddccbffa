package io.github.lockjaw.checks.http;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class PerRequestHttpClientTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(PerRequestHttpClient.class, getClass());

  /**
   * A refactoring test that also compiles the expected output on its own and expects no finding in
   * it: the fixed code compiles and the shared client is not reported again.
   */
  private FixTest fix() {
    return new FixTest();
  }

  private final class FixTest {
    private String inputFile;
    private String[] input;
    private String outputFile;
    private String[] output;

    FixTest addInputLines(String file, String... lines) {
      inputFile = file;
      input = lines;
      return this;
    }

    FixTest addOutputLines(String file, String... lines) {
      outputFile = file;
      output = lines;
      return this;
    }

    void doTest() {
      BugCheckerRefactoringTestHelper.newInstance(
              PerRequestHttpClient.class, PerRequestHttpClientTest.class)
          .addInputLines(inputFile, input)
          .addOutputLines(outputFile, output)
          .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
      CompilationTestHelper.newInstance(PerRequestHttpClient.class, PerRequestHttpClientTest.class)
          .addSourceLines(outputFile, output)
          .expectNoDiagnostics()
          .doTest();
    }
  }

  // ---- positives: Apache HttpClient 4.x --------------------------------------------------------

  @Test
  void aServerAnsweringConnectionCloseIsTheProtocolNotAProblem() {
    compilation
        .addSourceLines(
            "ResponseConnControl.java",
            "import org.apache.http.HttpResponse;",
            "public class ResponseConnControl {",
            "  public void process(HttpResponse response, boolean keepAlive) {",
            "    if (!keepAlive) {",
            "      response.setHeader(\"Connection\", \"close\");",
            "    }",
            "  }",
            "  public void process5(org.apache.hc.core5.http.HttpResponse response) {",
            "    response.addHeader(\"Connection\", \"close\");",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void apache4CreateDefaultInTryWithResources() {
    compilation
        .addSourceLines(
            "InventoryClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.CloseableHttpResponse;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.apache.http.util.EntityUtils;",
            "public class InventoryClient {",
            "  private final String baseUrl;",
            "  public InventoryClient(String baseUrl) { this.baseUrl = baseUrl; }",
            "  public String stockLevel(String sku) throws IOException {",
            "    // BUG: Diagnostic contains: A new CloseableHttpClient is created for one request"
                + " and thrown away (closed after the exchange)",
            "    try (CloseableHttpClient client = HttpClients.createDefault();",
            "        CloseableHttpResponse response = client.execute(new HttpGet(baseUrl + \"/stock/\" + sku))) {",
            "      return EntityUtils.toString(response.getEntity());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void apache4CreateDefaultHasNoFixBecauseOfItsCookieStore() {
    compilation
        .addSourceLines(
            "PriceService.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class PriceService {",
            "  public String price(String sku) throws IOException {",
            "    // BUG: Diagnostic contains: No automatic fix: a shared client keeps one cookie store",
            "    return HttpClients.createDefault().execute(new HttpGet(\"http://prices/\" + sku),"
                + " new BasicResponseHandler());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void apache4DefaultHttpClientLeftToTheGc() {
    compilation
        .addSourceLines(
            "LegacyPaymentGateway.java",
            "import java.io.IOException;",
            "import org.apache.http.HttpResponse;",
            "import org.apache.http.client.HttpClient;",
            "import org.apache.http.client.methods.HttpPost;",
            "import org.apache.http.impl.client.DefaultHttpClient;",
            "@SuppressWarnings(\"deprecation\")",
            "public class LegacyPaymentGateway {",
            "  public int authorize(String orderId) throws IOException {",
            "    // BUG: Diagnostic contains: give the shared client a PoolingClientConnectionManager",
            "    HttpClient httpClient = new DefaultHttpClient();",
            "    HttpPost post = new HttpPost(\"https://psp.example.com/authorize/\" + orderId);",
            "    HttpResponse response = httpClient.execute(post);",
            "    return response.getStatusLine().getStatusCode();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void apache4PoolingManagerPerCall() {
    compilation
        .addSourceLines(
            "ShippingQuotes.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;",
            "public class ShippingQuotes {",
            "  public String quote(String zip) throws IOException {",
            "    PoolingHttpClientConnectionManager unused = null;",
            "    // BUG: Diagnostic contains: with its own connection pool",
            "    CloseableHttpClient client = HttpClients.custom()",
            "        .setConnectionManager(new PoolingHttpClientConnectionManager())",
            "        .build();",
            "    try {",
            "      return client.execute(new HttpGet(\"http://shipping/quote?zip=\" + zip), new BasicResponseHandler());",
            "    } finally {",
            "      client.close();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void apache4BuilderHeldInALocalVariable() {
    compilation
        .addSourceLines(
            "CatalogFeed.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClientBuilder;",
            "public class CatalogFeed {",
            "  public String fetch(String url, int timeoutMillis) throws IOException {",
            "    HttpClientBuilder builder = HttpClientBuilder.create().setMaxConnTotal(10);",
            "    builder.setUserAgent(\"catalog-feed\");",
            "    // BUG: Diagnostic contains: A new CloseableHttpClient is created for one request",
            "    try (CloseableHttpClient client = builder.build()) {",
            "      return client.execute(new HttpGet(url), new BasicResponseHandler());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- positives: Apache HttpClient 5.x --------------------------------------------------------

  @Test
  void apache5ClassicWithResponseHandlerLambda() {
    compilation
        .addSourceLines(
            "ReviewsClient.java",
            "import java.io.IOException;",
            "import org.apache.hc.client5.http.classic.methods.HttpGet;",
            "import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;",
            "import org.apache.hc.client5.http.impl.classic.HttpClients;",
            "import org.apache.hc.core5.http.io.entity.EntityUtils;",
            "public class ReviewsClient {",
            "  public String reviews(long productId) throws IOException {",
            "    // BUG: Diagnostic contains: A new CloseableHttpClient is created for one request",
            "    try (CloseableHttpClient client = HttpClients.createDefault()) {",
            "      return client.execute(new HttpGet(\"http://reviews/products/\" + productId),",
            "          response -> EntityUtils.toString(response.getEntity()));",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void apache5AsyncClientNeedsItsLifecycle() {
    compilation
        .addSourceLines(
            "RecommendationClient.java",
            "import java.util.concurrent.Future;",
            "import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;",
            "import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;",
            "import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;",
            "import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;",
            "import org.apache.hc.client5.http.impl.async.HttpAsyncClients;",
            "public class RecommendationClient {",
            "  public String recommend(String customerId) throws Exception {",
            "    // BUG: Diagnostic contains: the client must be started once and stopped at shutdown",
            "    try (CloseableHttpAsyncClient client = HttpAsyncClients.createDefault()) {",
            "      client.start();",
            "      SimpleHttpRequest request = SimpleRequestBuilder.get(\"http://recs/\" + customerId).build();",
            "      Future<SimpleHttpResponse> future = client.execute(request, null);",
            "      return future.get().getBodyText();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- positives: Commons HttpClient 3.x -------------------------------------------------------

  @Test
  void commonsHttpClient3() {
    compilation
        .addSourceLines(
            "StockTicker.java",
            "import java.io.IOException;",
            "import org.apache.commons.httpclient.HttpClient;",
            "import org.apache.commons.httpclient.methods.GetMethod;",
            "public class StockTicker {",
            "  public String quote(String symbol) throws IOException {",
            "    // BUG: Diagnostic contains: MultiThreadedHttpConnectionManager",
            "    HttpClient client = new HttpClient();",
            "    GetMethod get = new GetMethod(\"http://quotes.example.com/\" + symbol);",
            "    try {",
            "      client.executeMethod(get);",
            "      return get.getResponseBodyAsString();",
            "    } finally {",
            "      get.releaseConnection();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- positives: java.net.http ----------------------------------------------------------------

  @Test
  void javaNetHttpClientInALoopInMain() {
    compilation
        .addSourceLines(
            "LoadDriver.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class LoadDriver {",
            "  public static void main(String[] args) throws Exception {",
            "    for (int i = 0; i < 10_000; i++) {",
            "      // BUG: Diagnostic contains: is created on every loop iteration",
            "      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();",
            "      HttpRequest request = HttpRequest.newBuilder(URI.create(args[0])).build();",
            "      client.send(request, HttpResponse.BodyHandlers.discarding());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenTheSettingsComeFromALocalOrAnInstanceConstant() {
    compilation
        .addSourceLines(
            "StockService.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class StockService {",
            "  private final int timeoutSeconds = 5;",
            "  public String stock(String sku) throws Exception {",
            "    final int connectSeconds = 2;",
            "    // BUG: Diagnostic contains: No automatic fix",
            "    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(connectSeconds)).build();",
            "    return client.send(HttpRequest.newBuilder(URI.create(\"http://stock/\" + sku)).build(),",
            "        HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "  public String price(String sku) throws Exception {",
            "    // BUG: Diagnostic contains: No automatic fix",
            "    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds)).build();",
            "    return client.send(HttpRequest.newBuilder(URI.create(\"http://price/\" + sku)).build(),",
            "        HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aHelperOfMainThatIsAlsoHandedOutAsAMethodReferenceIsARequestPath() {
    compilation
        .addSourceLines(
            "Probe.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.concurrent.ExecutorService;",
            "public class Probe {",
            "  public static void main(String[] args) throws Exception { fetch(); }",
            "  static void serve(ExecutorService pool) { pool.submit(Probe::fetch); }",
            "  private static String fetch() throws Exception {",
            "    // BUG: Diagnostic contains: PerRequestHttpClient",
            "    HttpClient client = HttpClient.newHttpClient();",
            "    return client.send(HttpRequest.newBuilder(URI.create(\"http://health\")).build(),",
            "        HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void javaNetHttpClientPerTaskInALambda() {
    compilation
        .addSourceLines(
            "WebhookDispatcher.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.List;",
            "import java.util.concurrent.ExecutorService;",
            "public class WebhookDispatcher {",
            "  private final ExecutorService executor;",
            "  WebhookDispatcher(ExecutorService executor) { this.executor = executor; }",
            "  public void dispatch(List<URI> subscribers, String payload) {",
            "    for (URI subscriber : subscribers) {",
            "      executor.submit(() -> {",
            "        // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "        HttpClient client = HttpClient.newHttpClient();",
            "        return client.send(HttpRequest.newBuilder(subscriber)",
            "            .POST(HttpRequest.BodyPublishers.ofString(payload)).build(),",
            "            HttpResponse.BodyHandlers.ofString()).statusCode();",
            "      });",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- positives: OkHttp -----------------------------------------------------------------------

  @Test
  void okHttpClientPerCall() {
    compilation
        .addSourceLines(
            "GeoLookup.java",
            "import java.io.IOException;",
            "import java.util.concurrent.TimeUnit;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class GeoLookup {",
            "  public String country(String ip) throws IOException {",
            "    // BUG: Diagnostic contains: A new OkHttpClient is created for one request",
            "    OkHttpClient client = new OkHttpClient.Builder().readTimeout(2, TimeUnit.SECONDS).build();",
            "    Request request = new Request.Builder().url(\"https://geo.example.com/\" + ip).build();",
            "    try (Response response = client.newCall(request).execute()) {",
            "      return response.body().string();",
            "    }",
            "  }",
            "  public String city(String ip) throws IOException {",
            "    Request request = new Request.Builder().url(\"https://geo.example.com/city/\" + ip).build();",
            "    // a second client in the file gets a name of its own (issue 17, item 10): applying both fixes",
            "    // from SARIF must not declare OK_HTTP_CLIENT twice",
            "    // BUG: Diagnostic contains: the fix moves it to the private static final field 'OK_HTTP_CLIENT_2'",
            "    try (Response response = new OkHttpClient().newCall(request).execute()) {",
            "      return response.body().string();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- positives: JAX-RS, Jetty, Spring
  // ----------------------------------------------------------

  @Test
  void jaxRsClientPerRequest() {
    compilation
        .addSourceLines(
            "LoyaltyPoints.java",
            "import jakarta.ws.rs.client.Client;",
            "import jakarta.ws.rs.client.ClientBuilder;",
            "import jakarta.ws.rs.core.MediaType;",
            "public class LoyaltyPoints {",
            "  public Integer balance(String customerId) {",
            "    // BUG: Diagnostic contains: depend on the implementation or connector",
            "    return ClientBuilder.newClient().target(\"http://loyalty/\").path(customerId)",
            "        .request(MediaType.APPLICATION_JSON).get(Integer.class);",
            "  }",
            "  public void credit(String customerId, int points) {",
            "    // BUG: Diagnostic contains: A new Client is created for one request",
            "    Client client = ClientBuilder.newBuilder().build().register(LoyaltyPoints.class);",
            "    try {",
            "      client.target(\"http://loyalty/\").path(customerId).request().post(null);",
            "    } finally {",
            "      client.close();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void jettyClientStartedAndStoppedPerCall() {
    compilation
        .addSourceLines(
            "SearchProxy.java",
            "import org.eclipse.jetty.client.ContentResponse;",
            "import org.eclipse.jetty.client.HttpClient;",
            "public class SearchProxy {",
            "  public String search(String query) throws Exception {",
            "    // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "    HttpClient httpClient = new HttpClient();",
            "    httpClient.start();",
            "    try {",
            "      ContentResponse response = httpClient.GET(\"http://search/?q=\" + query);",
            "      return response.getContentAsString();",
            "    } finally {",
            "      httpClient.stop();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void springClientsPerRequest() {
    compilation
        .addSourceLines(
            "OrderController.java",
            "import org.springframework.web.client.RestClient;",
            "import org.springframework.web.client.RestTemplate;",
            "import org.springframework.web.reactive.function.client.WebClient;",
            "public class OrderController {",
            "  record Customer(String id, String name) {}",
            "  public Customer customer(String id) {",
            "    // BUG: Diagnostic contains: A new RestTemplate is created for one request",
            "    return new RestTemplate().getForObject(\"http://customers/{id}\", Customer.class, id);",
            "  }",
            "  public String invoice(String orderId) {",
            "    // BUG: Diagnostic contains: A new WebClient is created for one request",
            "    WebClient client = WebClient.create(\"http://billing\");",
            "    return client.get().uri(\"/invoices/{id}\", orderId).retrieve().bodyToMono(String.class).block();",
            "  }",
            "  public String shipment(String orderId) {",
            "    // BUG: Diagnostic contains: A new RestClient is created for one request",
            "    return RestClient.create().get().uri(\"http://shipping/{id}\", orderId).retrieve()"
                + ".body(String.class);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void clientInAnonymousClassMethod() {
    compilation
        .addSourceLines(
            "HealthChecks.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.concurrent.Callable;",
            "public class HealthChecks {",
            "  public Callable<Integer> probe(URI endpoint) {",
            "    return new Callable<Integer>() {",
            "      @Override public Integer call() throws Exception {",
            "        // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint).build(),",
            "            HttpResponse.BodyHandlers.discarding()).statusCode();",
            "      }",
            "    };",
            "  }",
            "}")
        .doTest();
  }

  // ---- positives: connections that cannot be reused
  // ------------------------------------------------

  @Test
  void httpUrlConnectionDisconnectAndConnectionClose() {
    compilation
        .addSourceLines(
            "CurrencyRates.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.net.HttpURLConnection;",
            "import java.net.URL;",
            "public class CurrencyRates {",
            "  public byte[] rates(String base) throws IOException {",
            "    HttpURLConnection connection =",
            "        (HttpURLConnection) new URL(\"http://fx.example.com/\" + base).openConnection();",
            "    // BUG: Diagnostic contains: 'Connection: close' makes the server close the connection",
            "    connection.setRequestProperty(\"Connection\", \"close\");",
            "    try (InputStream in = connection.getInputStream()) {",
            "      return in.readAllBytes();",
            "    } finally {",
            "      // BUG: Diagnostic contains: disconnect() closes the socket instead of returning it",
            "      connection.disconnect();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  /**
   * The connection opened in a helper that returns it (SAAJ's {@code createConnection}, a private
   * helper; an overridable one like Twitter4J's {@code getConnection}, which sets it up first),
   * used and disconnected by the caller, directly or through the response object it wraps the
   * connection in.
   */
  @Test
  void aConnectionOpenedInAHelperThatReturnsIt() {
    compilation
        .addSourceLines(
            "SoapConnection.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.io.OutputStream;",
            "import java.net.HttpURLConnection;",
            "import java.net.Proxy;",
            "import java.net.URL;",
            "public class SoapConnection {",
            "  private final Proxy proxy;",
            "  public SoapConnection(Proxy proxy) { this.proxy = proxy; }",
            "  public byte[] post(byte[] message, URL endpoint) throws IOException {",
            "    HttpURLConnection httpConnection = createConnection(endpoint);",
            "    httpConnection.setRequestMethod(\"POST\");",
            "    httpConnection.setDoOutput(true);",
            "    try (OutputStream out = httpConnection.getOutputStream()) {",
            "      out.write(message);",
            "    }",
            "    byte[] reply;",
            "    try (InputStream in = httpConnection.getInputStream()) {",
            "      reply = in.readAllBytes();",
            "    }",
            "    // BUG: Diagnostic contains: disconnect() closes the socket instead of returning it",
            "    httpConnection.disconnect();",
            "    return reply;",
            "  }",
            "  private HttpURLConnection createConnection(URL endpoint) throws IOException {",
            "    return (HttpURLConnection) endpoint.openConnection();",
            "  }",
            "  public String get(String url) throws IOException {",
            "    // BUG: Diagnostic contains: This HttpURLConnection is opened for one call and"
                + " disconnected after it",
            "    Response response = new Response(connectionTo(url));",
            "    try {",
            "      return response.body();",
            "    } finally {",
            "      response.disconnect();",
            "    }",
            "  }",
            "  protected HttpURLConnection connectionTo(String url) throws IOException {",
            "    HttpURLConnection con = (HttpURLConnection) new URL(url).openConnection(proxy);",
            "    con.setConnectTimeout(5000);",
            "    return con;",
            "  }",
            "  static final class Response {",
            "    private final HttpURLConnection connection;",
            "    Response(HttpURLConnection connection) { this.connection = connection; }",
            "    String body() throws IOException {",
            "      try (InputStream in = connection.getInputStream()) {",
            "        return new String(in.readAllBytes());",
            "      }",
            "    }",
            "    void disconnect() { connection.disconnect(); }",
            "  }",
            "}")
        .doTest();
  }

  /**
   * A helper that hands out a connection it keeps, or one that may come from a cache, opens none.
   */
  @Test
  void aHelperThatKeepsOrReusesItsConnectionOpensNone() {
    compilation
        .addSourceLines(
            "Feeds.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.net.HttpURLConnection;",
            "import java.net.URL;",
            "public class Feeds {",
            "  private HttpURLConnection last;",
            "  public byte[] fetch(URL url) throws IOException {",
            "    HttpURLConnection connection = current(url);",
            "    try (InputStream in = connection.getInputStream()) {",
            "      return in.readAllBytes();",
            "    } finally {",
            "      connection.disconnect();",
            "    }",
            "  }",
            "  private HttpURLConnection current(URL url) throws IOException {",
            "    if (last == null) {",
            "      last = (HttpURLConnection) url.openConnection();",
            "    }",
            "    return last;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void keepAliveTurnedOffAndConnectionCloseOnApacheRequests() {
    compilation
        .addSourceLines(
            "Bootstrap.java",
            "import org.apache.http.client.methods.HttpGet;",
            "import okhttp3.Request;",
            "public class Bootstrap {",
            "  static final String CONNECTION = \"Connection\";",
            "  public static void configure() {",
            "    // BUG: Diagnostic contains: turns HTTP keep-alive off for the whole JVM",
            "    System.setProperty(\"http.keepAlive\", \"false\");",
            "  }",
            "  public HttpGet get(String url) {",
            "    HttpGet get = new HttpGet(url);",
            "    // BUG: Diagnostic contains: 'Connection: close'",
            "    get.setHeader(CONNECTION, \"Close\");",
            "    return get;",
            "  }",
            "  public Request request(String url) {",
            "    // BUG: Diagnostic contains: 'Connection: close'",
            "    return new Request.Builder().url(url).header(\"connection\", \"close\").build();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void testCodeIsCheckedWhenEnabled() {
    compilation
        .setArgs("-XepOpt:PerRequestHttpClient:IncludeTests=true")
        .addSourceLines(
            "CheckoutIT.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import org.junit.jupiter.api.Test;",
            "class CheckoutIT {",
            "  @Test void checkout() throws Exception {",
            "    for (int i = 0; i < 100; i++) {",
            "      // BUG: Diagnostic contains: is created on every loop iteration",
            "      HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(\"http://localhost/checkout\")).build(),",
            "          HttpResponse.BodyHandlers.discarding());",
            "    }",
            "  }",
            "}")
        .addSourceLines(
            "src/test/java/com/shop/StubServerSupport.java",
            "package com.shop;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class StubServerSupport {",
            "  public static int status(String url) throws Exception {",
            "    // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),",
            "        HttpResponse.BodyHandlers.discarding()).statusCode();",
            "  }",
            "}")
        .doTest();
  }

  // ---- negatives -------------------------------------------------------------------------------

  @Test
  void sharedClientsInFieldsAndInitializers() {
    compilation
        .addSourceLines(
            "CatalogGateway.java",
            "import java.io.IOException;",
            "import java.net.http.HttpClient;",
            "import okhttp3.OkHttpClient;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class CatalogGateway {",
            "  private static final CloseableHttpClient CLIENT = HttpClients.createDefault();",
            "  private static final OkHttpClient OK_HTTP;",
            "  static { OK_HTTP = new OkHttpClient(); }",
            "  private final HttpClient http;",
            "  private CloseableHttpClient lazy;",
            "  public CatalogGateway() { this.http = HttpClient.newHttpClient(); }",
            "  public String product(String id) throws IOException {",
            "    return CLIENT.execute(new HttpGet(\"http://catalog/\" + id), new BasicResponseHandler());",
            "  }",
            "  synchronized CloseableHttpClient lazyClient() {",
            "    if (lazy == null) {",
            "      lazy = HttpClients.custom().setMaxConnPerRoute(20).build();",
            "    }",
            "    return lazy;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void factoriesAndDependencyInjectionProviders() {
    compilation
        .addSourceLines(
            "com/google/inject/Provides.java",
            "package com.google.inject;",
            "import java.lang.annotation.*;",
            "@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD)",
            "public @interface Provides {}")
        .addSourceLines(
            "HttpConfig.java",
            "import com.google.inject.Provides;",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import okhttp3.OkHttpClient;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.springframework.context.annotation.Bean;",
            "import org.springframework.web.client.RestTemplate;",
            "import org.springframework.web.reactive.function.client.WebClient;",
            "public class HttpConfig {",
            "  @Bean public RestTemplate restTemplate() { return new RestTemplate(); }",
            "  @Bean public WebClient webClient() { return WebClient.create(\"http://api\"); }",
            "  @Provides OkHttpClient okHttp() { return new OkHttpClient.Builder().build(); }",
            "  static CloseableHttpClient newPooledClient(int max) {",
            "    return HttpClients.custom().setMaxConnTotal(max).build();",
            "  }",
            "  @Bean public HttpClient warmedUpClient() throws Exception {",
            "    HttpClient client = HttpClient.newHttpClient();",
            "    client.send(HttpRequest.newBuilder(URI.create(\"http://api/ping\")).build(),",
            "        HttpResponse.BodyHandlers.discarding());",
            "    return client;",
            "  }",
            "  public CloseableHttpClient primed() throws IOException {",
            "    CloseableHttpClient client = HttpClients.createDefault();",
            "    client.execute(new HttpGet(\"http://api/ping\")).close();",
            "    return client;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void clientsHandedToObjectsThatKeepThem() {
    compilation
        .addSourceLines(
            "GatewayRegistry.java",
            "import java.io.IOException;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import java.util.function.Supplier;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class GatewayRegistry {",
            "  record Gateway(String name, OkHttpClient client) {}",
            "  private final Map<String, CloseableHttpClient> clients = new HashMap<>();",
            "  public Gateway gateway(String name) throws IOException {",
            "    OkHttpClient client = new OkHttpClient();",
            "    client.newCall(new Request.Builder().url(\"http://\" + name + \"/ping\").build()).execute().close();",
            "    return new Gateway(name, client);",
            "  }",
            "  public void register(String host) throws IOException {",
            "    CloseableHttpClient client = HttpClients.createDefault();",
            "    client.execute(new HttpGet(\"http://\" + host + \"/health\")).close();",
            "    clients.put(host, client);",
            "  }",
            "  public Supplier<Integer> prober(String url) {",
            "    CloseableHttpClient client = HttpClients.createDefault();",
            "    return () -> {",
            "      try { return client.execute(new HttpGet(url)).getStatusLine().getStatusCode(); }",
            "      catch (IOException e) { return -1; }",
            "    };",
            "  }",
            "  private final ThreadLocal<OkHttpClient> perThread = ThreadLocal.withInitial(() -> new OkHttpClient());",
            "  private final Supplier<OkHttpClient> supplier = OkHttpClient::new;",
            "}")
        .doTest();
  }

  @Test
  void oneShotCommandLinePrograms() {
    compilation
        .addSourceLines(
            "org/springframework/boot/CommandLineRunner.java",
            "package org.springframework.boot;",
            "public interface CommandLineRunner { void run(String... args) throws Exception; }")
        .addSourceLines(
            "ImportProducts.java",
            "import java.net.HttpURLConnection;",
            "import java.net.URI;",
            "import java.net.URL;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import org.springframework.boot.CommandLineRunner;",
            "import org.springframework.web.client.RestTemplate;",
            "public class ImportProducts implements CommandLineRunner {",
            "  public static void main(String[] args) throws Exception {",
            "    HttpClient client = HttpClient.newHttpClient();",
            "    System.out.println(client.send(HttpRequest.newBuilder(URI.create(args[0])).build(),",
            "        HttpResponse.BodyHandlers.ofString()).body());",
            "    download(args[1]);",
            "  }",
            "  private static void download(String url) throws Exception {",
            "    HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();",
            "    connection.getInputStream().readAllBytes();",
            "    connection.disconnect();",
            "  }",
            "  @Override public void run(String... args) {",
            "    new RestTemplate().getForObject(args[0], String.class);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void testCodeIsSkippedByDefault() {
    compilation
        .addSourceLines(
            "CheckoutTest.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import org.junit.jupiter.api.Test;",
            "class CheckoutTest {",
            "  @Test void checkout() throws Exception {",
            "    HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(\"http://localhost/checkout\")).build(),",
            "        HttpResponse.BodyHandlers.discarding());",
            "  }",
            "}")
        .addSourceLines(
            "src/test/java/com/shop/StubServerSupport.java",
            "package com.shop;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class StubServerSupport {",
            "  public static int status(String url) throws Exception {",
            "    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),",
            "        HttpResponse.BodyHandlers.discarding()).statusCode();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void derivedClientsShareTheirPool() {
    compilation
        .addSourceLines(
            "SlowPartnerApi.java",
            "import java.io.IOException;",
            "import java.util.concurrent.TimeUnit;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import org.springframework.web.reactive.function.client.WebClient;",
            "public class SlowPartnerApi {",
            "  private final OkHttpClient shared;",
            "  private final WebClient.Builder webClientBuilder;",
            "  SlowPartnerApi(OkHttpClient shared, WebClient.Builder webClientBuilder) {",
            "    this.shared = shared; this.webClientBuilder = webClientBuilder;",
            "  }",
            "  public String report(String id) throws IOException {",
            "    OkHttpClient slow = shared.newBuilder().readTimeout(60, TimeUnit.SECONDS).build();",
            "    return slow.newCall(new Request.Builder().url(\"http://partner/\" + id).build()).execute().body().string();",
            "  }",
            "  public String status(String id) {",
            "    return webClientBuilder.build().get().uri(\"http://partner/status/\" + id).retrieve()"
                + ".bodyToMono(String.class).block();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void connectionsThatStayReusable() {
    compilation
        .addSourceLines(
            "FeedReader.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.net.HttpURLConnection;",
            "import java.net.URL;",
            "public class FeedReader {",
            "  public byte[] read(URL url) throws IOException {",
            "    HttpURLConnection connection = (HttpURLConnection) url.openConnection();",
            "    connection.setRequestProperty(\"Connection\", \"keep-alive\");",
            "    connection.setRequestProperty(\"Accept\", \"close\");",
            "    try (InputStream in = connection.getInputStream()) {",
            "      return in.readAllBytes();",
            "    } catch (IOException e) {",
            "      connection.disconnect();",
            "      throw e;",
            "    }",
            "  }",
            "  void release(HttpURLConnection connection) { connection.disconnect(); }",
            "  void configure() { System.setProperty(\"http.keepAlive\", \"true\"); }",
            "}")
        .doTest();
  }

  @Test
  void clientsNotUsedForARequest() {
    compilation
        .addSourceLines(
            "ClientDiagnostics.java",
            "import java.net.http.HttpClient;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class ClientDiagnostics {",
            "  public String defaultVersion() {",
            "    HttpClient client = HttpClient.newHttpClient();",
            "    return client.version().name();",
            "  }",
            "  public boolean canCreate() throws Exception {",
            "    try (CloseableHttpClient client = HttpClients.createDefault()) {",
            "      return client != null;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void setUpCallbacks() {
    compilation
        .addSourceLines(
            "jakarta/annotation/PostConstruct.java",
            "package jakarta.annotation;",
            "import java.lang.annotation.*;",
            "@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD)",
            "public @interface PostConstruct {}")
        .addSourceLines(
            "PartnerWarmup.java",
            "import jakarta.annotation.PostConstruct;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class PartnerWarmup {",
            "  @PostConstruct void warmUp() throws Exception {",
            "    HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(\"http://partner/ping\")).build(),",
            "        HttpResponse.BodyHandlers.discarding());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void suppressed() {
    compilation
        .addSourceLines(
            "AuditTrail.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class AuditTrail {",
            "  @SuppressWarnings(\"PerRequestHttpClient\")",
            "  public void record(String event) throws Exception {",
            "    HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(\"http://audit/\" + event)).build(),",
            "        HttpResponse.BodyHandlers.discarding());",
            "  }",
            "}")
        .doTest();
  }

  // ---- fixes
  // -------------------------------------------------------------------------------------

  @Test
  void fixInlineRestTemplate() {
    fix()
        .addInputLines(
            "CustomerClient.java",
            "import org.springframework.web.client.RestTemplate;",
            "public class CustomerClient {",
            "  record Customer(String id, String name) {}",
            "  public Customer customer(String id) {",
            "    return new RestTemplate().getForObject(\"http://customers/{id}\", Customer.class, id);",
            "  }",
            "}")
        .addOutputLines(
            "CustomerClient.java",
            "import org.springframework.web.client.RestTemplate;",
            "public class CustomerClient {",
            "  private static final RestTemplate REST_TEMPLATE = new RestTemplate();",
            "  record Customer(String id, String name) {}",
            "  public Customer customer(String id) {",
            "    return REST_TEMPLATE.getForObject(\"http://customers/{id}\", Customer.class, id);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixLocalOkHttpClientLeftToTheGc() {
    fix()
        .addInputLines(
            "GeoLookup.java",
            "import java.io.IOException;",
            "import java.util.concurrent.TimeUnit;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class GeoLookup {",
            "  public String country(String ip) throws IOException {",
            "    OkHttpClient client = new OkHttpClient.Builder()",
            "        .connectTimeout(1, TimeUnit.SECONDS)",
            "        .readTimeout(2, TimeUnit.SECONDS)",
            "        .build();",
            "    Request request = new Request.Builder().url(\"https://geo.example.com/\" + ip).build();",
            "    try (Response response = client.newCall(request).execute()) {",
            "      return response.body().string();",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "GeoLookup.java",
            "import java.io.IOException;",
            "import java.util.concurrent.TimeUnit;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class GeoLookup {",
            "  private static final OkHttpClient OK_HTTP_CLIENT = new OkHttpClient.Builder()",
            "      .connectTimeout(1, TimeUnit.SECONDS)",
            "      .readTimeout(2, TimeUnit.SECONDS)",
            "      .build();",
            "  public String country(String ip) throws IOException {",
            "    Request request = new Request.Builder().url(\"https://geo.example.com/\" + ip).build();",
            "    try (Response response = OK_HTTP_CLIENT.newCall(request).execute()) {",
            "      return response.body().string();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixTryWithResourcesUnwrapsTheBody() {
    fix()
        .addInputLines(
            "StatusPage.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class StatusPage {",
            "  public int status(URI service) throws IOException, InterruptedException {",
            "    try (HttpClient client = HttpClient.newBuilder()",
            "        .connectTimeout(Duration.ofSeconds(2))",
            "        .followRedirects(HttpClient.Redirect.NORMAL)",
            "        .build()) {",
            "      // ask the service itself",
            "      HttpRequest request = HttpRequest.newBuilder(service.resolve(\"/status\")).build();",
            "      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "StatusPage.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class StatusPage {",
            "  private static final HttpClient HTTP_CLIENT = HttpClient.newBuilder()",
            "      .connectTimeout(Duration.ofSeconds(2))",
            "      .followRedirects(HttpClient.Redirect.NORMAL)",
            "      .build();",
            "  public int status(URI service) throws IOException, InterruptedException {",
            "    // ask the service itself",
            "    HttpRequest request = HttpRequest.newBuilder(service.resolve(\"/status\")).build();",
            "    return HTTP_CLIENT.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixTryWithResourcesKeepsTheOtherResources() {
    fix()
        .addInputLines(
            "InventoryClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.CloseableHttpResponse;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.apache.http.util.EntityUtils;",
            "public class InventoryClient {",
            "  public String stockLevel(String sku) throws IOException {",
            "    try (CloseableHttpClient client = HttpClients.custom().disableCookieManagement()"
                + ".setMaxConnPerRoute(20).build();",
            "        CloseableHttpResponse response = client.execute(new HttpGet(\"http://stock/\" + sku))) {",
            "      return EntityUtils.toString(response.getEntity());",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "InventoryClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.CloseableHttpResponse;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.apache.http.util.EntityUtils;",
            "public class InventoryClient {",
            "  private static final CloseableHttpClient HTTP_CLIENT = HttpClients.custom()"
                + ".disableCookieManagement().setMaxConnPerRoute(20).build();",
            "  public String stockLevel(String sku) throws IOException {",
            "    try (CloseableHttpResponse response = HTTP_CLIENT.execute(new HttpGet(\"http://stock/\" + sku))) {",
            "      return EntityUtils.toString(response.getEntity());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixTryWithResourcesKeepsTheCatch() {
    fix()
        .addInputLines(
            "ReviewsClient.java",
            "import java.io.IOException;",
            "import java.io.UncheckedIOException;",
            "import org.apache.hc.client5.http.classic.methods.HttpGet;",
            "import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;",
            "import org.apache.hc.client5.http.impl.classic.HttpClients;",
            "import org.apache.hc.core5.http.io.entity.EntityUtils;",
            "public class ReviewsClient {",
            "  public String reviews(long productId) {",
            "    try (CloseableHttpClient client = HttpClients.custom().disableCookieManagement().build()) {",
            "      return client.execute(new HttpGet(\"http://reviews/products/\" + productId),",
            "          response -> EntityUtils.toString(response.getEntity()));",
            "    } catch (IOException e) {",
            "      throw new UncheckedIOException(e);",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "ReviewsClient.java",
            "import java.io.IOException;",
            "import java.io.UncheckedIOException;",
            "import org.apache.hc.client5.http.classic.methods.HttpGet;",
            "import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;",
            "import org.apache.hc.client5.http.impl.classic.HttpClients;",
            "import org.apache.hc.core5.http.io.entity.EntityUtils;",
            "public class ReviewsClient {",
            "  private static final CloseableHttpClient HTTP_CLIENT ="
                + " HttpClients.custom().disableCookieManagement().build();",
            "  public String reviews(long productId) {",
            "    try {",
            "      return HTTP_CLIENT.execute(new HttpGet(\"http://reviews/products/\" + productId),",
            "          response -> EntityUtils.toString(response.getEntity()));",
            "    } catch (IOException e) {",
            "      throw new UncheckedIOException(e);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixDropsTheCloseInFinally() {
    fix()
        .addInputLines(
            "ShippingQuotes.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class ShippingQuotes {",
            "  public String quote(String zip) throws IOException {",
            "    CloseableHttpClient client = HttpClients.createMinimal();",
            "    try {",
            "      return client.execute(new HttpGet(\"http://shipping/quote?zip=\" + zip), new BasicResponseHandler());",
            "    } finally {",
            "      client.close();",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "ShippingQuotes.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class ShippingQuotes {",
            "  private static final CloseableHttpClient HTTP_CLIENT = HttpClients.createMinimal();",
            "  public String quote(String zip) throws IOException {",
            "    return HTTP_CLIENT.execute(new HttpGet(\"http://shipping/quote?zip=\" + zip), new BasicResponseHandler());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixDropsTheFinallyButKeepsTheCatch() {
    fix()
        .addInputLines(
            "PartnerFeed.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class PartnerFeed {",
            "  public String feed(URI uri) {",
            "    HttpClient client = HttpClient.newHttpClient();",
            "    try {",
            "      return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "    } catch (Exception e) {",
            "      return \"\";",
            "    } finally {",
            "      client.close();",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "PartnerFeed.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class PartnerFeed {",
            "  private static final HttpClient HTTP_CLIENT = HttpClient.newHttpClient();",
            "  public String feed(URI uri) {",
            "    try {",
            "      return HTTP_CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "    } catch (Exception e) {",
            "      return \"\";",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixHoistsOutOfInnerAndAnonymousClassesToAClassThatMayHoldStatics() {
    fix()
        .addInputLines(
            "NotificationService.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class NotificationService {",
            "  private final URI endpoint = URI.create(\"http://push/\");",
            "  class Sender {",
            "    Runnable task(String message) {",
            "      return new Runnable() {",
            "        @Override public void run() {",
            "          HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(endpoint)",
            "              .POST(HttpRequest.BodyPublishers.ofString(message)).build(),",
            "              HttpResponse.BodyHandlers.discarding());",
            "        }",
            "      };",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "NotificationService.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class NotificationService {",
            "  private static final HttpClient HTTP_CLIENT = HttpClient.newHttpClient();",
            "  private final URI endpoint = URI.create(\"http://push/\");",
            "  class Sender {",
            "    Runnable task(String message) {",
            "      return new Runnable() {",
            "        @Override public void run() {",
            "          HTTP_CLIENT.sendAsync(HttpRequest.newBuilder(endpoint)",
            "              .POST(HttpRequest.BodyPublishers.ofString(message)).build(),",
            "              HttpResponse.BodyHandlers.discarding());",
            "        }",
            "      };",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixPicksAFieldNameThatDoesNotClash() {
    fix()
        .addInputLines(
            "SearchClient.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class SearchClient {",
            "  static final String HTTP_CLIENT = \"search-client/1.0\";",
            "  public String search(String q) throws IOException, InterruptedException {",
            "    var client = HttpClient.newHttpClient();",
            "    return client.send(HttpRequest.newBuilder(URI.create(\"http://search/?q=\" + q))",
            "        .header(\"User-Agent\", HTTP_CLIENT).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "}")
        .addOutputLines(
            "SearchClient.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class SearchClient {",
            "  static final String HTTP_CLIENT = \"search-client/1.0\";",
            "  private static final HttpClient HTTP_CLIENT_2 = HttpClient.newHttpClient();",
            "  public String search(String q) throws IOException, InterruptedException {",
            "    return HTTP_CLIENT_2.send(HttpRequest.newBuilder(URI.create(\"http://search/?q=\" + q))",
            "        .header(\"User-Agent\", HTTP_CLIENT).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixInsideALoop() {
    fix()
        .addInputLines(
            "PriceRefresher.java",
            "import java.io.IOException;",
            "import java.util.List;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class PriceRefresher {",
            "  public void refresh(List<String> skus) throws IOException {",
            "    for (String sku : skus) {",
            "      OkHttpClient client = new OkHttpClient();",
            "      try (Response response = client.newCall(new Request.Builder()"
                + ".url(\"http://prices/\" + sku).build()).execute()) {",
            "        System.out.println(response.code());",
            "      }",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "PriceRefresher.java",
            "import java.io.IOException;",
            "import java.util.List;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class PriceRefresher {",
            "  private static final OkHttpClient OK_HTTP_CLIENT = new OkHttpClient();",
            "  public void refresh(List<String> skus) throws IOException {",
            "    for (String sku : skus) {",
            "      try (Response response = OK_HTTP_CLIENT.newCall(new Request.Builder()"
                + ".url(\"http://prices/\" + sku).build()).execute()) {",
            "        System.out.println(response.code());",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenTheClientIsConfiguredFromRuntimeValues() {
    compilation
        .addSourceLines(
            "TenantGateway.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class TenantGateway {",
            "  private final Duration timeout = Duration.ofSeconds(3);",
            "  public String call(URI uri) throws Exception {",
            "    // BUG: Diagnostic contains: configured from values that cannot move to a static field",
            "    HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();",
            "    return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenAnEnclosingInterfaceOrLocalClassCannotHoldTheField() {
    compilation
        .addSourceLines(
            "PingSupport.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public interface PingSupport {",
            "  default int ping(URI uri) throws Exception {",
            "    // BUG: Diagnostic contains: lockjaw cannot move the client out of this code",
            "    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),",
            "        HttpResponse.BodyHandlers.discarding()).statusCode();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenDroppingTheCloseWouldLeaveACatchUnreachable() {
    compilation
        .addSourceLines(
            "StockFetcher.java",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "interface StockFetcher { String fetch(CloseableHttpClient client, String sku); }")
        .addSourceLines(
            "StockService.java",
            "import java.io.IOException;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class StockService {",
            "  private final StockFetcher fetcher;",
            "  StockService(StockFetcher fetcher) { this.fetcher = fetcher; }",
            "  public String stock(String sku) {",
            "    // BUG: Diagnostic contains: lockjaw cannot move the client out of this code",
            "    try (CloseableHttpClient client = HttpClients.createMinimal()) {",
            "      return fetcher.fetch(client, sku);",
            "    } catch (IOException e) {",
            "      return \"unknown\";",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void modernJavaShapesDoNotCrashTheCheck() {
    compilation
        .addSourceLines(
            "Shapes.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.function.Function;",
            "public class Shapes {",
            "  sealed interface Target permits Http, Local {}",
            "  record Http(URI uri) implements Target {}",
            "  record Local(String path) implements Target {}",
            "  record Fetcher(HttpClient client) {",
            "    Fetcher { java.util.Objects.requireNonNull(client); }",
            "    static Fetcher create() { return new Fetcher(HttpClient.newHttpClient()); }",
            "  }",
            "  enum Mode { FAST; HttpClient client() { return HttpClient.newHttpClient(); } }",
            "  static final Function<URI, Integer> PROBE = uri -> {",
            "    try {",
            "      // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),",
            "          HttpResponse.BodyHandlers.discarding()).statusCode();",
            "    } catch (Exception e) { return -1; }",
            "  };",
            "  @SuppressWarnings(\"rawtypes\")",
            "  String describe(Object o) throws Exception {",
            "    return switch (o) {",
            "      case Http(URI uri) -> {",
            "        // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "        try (var client = HttpClient.newHttpClient()) {",
            "          yield client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "        }",
            "      }",
            "      case Local local -> local.path();",
            "      case java.util.List list -> String.valueOf(list.size());",
            "      default -> \"?\";",
            "    };",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixInsideASwitchRuleKeepsTheBlock() {
    fix()
        .addInputLines(
            "Router.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class Router {",
            "  record Http(URI uri) {}",
            "  String route(Object target) throws Exception {",
            "    switch (target) {",
            "      case Http(URI uri) -> {",
            "        try (var client = HttpClient.newHttpClient()) {",
            "          String body = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "          return body;",
            "        }",
            "      }",
            "      default -> { return \"\"; }",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Router.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class Router {",
            "  private static final HttpClient HTTP_CLIENT = HttpClient.newHttpClient();",
            "  record Http(URI uri) {}",
            "  String route(Object target) throws Exception {",
            "    switch (target) {",
            "      case Http(URI uri) -> {",
            "        String body = HTTP_CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();",
            "        return body;",
            "      }",
            "      default -> { return \"\"; }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- issue 17: fixes that keep meaning and layout, and never crash ---------------------------

  @Test
  void noFixWhenThePerCallCodeTearsDownPartsOfTheClient() {
    // hoisted, the finally block would shut down the shared client's executor on every call
    compilation
        .addSourceLines(
            "Geo.java",
            "import java.io.IOException;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class Geo {",
            "  public String country(String ip) throws IOException {",
            "    // BUG: Diagnostic contains: A new OkHttpClient is created for one request",
            "    OkHttpClient c = new OkHttpClient();",
            "    try (Response response = c.newCall(new Request.Builder().url(\"https://geo/\" + ip).build()).execute()) {",
            "      return response.body().string();",
            "    } finally {",
            "      c.dispatcher().executorService().shutdown();",
            "      c.connectionPool().evictAll();",
            "    }",
            "  }",
            "}")
        .doTest();
    BugCheckerRefactoringTestHelper.newInstance(PerRequestHttpClient.class, getClass())
        .addInputLines(
            "Geo.java",
            "import java.io.IOException;",
            "import okhttp3.OkHttpClient;",
            "import okhttp3.Request;",
            "import okhttp3.Response;",
            "public class Geo {",
            "  public String country(String ip) throws IOException {",
            "    OkHttpClient c = new OkHttpClient();",
            "    try (Response response = c.newCall(new Request.Builder().url(\"https://geo/\" + ip).build()).execute()) {",
            "      return response.body().string();",
            "    } finally {",
            "      c.dispatcher().executorService().shutdown();",
            "      c.connectionPool().evictAll();",
            "    }",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void fixInTopLevelAndNestedRecords() {
    fix()
        .addInputLines(
            "Quotes.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public record Quotes(@Deprecated(since = \"{1}\") String host) {",
            "  public String quote(String sku) throws IOException, InterruptedException {",
            "    HttpClient client = HttpClient.newHttpClient();",
            "    return client.send(HttpRequest.newBuilder(URI.create(host + sku)).build(),",
            "        HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "  record Stock(String host) {",
            "    String stock(String sku) throws IOException, InterruptedException {",
            "      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(host + sku)).build(),",
            "          HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Quotes.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public record Quotes(@Deprecated(since = \"{1}\") String host) {",
            "  private static final HttpClient HTTP_CLIENT = HttpClient.newHttpClient();",
            "  public String quote(String sku) throws IOException, InterruptedException {",
            "    return HTTP_CLIENT.send(HttpRequest.newBuilder(URI.create(host + sku)).build(),",
            "        HttpResponse.BodyHandlers.ofString()).body();",
            "  }",
            "  record Stock(String host) {",
            "    private static final HttpClient HTTP_CLIENT_2 = HttpClient.newHttpClient();",
            "    String stock(String sku) throws IOException, InterruptedException {",
            "      return HTTP_CLIENT_2.send(HttpRequest.newBuilder(URI.create(host + sku)).build(),",
            "          HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void enumsAndInterfacesDoNotCrashTheFix() {
    compilation
        .addSourceLines(
            "Channels.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public enum Channels {",
            "  SMS, MAIL;",
            "  void send(String text) {",
            "    // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "    HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create(\"http://x/\" + text)).build(),",
            "        HttpResponse.BodyHandlers.discarding());",
            "  }",
            "  interface Hook {",
            "    default void fire(String text) {",
            "      // BUG: Diagnostic contains: A new HttpClient is created for one request",
            "      HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create(\"http://x/\" + text)).build(),",
            "          HttpResponse.BodyHandlers.discarding());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void fixGoesToTheNestedClassWhoseInheritedConstantTheInitializerUses() {
    fix()
        .addInputLines(
            "Poller.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class Poller {",
            "  static class Base {",
            "    static final long T = 5;",
            "  }",
            "  static class Inner extends Base {",
            "    String poll() throws IOException, InterruptedException {",
            "      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(T)).build();",
            "      return client.send(HttpRequest.newBuilder(URI.create(\"http://p/\")).build(),",
            "          HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "Poller.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class Poller {",
            "  static class Base {",
            "    static final long T = 5;",
            "  }",
            "  static class Inner extends Base {",
            "    private static final HttpClient HTTP_CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(T)).build();",
            "    String poll() throws IOException, InterruptedException {",
            "      return HTTP_CLIENT.send(HttpRequest.newBuilder(URI.create(\"http://p/\")).build(),",
            "          HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenOnlyAnInnerClassThatCannotHoldTheFieldSeesTheConstant() {
    BugCheckerRefactoringTestHelper.newInstance(PerRequestHttpClient.class, getClass())
        .setArgs("--release", "11") // inner classes hold no static fields before Java 16
        .addInputLines(
            "Poller.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "public class Poller {",
            "  static class Base {",
            "    static final long T = 5;",
            "  }",
            "  class Inner extends Base {",
            "    String poll() throws IOException, InterruptedException {",
            "      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(T)).build();",
            "      return client.send(HttpRequest.newBuilder(URI.create(\"http://p/\")).build(),",
            "          HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "  }",
            "}")
        .expectUnchanged()
        .doTest();
  }

  @Test
  void theFieldFollowsTheFilesIndentationBlankLinesAndLineSeparators() {
    fix()
        .addInputLines(
            "Stock.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "",
            "public class Stock {",
            "",
            "    /** Levels per SKU. */",
            "    public String level(String sku) throws IOException, InterruptedException {",
            "        HttpClient client = HttpClient.newBuilder()",
            "                // the inventory service is slow at night",
            "                .connectTimeout(Duration.ofSeconds(3))",
            "                .build();",
            "        return client.send(HttpRequest.newBuilder(URI.create(\"http://inventory/\" + sku)).build(),",
            "                HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "",
            "    public String name() {",
            "        return \"stock\";",
            "    }",
            "}")
        .addOutputLines(
            "Stock.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.time.Duration;",
            "",
            "public class Stock {",
            "",
            "    private static final HttpClient HTTP_CLIENT = HttpClient.newBuilder()",
            "            // the inventory service is slow at night",
            "            .connectTimeout(Duration.ofSeconds(3))",
            "            .build();",
            "",
            "    /** Levels per SKU. */",
            "    public String level(String sku) throws IOException, InterruptedException {",
            "        return HTTP_CLIENT.send(HttpRequest.newBuilder(URI.create(\"http://inventory/\" + sku)).build(),",
            "                HttpResponse.BodyHandlers.ofString()).body();",
            "    }",
            "",
            "    public String name() {",
            "        return \"stock\";",
            "    }",
            "}")
        .doTest();
  }

  // ---- a client field reassigned per request (issue 12) -----------------------------------------

  @Test
  void clientFieldReassignedInTheRequestMethod() {
    compilation
        .addSourceLines(
            "PaymentGateway.java",
            "import java.io.IOException;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import org.apache.http.client.methods.HttpPost;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class PaymentGateway {",
            "  private CloseableHttpClient client;",
            "  private HttpClient http;",
            "  public String authorize(String orderId) throws IOException {",
            "    // BUG: Diagnostic contains: The field 'client' gets a new CloseableHttpClient on every call of authorize()",
            "    this.client = HttpClients.createDefault();",
            "    return this.client.execute(new HttpPost(\"https://psp.example.com/authorize/\" + orderId),",
            "        new BasicResponseHandler());",
            "  }",
            "  public String status(String orderId) throws IOException, InterruptedException {",
            "    synchronized (this) {",
            "      try {",
            "        // BUG: Diagnostic contains: The field 'http' gets a new HttpClient on every call of status()",
            "        http = HttpClient.newBuilder().build();",
            "        return http.send(HttpRequest.newBuilder(URI.create(\"https://psp.example.com/status/\" + orderId)).build(),",
            "            HttpResponse.BodyHandlers.ofString()).body();",
            "      } finally {",
            "        System.out.println(\"status \" + orderId);",
            "      }",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void clientFieldAssignedOnceLazilyOnFailureOrOutsideTheRequest() {
    compilation
        .addSourceLines(
            "StockGateway.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class StockGateway {",
            "  private CloseableHttpClient client;",
            "  private CloseableHttpClient lazy;",
            "  private CloseableHttpClient retrying = HttpClients.createDefault();",
            "  private final Other other = new Other();",
            "  static class Other { CloseableHttpClient client; }",
            "  public StockGateway() {",
            "    client = HttpClients.createDefault();",
            "  }",
            "  public void init() {",
            "    this.client = HttpClients.createDefault();",
            "  }",
            "  public void setTimeoutMillis(int millis) {",
            "    this.client = HttpClients.custom().setMaxConnPerRoute(millis > 0 ? 20 : 2).build();",
            "  }",
            "  public String level(String sku) throws IOException {",
            "    if (lazy == null) {",
            "      lazy = HttpClients.createDefault();",
            "    }",
            "    return lazy.execute(new HttpGet(\"http://stock/\" + sku), new BasicResponseHandler());",
            "  }",
            "  public String retry(String sku) throws IOException {",
            "    try {",
            "      return retrying.execute(new HttpGet(\"http://stock/\" + sku), new BasicResponseHandler());",
            "    } catch (IOException e) {",
            "      retrying = HttpClients.createDefault();",
            "      return retrying.execute(new HttpGet(\"http://stock/\" + sku), new BasicResponseHandler());",
            "    }",
            "  }",
            "  public String viaOther(String sku) throws IOException {",
            "    other.client = HttpClients.createDefault();",
            "    return client.execute(new HttpGet(\"http://stock/\" + sku), new BasicResponseHandler());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void clientBuiltPerCallOnASharedConnectionManagerMarkedShared() {
    compilation
        .addSourceLines(
            "InventoryClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;",
            "public class InventoryClient {",
            "  private static final PoolingHttpClientConnectionManager POOL = new PoolingHttpClientConnectionManager();",
            "  private final PoolingHttpClientConnectionManager injected;",
            "  public InventoryClient(PoolingHttpClientConnectionManager injected) { this.injected = injected; }",
            "  public String count(String sku, String user) throws IOException {",
            "    try (CloseableHttpClient client = HttpClients.custom()",
            "        .setConnectionManager(POOL)",
            "        .setConnectionManagerShared(true)",
            "        .setUserAgent(user)",
            "        .build()) {",
            "      return client.execute(new HttpGet(\"http://inventory/\" + sku), new BasicResponseHandler());",
            "    }",
            "  }",
            "  public String reserved(String sku) throws IOException {",
            "    CloseableHttpClient client = HttpClients.custom()",
            "        .setConnectionManagerShared(true)",
            "        .setConnectionManager(this.injected)",
            "        .build();",
            "    try {",
            "      return client.execute(new HttpGet(\"http://inventory/reserved/\" + sku), new BasicResponseHandler());",
            "    } finally {",
            "      client.close();",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void clientBuiltPerCallOnAManagerNotMarkedSharedOrCreatedPerCall() {
    compilation
        .addSourceLines(
            "InventoryClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;",
            "public class InventoryClient {",
            "  private static final PoolingHttpClientConnectionManager POOL = new PoolingHttpClientConnectionManager();",
            "  public String count(String sku, boolean shared) throws IOException {",
            "    // BUG: Diagnostic contains: A new CloseableHttpClient is created for one request",
            "    try (CloseableHttpClient client = HttpClients.custom()",
            "        .setConnectionManager(POOL)",
            "        .setConnectionManagerShared(shared)",
            "        .build()) {",
            "      return client.execute(new HttpGet(\"http://inventory/\" + sku), new BasicResponseHandler());",
            "    }",
            "  }",
            "  public String local(String sku) throws IOException {",
            "    PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();",
            "    // BUG: Diagnostic contains: A new CloseableHttpClient is created for one request",
            "    try (CloseableHttpClient client = HttpClients.custom()",
            "        .setConnectionManager(pool)",
            "        .setConnectionManagerShared(true)",
            "        .build()) {",
            "      return client.execute(new HttpGet(\"http://inventory/\" + sku), new BasicResponseHandler());",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  // ---- issue 21: reachability decides what runs per request ----------------------------------

  @Test
  void aClientBuiltByAnObjectThatLivesForOneRequest() {
    compilation
        .addSourceLines(
            "PaymentClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpPost;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class PaymentClient {",
            "  private final CloseableHttpClient http;",
            "  private final String endpoint;",
            "  public PaymentClient(String endpoint) {",
            "    this.endpoint = endpoint;",
            "    // BUG: Diagnostic contains: OrderResource.pay() creates a PaymentClient for each request",
            "    this.http = HttpClients.createDefault();",
            "  }",
            "  public String charge(String orderId) throws IOException {",
            "    return http.execute(new HttpPost(endpoint + \"/charge/\" + orderId), new BasicResponseHandler());",
            "  }",
            "}")
        .addSourceLines(
            "RefundClient.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public class RefundClient {",
            "  // BUG: Diagnostic contains: and kept in its field 'http'",
            "  private final HttpClient http = HttpClient.newHttpClient();",
            "  public int refund(String orderId) throws Exception {",
            "    return http.send(HttpRequest.newBuilder(URI.create(\"http://psp/refund/\" + orderId)).build(),",
            "        HttpResponse.BodyHandlers.discarding()).statusCode();",
            "  }",
            "}")
        .addSourceLines(
            "OrderResource.java",
            "import org.springframework.web.bind.annotation.PostMapping;",
            "public class OrderResource {",
            "  @PostMapping(\"/pay\") public String pay(String orderId) throws Exception {",
            "    return new PaymentClient(\"https://psp.example.com\").charge(orderId);",
            "  }",
            "  @PostMapping(\"/refund\") public int refund(String orderId) throws Exception {",
            "    RefundClient client = refunds();",
            "    return client.refund(orderId);",
            "  }",
            "  private RefundClient refunds() { return new RefundClient(); }",
            "}")
        .doTest();
  }

  @Test
  void aClientBuiltByAnObjectThatOutlivesTheRequestIsShared() {
    compilation
        .addSourceLines(
            "PaymentClient.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpPost;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "public class PaymentClient {",
            "  private final CloseableHttpClient http = HttpClients.createDefault();",
            "  public String charge(String orderId) throws IOException {",
            "    return http.execute(new HttpPost(\"https://psp/charge/\" + orderId), new BasicResponseHandler());",
            "  }",
            "}")
        .addSourceLines(
            "AuditClient.java",
            "import java.net.http.HttpClient;",
            "public class AuditClient {",
            "  private final HttpClient http = HttpClient.newHttpClient();",
            "  public String version() { return http.version().name(); }",
            "}")
        .addSourceLines(
            "Checkout.java",
            "import java.util.concurrent.ConcurrentHashMap;",
            "import java.util.Map;",
            "public class Checkout {",
            "  private final PaymentClient shared = new PaymentClient();",
            "  private final Map<String, PaymentClient> byTenant = new ConcurrentHashMap<>();",
            "  private PaymentClient lazy;",
            "  public String pay(String orderId) throws Exception { return shared.charge(orderId); }",
            "  public String payFor(String tenant, String orderId) throws Exception {",
            "    return byTenant.computeIfAbsent(tenant, t -> new PaymentClient()).charge(orderId);",
            "  }",
            "  public synchronized String payLazily(String orderId) throws Exception {",
            "    if (lazy == null) {",
            "      lazy = new PaymentClient();",
            "    }",
            "    return lazy.charge(orderId);",
            "  }",
            "  public String audit() { return new AuditClient().version(); }",
            "}")
        .doTest();
  }

  @Test
  void scheduledJobsAdminOperationsAndSetUpMakeNoRequestLoad() {
    compilation
        .addSourceLines(
            "UpdateChecker.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.Timer;",
            "import java.util.TimerTask;",
            "import java.util.concurrent.Executors;",
            "import java.util.concurrent.ScheduledExecutorService;",
            "import java.util.concurrent.TimeUnit;",
            "import org.springframework.jmx.export.annotation.ManagedOperation;",
            "import org.springframework.scheduling.annotation.Scheduled;",
            "public class UpdateChecker {",
            "  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();",
            "  public void start() {",
            "    scheduler.scheduleAtFixedRate(() -> checkForUpdates(), 0, 6, TimeUnit.HOURS);",
            "    new Timer(true).schedule(new TimerTask() {",
            "      @Override public void run() { ping(\"http://stats/daily\"); }",
            "    }, 0, TimeUnit.DAYS.toMillis(1));",
            "  }",
            "  private void checkForUpdates() {",
            "    ping(\"http://updates.example.com/latest\");",
            "  }",
            "  @Scheduled(cron = \"0 0 3 * * *\")",
            "  public void nightlyReport() { ping(\"http://reports/nightly\"); }",
            "  @ManagedOperation",
            "  public void pingNow() { ping(\"http://updates.example.com/ping\"); }",
            "  private static void ping(String url) {",
            "    try (HttpClient client = HttpClient.newHttpClient()) {",
            "      client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());",
            "    } catch (Exception e) {",
            "      // best effort",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void theSameHelperCalledByARequestIsReported() {
    compilation
        .addSourceLines(
            "UpdateChecker.java",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import org.springframework.scheduling.annotation.Scheduled;",
            "import org.springframework.web.bind.annotation.GetMapping;",
            "public class UpdateChecker {",
            "  @Scheduled(cron = \"0 0 3 * * *\")",
            "  public void nightlyReport() { ping(\"http://reports/nightly\"); }",
            "  @GetMapping(\"/status\") public String status() { ping(\"http://updates/ping\"); return \"ok\"; }",
            "  private static void ping(String url) {",
            "    // BUG: Diagnostic contains: requests reach it from UpdateChecker.status() → UpdateChecker.ping()",
            "    try (HttpClient client = HttpClient.newHttpClient()) {",
            "      client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());",
            "    } catch (Exception e) {",
            "      // best effort",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aClientMadeByAHelperInAnotherClassPerRequest() {
    compilation
        .addSourceLines(
            "HttpSupport.java",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "import org.apache.http.impl.client.HttpClients;",
            "final class HttpSupport {",
            "  private static CloseableHttpClient cached;",
            "  static CloseableHttpClient newClient(int timeout) {",
            "    return HttpClients.custom().setMaxConnTotal(timeout).build();",
            "  }",
            "  static synchronized CloseableHttpClient shared() {",
            "    if (cached == null) {",
            "      cached = HttpClients.createDefault();",
            "    }",
            "    return cached;",
            "  }",
            "}")
        .addSourceLines(
            "StockService.java",
            "import java.io.IOException;",
            "import org.apache.http.client.methods.HttpGet;",
            "import org.apache.http.impl.client.BasicResponseHandler;",
            "import org.apache.http.impl.client.CloseableHttpClient;",
            "public class StockService {",
            "  public String stock(String sku) throws IOException {",
            "    // BUG: Diagnostic contains: (No automatic fix: a shared client keeps one cookie store",
            "    try (CloseableHttpClient client = HttpSupport.newClient(20)) {",
            "      return client.execute(new HttpGet(\"http://stock/\" + sku), new BasicResponseHandler());",
            "    }",
            "  }",
            "  public String price(String sku) throws IOException {",
            "    return HttpSupport.shared().execute(new HttpGet(\"http://price/\" + sku), new BasicResponseHandler());",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void connectionsDisconnectedInAWrapperOrAHelperOfAnotherClass() {
    compilation
        .addSourceLines(
            "UrlResponse.java",
            "import java.io.Closeable;",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.net.HttpURLConnection;",
            "final class UrlResponse implements Closeable {",
            "  private final HttpURLConnection connection;",
            "  UrlResponse(HttpURLConnection connection) { this.connection = connection; }",
            "  InputStream body() throws IOException { return connection.getInputStream(); }",
            "  @Override public void close() { connection.disconnect(); }",
            "}")
        .addSourceLines(
            "Connections.java",
            "import java.net.HttpURLConnection;",
            "final class Connections {",
            "  static void release(HttpURLConnection connection) {",
            "    if (connection != null) {",
            "      connection.disconnect();",
            "    }",
            "  }",
            "}")
        .addSourceLines(
            "RatesClient.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.net.HttpURLConnection;",
            "import java.net.URL;",
            "public class RatesClient {",
            "  public byte[] rates(String base) throws IOException {",
            "    // BUG: Diagnostic contains: disconnected after it (new UrlResponse() → UrlResponse.close() → HttpURLConnection.disconnect())",
            "    HttpURLConnection connection = (HttpURLConnection) new URL(\"http://fx/\" + base).openConnection();",
            "    try (UrlResponse response = new UrlResponse(connection)) {",
            "      return response.body().readAllBytes();",
            "    }",
            "  }",
            "  public byte[] history(String base) throws IOException {",
            "    // BUG: Diagnostic contains: disconnected after it (Connections.release() → HttpURLConnection.disconnect())",
            "    HttpURLConnection connection = (HttpURLConnection) new URL(\"http://fx/history/\" + base).openConnection();",
            "    try (InputStream in = connection.getInputStream()) {",
            "      return in.readAllBytes();",
            "    } finally {",
            "      Connections.release(connection);",
            "    }",
            "  }",
            "  public byte[] latest(String base) throws IOException {",
            "    HttpURLConnection connection = (HttpURLConnection) new URL(\"http://fx/latest/\" + base).openConnection();",
            "    try (InputStream in = connection.getInputStream()) {",
            "      return in.readAllBytes();",
            "    } catch (IOException e) {",
            "      Connections.release(connection);",
            "      throw e;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void socketsOpenedAndClosedPerCall() {
    compilation
        .addSourceLines(
            "WhoisClient.java",
            "import java.io.IOException;",
            "import java.io.InputStream;",
            "import java.io.OutputStream;",
            "import java.net.Socket;",
            "import java.nio.charset.StandardCharsets;",
            "public class WhoisClient {",
            "  private final String host;",
            "  private Socket persistent;",
            "  public WhoisClient(String host) { this.host = host; }",
            "  public String lookup(String domain) throws IOException {",
            "    // BUG: Diagnostic contains: A new Socket connection is opened for one request and closed after the exchange (Socket.close())",
            "    Socket socket = new Socket(host, 43);",
            "    try {",
            "      OutputStream out = socket.getOutputStream();",
            "      out.write((domain + \"\\r\\n\").getBytes(StandardCharsets.US_ASCII));",
            "      InputStream in = socket.getInputStream();",
            "      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);",
            "    } finally {",
            "      socket.close();",
            "    }",
            "  }",
            "  public boolean reachable() {",
            "    try (Socket probe = new Socket(host, 43)) {",
            "      return probe.isConnected();",
            "    } catch (IOException e) {",
            "      return false;",
            "    }",
            "  }",
            "  public synchronized String query(String domain) throws IOException {",
            "    if (persistent == null) {",
            "      persistent = new Socket(host, 43);",
            "    }",
            "    persistent.getOutputStream().write(domain.getBytes(StandardCharsets.US_ASCII));",
            "    return new String(persistent.getInputStream().readNBytes(512), StandardCharsets.US_ASCII);",
            "  }",
            "  public Socket open() throws IOException { return new Socket(host, 43); }",
            "}")
        .doTest();
  }
}
