package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One workspace folder holding a whole reactor, whose modules were never built or installed: each
 * module's files get their findings, the module that depends on its sibling included (the sibling's
 * sources, and the dependencies it brings, come from the workspace).
 */
class ReactorWorkspaceTest {
  private static final String PARENT =
      """
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <modelVersion>4.0.0</modelVersion>
        <groupId>shop</groupId>
        <artifactId>shop-parent</artifactId>
        <version>1.0-SNAPSHOT</version>
        <packaging>pom</packaging>
        <properties>
          <gson.version>%s</gson.version>
        </properties>
        <modules>
          <module>inventory</module>
          <module>web</module>
        </modules>
      </project>
      """;

  private static final String INVENTORY_POM =
      """
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <modelVersion>4.0.0</modelVersion>
        <parent>
          <groupId>shop</groupId>
          <artifactId>shop-parent</artifactId>
          <version>1.0-SNAPSHOT</version>
        </parent>
        <artifactId>inventory</artifactId>
        <dependencies>
          <dependency>
            <groupId>com.google.code.gson</groupId>
            <artifactId>gson</artifactId>
            <version>${gson.version}</version>
          </dependency>
        </dependencies>
      </project>
      """;

  private static final String WEB_POM =
      """
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <modelVersion>4.0.0</modelVersion>
        <parent>
          <groupId>shop</groupId>
          <artifactId>shop-parent</artifactId>
          <version>1.0-SNAPSHOT</version>
        </parent>
        <artifactId>web</artifactId>
        <dependencies>
          <dependency>
            <groupId>${project.groupId}</groupId>
            <artifactId>inventory</artifactId>
            <version>${project.version}</version>
          </dependency>
        </dependencies>
      </project>
      """;

  private static final String STOCK_CACHE =
      """
      package shop.inventory;

      import com.google.gson.Gson;

      public class StockCache {
        private final Gson gson = new Gson();

        public String snapshot(Thread loader) {
          while (loader.isAlive()) {}
          return gson.toJson(loader.getName());
        }
      }
      """;

  /** Uses its sibling's class and gson, which comes with the sibling. */
  private static final String STOCK_PAGE =
      """
      package shop.web;

      import com.google.gson.Gson;
      import shop.inventory.StockCache;

      public class StockPage {
        public String render(StockCache cache, Thread refresher, Gson gson) {
          while (refresher.isAlive()) {}
          return gson.toJson(cache.snapshot(refresher));
        }
      }
      """;

  @TempDir Path workspace;
  private LspSession session;

  @BeforeAll
  static void localRepositoryHoldsGson(@TempDir Path dir) throws Exception {
    MavenFixtures.primeLocalRepository(dir);
  }

  @AfterEach
  void close() throws Exception {
    if (session != null) {
      session.server.shutdown().get(30, TimeUnit.SECONDS);
      session.close();
    }
  }

  @Test
  void everyModuleOfAReactorNeverInstalledGetsItsFindings() throws Exception {
    Files.writeString(
        workspace.resolve("pom.xml"), PARENT.formatted(MavenFixtures.gsonVersion()), UTF_8);
    Path inventory = Files.createDirectories(workspace.resolve("inventory"));
    Files.writeString(inventory.resolve("pom.xml"), INVENTORY_POM, UTF_8);
    Path cache =
        Files.createDirectories(inventory.resolve("src/main/java/shop/inventory"))
            .resolve("StockCache.java");
    Files.writeString(cache, STOCK_CACHE, UTF_8);
    Path web = Files.createDirectories(workspace.resolve("web"));
    Files.writeString(web.resolve("pom.xml"), WEB_POM, UTF_8);
    Path page =
        Files.createDirectories(web.resolve("src/main/java/shop/web")).resolve("StockPage.java");
    Files.writeString(page, STOCK_PAGE, UTF_8);
    MavenFixtures.useSettings(workspace, null);

    session = LspSession.inProcess(new CopyOnWriteArrayList<>());
    session.initialize(workspace, null);
    session.open(page, STOCK_PAGE);
    session.open(cache, STOCK_CACHE);
    session.diagnostics(page, 1);
    session.diagnostics(cache, 1);
    session.settle(); // both class paths resolved, both files analysed with them

    PublishDiagnosticsParams pageFindings = session.client.latest.get(LspSession.uri(page));
    assertEquals(List.of("ThreadAliveBusyWait"), LspSession.codes(pageFindings));
    assertEquals(7, pageFindings.getDiagnostics().get(0).getRange().getStart().getLine());
    PublishDiagnosticsParams cacheFindings = session.client.latest.get(LspSession.uri(cache));
    assertEquals(List.of("ThreadAliveBusyWait"), LspSession.codes(cacheFindings));
    assertEquals(8, cacheFindings.getDiagnostics().get(0).getRange().getStart().getLine());
    assertEquals(List.of(), session.client.shown, "every class path resolved");

    try (Stream<Path> left = Files.list(web.resolve("target/lockjaw"))) {
      assertFalse(
          left.anyMatch(p -> p.getFileName().toString().endsWith(".pom.xml")),
          "the copy of web's pom.xml Maven resolved is gone");
    }
    assertFalse(
        Files.exists(workspace.resolve("inventory/target")), "nothing written to inventory");
  }
}
