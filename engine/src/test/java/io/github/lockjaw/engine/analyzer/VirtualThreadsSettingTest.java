package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
