package io.github.lockjaw.cli.load;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The metadata cache after lockjaw's ClassMonitorCache fix: a ConcurrentHashMap filled with
 * computeIfAbsent, no class monitor. CliIT compiles this file over the cache of the load program
 * for the "after" run.
 */
final class ReflectionCache {
  private static final Map<String, List<String>> CACHE = new ConcurrentHashMap<>();

  private ReflectionCache() {}

  static List<String> describe(String key) {
    return CACHE.computeIfAbsent(key, ReflectionCache::introspect);
  }

  /** The readable properties of a JDK class chosen by the key: real reflection work. */
  private static List<String> introspect(String key) {
    Class<?>[] types = {
      String.class, ArrayList.class, HashMap.class, Thread.class, StringBuilder.class
    };
    Class<?> type = types[Math.floorMod(key.hashCode(), types.length)];
    List<String> names = new ArrayList<>();
    for (int round = 0; round < 20; round++) {
      for (Method method : type.getMethods()) {
        if (method.getName().startsWith("get") && method.getParameterCount() == 0) {
          names.add(key + "." + method.getName().substring(3));
        }
      }
    }
    return names;
  }
}
