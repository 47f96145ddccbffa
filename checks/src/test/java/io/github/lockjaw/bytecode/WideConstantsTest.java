package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.common.Resilience;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Classes whose constant pool holds a {@code long} or {@code double} constant (a {@code
 * serialVersionUID}, a timeout) before the names a detector looks for: a {@code CONSTANT_Long} or
 * {@code CONSTANT_Double} takes two slots, and the second one is unused. The detectors' cheap
 * constant-pool test once read that slot, BCEL threw, SpotBugs logged it at its silent verbosity,
 * and the class was never analysed.
 */
class WideConstantsTest {
  @TempDir Path classes;

  @Test
  void classesWithLongAndDoubleConstantsAreAnalysed() throws Exception {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "shop.wide.TypeCache",
        """
        package shop.wide;
        import java.util.*;
        public class TypeCache implements java.io.Serializable {
          private static final long serialVersionUID = 4242424242424242L;
          private static final Map<Class<?>, String> NAMES = new HashMap<>();
          public static synchronized String nameOf(Class<?> type) {
            String name = NAMES.get(type);                 // line 7
            if (name == null) {
              name = type.getName();
              NAMES.put(type, name);
            }
            return name;
          }
        }
        """);
    sources.put(
        "shop.wide.Sessions",
        """
        package shop.wide;
        import java.util.*;
        public class Sessions {
          private static final double LOAD_FACTOR = 0.93;
          private static final long TIMEOUT_MILLIS = 86_400_000L;
          private final Map<String, Object> sessions = Collections.synchronizedMap(new HashMap<>());
          public double loadFactor() { return LOAD_FACTOR * TIMEOUT_MILLIS; }
          public Object session(String id) {
            Object session = sessions.get(id);             // line 9
            if (session == null) {
              session = new Object();
              sessions.put(id, session);
            }
            return session;
          }
        }
        """);
    sources.put(
        "shop.wide.Waiter",
        """
        package shop.wide;
        public class Waiter {
          private static final long PAUSE = 50L;
          public void awaitEnd(Thread worker) throws InterruptedException {
            while (worker.isAlive()) {                     // line 5
              Thread.sleep(PAUSE);
            }
          }
        }
        """);
    BytecodeFixtures.compile(sources, classes);

    JarAuditor.Result result =
        new JarAuditor().run(List.of(classes), List.of(), JarAuditor.Options.DEFAULT);
    List<AuditFinding> findings = result.findings();

    String found =
        findings.stream()
            .map(f -> f.check() + " " + f.className() + "#" + f.methodName() + ":" + f.line())
            .sorted()
            .collect(Collectors.joining("\n"));
    assertTrue(
        found.contains("ClassMonitorCache shop.wide.TypeCache#nameOf:7"),
        "the serialVersionUID hid the class monitor cache; found:\n" + found);
    assertTrue(
        found.contains("SynchronizedMapCache shop.wide.Sessions#session:9"),
        "the double and long constants hid the synchronized-map cache; found:\n" + found);
    assertTrue(
        found.contains("ThreadAliveBusyWait shop.wide.Waiter#awaitEnd:5"),
        "the long pause hid the busy wait; found:\n" + found);
    assertEquals(List.of(), result.notAnalysed(), "every class was analysed");
    assertEquals(3, result.classesAnalysed());
    assertEquals(List.of(), Resilience.swallowed(), "a detector threw");
  }
}
