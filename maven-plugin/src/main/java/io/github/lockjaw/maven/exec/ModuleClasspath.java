package io.github.lockjaw.maven.exec;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.DefaultDependencyResolutionRequest;
import org.apache.maven.project.DependencyResolutionException;
import org.apache.maven.project.DependencyResolutionResult;
import org.apache.maven.project.MavenProject;
import org.apache.maven.project.ProjectDependenciesResolver;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.DependencyFilter;
import org.eclipse.aether.graph.DependencyNode;

/**
 * The class path a module's sources compile against, resolved by lockjaw itself so that {@code mvn
 * lockjaw:check} works in a reactor without {@code compile}: a dependency on another module of the
 * build is that module's compiled classes (its output directory) when it has been built, and a
 * clear message that says to add {@code compile} when it has not; everything else comes from the
 * repositories as Maven resolves it.
 */
public final class ModuleClasspath {
  private ModuleClasspath() {}

  public static List<String> of(
      MavenProject project,
      MavenSession session,
      ProjectDependenciesResolver resolver,
      boolean includeTests)
      throws MojoExecutionException, MojoFailureException {
    Map<String, MavenProject> reactor = new HashMap<>();
    for (MavenProject module : session.getProjects()) {
      reactor.put(key(module.getGroupId(), module.getArtifactId(), module.getVersion()), module);
    }
    // the compile class path: compile, provided and system scope (with the tests: every scope)
    Set<String> classpathScopes =
        includeTests
            ? Set.of("compile", "provided", "system", "runtime", "test")
            : Set.of("compile", "provided", "system");
    DependencyFilter scopes =
        (node, parents) ->
            node.getDependency() == null
                || classpathScopes.contains(node.getDependency().getScope());
    DependencyFilter notInReactor =
        (node, parents) ->
            node.getDependency() == null
                || !reactor.containsKey(key(node.getDependency().getArtifact()));
    DefaultDependencyResolutionRequest request =
        new DefaultDependencyResolutionRequest(project, session.getRepositorySession());
    request.setResolutionFilter(
        (node, parents) -> scopes.accept(node, parents) && notInReactor.accept(node, parents));
    DependencyResolutionResult result;
    try {
      result = resolver.resolve(request);
    } catch (DependencyResolutionException e) {
      throw new MojoExecutionException(
          "lockjaw cannot resolve the dependencies of "
              + project.getArtifactId()
              + ": "
              + e.getMessage(),
          e);
    }

    Set<String> classpath = new LinkedHashSet<>();
    if (includeTests && Files.isDirectory(Path.of(project.getBuild().getTestOutputDirectory()))) {
      classpath.add(project.getBuild().getTestOutputDirectory());
    }
    if (Files.isDirectory(Path.of(project.getBuild().getOutputDirectory()))) {
      classpath.add(project.getBuild().getOutputDirectory());
    }
    for (Dependency dependency : result.getDependencies()) {
      Artifact artifact = dependency.getArtifact();
      if (!reactor.containsKey(key(artifact)) && artifact.getFile() != null) {
        classpath.add(artifact.getFile().getPath());
      }
    }
    // modules of this build, found in the collected graph (the resolution left them out)
    List<String> notBuilt = new ArrayList<>();
    List<DependencyNode> modules = new ArrayList<>();
    collectModules(result.getDependencyGraph(), scopes, reactor, modules, new HashSet<>());
    for (DependencyNode node : modules) {
      Artifact artifact = node.getDependency().getArtifact();
      MavenProject module = reactor.get(key(artifact));
      boolean tests = "tests".equals(artifact.getClassifier());
      String classes =
          tests
              ? module.getBuild().getTestOutputDirectory()
              : module.getBuild().getOutputDirectory();
      File packaged = module.getArtifact() == null ? null : module.getArtifact().getFile();
      if (!tests && packaged != null && packaged.isFile()) {
        classpath.add(packaged.getPath());
      } else if (Files.isDirectory(Path.of(classes))) {
        classpath.add(classes);
      } else {
        notBuilt.add(module.getArtifactId());
      }
    }
    if (!notBuilt.isEmpty()) {
      throw new MojoFailureException(
          "lockjaw cannot analyse "
              + project.getArtifactId()
              + " yet: it depends on "
              + String.join(", ", notBuilt)
              + " of this build, which "
              + (notBuilt.size() == 1 ? "is" : "are")
              + " not compiled. Run the goal after"
              + " the compile, as with spotbugs:check and pmd:check: mvn compile lockjaw:check (or mvn verify with"
              + " the goal bound to verify), or install those modules first.");
    }
    return new ArrayList<>(classpath);
  }

  private static void collectModules(
      DependencyNode node,
      DependencyFilter scopes,
      Map<String, MavenProject> reactor,
      List<DependencyNode> found,
      Set<DependencyNode> seen) {
    if (node == null || !seen.add(node)) {
      return;
    }
    for (DependencyNode child : node.getChildren()) {
      if (child.getDependency() == null || !scopes.accept(child, List.of())) {
        continue;
      }
      if (reactor.containsKey(key(child.getDependency().getArtifact()))) {
        found.add(child);
      }
      collectModules(child, scopes, reactor, found, seen);
    }
  }

  private static String key(Artifact artifact) {
    return key(artifact.getGroupId(), artifact.getArtifactId(), artifact.getBaseVersion());
  }

  private static String key(String groupId, String artifactId, String version) {
    return groupId + ":" + artifactId + ":" + version;
  }
}
