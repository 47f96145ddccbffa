package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.lockjaw.common.Resilience;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MapCacheDetector on the shapes the recall hunt (issue 12) found it missing: maps assigned in a
 * private {@code init()} (XStream 1.3.1 FieldDictionary), keys computed by an accessor call ({@code
 * type.getName()}, XStream 1.4.20 SerializationMembers) and a map-like type that is not a
 * java.util.Map (OGNL 2.6.9's ClassCache), each with the twins that must stay silent.
 */
class MapCacheDetectorRecallTest {
  @TempDir static Path classes;

  private static List<AuditFinding> findings;

  @BeforeAll
  static void auditFixtures() throws Exception {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "xs.FieldDictionary",
        """
        package xs;
        import java.lang.reflect.Field;
        import java.util.*;
        public class FieldDictionary {
          private transient Map keyedByFieldName;
          public FieldDictionary() { init(); }
          private void init() { keyedByFieldName = new WeakHashMap(); }
          public Field field(Class type, String name) {
            return (Field) buildMap(type).get(name);
          }
          private Map buildMap(Class type) {
            synchronized (this) {
              Map fields = (Map) keyedByFieldName.get(type);                  // line 13
              if (fields == null) {
                fields = new HashMap();
                for (Field field : type.getDeclaredFields()) {
                  fields.put(field.getName(), field);
                }
                keyedByFieldName.put(type, fields);
              }
              return fields;
            }
          }
          protected Object readResolve() { init(); return this; }
        }
        """);
    sources.put(
        "xs.SettableDictionary",
        """
        package xs;
        import java.lang.reflect.Field;
        import java.util.*;
        public class SettableDictionary {
          private Map byType = new HashMap();
          public void setCache(Map cache) { byType = cache; }
          public synchronized Field[] fields(Class type) {
            Field[] fields = (Field[]) byType.get(type);
            if (fields == null) {
              fields = type.getDeclaredFields();
              byType.put(type, fields);
            }
            return fields;
          }
        }
        """);
    sources.put(
        "xs.SerializationMembers",
        """
        package xs;
        import java.util.*;
        public class SerializationMembers {
          private final Map fieldCache = Collections.synchronizedMap(new HashMap());
          private final Map nameCache = Collections.synchronizedMap(new HashMap());
          public Map persistentFields(Class type) {
            if (type == null) {
              return null;
            }
            Map result = (Map) fieldCache.get(type.getName());                // line 10
            if (result == null) {
              result = new HashMap();
              fieldCache.put(type.getName(), result);
            }
            return result;
          }
          public String nextName(Iterator<Class> types) {
            String name = (String) nameCache.get(types.next());
            if (name == null) {
              name = "n";
              nameCache.put(types.next(), name);
            }
            return name;
          }
          public String otherName(Class a, Class b) {
            String name = (String) nameCache.get(a.getName());
            if (name == null) {
              name = b.getSimpleName();
              nameCache.put(b.getName(), name);
            }
            return name;
          }
        }
        """);
    sources.put(
        "ognl.OgnlRuntime",
        """
        package ognl;
        import java.lang.reflect.Field;
        import java.util.*;
        public class OgnlRuntime {
          private static class ClassCache {
            private final Object[] table = new Object[512];
            public final Object get(Class key) { return table[key.hashCode() & 511]; }
            public final Object put(Class key, Object value) {
              Object old = table[key.hashCode() & 511];
              table[key.hashCode() & 511] = value;
              return old;
            }
          }
          private static ClassCache constructorCache = new ClassCache();
          private static ClassCache fieldCache = new ClassCache();
          private static final Object LOCK = new Object();
          public static List getConstructors(Class targetClass) {
            List result;
            synchronized (constructorCache) {
              if ((result = (List) constructorCache.get(targetClass)) == null) {   // line 20
                constructorCache.put(targetClass, result = Arrays.asList(targetClass.getConstructors()));
              }
            }
            return result;
          }
          public static Map getFields(Class targetClass) {
            Map result;
            synchronized (fieldCache) {
              if ((result = (Map) fieldCache.get(targetClass)) == null) {        // line 29
                result = new HashMap(23);
                for (Field field : targetClass.getDeclaredFields()) {
                  result.put(field.getName(), field);
                }
                fieldCache.put(targetClass, result);
              }
            }
            return result;
          }
          public static List unlocked(Class targetClass) {
            List result = (List) constructorCache.get(targetClass);
            if (result == null) {
              result = Arrays.asList(targetClass.getConstructors());
              constructorCache.put(targetClass, result);
            }
            return result;
          }
          public static List otherLock(Class targetClass) {
            synchronized (LOCK) {
              List result = (List) constructorCache.get(targetClass);
              if (result == null) {
                result = Arrays.asList(targetClass.getConstructors());
                constructorCache.put(targetClass, result);
              }
              return result;
            }
          }
        }
        """);
    sources.put(
        "shop.TypeTable",
        """
        package shop;
        public class TypeTable {
          static class ClassCache {
            private final Object[] table = new Object[64];
            Object get(Class key) { return table[key.hashCode() & 63]; }
            Object put(Class key, Object value) { return table[key.hashCode() & 63] = value; }
          }
          private static final ClassCache NAMES = new ClassCache();
          public static String nameOf(Class type) {
            synchronized (NAMES) {
              String name = (String) NAMES.get(type);
              if (name == null) {
                name = type.getSimpleName();
                NAMES.put(type, name);
              }
              return name;
            }
          }
        }
        """);
    Path out = classes.resolve("fixtures");
    BytecodeFixtures.compile(sources, out);
    findings = new JarAuditor().audit(List.of(out), List.of());
  }

  private static String summary(String className) {
    return findings.stream()
        .filter(f -> f.className().equals(className))
        .map(f -> f.check() + " " + f.methodName() + ":" + f.line())
        .sorted()
        .collect(Collectors.joining(", "));
  }

  @Test
  void mapsAssignedInAPrivateInitAreKnown() {
    // XStream 1.3.1: the WeakHashMap is assigned in init(), which the constructor calls
    assertEquals("SynchronizedMapCache buildMap:13", summary("xs.FieldDictionary"));
  }

  @Test
  void aSetterThatAssignsAnyMapMakesTheMapUnknown() {
    // the HashMap of the initialiser may be replaced by a concurrent map: no evidence
    assertEquals("", summary("xs.SettableDictionary"));
  }

  @Test
  void aKeyComputedByTheSameAccessorOnTheSameLocalIsOneKey() {
    // persistentFields: get(type.getName()) and put(type.getName(), ...) on a synchronizedMap;
    // nextName asks the iterator twice (two keys), otherName reads another object's name
    assertEquals("SynchronizedMapCache persistentFields:10", summary("xs.SerializationMembers"));
  }

  @Test
  void ognlsClassCacheIsAMapLikeType() {
    // under the cache's own monitor: flagged; unlocked or under another lock, lockjaw cannot see
    // how ClassCache locks: silent
    assertEquals(
        "SynchronizedMapCache getConstructors:20, SynchronizedMapCache getFields:29",
        summary("ognl.OgnlRuntime"));
  }

  @Test
  void aHashTableThatMapsTxtDoesNotNameIsNotAMap() {
    assertEquals("", summary("shop.TypeTable"));
  }

  @AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(
        List.of(), Resilience.swallowed(), "a detector threw; SpotBugs logged it and went on");
  }
}
