package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.finding.Finding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VirtualThreadsSettingTest {
  @TempDir Path module;

  private Optional<String> found(String file, String... lines) throws IOException {
    Path resources = Files.createDirectories(module.resolve("src/main/resources"));
    Files.write(resources.resolve(file), List.of(lines));
    return VirtualThreadsSetting.find(List.of(resources)).map(f -> f.describe(module));
  }

  /**
   * The plugin passes the module's resource directories to the forked analyzer, which reads the
   * setting there (it needs lockjaw's knowledge, and so a JDK 21+, which Maven may not run on) and
   * checks request handlers as virtual-thread code.
   */
  @Test
  void theAnalyzerChecksRequestHandlersOnVirtualThreadsWhenTheModuleSaysSo() throws IOException {
    Path resources = Files.createDirectories(module.resolve("src/main/resources"));
    Files.write(
        resources.resolve("application.properties"),
        List.of("spring.threads.virtual.enabled=true"));
    Path sources = Files.createDirectories(module.resolve("src/main/java"));
    Path annotation =
        Files.createDirectories(sources.resolve("org/springframework/web/bind/annotation"))
            .resolve("PostMapping.java");
    Files.write(
        annotation,
        List.of(
            "package org.springframework.web.bind.annotation;",
            "public @interface PostMapping {",
            "  String[] value() default {};",
            "}"));
    Path controller = sources.resolve("OrderController.java");
    Files.write(
        controller,
        List.of(
            "import org.springframework.web.bind.annotation.PostMapping;",
            "public class OrderController {",
            "  @PostMapping(\"/orders\")",
            "  public void save(String order) throws InterruptedException {",
            "    synchronized (this) {",
            "      Thread.sleep(10);",
            "    }",
            "  }",
            "}"));
    AnalysisResult virtual =
        analyse(List.of(annotation, controller), List.of(resources.toString()));
    assertEquals(AnalysisResult.OK, virtual.status(), String.valueOf(virtual.errors()));
    assertEquals(
        List.of("VirtualThreadPinning"), virtual.findings().stream().map(Finding::check).toList());
    assertEquals(1, virtual.notes().size());
    assertTrue(
        virtual
            .notes()
            .get(0)
            .endsWith(
                "application.properties: spring.threads.virtual.enabled=true: request handlers"
                    + " run on virtual threads, and VirtualThreadPinning checks the code they"
                    + " reach."),
        virtual.notes().get(0));
    AnalysisResult platform = analyse(List.of(annotation, controller), List.of());
    assertEquals(List.of(), platform.findings());
    assertEquals(List.of(), platform.notes());
  }

  private AnalysisResult analyse(List<Path> sources, List<String> resourceDirectories)
      throws IOException {
    return new LockjawAnalyzer()
        .run(
            new AnalysisRequest(
                sources.stream().map(Path::toString).toList(),
                List.of(),
                List.of("--release", "21", "-encoding", "UTF-8"),
                List.of(),
                true,
                module.resolve("result.json").toString(),
                resourceDirectories));
  }

  @Test
  void springBootPropertiesFile() throws IOException {
    assertEquals(
        Optional.of(
            "src/main/resources/application.properties: spring.threads.virtual.enabled=true"),
        found(
            "application.properties",
            "server.port=8080",
            "spring.threads.virtual.enabled = true  "));
  }

  @Test
  void nestedFlatAndMixedYaml() throws IOException {
    assertEquals(
        Optional.of("src/main/resources/application.yml: spring.threads.virtual.enabled=true"),
        found(
            "application.yml",
            "# the shop",
            "spring:",
            "  application:",
            "    name: shop",
            "  threads:",
            "    virtual:",
            "      enabled: true # Loom",
            "server:",
            "  port: 8080"));
    Files.delete(module.resolve("src/main/resources/application.yml"));
    assertEquals(
        Optional.of("src/main/resources/application.yaml: spring.threads.virtual.enabled=true"),
        found("application.yaml", "spring:", "  threads.virtual.enabled: \"true\""));
  }

  @Test
  void notSetOffOrOnlyInAProfile() throws IOException {
    assertEquals(
        Optional.empty(), found("application.properties", "spring.threads.virtual.enabled=false"));
    assertEquals(
        Optional.empty(),
        found(
            "application.yml",
            "spring:",
            "  threads:",
            "    virtual:",
            "      enabled: false",
            "---",
            "spring:",
            "  config:",
            "    activate:",
            "      on-profile: loom",
            "  threads:",
            "    virtual:",
            "      enabled: true"));
    assertEquals(Optional.empty(), VirtualThreadsSetting.find(List.of(module.resolve("none"))));
  }
}
