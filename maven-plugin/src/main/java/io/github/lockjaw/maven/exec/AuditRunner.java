package io.github.lockjaw.maven.exec;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.ClassReach;
import io.github.lockjaw.bytecode.JarAuditor;
import io.github.lockjaw.bytecode.JarIdentity;
import io.github.lockjaw.bytecode.KnownFixes;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.engine.analyzer.ParentWatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit itself, for {@code lockjaw:audit}: lockjaw's detectors over the dependency jars ({@link
 * JarAuditor}), what the module's classes and configuration reach ({@link ClassReach}), the known
 * fixes. Runs in Maven's JVM when it is JDK 21+, else in a JVM of {@code lockjaw.javaHome} through
 * {@link ForkedMain} ({@link #main}). Only this class touches lockjaw-checks, so the goal itself
 * loads on any JDK.
 */
public final class AuditRunner {
  /**
   * As {@link ForkedMain#GSON}; its own, because the forked JVM has the plugin's class path without
   * Maven's API (ForkedMain refers to it).
   */
  private static final Gson JSON = new GsonBuilder().disableHtmlEscaping().create();

  private AuditRunner() {}

  public static AuditOutcome run(AuditRequest request) throws IOException, InterruptedException {
    List<Path> jars = new ArrayList<>();
    Map<Path, JarIdentity> identities = new LinkedHashMap<>();
    for (int i = 0; i < request.jars.size(); i++) {
      Path jar = Path.of(request.jars.get(i)).toAbsolutePath().normalize();
      jars.add(jar);
      String[] gav =
          i < request.coordinates.size() ? request.coordinates.get(i).split(":") : new String[0];
      if (gav.length >= 3) {
        identities.put(jar, new JarIdentity(jar, gav[0], gav[1], gav[2]));
      }
    }
    JarAuditor.Options options =
        JarAuditor.Options.DEFAULT.withRelease(request.release).withIdentities(identities);
    if (request.cache != null) {
      options = options.withCache(Path.of(request.cache));
    }
    JarAuditor.Result result = new JarAuditor().run(jars, jars, options);

    AuditOutcome outcome = new AuditOutcome();
    outcome.classesInJars = result.classesInJars();
    outcome.classesAnalysed = result.classesAnalysed();
    outcome.jarsFromCache = result.jarsFromCache();
    for (JarAuditor.NotAnalysed n : result.notAnalysed()) {
      outcome.notAnalysed.add(List.of(n.jar().toString(), n.className(), n.reason()));
    }
    ClassReach.Reach reach = null;
    if (!request.failOnAll && !result.findings().isEmpty()) {
      Path classes = request.moduleClasses == null ? null : Path.of(request.moduleClasses);
      if (classes == null || !Files.isDirectory(classes)) {
        outcome.reachNote = "not compiled";
      } else {
        reach = ClassReach.reach(List.of(classes), jars);
      }
    }
    for (AuditFinding f : result.findings()) {
      AuditOutcome.Item item = new AuditOutcome.Item();
      item.check = f.check();
      item.jar = f.jar() == null ? "" : f.jar().toString();
      item.className = f.className();
      item.methodName = f.methodName();
      item.methodDescriptor = f.methodDescriptor();
      item.line = f.line();
      item.message = f.message();
      item.advice = f.advice();
      item.library = f.library();
      item.docs = LockjawDocs.forCheck(f.check());
      JarIdentity identity = identities.getOrDefault(f.jar(), JarIdentity.of(f.jar()));
      JarIdentity bundled =
          JarIdentity.forClass(JarIdentity.bundled(f.jar()), identity, f.className());
      item.knownFix = KnownFixes.find(bundled, f.className(), f.check()).isPresent();
      item.reachedBy = reach == null ? "" : reach.path(f.className());
      item.actionable =
          request.failOnAll || reach == null || !item.reachedBy.isEmpty() || item.knownFix;
      outcome.findings.add(item);
    }
    return outcome;
  }

  /** The forked JVM's entry point: {@code AuditRunner request.json}. */
  public static void main(String[] args) {
    ParentWatch.start();
    AuditRequest request;
    try {
      request = JSON.fromJson(Files.readString(Path.of(args[0]), UTF_8), AuditRequest.class);
    } catch (IOException | RuntimeException e) {
      System.err.println(
          "lockjaw: cannot read the audit request " + String.join(" ", args) + ": " + e);
      System.exit(2);
      return;
    }
    AuditOutcome outcome;
    try {
      outcome = run(request);
    } catch (IOException | RuntimeException e) {
      outcome = new AuditOutcome();
      outcome.error = String.valueOf(e);
      e.printStackTrace();
    } catch (InterruptedException e) {
      System.exit(143);
      return;
    }
    try {
      Files.writeString(Path.of(request.output), JSON.toJson(outcome), UTF_8);
    } catch (IOException e) {
      System.err.println("lockjaw: cannot write " + request.output + ": " + e);
      System.exit(3);
    }
    System.exit(0);
  }
}
