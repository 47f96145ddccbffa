package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.Gson;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What the class-path tests need of Maven: the local repository this build uses (where gson, a
 * dependency of LSP4J, already is), a {@code .mvn/maven.config} that points a project at a
 * settings.xml of the test's choosing, and a repository that accepts connections and never answers.
 */
final class MavenFixtures {
  private MavenFixtures() {}

  /** gson's version on this test's class path: in the local repository for sure. */
  static String gsonVersion() {
    return gsonJar().getParent().getFileName().toString();
  }

  /** The local repository holding gson: .../repository/com/google/code/gson/gson/V/gson-V.jar. */
  static Path localRepository() {
    Path repository = gsonJar();
    for (int i = 0; i < 7; i++) {
      repository = repository.getParent();
    }
    return repository;
  }

  private static Path gsonJar() {
    try {
      return Path.of(Gson.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (Exception e) {
      throw new AssertionError("gson is not loaded from a jar", e);
    }
  }

  /**
   * Makes Maven in {@code projectRoot} (and its modules) use the build's local repository and, when
   * {@code mirror} is not null, that URL for every remote repository: a settings.xml beside it,
   * named in {@code .mvn/maven.config}.
   */
  static void useSettings(Path projectRoot, String mirror) throws IOException {
    Path mvn = Files.createDirectories(projectRoot.resolve(".mvn"));
    Path settings = mvn.resolve("lockjaw-test-settings.xml");
    String mirrors =
        mirror == null
            ? ""
            : """
              <mirrors>
                <mirror>
                  <id>central</id>
                  <mirrorOf>*</mirrorOf>
                  <url>%s</url>
                </mirror>
              </mirrors>
            """
                .formatted(mirror);
    Files.writeString(
        settings,
        """
        <settings>
          <localRepository>%s</localRepository>
        %s</settings>
        """
            .formatted(localRepository(), mirrors),
        UTF_8);
    Files.writeString(mvn.resolve("maven.config"), "--settings=" + settings + "\n", UTF_8);
  }

  /**
   * Resolves, with Maven as the server runs it (offline, else online), a project that depends on
   * gson, so that the local repository holds everything an offline resolution of such a project
   * needs (the dependency plugin included) before a test takes the network away.
   */
  static void primeLocalRepository(Path dir) throws Exception {
    Path project = Files.createDirectories(dir.resolve("prime"));
    Files.writeString(
        project.resolve("pom.xml"),
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>prime</groupId>
          <artifactId>prime</artifactId>
          <version>1.0</version>
          <dependencies>
            <dependency>
              <groupId>com.google.code.gson</groupId>
              <artifactId>gson</artifactId>
              <version>%s</version>
            </dependency>
          </dependencies>
        </project>
        """
            .formatted(gsonVersion()),
        UTF_8);
    useSettings(project, null);
    MavenClasspath.Outcome outcome =
        new MavenClasspath(null)
            .resolve(
                project.resolve("pom.xml"), System.nanoTime() + TimeUnit.MINUTES.toNanos(5), 300);
    assertNull(outcome.problem(), "Maven must resolve gson to prepare this test");
  }

  /** A Maven repository that accepts connections and never answers. */
  static final class SilentRepository implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    SilentRepository() throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor =
          new Thread(
              () -> {
                while (!socket.isClosed()) {
                  try {
                    accepted.add(socket.accept()); // and never a byte back
                  } catch (IOException e) {
                    return;
                  }
                }
              },
              "silent-repository");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/maven2";
    }

    int connections() {
      return accepted.size();
    }

    @Override
    public void close() throws IOException {
      socket.close();
      for (Socket s : accepted) {
        s.close();
      }
    }
  }
}
