package io.github.lockjaw.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectsTest {
  @TempDir Path dir;

  @Test
  void theNearestPomWithinTheWorkspaceFolderOwnsTheFile() throws Exception {
    Files.writeString(dir.resolve("pom.xml"), "<project/>");
    Path module = Files.createDirectories(dir.resolve("repo/service"));
    Files.writeString(module.resolve("pom.xml"), "<project/>");
    Path file = Files.createDirectories(module.resolve("src/main/java/a")).resolve("A.java");
    Path loose = Files.createDirectories(dir.resolve("repo/scripts")).resolve("Tool.java");

    Projects projects = new Projects(List.of(dir.resolve("repo")), null, message -> {});
    assertEquals(module.resolve("pom.xml"), projects.nearestPom(file));
    assertNull(
        projects.nearestPom(loose),
        "the pom above the workspace folder is not this file's project");
    assertEquals(dir.resolve("pom.xml"), new Projects(List.of(), null, m -> {}).nearestPom(loose));
  }

  @Test
  void aMissingMavenIsOneClearMessageAndTheSourcesStillCount() throws Exception {
    Files.writeString(dir.resolve("pom.xml"), "<project/>");
    Path file = Files.createDirectories(dir.resolve("src/main/java/a")).resolve("A.java");
    List<String> messages = new ArrayList<>();
    Projects projects =
        new Projects(List.of(dir), dir.resolve("no-such-mvn").toString(), messages::add);

    Project project = projects.projectFor(file);
    projects.projectFor(file);
    assertEquals(List.of(dir.resolve("src/main/java")), project.sourceRoots());
    assertEquals(List.of(), project.classpath());
    assertEquals(1, messages.size(), messages.toString());
    assertEquals(
        true,
        messages
            .get(0)
            .startsWith(
                "lockjaw could not resolve the classpath of "
                    + dir.resolve("pom.xml")
                    + " (cannot run '"),
        messages.get(0));
  }
}
