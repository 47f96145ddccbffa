package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.lockjaw.common.Resilience;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SynchronizedMapCache in bytecode, precision: the map of an object created per call and never
 * handed out has a monitor per call (a first pass, {@link PerCallObjectsDetector}, tells); the same
 * class stored in a field, handed out by a factory, or registering itself is shared.
 */
class PerCallObjectsTest {
  @TempDir Path dir;

  @Test
  void mapsOfPerCallObjectsAreSilentAndPublishedOnesAreReported() throws Exception {
    String expansion =
        """
          private static final class Expansion {
            private final java.util.Map<String, String> resolved = new java.util.Hashtable<>();
            Expansion() {}
            %s
            String expand(String name) {
              synchronized (resolved) {
                String value = resolved.get(name);
                if (value == null) {
                  value = name.trim();
                  resolved.put(name, value);
                }
                return value;
              }
            }
          }
        """;
    BytecodeFixtures.compile(
        Map.of(
            "tpl.PerCall",
            """
            package tpl;
            public class PerCall {
              public String render(String template) {
                Expansion expansion = new Expansion();
                return expansion.expand(template) + new Expansion().expand("${footer}");
              }
            """
                + expansion.formatted("")
                + "}\n",
            "tpl.StoredInAField",
            """
            package tpl;
            public class StoredInAField {
              private Expansion last;
              public String render(String template) {
                Expansion expansion = new Expansion();
                last = expansion;
                return expansion.expand(template);
              }
            """
                + expansion.formatted("")
                + "}\n",
            "tpl.RegistersItself",
            """
            package tpl;
            public class RegistersItself {
              public String render(String template, java.util.List<Object> live) {
                return new Expansion(live).expand(template);
              }
            """
                + expansion.formatted("Expansion(java.util.List<Object> live) { live.add(this); }")
                + "}\n"),
        dir);

    List<AuditFinding> findings = new JarAuditor().audit(List.of(dir), List.of());

    assertEquals(List.of(), Resilience.swallowed(), "a detector threw");
    String summary =
        findings.stream()
            .map(f -> f.check() + " " + f.className() + "#" + f.methodName())
            .sorted()
            .collect(Collectors.joining(", "));
    assertEquals(
        "SynchronizedMapCache tpl.RegistersItself$Expansion#expand,"
            + " SynchronizedMapCache tpl.StoredInAField$Expansion#expand",
        summary);
  }
}
