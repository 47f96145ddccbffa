package io.github.lockjaw.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    Projects projects = new Projects(List.of(dir.resolve("repo")), null, 60, new Recorder());
    assertEquals(module.resolve("pom.xml"), projects.nearestPom(file));
    assertNull(
        projects.nearestPom(loose),
        "the pom above the workspace folder is not this file's project");
    assertEquals(
        dir.resolve("pom.xml"),
        new Projects(List.of(), null, 60, new Recorder()).nearestPom(loose));
  }

  @Test
  void aMissingMavenIsOneClearMessageAndTheSourcesStillCount() throws Exception {
    Files.writeString(dir.resolve("pom.xml"), "<project/>");
    Path file = Files.createDirectories(dir.resolve("src/main/java/a")).resolve("A.java");
    Recorder recorder = new Recorder();
    Projects projects =
        new Projects(List.of(dir), dir.resolve("no-such-mvn").toString(), 60, recorder);

    Project provisional = projects.projectFor(file);
    assertEquals(List.of(dir.resolve("src/main/java")), provisional.sourceRoots());
    assertNull(provisional.problem(), "known at once, before Maven ran");
    projects.resolveFor(file);
    projects.awaitResolutions();
    Project project = projects.projectFor(file);
    projects.resolveFor(file); // known for this pom.xml: not resolved again
    projects.awaitResolutions();
    assertEquals(List.of(dir.resolve("src/main/java")), project.sourceRoots());
    assertEquals(List.of(), project.classpath());
    assertEquals(1, recorder.problems.size(), recorder.problems.toString());
    assertTrue(
        recorder
            .problems
            .get(0)
            .startsWith(
                "lockjaw could not resolve the class path of "
                    + dir.resolve("pom.xml")
                    + ": cannot run '"),
        recorder.problems.get(0));
    assertEquals(List.of(dir.resolve("pom.xml")), recorder.resolved);
    projects.stop();
  }

  /** What the class-path thread tells the server. */
  static final class Recorder implements Projects.Listener {
    final List<String> problems = new CopyOnWriteArrayList<>();
    final List<Path> resolved = new CopyOnWriteArrayList<>();

    @Override
    public void resolved(Path pom, Project project) {
      resolved.add(pom);
    }

    @Override
    public void problem(String message) {
      problems.add(message);
    }

    @Override
    public void log(String message) {}
  }
}
