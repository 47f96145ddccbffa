package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.lsp.ReactorModules.Module;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReactorModulesTest {
  @TempDir Path dir;

  private Path pom(String module, String body) throws Exception {
    Path pom = Files.createDirectories(dir.resolve(module)).resolve("pom.xml");
    Files.writeString(
        pom,
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <parent><groupId>shop</groupId><artifactId>parent</artifactId><version>1</version></parent>
          %s
        </project>
        """
            .formatted(body),
        UTF_8);
    return pom;
  }

  @Test
  void aModulesSiblingsAreTheWorkspaceModulesItDependsOnAndTheCopyLeavesThemOut() throws Exception {
    Files.writeString(
        dir.resolve("pom.xml"),
        """
        <project><modelVersion>4.0.0</modelVersion><groupId>shop</groupId>
          <artifactId>parent</artifactId><version>1</version><packaging>pom</packaging>
          <properties><core.group>shop.core</core.group></properties>
          <modules><module>model</module><module>service</module><module>web</module></modules>
        </project>
        """,
        UTF_8);
    Path model = pom("model", "<groupId>shop.core</groupId><artifactId>model</artifactId>");
    Path service =
        pom(
            "service",
            """
            <artifactId>service</artifactId>
            <dependencies>
              <dependency><groupId>shop.core</groupId><artifactId>model</artifactId><version>1</version></dependency>
              <dependency><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId><version>2.11.0</version></dependency>
            </dependencies>
            """);
    Path web =
        pom(
            "web",
            """
            <artifactId>web</artifactId>
            <modules><module>ui</module></modules>
            <dependencies>
              <dependency><groupId>${project.groupId}</groupId><artifactId>service</artifactId><version>${project.version}</version></dependency>
              <dependency><groupId>org.example</groupId><artifactId>model</artifactId><version>3</version></dependency>
            </dependencies>
            <build><directory>${project.basedir}/out</directory></build>
            """);

    // the workspace folder is web/ alone: the reactor around it is found through <parent>
    ReactorModules modules = new ReactorModules(List.of(web.getParent()));
    assertEquals(List.of(service), modules.siblingsOf(web).stream().map(Module::pom).toList());
    assertEquals(List.of(service, model), modules.closure(web).stream().map(Module::pom).toList());
    assertEquals(List.of(model), modules.siblingsOf(service).stream().map(Module::pom).toList());
    assertEquals(List.of(), modules.siblingsOf(model));

    Path copy = web.getParent().resolve("target/lockjaw/classpath-1.pom.xml");
    String text =
        ReactorModules.withoutSiblings(modules.module(web), modules.siblingsOf(web), copy);
    assertFalse(text.contains("<artifactId>service</artifactId>"), text);
    assertTrue(
        text.contains("<groupId>org.example</groupId><artifactId>model</artifactId>"),
        "another group's artifact of the same name stays: " + text);
    assertFalse(text.contains("<modules>"), text);
    assertTrue(text.contains("<relativePath>../../../pom.xml</relativePath>"), text);
    assertTrue(text.contains("<directory>" + web.getParent() + "/out</directory>"), text);
  }

  @Test
  void aBrokenPomIsAModuleWithoutCoordinates() throws Exception {
    Path broken = Files.createDirectories(dir.resolve("broken")).resolve("pom.xml");
    Files.writeString(broken, "<project><modelVersion>4.0.0</modelVersion>", UTF_8);
    ReactorModules modules = new ReactorModules(List.of(dir));
    assertEquals(null, modules.module(broken).key());
    assertEquals(List.of(), modules.siblingsOf(broken));
  }
}
