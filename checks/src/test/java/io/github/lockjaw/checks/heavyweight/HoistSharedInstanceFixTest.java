package io.github.lockjaw.checks.heavyweight;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * The fix of PerRequestHeavyweightObject: every output is compiled, and lockjaw is silent on it.
 */
class HoistSharedInstanceFixTest {

  private static void fix(String file, String[] input, String[] output) {
    BugCheckerRefactoringTestHelper.newInstance(
            PerRequestHeavyweightObject.class, HoistSharedInstanceFixTest.class)
        .addInputLines(file, input)
        .addOutputLines(file, output)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
    CompilationTestHelper.newInstance(
            PerRequestHeavyweightObject.class, HoistSharedInstanceFixTest.class)
        .addSourceLines(file, output)
        .expectNoDiagnostics()
        .doTest();
  }

  /** Flagged where the input's BUG comments say, and left unchanged. */
  private static void noFix(String file, String... input) {
    CompilationTestHelper.newInstance(
            PerRequestHeavyweightObject.class, HoistSharedInstanceFixTest.class)
        .addSourceLines(file, input)
        .doTest();
    BugCheckerRefactoringTestHelper.newInstance(
            PerRequestHeavyweightObject.class, HoistSharedInstanceFixTest.class)
        .addInputLines(file, input)
        .expectUnchanged()
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void aMapperBuiltForOneCallBecomesAConstant() {
    fix(
        "OrderController.java",
        new String[] {
          "import com.fasterxml.jackson.databind.ObjectMapper;",
          "import java.util.List;",
          "import org.springframework.web.bind.annotation.GetMapping;",
          "",
          "public class OrderController {",
          "  @GetMapping(\"/orders\")",
          "  public String orders() throws Exception {",
          "    return new ObjectMapper().writeValueAsString(List.of(\"a\"));",
          "  }",
          "}"
        },
        new String[] {
          "import com.fasterxml.jackson.databind.ObjectMapper;",
          "import java.util.List;",
          "import org.springframework.web.bind.annotation.GetMapping;",
          "",
          "public class OrderController {",
          "  private static final ObjectMapper OBJECT_MAPPER = new ObjectMapper();",
          "",
          "  @GetMapping(\"/orders\")",
          "  public String orders() throws Exception {",
          "    return OBJECT_MAPPER.writeValueAsString(List.of(\"a\"));",
          "  }",
          "}"
        });
  }

  @Test
  void itsConfigurationMovesIntoTheConstant() {
    fix(
        "OrderApi.java",
        new String[] {
          "import com.fasterxml.jackson.databind.DeserializationFeature;",
          "import com.fasterxml.jackson.databind.ObjectMapper;",
          "import com.fasterxml.jackson.databind.SerializationFeature;",
          "import org.springframework.web.bind.annotation.PostMapping;",
          "",
          "public class OrderApi {",
          "  private static final String DEFAULT = \"{}\";",
          "",
          "  @PostMapping(\"/orders\")",
          "  public String echo(String body) throws Exception {",
          "    ObjectMapper mapper = new ObjectMapper();",
          "    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);",
          "    mapper.enable(SerializationFeature.INDENT_OUTPUT);",
          "    Object value = mapper.readValue(body == null ? DEFAULT : body, Object.class);",
          "    return mapper.writeValueAsString(value);",
          "  }",
          "}"
        },
        new String[] {
          "import com.fasterxml.jackson.databind.DeserializationFeature;",
          "import com.fasterxml.jackson.databind.ObjectMapper;",
          "import com.fasterxml.jackson.databind.SerializationFeature;",
          "import org.springframework.web.bind.annotation.PostMapping;",
          "",
          "public class OrderApi {",
          "  private static final String DEFAULT = \"{}\";",
          "  private static final ObjectMapper OBJECT_MAPPER =",
          "      new ObjectMapper()",
          "          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)",
          "          .enable(SerializationFeature.INDENT_OUTPUT);",
          "",
          "  @PostMapping(\"/orders\")",
          "  public String echo(String body) throws Exception {",
          "    ObjectMapper mapper = OBJECT_MAPPER;",
          "    Object value = mapper.readValue(body == null ? DEFAULT : body, Object.class);",
          "    return mapper.writeValueAsString(value);",
          "  }",
          "}"
        });
  }

  @Test
  void aJaxbContextThatThrowsIsBuiltOnFirstUseAndKept() {
    fix(
        "InvoiceHandler.java",
        new String[] {
          "import com.sun.net.httpserver.HttpExchange;",
          "import com.sun.net.httpserver.HttpHandler;",
          "import jakarta.xml.bind.JAXBContext;",
          "import java.io.IOException;",
          "",
          "public class InvoiceHandler implements HttpHandler {",
          "  public static class Invoice {}",
          "",
          "  @Override",
          "  public void handle(HttpExchange exchange) throws IOException {",
          "    try {",
          "      JAXBContext context = JAXBContext.newInstance(Invoice.class);",
          "      context.createMarshaller().marshal(new Invoice(), exchange.getResponseBody());",
          "    } catch (Exception e) {",
          "      throw new IOException(e);",
          "    }",
          "  }",
          "}"
        },
        new String[] {
          "import com.sun.net.httpserver.HttpExchange;",
          "import com.sun.net.httpserver.HttpHandler;",
          "import jakarta.xml.bind.JAXBContext;",
          "import jakarta.xml.bind.JAXBException;",
          "import java.io.IOException;",
          "",
          "public class InvoiceHandler implements HttpHandler {",
          "  private static volatile JAXBContext jaxbContext;",
          "",
          "  public static class Invoice {}",
          "",
          "  @Override",
          "  public void handle(HttpExchange exchange) throws IOException {",
          "    try {",
          "      JAXBContext context = jaxbContext();",
          "      context.createMarshaller().marshal(new Invoice(), exchange.getResponseBody());",
          "    } catch (Exception e) {",
          "      throw new IOException(e);",
          "    }",
          "  }",
          "",
          "  private static JAXBContext jaxbContext() throws JAXBException {",
          "    JAXBContext shared = jaxbContext;",
          "    if (shared == null) {",
          "      shared = JAXBContext.newInstance(Invoice.class);",
          "      jaxbContext = shared;",
          "    }",
          "    return shared;",
          "  }",
          "}"
        });
  }

  @Test
  void aLoggerLookedUpAgainUsesTheFieldThatHoldsItAlready() {
    fix(
        "AuditHandler.java",
        new String[] {
          "import com.sun.net.httpserver.HttpExchange;",
          "import com.sun.net.httpserver.HttpHandler;",
          "import java.util.logging.Logger;",
          "",
          "public class AuditHandler implements HttpHandler {",
          "  private static final Logger LOG = Logger.getLogger(AuditHandler.class.getName());",
          "",
          "  @Override",
          "  public void handle(HttpExchange exchange) {",
          "    Logger.getLogger(AuditHandler.class.getName()).info(\"request\");",
          "    LOG.fine(\"done\");",
          "  }",
          "}"
        },
        new String[] {
          "import com.sun.net.httpserver.HttpExchange;",
          "import com.sun.net.httpserver.HttpHandler;",
          "import java.util.logging.Logger;",
          "",
          "public class AuditHandler implements HttpHandler {",
          "  private static final Logger LOG = Logger.getLogger(AuditHandler.class.getName());",
          "",
          "  @Override",
          "  public void handle(HttpExchange exchange) {",
          "    LOG.info(\"request\");",
          "    LOG.fine(\"done\");",
          "  }",
          "}"
        });
  }

  @Test
  void aGsonBuilderChainWrittenOverSeveralLinesBecomesOneConstant() {
    fix(
        "EventsResource.java",
        new String[] {
          "import com.google.gson.GsonBuilder;",
          "import org.springframework.web.bind.annotation.GetMapping;",
          "",
          "public class EventsResource {",
          "  @GetMapping(\"/events\")",
          "  public String events() {",
          "    return new GsonBuilder()",
          "        .setPrettyPrinting()",
          "        .create()",
          "        .toJson(\"b\");",
          "  }",
          "}"
        },
        new String[] {
          "import com.google.gson.Gson;",
          "import com.google.gson.GsonBuilder;",
          "import org.springframework.web.bind.annotation.GetMapping;",
          "",
          "public class EventsResource {",
          "  private static final Gson GSON = new GsonBuilder().setPrettyPrinting().create();",
          "",
          "  @GetMapping(\"/events\")",
          "  public String events() {",
          "    return GSON",
          "        .toJson(\"b\");",
          "  }",
          "}"
        });
  }

  @Test
  void noFixWhenTheObjectDependsOnTheCallOrLeavesTheMethodOrIsReconfigured() {
    noFix(
        "Exports.java",
        "import com.fasterxml.jackson.databind.ObjectMapper;",
        "import jakarta.xml.bind.JAXBContext;",
        "import java.io.Writer;",
        "import java.text.SimpleDateFormat;",
        "import javax.xml.parsers.DocumentBuilderFactory;",
        "import org.springframework.web.bind.annotation.GetMapping;",
        "",
        "public class Exports {",
        "  @GetMapping(\"/a\")",
        "  public String byPattern(String pattern) throws Exception {",
        "    // BUG: Diagnostic contains: byPattern() creates a new ObjectMapper",
        "    ObjectMapper mapper = new ObjectMapper();",
        "    mapper.setDateFormat(new SimpleDateFormat(pattern));",
        "    return mapper.writeValueAsString(new java.util.Date());",
        "  }",
        "  @GetMapping(\"/b\")",
        "  public void handedOn(Writer out) throws Exception {",
        "    // BUG: Diagnostic contains: handedOn() creates a new ObjectMapper",
        "    ObjectMapper mapper = new ObjectMapper();",
        "    write(mapper, out);",
        "  }",
        "  @GetMapping(\"/c\")",
        "  public Object ofType(Class<?> type, java.io.InputStream in) throws Exception {",
        "    // BUG: Diagnostic contains: ofType() builds a new JAXBContext",
        "    return JAXBContext.newInstance(type).createUnmarshaller().unmarshal(in);",
        "  }",
        "  @GetMapping(\"/d\")",
        "  public Object parse(java.io.InputStream in) throws Exception {",
        "    // BUG: Diagnostic contains: (No automatic fix: DocumentBuilder must not be shared.)",
        "    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);",
        "  }",
        "  private static void write(ObjectMapper mapper, Writer out) throws Exception {",
        "    mapper.writeValue(out, \"x\");",
        "  }",
        "}");
  }
}
