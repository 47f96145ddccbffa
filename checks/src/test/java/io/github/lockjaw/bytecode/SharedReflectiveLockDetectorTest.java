package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.common.Resilience;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClassMonitorCache's shared-reflective-lock shape in bytecode: a monitor on a cached Method, Field
 * or Constructor held around the reflective call (OGNL 2.7's invokeMethod), with the twins the
 * source check leaves alone too.
 */
class SharedReflectiveLockDetectorTest {
  @TempDir Path dir;

  @Test
  void monitorsOnSharedReflectiveObjectsAroundReflectiveCalls() throws Exception {
    BytecodeFixtures.compile(
        Map.of(
            "el.Runtime",
            """
            package el;
            import java.lang.reflect.*;
            public class Runtime {
              public static Object invokeMethod(Object target, Method method, Object[] args)
                  throws Exception {
                Object result;
                synchronized (method) {
                  if (!Modifier.isPublic(method.getModifiers())) {
                    method.setAccessible(true);
                  }
                  result = method.invoke(target, args);                  // line 11
                }
                return result;
              }
            }
            """,
            "el.PropertyAccess",
            """
            package el;
            import java.lang.reflect.*;
            public class PropertyAccess {
              private final Field field;
              PropertyAccess(Field field) { this.field = field; }
              public Object read(Object bean) throws IllegalAccessException {
                synchronized (field) {
                  field.setAccessible(true);
                  return field.get(bean);                               // line 9
                }
              }
            }
            """,
            "el.Sandboxed",
            """
            package el;
            import java.lang.reflect.*;
            public class Sandboxed {
              public static Object invokeMethod(Object target, Method method, Object[] args)
                  throws Exception {
                synchronized (method) {
                  method.setAccessible(true);
                  return invokeInsideSandbox(target, method, args);       // line 8
                }
              }
              private static Object invokeInsideSandbox(Object target, Method method, Object[] args)
                  throws Exception {
                return method.invoke(target, args);
              }
              public Object described(Method method) {
                synchronized (method) {
                  return describe(method);
                }
              }
              private static String describe(Method method) { return method.getName(); }
            }
            """,
            "el.Quiet",
            """
            package el;
            import java.lang.reflect.*;
            public class Quiet {
              private final Method init;
              Quiet(Method init, Object target) throws Exception {
                this.init = init;
                synchronized (init) { init.invoke(target); }
              }
              public Object call(Object target, String name) throws Exception {
                Method fresh = target.getClass().getMethod(name);
                synchronized (fresh) { return fresh.invoke(target); }
              }
              public boolean isPublic(Method method) {
                synchronized (method) { return Modifier.isPublic(method.getModifiers()); }
              }
              public Object callOutside(Object target, Method method) throws Exception {
                synchronized (method) { method.setAccessible(true); }
                return method.invoke(target);
              }
              public void start(Object target) throws Exception {
                synchronized (init) { init.invoke(target); }
              }
              public Runnable later(Object target, Method method) {
                synchronized (method) {
                  return () -> {
                    try { method.invoke(target); } catch (ReflectiveOperationException e) {
                      throw new IllegalStateException(e);
                    }
                  };
                }
              }
            }
            """),
        dir);

    List<AuditFinding> findings = new JarAuditor().audit(List.of(dir), List.of());

    assertEquals(List.of(), Resilience.swallowed(), "a detector threw");
    String summary =
        findings.stream()
            .map(f -> f.check() + " " + f.className() + "#" + f.methodName() + ":" + f.line())
            .sorted()
            .collect(Collectors.joining(", "));
    assertEquals(
        "ClassMonitorCache el.PropertyAccess#read:9, ClassMonitorCache el.Runtime#invokeMethod:11,"
            + " ClassMonitorCache el.Sandboxed#invokeMethod:8",
        summary);
    String message =
        findings.stream()
            .filter(f -> f.className().equals("el.Runtime"))
            .findFirst()
            .orElseThrow()
            .message();
    assertTrue(
        message.startsWith(
            "Holds the monitor of the Method 'method' while it calls through it"
                + " (Method.invoke())"),
        message);
  }

  @Test
  void cacheLookupsUnderASharedMethodsMonitorUnlessDoubleChecked() throws Exception {
    // OGNL 3.4's invokeMethod (orphan-oss/ognl#522: 980 threads BLOCKED on a Method) and its fix
    BytecodeFixtures.compile(
        Map.of(
            "el.Access",
            """
            package el;
            import java.lang.reflect.*;
            import java.util.Map;
            import java.util.concurrent.ConcurrentHashMap;
            public class Access {
              static final Map<Method, Boolean> ACCESS = new ConcurrentHashMap<>();
              public static boolean needsSync(Method method) {
                Boolean access;
                synchronized (method) {
                  access = ACCESS.get(method);                            // line 10
                  if (access == null) {
                    access = !Modifier.isPublic(method.getModifiers());
                    ACCESS.put(method, access);
                  }
                }
                return access;
              }
            }
            """,
            "el.DoubleChecked",
            """
            package el;
            import java.lang.reflect.*;
            import java.util.Map;
            import java.util.concurrent.ConcurrentHashMap;
            public class DoubleChecked {
              static final Map<Method, Boolean> ACCESS = new ConcurrentHashMap<>();
              public static boolean needsSync(Method method) {
                Boolean access = ACCESS.get(method);
                if (access == null) {
                  synchronized (method) {
                    access = ACCESS.get(method);
                    if (access == null) {
                      access = !Modifier.isPublic(method.getModifiers());
                      ACCESS.put(method, access);
                    }
                  }
                }
                return access;
              }
            }
            """),
        dir);

    List<AuditFinding> findings = new JarAuditor().audit(List.of(dir), List.of());

    assertEquals(List.of(), Resilience.swallowed(), "a detector threw");
    String summary =
        findings.stream()
            .map(f -> f.check() + " " + f.className() + "#" + f.methodName() + ":" + f.line())
            .sorted()
            .collect(Collectors.joining(", "));
    assertEquals("ClassMonitorCache el.Access#needsSync:10", summary);
    assertTrue(
        findings.get(0).message().contains("the monitor of the shared Method 'method'"),
        findings.get(0).message());
  }
}
