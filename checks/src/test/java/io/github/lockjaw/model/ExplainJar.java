package io.github.lockjaw.model;

import io.github.lockjaw.model.bytecode.ClassFileFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A developer's tool, not a test: {@code -Dlockjaw.explain=/path/to.jar!a.b.Class#method} prints
 * what the model knows of that method: its operations, where it is reached from, the request path,
 * and who calls it. Skipped unless the property is set.
 */
class ExplainJar {
  @Test
  void explain() throws Exception {
    String spec = System.getProperty("lockjaw.explain");
    Assumptions.assumeTrue(spec != null, "set -Dlockjaw.explain=jar!class#method");
    String[] parts = spec.split("!");
    String className = parts[1].substring(0, parts[1].indexOf('#'));
    String methodName = parts[1].substring(parts[1].indexOf('#') + 1);
    List<ClassFacts> classes = new ArrayList<>();
    try (JarFile jar = new JarFile(Path.of(parts[0]).toFile())) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        if (entry.getName().endsWith(".class")) {
          classes.add(
              ClassFileFacts.read(jar.getInputStream(entry).readAllBytes(), entry.getName())
                  .facts());
        }
      }
    }
    Program program = new Program(TypeHierarchy.NONE, ClassFactsSource.NONE).addAll(classes);
    Effects effects = new Effects(program);
    long start = System.nanoTime();
    Reachability reachability = new Reachability(program, effects);
    System.out.printf(
        "reachability of %d classes: %.1f s%n", classes.size(), (System.nanoTime() - start) / 1e9);
    ClassFacts c = program.classFacts(className);
    for (MethodFacts m : c.methods()) {
      if (!m.ref().name().equals(methodName)) {
        continue;
      }
      System.out.println(m.ref() + " " + reachability.originsOf(m.ref()));
      System.out.println("  request path: " + reachability.requestPath(m.ref()));
      if (Boolean.getBoolean("lockjaw.explain.ops")) {
        ModelText.operations(m).forEach(line -> System.out.println("    op " + line));
      }
      for (Program.CallSite site : program.callersOf(m.ref())) {
        System.out.println(
            "  called by "
                + site.caller().ref()
                + " "
                + reachability.originsOf(site.caller().ref()));
      }
      io.github.lockjaw.model.query.QueryContext context =
          new io.github.lockjaw.model.query.QueryContext(program, effects, () -> reachability);
      for (io.github.lockjaw.model.query.ModelQuery query :
          io.github.lockjaw.bytecode.ModelDetectorQueries.all()) {
        for (io.github.lockjaw.model.query.ModelFinding finding : query.findIn(context, m)) {
          System.out.println("  " + query.check() + ": " + finding.message());
          if (finding.effect() != null) {
            for (Effects.Step step : finding.effect().chain()) {
              System.out.println(
                  "    " + step.in() + " line " + step.line() + " calls " + step.call());
            }
          }
        }
      }
    }
  }
}
