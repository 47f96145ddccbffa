package io.github.lockjaw.lsp;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.lsp.MavenClasspath.Outcome;
import io.github.lockjaw.lsp.ReactorModules.Module;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Finds the Maven project of a file (the nearest {@code pom.xml} above it, within the workspace
 * folder holding it) and what analysing it needs: its source path, at once, and its class path,
 * resolved by Maven on a thread of its own ({@link MavenClasspath}: offline first, then online,
 * within a timeout), started by {@link #resolveFor}. Until the class path arrives, {@link
 * #projectFor} answers with what is known (the JDK, the sources, the class path of the pom's
 * previous state); when it arrives, the {@link Listener} hears of it, so that the open files are
 * analysed again.
 *
 * <p>A module's dependencies on other modules of the workspace (a reactor's siblings) are served
 * from the workspace: their {@code src/main/java} on the source path, their {@code target/classes}
 * and their own class paths on the class path, and Maven resolves the rest of the module's
 * dependencies without them, so that a sibling never installed costs nothing.
 */
final class Projects {
  static final long DEFAULT_TIMEOUT_SECONDS = 120;

  /** Hears what the class-path thread learns. */
  interface Listener {
    /** {@code pom}'s class path was resolved, or given up on: the project as it now stands. */
    void resolved(Path pom, Project project);

    /** Why a class path could not be resolved, once per state of the {@code pom.xml}. */
    void problem(String message);

    /** Progress worth a line in the editor's log. */
    void log(String message);
  }

  /** What is known of one pom.xml's project, and the resolution under way. */
  private static final class Entry {
    Project resolved;
    FileTime resolvedFor;
    Future<Project> pending;
    FileTime pendingFor;
  }

  private final List<Path> workspaceFolders;
  private final ReactorModules reactor;
  private final MavenClasspath maven;
  private final long timeoutSeconds;
  private final Listener listener;
  private final Map<Path, Entry> entries = new ConcurrentHashMap<>();
  private final ExecutorService resolvers =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "lockjaw-classpath");
            thread.setDaemon(true);
            return thread;
          });

  Projects(
      List<Path> workspaceFolders, String mavenExecutable, long timeoutSeconds, Listener listener) {
    this.workspaceFolders = List.copyOf(workspaceFolders);
    this.reactor = new ReactorModules(workspaceFolders);
    this.maven = new MavenClasspath(mavenExecutable);
    this.timeoutSeconds = timeoutSeconds;
    this.listener = listener;
  }

  /** The project of a file as far as it is known now; never waits for Maven. */
  Project projectFor(Path file) {
    Path pom = nearestPom(file);
    return pom == null ? Project.NONE : current(pom, false);
  }

  /**
   * Starts resolving the class path of the file's project when it is not known for the pom.xml as
   * it is. The server calls it once the file's first diagnostics are out, so that Maven's start
   * does not compete with them for the processor.
   */
  void resolveFor(Path file) {
    Path pom = nearestPom(file);
    if (pom != null) {
      current(pom, true);
    }
  }

  /** Ends the class-path thread's Maven runs. */
  void stop() {
    for (Entry entry : entries.values()) {
      synchronized (entry) {
        if (entry.pending != null) {
          entry.pending.cancel(true);
        }
      }
    }
    resolvers.shutdownNow();
  }

  /**
   * A pom.xml changed: its project, and the projects of the modules that depend on it, resolve
   * their class path again. Returns the pom.xml files whose projects changed.
   */
  Set<Path> invalidate(Path pom) {
    Path changed = pom.toAbsolutePath().normalize();
    reactor.invalidate();
    Set<Path> affected = new LinkedHashSet<>();
    affected.add(changed);
    for (Path known : entries.keySet()) {
      if (reactor.closure(known).stream().anyMatch(m -> m.pom().equals(changed))) {
        affected.add(known);
      }
    }
    for (Path each : affected) {
      Entry entry = entries.get(each);
      if (entry != null) {
        synchronized (entry) {
          if (entry.pending != null) {
            entry.pending.cancel(true);
          }
          entry.pending = null;
          entry.pendingFor = null;
          entry.resolvedFor = null; // the last class path serves until the new one arrives
        }
      }
    }
    return affected;
  }

  /** Waits until no class path is being resolved (tests, benchmark). */
  void awaitResolutions() throws InterruptedException {
    while (true) {
      List<Future<Project>> pending = new ArrayList<>();
      for (Entry entry : entries.values()) {
        synchronized (entry) {
          if (entry.pending != null && !entry.pending.isDone()) {
            pending.add(entry.pending);
          }
        }
      }
      if (pending.isEmpty()) {
        return;
      }
      for (Future<Project> future : pending) {
        try {
          future.get();
        } catch (ExecutionException | CancellationException e) {
          // done either way
        }
      }
    }
  }

  Path nearestPom(Path file) {
    Path start = file.toAbsolutePath().normalize();
    Path boundary = null;
    for (Path folder : workspaceFolders) {
      Path f = folder.toAbsolutePath().normalize();
      if (start.startsWith(f) && (boundary == null || f.getNameCount() > boundary.getNameCount())) {
        boundary = f;
      }
    }
    for (Path dir = start.getParent(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.isRegularFile(pom)) {
        return pom;
      }
      if (dir.equals(boundary)) {
        break;
      }
    }
    return null;
  }

  private Project current(Path pom, boolean resolve) {
    FileTime modified = modified(pom);
    Entry entry = entries.computeIfAbsent(pom, p -> new Entry());
    Project previous;
    synchronized (entry) {
      if (entry.resolved != null && modified.equals(entry.resolvedFor)) {
        return entry.resolved;
      }
      if (resolve && (entry.pending == null || !modified.equals(entry.pendingFor))) {
        start(pom, entry, modified);
      }
      previous = entry.resolved;
    }
    return provisional(pom, previous);
  }

  /** Runs on the caller's thread with the entry locked: hands the resolution to a resolver. */
  private void start(Path pom, Entry entry, FileTime modified) {
    if (entry.pending != null) {
      entry.pending.cancel(true);
    }
    FutureTask<Project> task = new FutureTask<>(() -> resolveAndTell(pom, entry, modified));
    entry.pending = task;
    entry.pendingFor = modified;
    try {
      resolvers.execute(task);
    } catch (RejectedExecutionException e) {
      entry.pending = null; // shutting down
    }
  }

  private Project resolveAndTell(Path pom, Entry entry, FileTime modified) {
    long started = System.nanoTime();
    Project project;
    try {
      project = resolve(pom, started + TimeUnit.SECONDS.toNanos(timeoutSeconds));
    } catch (InterruptedException e) {
      return null; // superseded by a newer state of the pom.xml, or stopping
    }
    synchronized (entry) {
      if (!modified.equals(entry.pendingFor)) {
        return project; // the pom.xml changed meanwhile: a newer resolution is under way
      }
      entry.resolved = project;
      entry.resolvedFor = modified;
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    if (project.problem() != null) {
      listener.problem(project.problem());
    } else {
      listener.log(
          "lockjaw resolved the class path of "
              + pom
              + " in "
              + millis
              + " ms: "
              + project.classpath().size()
              + " entries.");
    }
    listener.resolved(pom, project);
    return project;
  }

  private Project resolve(Path pom, long deadline) throws InterruptedException {
    Module module = reactor.module(pom);
    List<Module> siblings = reactor.siblingsOf(pom);
    List<Path> roots = sourceRoots(pom);
    Outcome outcome =
        siblings.isEmpty()
            ? maven.resolve(pom, deadline, timeoutSeconds)
            : resolveWithoutSiblings(module, siblings, deadline);
    Set<String> classpath = new LinkedHashSet<>(outcome.classpath());
    for (Module sibling : siblings) {
      classpath.addAll(sibling.classesDirectory());
      Project resolved = awaitSibling(sibling, pom, deadline);
      if (resolved != null) {
        classpath.addAll(resolved.classpath());
      }
    }
    String problem = outcome.problem() == null ? null : message(pom, outcome);
    return new Project(pom, List.copyOf(classpath), roots, problem);
  }

  /**
   * Maven resolves a copy of the module's pom.xml without its workspace siblings (kept in the
   * module's {@code target/lockjaw/}, so that {@code .mvn/} and the parent are found as for the
   * original, and deleted afterwards).
   */
  private Outcome resolveWithoutSiblings(Module module, List<Module> siblings, long deadline)
      throws InterruptedException {
    Path copy;
    try {
      Path dir = Files.createDirectories(module.dir().resolve("target/lockjaw"));
      copy = Files.createTempFile(dir, "classpath-", ".pom.xml");
      Files.writeString(copy, ReactorModules.withoutSiblings(module, siblings, copy), UTF_8);
    } catch (Exception e) { // not writable, or not readable as XML: Maven on the original
      return maven.resolve(module.pom(), deadline, timeoutSeconds);
    }
    try {
      Outcome outcome = maven.resolve(copy, deadline, timeoutSeconds);
      return outcome.problem() == null
          ? outcome
          : new Outcome(
              outcome.classpath(),
              outcome.problem().replace(copy.toString(), module.pom().toString()),
              outcome.timedOut());
    } finally {
      try {
        Files.deleteIfExists(copy);
      } catch (IOException e) {
        // left in target/
      }
    }
  }

  /** The sibling's resolved project, waiting for it until the deadline; null if none. */
  private Project awaitSibling(Module sibling, Path dependant, long deadline)
      throws InterruptedException {
    if (reactor.closure(sibling.pom()).stream().anyMatch(m -> m.pom().equals(dependant))) {
      return null; // a cycle (Maven refuses one; a pom.xml half-edited may have it)
    }
    current(sibling.pom(), true);
    Entry entry = entries.get(sibling.pom());
    Future<Project> pending;
    synchronized (entry) {
      if (entry.pending == null || entry.pending.isDone()) {
        return entry.resolved;
      }
      pending = entry.pending;
    }
    try {
      return pending.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | CancellationException | TimeoutException e) {
      synchronized (entry) {
        return entry.resolved;
      }
    }
  }

  /**
   * What is known before Maven answers: the sources, the siblings' classes and what the siblings'
   * and the pom's previous class paths held.
   */
  private Project provisional(Path pom, Project previous) {
    Set<String> classpath = new LinkedHashSet<>();
    if (previous != null) {
      classpath.addAll(previous.classpath());
    }
    for (Module sibling : reactor.closure(pom)) {
      classpath.addAll(sibling.classesDirectory());
      Entry entry = entries.get(sibling.pom());
      if (entry != null) {
        synchronized (entry) {
          if (entry.resolved != null) {
            classpath.addAll(entry.resolved.classpath());
          }
        }
      }
    }
    return new Project(pom, List.copyOf(classpath), sourceRoots(pom), null);
  }

  /** The module's own source roots, then the main sources of the siblings it depends on. */
  private List<Path> sourceRoots(Path pom) {
    List<Path> roots = new ArrayList<>();
    for (String root : List.of("src/main/java", "src/test/java")) {
      if (Files.isDirectory(pom.getParent().resolve(root))) {
        roots.add(pom.getParent().resolve(root));
      }
    }
    for (Module sibling : reactor.closure(pom)) {
      roots.addAll(sibling.mainSourceRoots());
    }
    return List.copyOf(roots);
  }

  private String message(Path pom, Outcome outcome) {
    String fix =
        outcome.timedOut()
            ? " Check that the repositories Maven uses (settings.xml: mirrors, proxies) answer, or"
                + " raise the classpathTimeoutSeconds option (now "
                + timeoutSeconds
                + "), then save the pom.xml to try again."
            : " Run 'mvn dependency:build-classpath' in "
                + pom.getParent()
                + " to see Maven's whole output, fix the pom.xml (or the network), then save the"
                + " pom.xml to try again.";
    return MavenLog.plain(
        "lockjaw could not resolve the class path of "
            + pom
            + ": "
            + outcome.problem()
            + (outcome.problem().endsWith(".") ? "" : ".")
            + " Meanwhile it analyses this module's files with the JDK and the workspace's sources,"
            + " so code that uses the module's dependencies is not checked."
            + fix);
  }

  private static FileTime modified(Path pom) {
    try {
      return Files.getLastModifiedTime(pom);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }
}
