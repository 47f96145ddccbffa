package io.github.lockjaw.corpus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.collection.DependencyCollectionContext;
import org.eclipse.aether.collection.DependencySelector;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.resolution.DependencyResult;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.util.graph.selector.AndDependencySelector;
import org.eclipse.aether.util.graph.selector.ExclusionDependencySelector;

/**
 * Resolves a corpus library with Maven's own resolver, from Maven Central into the local Maven
 * repository (~/.m2, or {@code -Dmaven.repo.local}): its -sources.jar, its binary jar, and the
 * classpath it was compiled against, i.e. its direct dependencies of every scope but test (optional
 * and provided ones included) plus their compile/runtime closure.
 */
final class CorpusResolver {

  static final String CENTRAL = "https://repo.maven.apache.org/maven2/";

  /** What the compiler needs for one library; {@code missing} lists what Central no longer has. */
  record Resolved(Path sources, Path binary, List<Path> classpath, List<String> missing) {}

  private final RepositorySystem system;
  private final DefaultRepositorySystemSession session;
  private final List<RemoteRepository> repositories;

  CorpusResolver() {
    system = new RepositorySystemSupplier().get();
    session = MavenRepositorySystemUtils.newSession();
    String local =
        System.getProperty(
            "maven.repo.local",
            Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
    session.setLocalRepositoryManager(
        system.newLocalRepositoryManager(session, new LocalRepository(local)));
    session.setOffline(Boolean.getBoolean("lockjaw.corpus.offline"));
    session.setSystemProperties(System.getProperties());
    session.setDependencySelector(
        new AndDependencySelector(
            new CompileClasspathSelector(0), new ExclusionDependencySelector()));
    repositories = List.of(new RemoteRepository.Builder("central", "default", CENTRAL).build());
  }

  Resolved resolve(Manifest.Library library) throws Exception {
    String[] gav = library.coordinates().split(":");
    Artifact binary = new DefaultArtifact(gav[0], gav[1], "jar", gav[2]);
    Artifact sources = new DefaultArtifact(gav[0], gav[1], "sources", "jar", gav[2]);
    Path sourcesJar = artifact(sources);
    Set<Path> classpath = new LinkedHashSet<>();
    List<String> missing = new ArrayList<>();
    List<Dependency> extras = new ArrayList<>();
    for (String extra : library.classpath()) {
      String[] coordinates = extra.split(":");
      extras.add(
          new Dependency(
              new DefaultArtifact(coordinates[0], coordinates[1], "jar", coordinates[2]),
              "compile"));
    }
    dependencies(binary, extras, classpath, missing);
    Path binaryJar = artifact(binary);
    return new Resolved(sourcesJar, binaryJar, List.copyOf(classpath), List.copyOf(missing));
  }

  private Path artifact(Artifact artifact) throws Exception {
    ArtifactResult result =
        system.resolveArtifact(
            session, new ArtifactRequest(artifact, repositories, "lockjaw-corpus"));
    return result.getArtifact().getFile().toPath();
  }

  /** The root's classpath; extras join its direct dependencies, so they win version conflicts. */
  private void dependencies(
      Artifact root, List<Dependency> extras, Set<Path> classpath, List<String> missing)
      throws Exception {
    CollectRequest collect =
        new CollectRequest(new Dependency(root, "compile"), extras, repositories);
    DependencyResult result;
    try {
      result = system.resolveDependencies(session, new DependencyRequest(collect, null));
    } catch (DependencyResolutionException e) {
      result = e.getResult();
      if (result == null) {
        throw e;
      }
    }
    for (ArtifactResult artifact : result.getArtifactResults()) {
      if (artifact.isResolved()) {
        classpath.add(artifact.getArtifact().getFile().toPath());
      } else if (artifact.getRequest().getArtifact().equals(root)) {
        throw new IllegalStateException("cannot resolve " + root + ": " + artifact.getExceptions());
      } else {
        missing.add(artifact.getRequest().getArtifact().toString());
      }
    }
  }

  /**
   * The classpath a library's own build compiled against: the root's direct dependencies in every
   * scope but test, optional ones included; below them, Maven's usual compile/runtime closure.
   */
  private record CompileClasspathSelector(int depth) implements DependencySelector {
    @Override
    public boolean selectDependency(Dependency dependency) {
      String scope = dependency.getScope();
      if (depth <= 1) {
        return !scope.equals("test") && !scope.equals("system") && !scope.equals("import");
      }
      return !dependency.isOptional()
          && (scope.isEmpty() || scope.equals("compile") || scope.equals("runtime"));
    }

    @Override
    public DependencySelector deriveChildSelector(DependencyCollectionContext context) {
      return new CompileClasspathSelector(depth + 1);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof CompileClasspathSelector that && that.depth == depth;
    }

    @Override
    public int hashCode() {
      return Objects.hash(depth);
    }
  }
}
