package io.github.lockjaw.maven;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.maven.execution.MavenExecutionRequest;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;

/**
 * The audit's verdict in a multi-module build: a module whose audit fails does not stop the modules
 * after it from being audited; the build fails at the last module that runs the audit, naming every
 * module that failed (as Maven's {@code --fail-at-end} users expect). With {@code --fail-at-end} or
 * {@code --fail-never} Maven already goes on, and in a parallel build the last module cannot be
 * told: there each module fails at once, as before.
 */
final class ReactorVerdict {
  private static final Map<MavenSession, List<String>> DEFERRED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private ReactorVerdict() {}

  /** Fails now, or remembers the failure when later modules of the reactor run the audit too. */
  static void failOrDefer(
      MavenSession session, MavenProject project, MojoFailureException failure, Log log)
      throws MojoFailureException {
    if (!laterModulesAudit(session, project)) {
      List<String> earlier = DEFERRED.remove(session);
      if (earlier == null || earlier.isEmpty()) {
        throw failure;
      }
      List<String> all = new ArrayList<>(earlier);
      all.add(project.getArtifactId() + ": " + failure.getMessage());
      throw failed(all);
    }
    DEFERRED
        .computeIfAbsent(session, s -> new ArrayList<>())
        .add(project.getArtifactId() + ": " + failure.getMessage());
    log.error("lockjaw: " + failure.getMessage());
    log.error(
        "lockjaw: the audit of "
            + project.getArtifactId()
            + " fails; the build goes on to audit the remaining modules and fails after the last.");
  }

  /** At the last auditing module: fails with every failure the earlier modules left. */
  static void failIfLast(MavenSession session, MavenProject project, Log log)
      throws MojoFailureException {
    if (laterModulesAudit(session, project)) {
      return;
    }
    List<String> deferred = DEFERRED.remove(session);
    if (deferred != null && !deferred.isEmpty()) {
      throw failed(deferred);
    }
  }

  private static MojoFailureException failed(List<String> failures) {
    return new MojoFailureException(
        "lockjaw's audit failed in "
            + failures.size()
            + " module(s), each audited to the end:\n  "
            + String.join("\n  ", failures));
  }

  static boolean laterModulesAudit(MavenSession session, MavenProject project) {
    if (session == null
        || session.isParallel()
        || !MavenExecutionRequest.REACTOR_FAIL_FAST.equals(
            session.getRequest().getReactorFailureBehavior())) {
      return false;
    }
    List<MavenProject> projects = session.getProjects();
    int index = projects.indexOf(project);
    if (index < 0) {
      return false;
    }
    for (MavenProject later : projects.subList(index + 1, projects.size())) {
      if (runsAudit(session, later)) {
        return true;
      }
    }
    return false;
  }

  private static boolean runsAudit(MavenSession session, MavenProject project) {
    for (String goal : session.getGoals()) {
      if (goal.endsWith(":audit")
          && (goal.startsWith("lockjaw:") || goal.contains("lockjaw-maven-plugin"))) {
        return true; // mvn lockjaw:audit runs in every module
      }
    }
    for (Plugin plugin : project.getBuildPlugins()) {
      if (plugin.getArtifactId().equals("lockjaw-maven-plugin")) {
        for (PluginExecution execution : plugin.getExecutions()) {
          if (execution.getGoals().contains("audit")) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
