package io.github.lockjaw.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassFileFactsTest {
  @TempDir Path out;

  @Test
  void readsRegionsGuardsLoopsAndLambdas() throws Exception {
    Map<String, ClassFacts> classes =
        CompiledFixtures.compileAndRead(
            Map.of(
                "shop.Cache",
                """
                package shop;
                import java.util.*;
                import java.util.function.Function;
                class Cache {
                  private final Map<Class<?>, Object> infos = new HashMap<>();
                  private long hits;
                  static Object lookup(Class<?> type) { return type.getName(); }
                  Object get(Class<?> type) {
                    synchronized (type) {
                      Object info = infos.get(type);
                      if (info == null) {
                        info = lookup(type);
                        infos.put(type, info);
                      } else {
                        hits++;
                      }
                      return info;
                    }
                  }
                  synchronized Object early(Class<?> type) {
                    Object info = infos.get(type);
                    if (info != null) {
                      return info;
                    }
                    Object created = lookup(type);
                    infos.put(type, created);
                    return created;
                  }
                  void poll(Thread t) throws InterruptedException {
                    while (t.isAlive()) {
                      Thread.sleep(10);
                    }
                    try {
                      t.join();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }
                  Object computed(Map<String, Object> m, String k) {
                    return m.computeIfAbsent(k, key -> lookup(key.getClass()));
                  }
                }
                """),
            "21",
            out);
    String text = ModelText.of(classes.get("shop.Cache"));
    assertTrue(
        text.contains(
            "Map.put(this.infos, param0, Cache.lookup(param0)) locked by param0 if Map.get(this.infos, param0)==null"),
        text);
    assertTrue(
        text.contains(
            "Map.put(this.infos, param0, Cache.lookup(param0)) locked by this if Map.get(this.infos, param0)==null"),
        text);
    assertTrue(text.contains("Thread.sleep('10') loop depth 1 if Thread.isAlive(param0)"), text);
    assertTrue(
        text.contains(
            "Thread.interrupt(Thread.currentThread()) if !Thread.isAlive(param0) in catch"),
        text);
    assertTrue(text.contains("Map.computeIfAbsent(param0, param1, λ lambda#0@computed"), text);
  }

  /**
   * Class files before Java 5 write {@code synchronized (Registry.class)} as {@code class$Registry
   * == null ? (class$Registry = class$("shop.Registry")) : class$Registry}. Written out here in
   * source (javac compiles the conditional to the same instructions), the monitor is the class
   * literal, and the helper call is no operation.
   */
  @Test
  void readsThePreJava5ClassLiteralIdiomAsAClassLiteral() throws Exception {
    Map<String, ClassFacts> classes =
        CompiledFixtures.compileAndRead(
            Map.of(
                "shop.Registry",
                """
                package shop;
                import java.util.HashMap;
                import java.util.Map;
                public class Registry {
                  static Class class$shop$Registry;
                  private static final Map<String, Object> HANDLERS = new HashMap<>();
                  static Class class$(String name) {
                    try {
                      return Class.forName(name);
                    } catch (ClassNotFoundException e) {
                      throw new NoClassDefFoundError(e.getMessage());
                    }
                  }
                  public static Object handler(String name) {
                    synchronized (class$shop$Registry == null
                        ? (class$shop$Registry = class$("shop.Registry"))
                        : class$shop$Registry) {
                      Object handler = HANDLERS.get(name);
                      if (handler == null) {
                        handler = new Object();
                        HANDLERS.put(name, handler);
                      }
                      return handler;
                    }
                  }
                }
                """),
            "8",
            out);
    MethodFacts handler =
        classes.get("shop.Registry").methods().stream()
            .filter(m -> m.ref().name().equals("handler"))
            .findFirst()
            .orElseThrow();
    String text = ModelText.operations(handler).toString();
    assertEquals(1, handler.regions().size(), text);
    assertEquals(new Value.ClassLiteral("shop.Registry"), handler.regions().get(0).monitor(), text);
    assertTrue(
        handler.ops().stream().noneMatch(op -> op.isCall() && op.method().name().equals("class$")),
        text);
  }
}
