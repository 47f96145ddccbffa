package io.github.lockjaw.checks.heavyweight;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class PerRequestHeavyweightObjectTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(PerRequestHeavyweightObject.class, getClass());

  @Test
  void mapperBuiltInAControllerAndInAStaticUtilityItCalls() {
    compilation
        .addSourceLines(
            "OrderController.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "import org.springframework.web.bind.annotation.GetMapping;",
            "import org.springframework.web.bind.annotation.RestController;",
            "@RestController",
            "public class OrderController {",
            "  @GetMapping(\"/orders\")",
            "  public String orders() throws Exception {",
            "    // BUG: Diagnostic contains: orders() creates a new ObjectMapper every time it runs (it"
                + " builds its serializer and deserializer caches from nothing), and requests reach it"
                + " from OrderController.orders()",
            "    return new ObjectMapper().writeValueAsString(java.util.List.of(\"a\"));",
            "  }",
            "  @GetMapping(\"/order\")",
            "  public String order(String id) throws Exception {",
            "    return JsonUtil.toJson(id);",
            "  }",
            "}")
        .addSourceLines(
            "JsonUtil.java",
            "import com.fasterxml.jackson.databind.DeserializationFeature;",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "final class JsonUtil {",
            "  private JsonUtil() {}",
            "  static String toJson(Object value) throws Exception {",
            "    // BUG: Diagnostic contains: Build one and keep it in a private static final field:"
                + " ObjectMapper is thread-safe once configured",
            "    ObjectMapper mapper = new ObjectMapper();",
            "    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);",
            "    return mapper.writeValueAsString(value);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void sdkClientCopiesItsMapperForEveryCallAHandlerMakes() {
    // openfga java-sdk #65: getObjectMapper() returned mapper.copy(), and every API call used it;
    // here the client is compiled with the handler that calls it per request
    compilation
        .addSourceLines(
            "ApiClient.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "public class ApiClient {",
            "  private final ObjectMapper mapper = new ObjectMapper();",
            "  public ObjectMapper getObjectMapper() {",
            "    // BUG: Diagnostic contains: getObjectMapper() returns it to OpenFgaApi.check(),"
                + " which uses it for one call only",
            "    return mapper.copy();",
            "  }",
            "}")
        .addSourceLines(
            "OpenFgaApi.java",
            "public class OpenFgaApi {",
            "  private final ApiClient client = new ApiClient();",
            "  public boolean check(String body) throws Exception {",
            "    return client.getObjectMapper().readTree(body).path(\"allowed\").asBoolean();",
            "  }",
            "}")
        .addSourceLines(
            "AccessHandler.java",
            "import com.sun.net.httpserver.HttpExchange;",
            "import com.sun.net.httpserver.HttpHandler;",
            "import java.io.IOException;",
            "public class AccessHandler implements HttpHandler {",
            "  private final OpenFgaApi api = new OpenFgaApi();",
            "  @Override",
            "  public void handle(HttpExchange exchange) throws IOException {",
            "    try {",
            "      exchange.sendResponseHeaders(api.check(\"{}\") ? 200 : 403, -1);",
            "    } catch (Exception e) {",
            "      throw new IOException(e);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void sdkClientCopiesItsMapperForEveryRequestItSends() {
    // openfga java-sdk 0.3.2 (#65), audited alone: every API call copied the client's mapper and
    // then sent its request through the HttpClient the ApiClient keeps
    compilation
        .addSourceLines(
            "ApiClient.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "import java.net.http.HttpClient;",
            "public class ApiClient {",
            "  private final ObjectMapper mapper = new ObjectMapper();",
            "  private final HttpClient http = HttpClient.newHttpClient();",
            "  public ObjectMapper getObjectMapper() {",
            "    // BUG: Diagnostic contains: getObjectMapper() returns it to FgaApi.check(), which"
                + " uses it for one call only, and it runs once for every outgoing request:"
                + " FgaApi.check(), which sends an HTTP request on every call"
                + " (HttpClient.sendAsync())",
            "    return mapper.copy();",
            "  }",
            "  public HttpClient getHttpClient() {",
            "    return http;",
            "  }",
            "}")
        .addSourceLines(
            "FgaApi.java",
            "import java.net.URI;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "import java.util.concurrent.CompletableFuture;",
            "public class FgaApi {",
            "  private final ApiClient client;",
            "  public FgaApi(ApiClient client) {",
            "    this.client = client;",
            "  }",
            "  public CompletableFuture<String> check(String store, Object body) throws Exception {",
            "    byte[] json = client.getObjectMapper().writeValueAsBytes(body);",
            "    HttpRequest request =",
            "        HttpRequest.newBuilder(URI.create(\"http://fga/stores/\" + store + \"/check\"))",
            "            .POST(HttpRequest.BodyPublishers.ofByteArray(json))",
            "            .build();",
            "    return client",
            "        .getHttpClient()",
            "        .sendAsync(request, HttpResponse.BodyHandlers.ofString())",
            "        .thenApply(HttpResponse::body);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aFetchThatBuildsItsOwnClientIsNotAClientOperation() {
    // a configuration fetched once over HTTP, with a client built for the exchange: the public
    // method is not one of many requests a kept client sends, so its mapper stays unreported
    compilation
        .addSourceLines(
            "RemoteConfig.java",
            "import com.fasterxml.jackson.databind.JsonNode;",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "import java.net.URI;",
            "import java.net.http.HttpClient;",
            "import java.net.http.HttpRequest;",
            "import java.net.http.HttpResponse;",
            "public final class RemoteConfig {",
            "  public static JsonNode fetch(URI uri) throws Exception {",
            "    HttpClient http = HttpClient.newBuilder().build();",
            "    String body =",
            "        http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())",
            "            .body();",
            "    return new ObjectMapper().readTree(body);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aLibrarysPublicApiAloneIsNotARequestPath() {
    // in the libraries of a Spring Boot application, public API that builds a mapper per call ran
    // at configuration time in 11 of 13 cases (armeria's LogFormatter.ofJson(), log4j's
    // JsonConfiguration): without a handler on the way, lockjaw stays silent
    compilation
        .addSourceLines(
            "ApiClient.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "public class ApiClient {",
            "  private final ObjectMapper mapper = new ObjectMapper();",
            "  public ObjectMapper getObjectMapper() {",
            "    return mapper.copy();",
            "  }",
            "}")
        .addSourceLines(
            "LogFormatter.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "public final class LogFormatter {",
            "  private final ObjectMapper mapper;",
            "  private LogFormatter(ObjectMapper mapper) {",
            "    this.mapper = mapper;",
            "  }",
            "  public static LogFormatter ofJson() {",
            "    return new LogFormatter(new ObjectMapper());",
            "  }",
            "  public String format(Object event) throws Exception {",
            "    return new ApiClient().getObjectMapper().writeValueAsString(event);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void jaxbContextAndXmlFactoriesBuiltPerRequest() {
    compilation
        .addSourceLines(
            "InvoiceHandler.java",
            "import com.sun.net.httpserver.HttpExchange;",
            "import com.sun.net.httpserver.HttpHandler;",
            "import jakarta.xml.bind.JAXBContext;",
            "import java.io.IOException;",
            "import javax.xml.parsers.DocumentBuilderFactory;",
            "public class InvoiceHandler implements HttpHandler {",
            "  public static class Invoice {}",
            "  @Override",
            "  public void handle(HttpExchange exchange) throws IOException {",
            "    try {",
            "      // BUG: Diagnostic contains: builds a new JAXBContext with JAXBContext.newInstance()",
            "      JAXBContext context = JAXBContext.newInstance(Invoice.class);",
            "      context.createMarshaller().marshal(new Invoice(), exchange.getResponseBody());",
            "      // BUG: Diagnostic contains: Keep one DocumentBuilderFactory, built and configured"
                + " once, in a static final field and call newDocumentBuilder() on it per call: a"
                + " DocumentBuilder is not thread-safe",
            "      DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(exchange.getRequestBody());",
            "      // BUG: Diagnostic contains: an XPath is not thread-safe",
            "      javax.xml.xpath.XPathFactory.newInstance().newXPath().evaluate(\"/a\", (Object) null);",
            "    } catch (Exception e) {",
            "      throw new IOException(e);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aRendererCreatedPerRequestBuildsItsTransformerFactoryEachTime() {
    compilation
        .addSourceLines(
            "ReportServlet.java",
            "import com.sun.net.httpserver.HttpExchange;",
            "import com.sun.net.httpserver.HttpHandler;",
            "public class ReportServlet implements HttpHandler {",
            "  @Override",
            "  public void handle(HttpExchange exchange) {",
            "    new ReportRenderer().render(exchange);",
            "  }",
            "}")
        .addSourceLines(
            "ReportRenderer.java",
            "import com.sun.net.httpserver.HttpExchange;",
            "import javax.xml.transform.TransformerFactory;",
            "class ReportRenderer {",
            "  // BUG: Diagnostic contains: each ReportRenderer keeps its own, and ReportServlet.handle()"
                + " creates a new ReportRenderer every time it runs",
            "  private final TransformerFactory factory = TransformerFactory.newInstance();",
            "  private final String title;",
            "  ReportRenderer() {",
            "    this(\"report\");",
            "  }",
            "  ReportRenderer(String title) {",
            "    this.title = title;",
            "  }",
            "  void render(HttpExchange exchange) {",
            "    factory.getClass();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void loggersClassesDigestsInALoopAndStrongRandomsPerRequest() {
    compilation
        .addSourceLines(
            "ChecksumController.java",
            "import java.security.MessageDigest;",
            "import java.security.SecureRandom;",
            "import java.util.List;",
            "import java.util.logging.Logger;",
            "import org.springframework.web.bind.annotation.PostMapping;",
            "import org.springframework.web.bind.annotation.RestController;",
            "@RestController",
            "public class ChecksumController {",
            "  @PostMapping(\"/checksums\")",
            "  public int checksums(List<byte[]> records) throws Exception {",
            "    // BUG: Diagnostic contains: calls Logger.getLogger() every time it runs (it looks the"
                + " logger up in the LogManager under its lock)",
            "    Logger.getLogger(ChecksumController.class.getName()).fine(\"checksums\");",
            "    // BUG: Diagnostic contains: Class.forName()",
            "    Class.forName(\"org.postgresql.Driver\");",
            "    MessageDigest once = MessageDigest.getInstance(\"SHA-256\");",
            "    int total = 0;",
            "    for (byte[] record : records) {",
            "      // BUG: Diagnostic contains: Create one MessageDigest before the loop",
            "      total += MessageDigest.getInstance(\"SHA-256\").digest(record).length;",
            "    }",
            "    // BUG: Diagnostic contains: may block on the operating system's entropy pool",
            "    return total + once.digest().length + SecureRandom.getInstanceStrong().nextInt();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aLookupInABranchThatEndsByThrowingRunsPerFailedRequestOnly() {
    // from a fresh audit sample (JSPWiki's attachment name check): the logger is looked up only
    // on the way to rejecting the upload; a lookup before a branch that may throw, or in a branch
    // that returns normally, still runs per request
    compilation
        .addSourceLines(
            "UploadController.java",
            "import java.util.logging.Logger;",
            "import org.springframework.web.bind.annotation.PostMapping;",
            "import org.springframework.web.bind.annotation.RestController;",
            "@RestController",
            "public class UploadController {",
            "  @PostMapping(\"/attachments\")",
            "  public String upload(String fileName, byte[] content) {",
            "    String name = validate(fileName);",
            "    // BUG: Diagnostic contains: calls Logger.getLogger() every time it runs",
            "    Logger.getLogger(UploadController.class.getName()).fine(\"upload \" + name);",
            "    if (content.length == 0) {",
            "      // BUG: Diagnostic contains: calls Logger.getLogger() every time it runs",
            "      Logger.getLogger(UploadController.class.getName()).info(\"empty upload\");",
            "      return \"empty\";",
            "    }",
            "    return name;",
            "  }",
            "  static String validate(String fileName) {",
            "    if (fileName == null || fileName.trim().isEmpty()) {",
            "      Logger.getLogger(UploadController.class.getName()).severe(\"empty file name\");",
            "      throw new IllegalArgumentException(\"attach.empty.file\");",
            "    }",
            "    String name = fileName.trim();",
            "    if (name.toLowerCase().endsWith(\".jsp\")) {",
            "      Logger log = Logger.getLogger(UploadController.class.getName());",
            "      if (log.isLoggable(java.util.logging.Level.INFO)) {",
            "        log.info(\"refused a .jsp upload\");",
            "      }",
            "      throw new IllegalArgumentException(\"attach.unwanted.file\");",
            "    }",
            "    return name;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void gsonAndItsBuilderPerRequest() {
    compilation
        .addSourceLines(
            "EventsResource.java",
            "import com.google.gson.Gson;",
            "import com.google.gson.GsonBuilder;",
            "import org.springframework.web.bind.annotation.GetMapping;",
            "public class EventsResource {",
            "  @GetMapping(\"/events\")",
            "  public String events() {",
            "    // BUG: Diagnostic contains: creates a new Gson",
            "    String plain = new Gson().toJson(\"a\");",
            "    // BUG: Diagnostic contains: builds a new Gson with GsonBuilder.create()",
            "    return plain + new GsonBuilder().setPrettyPrinting().create().toJson(\"b\");",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void silentWhereTheObjectIsBuiltOnceOrKept() {
    compilation
        .addSourceLines(
            "jakarta/annotation/PostConstruct.java",
            "package jakarta.annotation;",
            "import java.lang.annotation.*;",
            "@Retention(RetentionPolicy.RUNTIME)",
            "public @interface PostConstruct {}")
        .addSourceLines(
            "Shared.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "import jakarta.annotation.PostConstruct;",
            "import jakarta.xml.bind.JAXBContext;",
            "import jakarta.xml.bind.JAXBException;",
            "import java.io.StringWriter;",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "import javax.xml.parsers.DocumentBuilder;",
            "import javax.xml.parsers.DocumentBuilderFactory;",
            "import javax.xml.parsers.ParserConfigurationException;",
            "import org.springframework.context.annotation.Bean;",
            "import org.springframework.stereotype.Component;",
            "import org.springframework.web.bind.annotation.GetMapping;",
            "@Component",
            "public class Shared {",
            "  private static final ObjectMapper MAPPER = new ObjectMapper();",
            "  private static final JAXBContext CONTEXT;",
            "  static {",
            "    try {",
            "      CONTEXT = JAXBContext.newInstance(Shared.class);",
            "    } catch (JAXBException e) {",
            "      throw new ExceptionInInitializerError(e);",
            "    }",
            "  }",
            "  private static final ThreadLocal<DocumentBuilder> BUILDER =",
            "      ThreadLocal.withInitial(() -> {",
            "        try {",
            "          return DocumentBuilderFactory.newInstance().newDocumentBuilder();",
            "        } catch (ParserConfigurationException e) {",
            "          throw new IllegalStateException(e);",
            "        }",
            "      });",
            "  private static final ThreadLocal<DocumentBuilderFactory> FACTORY = new ThreadLocal<>() {",
            "    @Override",
            "    protected DocumentBuilderFactory initialValue() {",
            "      return DocumentBuilderFactory.newInstance();",
            "    }",
            "  };",
            "  private final Map<Class<?>, JAXBContext> contexts = new ConcurrentHashMap<>();",
            "  private final ObjectMapper own;",
            "  private ObjectMapper lazy;",
            "  public Shared() {",
            "    own = new ObjectMapper();",
            "  }",
            "  @PostConstruct",
            "  void init() {",
            "    new ObjectMapper().registerModules();",
            "  }",
            "  @Bean",
            "  ObjectMapper objectMapper() {",
            "    return new ObjectMapper();",
            "  }",
            "  @GetMapping(\"/xml\")",
            "  public String xml(Object value) throws Exception {",
            "    StringWriter out = new StringWriter();",
            "    CONTEXT.createMarshaller().marshal(value, out);",
            "    contexts.computeIfAbsent(value.getClass(), type -> newContext(type));",
            "    BUILDER.get().reset();",
            "    FACTORY.get().newDocumentBuilder();",
            "    if (lazy == null) {",
            "      lazy = new ObjectMapper();",
            "    }",
            "    return out + MAPPER.writeValueAsString(value) + own.writeValueAsString(value);",
            "  }",
            "  private static JAXBContext newContext(Class<?> type) {",
            "    try {",
            "      return JAXBContext.newInstance(type);",
            "    } catch (JAXBException e) {",
            "      throw new IllegalStateException(e);",
            "    }",
            "  }",
            "  public static void main(String[] args) throws Exception {",
            "    System.out.println(new ObjectMapper().writeValueAsString(args));",
            "  }",
            "}")
        .addSourceLines(
            "SharedTest.java",
            "import com.fasterxml.jackson.databind.ObjectMapper;",
            "class SharedTest {",
            "  @org.junit.jupiter.api.Test",
            "  void roundTrip() throws Exception {",
            "    new ObjectMapper().writeValueAsString(\"x\");",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void aLoggerLookupByANameItIsGivenIsPerRequestOnlyFromAHandler() {
    compilation
        .addSourceLines(
            "Logs.java",
            "import org.slf4j.Logger;",
            "import org.slf4j.LoggerFactory;",
            "public class Logs {",
            "  public static Logger forName(String name) {",
            "    Logger logger = LoggerFactory.getLogger(name);",
            "    logger.trace(\"looked up\");",
            "    return null;",
            "  }",
            "  public static void audit(String name) {",
            "    // BUG: Diagnostic contains: LoggerFactory.getLogger()",
            "    LoggerFactory.getLogger(name).info(\"audit\");",
            "  }",
            "}")
        .addSourceLines(
            "AuditController.java",
            "import org.springframework.web.bind.annotation.PostMapping;",
            "public class AuditController {",
            "  @PostMapping(\"/audit\")",
            "  public void audit(String who) {",
            "    Logs.audit(who);",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void suppressedByName() {
    compilation
        .addSourceLines(
            "Quiet.java",
            "import com.google.gson.Gson;",
            "import org.springframework.web.bind.annotation.GetMapping;",
            "public class Quiet {",
            "  @SuppressWarnings(\"PerRequestHeavyweightObject\")",
            "  @GetMapping(\"/q\")",
            "  public String q() {",
            "    return new Gson().toJson(1);",
            "  }",
            "}")
        .doTest();
  }
}
