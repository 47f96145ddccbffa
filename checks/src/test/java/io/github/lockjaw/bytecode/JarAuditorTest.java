package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@link JarAuditor} reads jars as they are deployed: every class accounted for, shaded copies
 * of one class in two jars kept apart, the versioned classes of a multi-release jar, and the
 * per-jar cache.
 */
class JarAuditorTest {
  @TempDir Path dir;

  private static final String CACHE_V1 =
      """
      package shaded.cache;
      import java.util.*;
      public class TypeCache {
        private static final Map<Class<?>, String> NAMES = new HashMap<>();
        public static synchronized String nameOf(Class<?> type) {
          String name = NAMES.get(type);                 // line 6
          if (name == null) {
            name = type.getName();
            NAMES.put(type, name);
          }
          return name;
        }
      }
      """;

  private static final String CACHE_FIXED =
      """
      package shaded.cache;
      import java.util.*;
      import java.util.concurrent.*;
      public class TypeCache {
        private static final ConcurrentMap<Class<?>, String> NAMES = new ConcurrentHashMap<>();
        public static String nameOf(Class<?> type) {
          return NAMES.computeIfAbsent(type, Class::getName);
        }
      }
      """;

  private static final String WAITER =
      """
      package shaded.cache;
      public class Waiter {
        public void awaitEnd(Thread worker) throws InterruptedException {
          while (worker.isAlive()) {                     // line 4
            Thread.sleep(10);
          }
        }
      }
      """;

  @Test
  void sameNamedShadedClassesInTwoJarsAreBothAnalysed() throws Exception {
    Path first = jar("first-1.0.jar", compile("a", Map.of("shaded.cache.TypeCache", CACHE_V1)));
    Path second = jar("second-2.0.jar", compile("b", Map.of("shaded.cache.TypeCache", CACHE_V1)));

    JarAuditor.Result result =
        new JarAuditor().run(List.of(first, second), List.of(), JarAuditor.Options.DEFAULT);

    List<String> where =
        result.findings().stream()
            .map(f -> f.jar().getFileName() + " " + f.className() + "#" + f.methodName())
            .sorted()
            .toList();
    assertEquals(
        List.of(
            "first-1.0.jar shaded.cache.TypeCache#nameOf",
            "second-2.0.jar shaded.cache.TypeCache#nameOf"),
        where);
    assertEquals("first 1.0", result.findings().get(0).library());
    assertEquals(2, result.classesInJars());
    assertEquals(2, result.classesAnalysed());
  }

  @Test
  void theVersionedClassOfAMultiReleaseJarIsAnalysed() throws Exception {
    // base: fixed; versions/11: the cache under a class lock; versions/17: a busy wait
    Path base = compile("base", Map.of("shaded.cache.TypeCache", CACHE_FIXED));
    Path v11 = compile("v11", Map.of("shaded.cache.TypeCache", CACHE_V1));
    Path v17 = compile("v17", Map.of("shaded.cache.Waiter", WAITER));
    Path jar = dir.resolve("mr-1.0.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      add(out, "", base);
      add(out, "META-INF/versions/11/", v11);
      add(out, "META-INF/versions/17/", v17);
    }

    JarAuditor.Result newest =
        new JarAuditor().run(List.of(jar), List.of(), JarAuditor.Options.DEFAULT);
    assertEquals(
        List.of(
            "ClassMonitorCache shaded.cache.TypeCache", "ThreadAliveBusyWait shaded.cache.Waiter"),
        checks(newest),
        "the newest release present (17) loads the versions/11 TypeCache and the versions/17 Waiter");
    assertEquals(2, newest.classesInJars());
    assertEquals(2, newest.classesAnalysed());

    JarAuditor.Result release8 =
        new JarAuditor().run(List.of(jar), List.of(), JarAuditor.Options.DEFAULT.withRelease(8));
    assertEquals(List.of(), checks(release8), "Java 8 loads the fixed base class only");
    assertEquals(1, release8.classesInJars());

    JarAuditor.Result release11 =
        new JarAuditor().run(List.of(jar), List.of(), JarAuditor.Options.DEFAULT.withRelease(11));
    assertEquals(List.of("ClassMonitorCache shaded.cache.TypeCache"), checks(release11));
  }

  @Test
  void aClassFileThatCannotBeReadIsNamed() throws Exception {
    Path classes = compile("broken", Map.of("shaded.cache.TypeCache", CACHE_V1));
    Path bad = classes.resolve("shaded/cache/Truncated.class");
    byte[] good = Files.readAllBytes(classes.resolve("shaded/cache/TypeCache.class"));
    Files.write(bad, java.util.Arrays.copyOf(good, 40));

    JarAuditor.Result result =
        new JarAuditor().run(List.of(classes), List.of(), JarAuditor.Options.DEFAULT);

    assertEquals(2, result.classesInJars());
    assertEquals(1, result.classesAnalysed());
    assertEquals(1, result.notAnalysed().size(), String.valueOf(result.notAnalysed()));
    assertEquals("shaded.cache.Truncated", result.notAnalysed().get(0).className());
    assertTrue(
        result
            .notAnalysedSummary(5)
            .orElseThrow()
            .startsWith("1 class of 2 could not be analysed: shaded.cache.Truncated ("),
        result.notAnalysedSummary(5).orElseThrow());
    assertEquals(1, result.findings().size(), "the readable class is still analysed");
  }

  @Test
  void aSecondAuditOfUnchangedJarsReadsTheCache() throws Exception {
    Path first = jar("first-1.0.jar", compile("a", Map.of("shaded.cache.TypeCache", CACHE_V1)));
    Path waiter = jar("waiter-1.0.jar", compile("w", Map.of("shaded.cache.Waiter", WAITER)));
    Path cache = dir.resolve("cache");
    JarAuditor.Options options = JarAuditor.Options.DEFAULT.withCache(cache);

    JarAuditor.Result cold = new JarAuditor().run(List.of(first, waiter), List.of(), options);
    JarAuditor.Result warm = new JarAuditor().run(List.of(first, waiter), List.of(), options);

    assertEquals(0, cold.jarsFromCache());
    assertEquals(2, warm.jarsFromCache());
    assertEquals(describe(cold), describe(warm));
    assertEquals(cold.classesAnalysed(), warm.classesAnalysed());

    // a changed jar is analysed again, and so are the jars around it (their context changed)
    Path changed =
        jar("first-1.0.jar", compile("c", Map.of("shaded.cache.TypeCache", CACHE_FIXED)));
    JarAuditor.Result after = new JarAuditor().run(List.of(changed, waiter), List.of(), options);
    assertEquals(0, after.jarsFromCache());
    assertEquals(List.of("ThreadAliveBusyWait shaded.cache.Waiter"), checks(after));
  }

  private static List<String> checks(JarAuditor.Result result) {
    return result.findings().stream().map(f -> f.check() + " " + f.className()).sorted().toList();
  }

  private static String describe(JarAuditor.Result result) {
    return result.findings().stream()
        .map(
            f ->
                f.check()
                    + " "
                    + f.className()
                    + "#"
                    + f.methodName()
                    + ":"
                    + f.line()
                    + " "
                    + f.advice())
        .collect(Collectors.joining("\n"));
  }

  private Path compile(String name, Map<String, String> sources) throws IOException {
    Path out = dir.resolve("classes-" + name);
    BytecodeFixtures.compile(sources, out);
    return out;
  }

  private Path jar(String name, Path classes) throws IOException {
    Path jar = dir.resolve(name);
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      add(out, "", classes);
    }
    return jar;
  }

  private static void add(JarOutputStream out, String prefix, Path classes) throws IOException {
    try (Stream<Path> walk = Files.walk(classes)) {
      for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(
            new ZipEntry(prefix + classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
  }

  @Test
  void aLargeJarAuditedInBatchesFindsWhatItFindsWhole() throws Exception {
    Map<String, String> sources = new java.util.LinkedHashMap<>();
    sources.put("shaded.cache.TypeCache", CACHE_V1);
    sources.put("shaded.cache.Waiter", WAITER);
    sources.put(
        "shaded.cache.Outer",
        """
        package shaded.cache;
        public class Outer {
          static class Inner { Runnable r = () -> {}; }
        }
        """);
    Path big = jar("big-1.0.jar", compile("big", sources));
    JarAuditor.Result whole =
        new JarAuditor().run(List.of(big), List.of(), JarAuditor.Options.DEFAULT);
    int before = JarBatches.batchClasses;
    JarAuditor.Result batched;
    try {
      JarBatches.batchClasses = 1;
      assertEquals(3, JarBatches.plan(big).size(), "Outer and Outer$Inner stay in one batch");
      batched = new JarAuditor().run(List.of(big), List.of(), JarAuditor.Options.DEFAULT);
    } finally {
      JarBatches.batchClasses = before;
    }
    assertEquals(describe(whole), describe(batched));
    assertEquals(4, batched.classesInJars());
    assertEquals(4, batched.classesAnalysed());
    assertEquals("big 1.0", batched.findings().get(0).library());
  }
}
