package io.github.lockjaw.cli.load;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A metadata cache in the style of iBATIS 2's {@code ClassInfo}: a static map read and filled under
 * the class monitor, so every lookup, hit or miss, queues on {@code ReflectionCache.class}.
 */
final class ReflectionCache {
  private static final Map<String, List<String>> CACHE = new HashMap<>();

  private ReflectionCache() {}

  static synchronized List<String> describe(String key) {
    List<String> properties = CACHE.get(key);
    if (properties == null) {
      properties = introspect(key);
      CACHE.put(key, properties);
    }
    return properties;
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
