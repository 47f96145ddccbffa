package io.github.lockjaw.checks.cache;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cache shapes real code uses that the per-engine matchers missed (issue 21), with their
 * look-alikes: one set of sources for the source check ({@link CacheShapesTest}) and the audit
 * ({@code CacheShapesBytecodeTest}), so both engines are held to the same answers. Each positive's
 * first read of the key is marked {@code // read}; the source check reports at the region, or at
 * the method when there is none.
 */
public final class CacheShapes {
  private CacheShapes() {}

  /** Binary class name to source. */
  public static Map<String, String> sources() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "shapes.SplitLock",
        """
        package shapes;
        import java.util.HashMap;
        import java.util.Map;
        public class SplitLock {
          private final Map<String, String> rendered = new HashMap<>();
          public String render(String page) {
            String html;
            synchronized (rendered) {
              html = rendered.get(page);                          // read
            }
            if (html == null) {
              html = "<p>" + page + "</p>";
              // BUG: Diagnostic contains: split across two synchronized blocks on the monitor of 'rendered'
              synchronized (rendered) {
                rendered.put(page, html);
              }
            }
            return html;
          }
          public String renderWithTwoLocks(String page, Object other) {
            String html;
            synchronized (rendered) {
              html = rendered.get(page);
            }
            if (html == null) {
              html = page.trim();
              synchronized (other) {
                rendered.put(page, html);
              }
            }
            return html;
          }
        }
        """);
    sources.put(
        "shapes.IdsOnMiss",
        """
        package shapes;
        import java.util.HashMap;
        import java.util.Map;
        public class IdsOnMiss {
          private final Map<String, Long> nameToId = new HashMap<>();
          private long nextId;
          private long lookups;
          // wicket 1.3 Localizer.ClassMetaDatabase: an id per class name, the counter bumped on a miss
          // BUG: Diagnostic contains: Check-then-act cache on 'nameToId'
          public synchronized long id(String name) {
            Long id = nameToId.get(name);                          // read
            if (id == null) {
              id = nextId;
              nameToId.put(name, id);
              nextId++;
            }
            return id;
          }
          // every call counts under the lock too: the lock keeps a statistic, not only the cache
          public synchronized long countedId(String name) {
            lookups++;
            Long id = nameToId.get(name);
            if (id == null) {
              id = nextId;
              nameToId.put(name, id);
              nextId++;
            }
            return id;
          }
        }
        """);
    sources.put(
        "shapes.ValidatorsFromCachedConfigs",
        """
        package shapes;
        import java.util.ArrayList;
        import java.util.Collections;
        import java.util.HashMap;
        import java.util.List;
        import java.util.Map;
        public class ValidatorsFromCachedConfigs {
          private final Map<String, List<String>> configs = Collections.synchronizedMap(new HashMap<>());
          // xwork 2.0 DefaultActionValidatorManager: the cached configurations, and per call a new
          // list of validators made from them
          // BUG: Diagnostic contains: Check-then-act cache on 'configs'
          public synchronized List<Object> validators(Class<?> type, String context) {
            String key = keyOf(type, context);
            if (!configs.containsKey(key)) {                          // read
              configs.put(key, load(type, context));
            }
            List<String> found = configs.get(key);
            List<Object> validators = new ArrayList<>(found.size());
            for (String config : found) {
              validators.add(create(config));
            }
            return validators;
          }
          // a registration that hands back only the map's size: nothing it found
          public synchronized int register(Class<?> type, String context) {
            String key = keyOf(type, context);
            if (!configs.containsKey(key)) {
              configs.put(key, load(type, context));
            }
            return configs.size();
          }
          private static String keyOf(Class<?> type, String context) {
            return type.getName().concat("|").concat(context);
          }
          private static List<String> load(Class<?> type, String context) {
            return List.of(type.getSimpleName(), context);
          }
          private static Object create(String config) {
            return new StringBuilder(config);
          }
        }
        """);
    sources.put(
        "shapes.FillHelper",
        """
        package shapes;
        import java.lang.reflect.Field;
        import java.util.HashMap;
        import java.util.HashSet;
        import java.util.Map;
        import java.util.Set;
        public class FillHelper {
          private final Map<Class<?>, Map<String, Class<?>>> mappings = new HashMap<>();
          private final Set<Class<?>> noMapping = new HashSet<>();
          // xwork 2.0 XWorkConverter: a miss calls a helper that builds the mapping and puts it;
          // the method hands back what the cached mapping holds for one property
          public Class<?> typeOf(Class<?> type, String property) {
            // BUG: Diagnostic contains: Check-then-act cache on 'mappings'
            synchronized (mappings) {
              Map<String, Class<?>> mapping = mappings.get(type);          // read
              if (mapping == null) {
                mapping = buildMapping(type);
              }
              Class<?> found = mapping.get(property);
              if (found == null && DEBUG) {
                System.out.println(property + " not among " + mapping.size() + ": " + mapping.keySet());
              }
              return found;
            }
          }
          private static final boolean DEBUG = Boolean.getBoolean("fill.debug");
          private Map<String, Class<?>> buildMapping(Class<?> type) {
            Map<String, Class<?>> mapping = new HashMap<>();
            for (Field field : type.getDeclaredFields()) {
              mapping.put(field.getName(), field.getType());
            }
            if (!mapping.isEmpty()) {
              mappings.put(type, mapping);
            } else {
              noMapping.add(type);
            }
            return mapping;
          }
          // the helper puts under another key than the one looked up: no lookup of that key
          public Class<?> typeOfSuper(Class<?> type, String property) {
            synchronized (mappings) {
              Map<String, Class<?>> mapping = mappings.get(type);
              if (mapping == null) {
                mapping = buildMapping(type.getSuperclass());
              }
              return mapping.get(property);
            }
          }
        }
        """);
    sources.put(
        "shapes.ReferenceCountedManagers",
        """
        package shapes;
        import java.util.HashMap;
        import java.util.Map;
        import javax.management.MBeanServerConnection;
        import javax.management.ObjectName;
        public class ReferenceCountedManagers {
          private static final Map<String, Manager> MANAGERS = new HashMap<>();
          private final Map<String, String[]> signatures = new HashMap<>();
          private MBeanServerConnection server;
          private ObjectName name;
          static final class Manager {
            private int references;
            Manager acquire() {
              references++;
              return this;
            }
          }
          // kafka's LoginManager: the lock also counts the references to the manager it hands out
          public static Manager acquire(String key) {
            synchronized (ReferenceCountedManagers.class) {
              Manager manager = MANAGERS.get(key);
              if (manager == null) {
                manager = new Manager();
                MANAGERS.put(key, manager);
              }
              return manager.acquire();
            }
          }
          // Spring's MBeanClientInterceptor: a cached signature handed to a remote call, whose
          // result is not made from the cache
          public Object invoke(String operation, Object[] args) throws Exception {
            String[] signature;
            synchronized (signatures) {
              signature = signatures.get(operation);
              if (signature == null) {
                signature = new String[] {operation};
                signatures.put(operation, signature);
              }
            }
            return server.invoke(name, operation, args, signature);
          }
        }
        """);
    sources.put(
        "shapes.HelperUnderLock",
        """
        package shapes;
        import java.util.HashMap;
        import java.util.Map;
        public class HelperUnderLock {
          private final Map<Long, String> names = new HashMap<>();
          private final Object lock = new Object();
          public String name(long id) {
            // BUG: Diagnostic contains: Check-then-act cache on 'names' under the monitor of 'lock' (through remember())
            synchronized (lock) {
              String name = names.get(id);                          // read
              if (name == null) {
                name = "user-" + id;
                remember(id, name);
              }
              return name;
            }
          }
          private void remember(Long id, String name) {
            names.put(id, name);
          }
          public String overridable(long id) {
            synchronized (lock) {
              String name = names.get(id);
              if (name == null) {
                name = "user-" + id;
                store(id, name);
              }
              return name;
            }
          }
          protected void store(Long id, String name) {
            names.put(id, name);
          }
        }
        """);
    sources.put(
        "shapes.SoftCache",
        """
        package shapes;
        import java.lang.ref.SoftReference;
        import java.util.HashMap;
        import java.util.Map;
        public class SoftCache {
          private final Map<Object, SoftReference<Object>> entries = new HashMap<>();
          public synchronized Object get(Object key) {
            SoftReference<Object> ref = entries.get(key);
            return ref == null ? null : ref.get();
          }
          public synchronized void put(Object key, Object value) {
            entries.put(key, new SoftReference<>(value));
          }
        }
        """);
    sources.put(
        "shapes.TemplateService",
        """
        package shapes;
        public class TemplateService {
          private final SoftCache compiled = new SoftCache();
          private final SoftCache prepared = new SoftCache();
          public Object compile(String name) {
            // BUG: Diagnostic contains: Check-then-act cache on 'compiled', a coarsely locked map, split across get() and put()
            Object template = compiled.get(name);                  // read
            if (template == null) {
              template = name.toUpperCase();
              compiled.put(name, template);
            }
            return template;
          }
          public Object prepareEveryTime(String name) {
            Object template = prepared.get(name);
            prepared.put(name, name.trim());
            return template;
          }
        }
        """);
    sources.put(
        "shapes.LazyMap",
        """
        package shapes;
        import java.util.HashMap;
        import java.util.Map;
        public class LazyMap {
          private Map<String, Integer> widths;
          // BUG: Diagnostic contains: Check-then-act cache on 'widths' under the instance monitor
          public synchronized Integer width(String font) {
            if (widths == null) {
              widths = new HashMap<>();
            }
            Integer width = widths.get(font);                       // read
            if (width == null) {
              width = font.length() * 7;
              widths.put(font, width);
            }
            return width;
          }
        }
        """);
    sources.put(
        "shapes.WeakValues",
        """
        package shapes;
        import java.lang.ref.Reference;
        import java.lang.ref.WeakReference;
        import java.util.Collections;
        import java.util.HashMap;
        import java.util.Map;
        public class WeakValues {
          private final Map<String, Reference<Object>> classes =
              Collections.synchronizedMap(new HashMap<>());
          // BUG: Diagnostic contains: Check-then-act cache on 'classes', a coarsely locked map
          public Object resolve(String name) {
            Reference<Object> ref = classes.get(name);              // read
            Object resolved = ref == null ? null : ref.get();
            if (resolved == null) {
              resolved = name.intern();
              classes.put(name, new WeakReference<>(resolved));
            }
            return resolved;
          }
          public Object register(String name, Object value) {
            Reference<Object> ref = classes.get(name);
            Object previous = ref == null ? null : ref.get();
            classes.put(name, new WeakReference<>(value));
            return previous;
          }
        }
        """);
    sources.put(
        "shapes.FieldValue",
        """
        package shapes;
        import java.util.HashMap;
        import java.util.Map;
        public class FieldValue {
          private final Map<String, StringBuilder> buffers = new HashMap<>();
          private StringBuilder current;
          // BUG: Diagnostic contains: Check-then-act cache on 'buffers' under the instance monitor
          public synchronized StringBuilder select(String name) {
            current = buffers.get(name);                            // read
            if (current == null) {
              current = new StringBuilder(name);
              buffers.put(name, current);
            }
            return current;
          }
        }
        """);
    sources.put(
        "shapes.LocalAlias",
        """
        package shapes;
        import java.util.Hashtable;
        import java.util.Map;
        public class LocalAlias {
          private final Map<String, String> labels = new Hashtable<>();
          // BUG: Diagnostic contains: Check-then-act cache on 'labels', a coarsely locked map
          public String label(String key) {
            Map<String, String> cache = labels;
            String label = cache.get(key);                          // read
            if (label == null) {
              label = key.replace('.', ' ');
              cache.put(key, label);
            }
            return label;
          }
        }
        """);
    sources.put(
        "shapes.UserDirectory",
        """
        package shapes;
        import java.util.Collections;
        import java.util.HashMap;
        import java.util.Map;
        public class UserDirectory {
          public static final class User {
            private final String name;
            User(String name) { this.name = name; }
            public String getName() { return name; }
            public String getManager() { return "boss"; }
          }
          private final Map<String, User> users = Collections.synchronizedMap(new HashMap<>());
          // BUG: Diagnostic contains: Check-then-act cache on 'users', a coarsely locked map
          public User user(String name) {
            User user = users.get(name);                            // read
            if (user == null) {
              user = new User(name.toLowerCase());
              users.put(user.getName(), user);
            }
            return user;
          }
          public User renamed(String name, User template) {
            User user = users.get(name);
            if (user == null) {
              user = new User(name);
              users.put(template.getName(), user);
            }
            return user;
          }
        }
        """);
    sources.put(
        "shapes.Dispatcher",
        """
        package shapes;
        import java.util.Hashtable;
        public class Dispatcher {
          private final Hashtable<String, Object> handlers = new Hashtable<>();
          // BUG: Diagnostic contains: Check-then-act cache on 'handlers', a coarsely locked map
          public Object handler(int kind, String path) {
            switch (kind) {
              case 1:
                Object handler = handlers.get(path);                // read
                if (handler == null) {
                  handler = new Object();
                  handlers.put(path, handler);
                }
                return handler;
              default:
                return null;
            }
          }
        }
        """);
    sources.put(
        "shapes.PacketParser",
        """
        package shapes;
        import java.util.Hashtable;
        public class PacketParser {
          public String parse(String packet) {
            Packet parsed = new Packet();
            return parsed.attribute(packet) + parsed.attribute("id");
          }
          public static class Packet {
            private final Hashtable<String, String> attributes = new Hashtable<>();
            public String attribute(String name) {
              String value = attributes.get(name);
              if (value == null) {
                value = name.trim();
                attributes.put(name, value);
              }
              return value;
            }
          }
        }
        """);
    sources.put(
        "shapes.SharedPackets",
        """
        package shapes;
        import java.util.Hashtable;
        public class SharedPackets {
          private static final Packet LAST = new Packet();
          public String parse(String packet) {
            return LAST.attribute(packet);
          }
          public static class Packet {
            private final Hashtable<String, String> attributes = new Hashtable<>();
            // BUG: Diagnostic contains: Check-then-act cache on 'attributes', a coarsely locked map
            public String attribute(String name) {
              String value = attributes.get(name);                  // read
              if (value == null) {
                value = name.trim();
                attributes.put(name, value);
              }
              return value;
            }
          }
        }
        """);
    return sources;
  }
}
