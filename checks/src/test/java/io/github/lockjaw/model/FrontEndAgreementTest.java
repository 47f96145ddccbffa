package io.github.lockjaw.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two front-ends read the same code the same way: for realistic fixtures, every method's
 * operations, as {@link ModelText#operations} writes them (with their locks, loops, guards and
 * catch clauses), are equal whether read from javac's trees or from the class file.
 */
class FrontEndAgreementTest {
  @TempDir Path out;

  static final String SHOP =
      """
      package shop;
      import java.util.*;
      import java.util.concurrent.*;
      import java.sql.*;
      import javax.sql.DataSource;
      public class Shop {
        private static final Map<Class<?>, Object> CLASS_INFO = new HashMap<>();
        private static final long TIMEOUT = 30_000L;
        private final Map<String, Object> cache = Collections.synchronizedMap(new HashMap<>());
        private final Object lock = new Object();
        private final DataSource dataSource;
        private long requests;
        private int hits;
        private volatile List<String> names = List.of();
        private Thread worker;

        public Shop(DataSource dataSource) {
          this.dataSource = dataSource;
        }

        public static Object classInfo(Class<?> type) {
          synchronized (type) {
            Object info = CLASS_INFO.get(type);
            if (info == null) {
              info = type.getName();
              CLASS_INFO.put(type, info);
            }
            return info;
          }
        }

        public static synchronized Object staticLookup(Class<?> type) {
          if (!CLASS_INFO.containsKey(type)) {
            CLASS_INFO.put(type, type.getSimpleName());
          }
          return CLASS_INFO.get(type);
        }

        public Object cached(String key) {
          Object value = cache.get(key);
          if (value != null) {
            return value;
          }
          value = load(key);
          cache.put(key, value);
          return value;
        }

        private Object load(String key) {
          return key.toUpperCase(Locale.ROOT);
        }

        public synchronized String find(String id) throws SQLException {
          try (Connection c = dataSource.getConnection();
              PreparedStatement s = c.prepareStatement("select name from item where id = ?")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
              return r.next() ? r.getString(1) : null;
            }
          }
        }

        public void count(long nanos) {
          synchronized (lock) {
            requests++;
            hits += 2;
            if (nanos > TIMEOUT && worker != null) {
              worker.interrupt();
            }
          }
        }

        public List<String> names() {
          synchronized (this) {
            return new ArrayList<>(names);
          }
        }

        public void awaitWorker() throws InterruptedException {
          while (worker.isAlive()) {
            Thread.sleep(50);
          }
          for (String name : names) {
            if (name.isEmpty()) {
              break;
            }
            System.out.println(name);
          }
          int i = 0;
          do {
            i++;
          } while (i < 3 && !Thread.interrupted());
        }

        public Object fill(Map<String, List<String>> index, String key) {
          return index.computeIfAbsent(key, k -> new ArrayList<>(List.of(k, String.valueOf(load(k)))));
        }

        public Runnable task(String key) {
          return () -> {
            synchronized (cache) {
              cache.remove(key);
            }
          };
        }

        public String describe(Object o) {
          if (o instanceof String s && !s.isEmpty()) {
            return s.trim();
          }
          String kind = o == null ? "none" : o.getClass().getSimpleName();
          return kind + ":" + hits;
        }

        public int weekday(java.time.DayOfWeek day) {
          switch (day) {
            case MONDAY:
              return 1;
            default:
              return names.size();
          }
        }

        public void failSafe(Future<?> future) {
          try {
            future.get(1, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (ExecutionException | TimeoutException e) {
            future.cancel(true);
          } finally {
            requests = 0;
          }
        }

        class Inner {
          Object peek(String key) {
            synchronized (lock) {
              return cache.get(key);
            }
          }
        }

        Object viaInner(String key) {
          return new Inner().peek(key);
        }

        Runnable anonymous() {
          return new Runnable() {
            @Override
            public void run() {
              requests++;
            }
          };
        }
      }
      """;

  @Test
  void frontEndsAgreeOnRealisticCode() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Shop", SHOP), "21", out);
    List<String> differences = compare(read);
    assertTrue(differences.isEmpty(), String.join("\n", differences));
    assertEquals(nonSynthetic(read.fromBytecode()), read.fromSource().keySet());
  }

  static final String HANDLERS =
      """
      package shop;
      import java.util.*;
      import java.util.concurrent.Callable;
      public class Handlers {
        public abstract static class EventHandler<E> {
          public synchronized void handle(E event) throws Exception { doHandle(event); }
          protected abstract void doHandle(E event) throws Exception;
        }
        public static class OrderHandler extends EventHandler<String> {
          int count;
          @Override protected void doHandle(String orderId) { count += orderId.length(); }
        }
        public static class UnlockedHandler extends EventHandler<String> {
          @Override public void handle(String event) throws Exception { doHandle(event); }
          @Override protected void doHandle(String orderId) {}
        }
        public static class ByLength implements Comparator<String>, Callable<Integer> {
          @Override public int compare(String a, String b) { return a.length() - b.length(); }
          @Override public Integer call() { return 1; }
        }
        public static class Copy implements Cloneable {
          @Override public Copy clone() { return new Copy(); }
        }
        public static Callable<String> anonymous() {
          return new Callable<String>() {
            @Override public String call() { return "x"; }
          };
        }
      }
      """;

  /** Loops as busy-waits and their look-alikes write them: exits, tested locals, varying calls. */
  static final String POLLS =
      """
      package shop;
      import java.util.*;
      import java.util.concurrent.*;
      public class Polls {
        private volatile boolean stop;
        private final Thread[] pool = new Thread[4];
        public void header(Thread t, long deadline) throws InterruptedException {
          while (t.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
          }
          while (t.isAlive() || !stop) {
            Thread.onSpinWait();
          }
        }
        public String breaks(Future<String> f, Thread t) throws Exception {
          while (true) {
            if (!t.isAlive()) {
              break;
            }
            Thread.yield();
          }
          for (;;) {
            if (f.isDone()) {
              return f.get();
            }
            try {
              Thread.sleep(5);
            } catch (InterruptedException e) {
              break;
            }
          }
          return null;
        }
        public void counts(CountDownLatch latch, List<Thread> agents) throws InterruptedException {
          while (latch.getCount() > 0) {
            Thread.sleep(1);
          }
          while (0 != latch.getCount()) {
            Thread.sleep(1);
          }
          int running;
          do {
            running = 0;
            for (Thread agent : agents) {
              if (agent.isAlive()) running++;
            }
          } while (running >= 1);
        }
        public void flags(Thread worker, Future<?> result) throws InterruptedException {
          boolean alive = worker.isAlive();
          while (alive) {
            Thread.sleep(10);
            alive = worker.isAlive();
          }
          boolean done = false;
          while (!done) {
            done = result.isDone();
            if (stop) {
              done = true;
            }
          }
          boolean running;
          do {
            running = worker.isAlive();
          } while (running);
        }
        public int varying(Thread t, List<Thread> rest) {
          int i = 0;
          while (pool[i].isAlive()) {
            i = (i + 1) % pool.length;
          }
          while (t.isAlive()) {
            t = rest.get(i++);
          }
          outer:
          for (Thread each : rest) {
            while (each.isAlive()) {
              if (stop) {
                continue outer;
              }
              Thread.onSpinWait();
            }
          }
          return i;
        }
        public Runnable captured(Thread target) {
          return () -> {
            while (target.isAlive()) {
              Thread.onSpinWait();
            }
          };
        }
      }
      """;

  static final String PINGER =
      """
      package shop;
      public interface Pinger {
        int ping(String host);
        default int pingTwice(String host) { return ping(host) + ping(host); }
        static Pinger constant(int value) { return host -> value; }
        private int half(String host) { return ping(host) / 2; }
        abstract class Base implements Pinger {
          public abstract int timeout();
          public synchronized int ping(String host) { return timeout(); }
        }
      }
      """;

  /**
   * The bridge methods javac writes for generic and covariant overrides: the source front-end
   * writes the same ones (a call through the supertype reaches the override in both), each calling
   * its method on {@code this}.
   */
  @Test
  void frontEndsWriteTheSameBridges() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Handlers", HANDLERS), "21", out);
    Map<String, TreeSet<String>> fromSource = bridges(read.fromSource());
    Map<String, TreeSet<String>> fromBytecode = bridges(read.fromBytecode());
    assertEquals(fromBytecode, fromSource);
    assertTrue(
        fromSource.containsKey("shop.Handlers$OrderHandler#doHandle(Ljava/lang/Object;)V"),
        fromSource.keySet().toString());
    assertEquals(7, fromSource.size(), fromSource.keySet().toString());
  }

  private static Map<String, TreeSet<String>> bridges(Map<String, ClassFacts> classes) {
    Map<String, TreeSet<String>> bridges = new TreeMap<>();
    for (ClassFacts facts : classes.values()) {
      for (MethodFacts method : facts.methods()) {
        if ((method.access() & 0x1040) == 0x1040) {
          bridges.put(method.ref().toString(), ModelText.operations(method));
        }
      }
    }
    return bridges;
  }

  /**
   * CAS client 3.1's {@code CommonUtils.getResponseFromServer}: a connection opened in a try that
   * returns, also from inside a synchronized block, released in the finally. javac copies the
   * finally onto the return with the try's values, after releasing the monitor; the source
   * front-end does the same, so the release is of the opened connection, outside the region.
   */
  static final String FINALLY_ON_RETURN =
      """
      package shop;
      import java.io.*;
      import java.net.*;
      public class Validator {
        public static String getResponseFromServer(URL url) {
          HttpURLConnection conn = null;
          try {
            conn = (HttpURLConnection) url.openConnection();
            BufferedReader in = new BufferedReader(new InputStreamReader(conn.getInputStream()));
            String line = in.readLine();
            return line == null ? "" : line.trim();
          } catch (Exception e) {
            throw new RuntimeException(e);
          } finally {
            if (conn != null) {
              conn.disconnect();
            }
          }
        }

        public static String responseUnderLock(URL url) {
          HttpURLConnection conn = null;
          try {
            conn = (HttpURLConnection) url.openConnection();
            BufferedReader in = new BufferedReader(new InputStreamReader(conn.getInputStream()));
            synchronized (url) {
              String line = in.readLine();
              return line == null ? "" : line.trim();
            }
          } catch (Exception e) {
            throw new RuntimeException(e);
          } finally {
            if (conn != null) {
              conn.disconnect();
            }
          }
        }

        public static String readAll(URL url) {
          HttpURLConnection conn = null;
          try {
            conn = (HttpURLConnection) url.openConnection();
            BufferedReader in = new BufferedReader(new InputStreamReader(conn.getInputStream()));
            StringBuffer buffer = new StringBuffer(255);
            synchronized (buffer) {
              String line;
              while ((line = in.readLine()) != null) {
                buffer.append(line).append('\\n');
              }
              return buffer.toString();
            }
          } catch (Exception e) {
            throw new RuntimeException(e);
          } finally {
            if (conn != null) {
              conn.disconnect();
            }
          }
        }

        public static int status(URL url) throws IOException {
          HttpURLConnection conn = (HttpURLConnection) url.openConnection();
          try {
            return conn.getResponseCode();
          } finally {
            conn.disconnect();
          }
        }
      }
      """;

  @Test
  void frontEndsAgreeOnAFinallyRunOnAReturn() throws Exception {
    BothFrontEnds.Read read =
        BothFrontEnds.read(Map.of("shop.Validator", FINALLY_ON_RETURN), "21", out);
    List<String> differences = compare(read);
    assertTrue(differences.isEmpty(), String.join("\n", differences));
    for (String name : List.of("getResponseFromServer", "responseUnderLock", "readAll", "status")) {
      MethodFacts method =
          byName(read.fromSource().get("shop.Validator")).values().stream()
              .filter(m -> m.ref().name().equals(name))
              .findFirst()
              .orElseThrow();
      boolean releasesTheOpenedConnection = false;
      for (Op op : method.ops()) {
        if (op.isCall()
            && op.method().name().equals("disconnect")
            && op.receiver() instanceof Value.Result result
            && method.ops().get(result.op()).method().name().equals("openConnection")) {
          releasesTheOpenedConnection = true;
        }
      }
      assertTrue(releasesTheOpenedConnection, name + ": " + ModelText.operations(method));
    }
  }

  static final String MERGED_NULL_TESTS =
      """
      package shop;
      import java.lang.ref.Reference;
      import java.lang.ref.WeakReference;
      import java.util.*;
      public class Weak {
        private final Map<String, Reference<Object>> classes =
            Collections.synchronizedMap(new HashMap<>());
        public Object resolve(String name, boolean intern) {
          Reference<Object> ref = classes.get(name);
          Object resolved = ref == null ? null : ref.get();
          if (resolved == null) {
            resolved = intern ? name.intern() : name;
            classes.put(name, new WeakReference<>(resolved));
          }
          if (resolved != null && resolved.hashCode() == 0) {
            return null;
          }
          return resolved;
        }
      }
      """;

  static final String NULL_FIRST_TESTS =
      """
      package shop;
      import java.util.*;
      public class Skins {
        private final Map<String, Properties> skins = new HashMap<>();
        public Properties skin(String name) {
          Properties loaded = skins.get(name);
          return null != loaded ? loaded : load(name);
        }
        public Properties reload(String name) {
          Properties old = skins.get(name);
          if (null == old) {
            return load(name);
          }
          return old;
        }
        public int waitFor(String name) throws InterruptedException {
          int polls = 0;
          while (null == skins.get(name)) {
            Thread.sleep(10);
            polls++;
          }
          return polls;
        }
        private synchronized Properties load(String name) {
          Properties props = new Properties();
          skins.put(name, props);
          return props;
        }
      }
      """;

  /**
   * {@code null != x} and {@code null == x}, the null written first, are null tests of {@code x} in
   * both front-ends (javac compiles them to a reference comparison, not {@code ifnull}).
   */
  @Test
  void frontEndsAgreeOnNullTestsWithTheNullWrittenFirst() throws Exception {
    for (String release : List.of("8", "21")) {
      BothFrontEnds.Read read =
          BothFrontEnds.read(Map.of("shop.Skins", NULL_FIRST_TESTS), release, out);
      List<String> differences = compare(read);
      assertTrue(differences.isEmpty(), String.join("\n", differences));
      for (Map<String, ClassFacts> side : List.of(read.fromSource(), read.fromBytecode())) {
        for (String name : List.of("skin", "reload")) {
          MethodFacts method =
              byName(side.get("shop.Skins")).values().stream()
                  .filter(m -> m.ref().name().equals(name))
                  .findFirst()
                  .orElseThrow();
          Op load =
              method.ops().stream()
                  .filter(op -> op.isCall() && op.method().name().equals("load"))
                  .findFirst()
                  .orElseThrow();
          Op get =
              method.ops().stream()
                  .filter(op -> op.isCall() && op.method().name().equals("get"))
                  .findFirst()
                  .orElseThrow();
          assertEquals(
              List.of(new Guard(new Value.Result(get.index()), Guard.Test.NULL, true)),
              load.context().guards(),
              ModelText.operations(method).toString());
        }
      }
    }
  }

  /**
   * A null test of a value the paths assign differently (a reference unwrapped through a
   * conditional) is a null test of an unknown value on both sides, and both read the parameters'
   * names.
   */
  @Test
  void frontEndsAgreeOnNullTestsOfMergedValuesAndParameterNames() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Weak", MERGED_NULL_TESTS), "21", out);
    List<String> differences = compare(read);
    assertTrue(differences.isEmpty(), String.join("\n", differences));
    MethodFacts fromSource =
        byName(read.fromSource().get("shop.Weak")).values().stream()
            .filter(m -> m.ref().name().equals("resolve"))
            .findFirst()
            .orElseThrow();
    MethodFacts fromBytecode =
        byName(read.fromBytecode().get("shop.Weak")).values().stream()
            .filter(m -> m.ref().name().equals("resolve"))
            .findFirst()
            .orElseThrow();
    assertEquals(List.of("name", "intern"), fromSource.parameterNames());
    assertEquals(fromSource.parameterNames(), fromBytecode.parameterNames());
    Guard mergedNull = new Guard(Value.UNKNOWN, Guard.Test.NULL, true);
    assertTrue(
        fromSource.ops().stream().anyMatch(op -> op.context().guards().contains(mergedNull)),
        ModelText.operations(fromSource).toString());
  }

  @Test
  void frontEndsAgreeOnWhichMethodsAreAbstractStaticPrivateOrSynchronized() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Pinger", PINGER), "21", out);
    int bits =
        java.lang.reflect.Modifier.ABSTRACT
            | java.lang.reflect.Modifier.STATIC
            | java.lang.reflect.Modifier.PRIVATE
            | java.lang.reflect.Modifier.PUBLIC
            | java.lang.reflect.Modifier.SYNCHRONIZED;
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, ClassFacts> entry : read.fromSource().entrySet()) {
      Map<String, MethodFacts> bytecode = byName(read.fromBytecode().get(entry.getKey()));
      for (MethodFacts method : entry.getValue().methods()) {
        MethodFacts other = bytecode.get(method.ref().toString());
        if (other != null
            && !method.ref().isLambdaBody() // a lambda body's flags are javac's choice
            && (method.access() & bits) != (other.access() & bits)) {
          differences.add(
              method.ref()
                  + ": source "
                  + Integer.toHexString(method.access() & bits)
                  + ", bytecode "
                  + Integer.toHexString(other.access() & bits));
        }
      }
    }
    assertTrue(differences.isEmpty(), String.join("\n", differences));
  }

  @Test
  void frontEndsAgreeOnLoopsTheirExitsAndTheirVaryingCalls() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Polls", POLLS), "21", out);
    List<String> differences = compare(read);
    differences.removeIf(
        d ->
            !d.contains("only:   loop ")
                && !d.contains("only: loop ")); // operations: frontEndsAgreeOnRealisticCode
    assertTrue(differences.isEmpty(), String.join("\n", differences));
    TreeSet<String> header = new TreeSet<>();
    for (MethodFacts m : read.fromSource().get("shop.Polls").methods()) {
      header.addAll(ModelText.loops(m));
    }
    String all = String.join("\n", header);
    assertTrue(all.contains("exit [!Thread.isAlive(param0)]"), all);
    assertTrue(all.contains("exit [Thread.isAlive(param0), ?]"), all);
    assertTrue(all.contains("exit [!CountDownLatch.getCount(param0)>0]"), all);
    assertTrue(all.contains("exit [!CountDownLatch.getCount(param0)]"), all);
    assertTrue(all.contains("exit [!?] stores [Thread.isAlive(param0) if ?]"), all);
    assertTrue(all.contains("!?>0] stores ['0'; ? if Iterator.hasNext"), all);
    assertTrue(all.contains("exit [!Thread.isAlive(param0)] stores [Thread.isAlive(param0)]"), all);
    assertTrue(all.contains("varying Thread.isAlive(?)"), all);
  }

  static Set<String> nonSynthetic(Map<String, ClassFacts> classes) {
    Set<String> names = new TreeSet<>();
    classes.forEach(
        (name, facts) -> {
          if ((facts.access() & 0x1000) == 0) {
            names.add(name);
          }
        });
    return names;
  }

  /**
   * The differences, one line each: a method one side lacks, or an operation line one side lacks.
   */
  static final String KEYS_AND_BOXES =
      """
      package shop;
      import java.util.*;
      public class Keys {
        private final Map<String, Object> cache = new HashMap<>();
        private final Map<String, Long> counts = new HashMap<>();
        public synchronized Object find(String type, String name) {
          String key = type + "#" + name;
          Object found = cache.get(key);
          if (found == null) {
            found = new Object();
            cache.put(key, found);
          }
          return found;
        }
        public synchronized void count(String name, long n) {
          counts.put(name, Long.valueOf(n));
        }
        @SuppressWarnings("removal")
        public synchronized void countOld(String name, long n) {
          counts.put(name, new Long(n));
        }
        public synchronized Object findBuilt(Class<?> type, String name) {
          StringBuffer buffer = new StringBuffer();
          buffer.append(type.getName()).append('.').append(name);
          String key = buffer.toString();
          Object found = cache.get(key);
          if (found == null) {
            found = new Object();
            cache.put(key, found);
          }
          return found;
        }
      }
      """;

  /**
   * A key built with {@code +} is one computed value in both front-ends, also where javac compiles
   * it to a {@code StringBuilder} chain (release 8), so the get and the put use one key; an
   * explicit {@code Long.valueOf(n)} boxes in both, so the put stores the parameter.
   */
  @Test
  void frontEndsAgreeOnConcatenatedKeysAndExplicitBoxing() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Keys", KEYS_AND_BOXES), "8", out);
    for (Map<String, ClassFacts> side : List.of(read.fromSource(), read.fromBytecode())) {
      Map<String, MethodFacts> methods = byName(side.get("shop.Keys"));
      for (String name : List.of("find", "findBuilt")) {
        MethodFacts find = methodNamed(methods, name);
        Op get = callNamed(find, "get");
        Op put = callNamed(find, "put");
        assertTrue(get.arg(0) instanceof Value.Computed, ModelText.operations(find).toString());
        assertEquals(get.arg(0), put.arg(0), ModelText.operations(find).toString());
      }
      for (String name : List.of("count", "countOld")) {
        // Long.valueOf(n) and the deprecated new Long(n) both box n
        MethodFacts count = methodNamed(methods, name);
        assertEquals(
            new Value.Param(1),
            callNamed(count, "put").arg(1),
            ModelText.operations(count).toString());
      }
    }
  }

  static final String TRY_THEN_USE =
      """
      package shop;
      import java.io.IOException;
      import java.net.HttpURLConnection;
      import java.net.URL;
      public class Soap {
        public int post(URL endpoint) {
          HttpURLConnection connection;
          try {
            connection = (HttpURLConnection) endpoint.openConnection();
            connection.connect();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
          int code = 0;
          connection.disconnect();
          return code;
        }
        public int retry(URL endpoint) {
          HttpURLConnection connection;
          try {
            connection = (HttpURLConnection) endpoint.openConnection();
          } catch (IOException e) {
            connection = null;
          }
          connection.disconnect();
          return 1;
        }
      }
      """;

  /**
   * A local assigned in a try whose catches all throw keeps the try's value after the statement, in
   * both front-ends (SAAJ's {@code HttpSOAPConnection.post}); a catch that completes with another
   * value makes it unknown.
   */
  @Test
  void aLocalAssignedInATryWhoseCatchesAllThrowKeepsItsValue() throws Exception {
    BothFrontEnds.Read read = BothFrontEnds.read(Map.of("shop.Soap", TRY_THEN_USE), "8", out);
    for (Map<String, ClassFacts> side : List.of(read.fromSource(), read.fromBytecode())) {
      Map<String, MethodFacts> methods = byName(side.get("shop.Soap"));
      MethodFacts post = methodNamed(methods, "post");
      Op open = callNamed(post, "openConnection");
      assertEquals(
          new Value.Result(open.index()),
          callNamed(post, "disconnect").receiver(),
          ModelText.operations(post).toString());
      MethodFacts retry = methodNamed(methods, "retry");
      assertFalse(
          callNamed(retry, "disconnect").receiver() instanceof Value.Result,
          ModelText.operations(retry).toString());
    }
  }

  private static MethodFacts methodNamed(Map<String, MethodFacts> methods, String name) {
    return methods.values().stream()
        .filter(m -> m.ref().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static Op callNamed(MethodFacts method, String name) {
    return method.ops().stream()
        .filter(op -> op.isCall() && op.method().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  static List<String> compare(BothFrontEnds.Read read) {
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, ClassFacts> entry : read.fromSource().entrySet()) {
      ClassFacts bytecode = read.fromBytecode().get(entry.getKey());
      if (bytecode == null) {
        differences.add("class only in source: " + entry.getKey());
        continue;
      }
      Map<String, MethodFacts> sourceMethods = byName(entry.getValue());
      Map<String, MethodFacts> bytecodeMethods = byName(bytecode);
      for (Map.Entry<String, MethodFacts> method : sourceMethods.entrySet()) {
        MethodFacts other = bytecodeMethods.get(method.getKey());
        if (other == null) {
          differences.add("method only in source: " + method.getKey());
          continue;
        }
        TreeSet<String> fromSource = ModelText.operations(method.getValue());
        TreeSet<String> fromBytecode = ModelText.operations(other);
        for (String line : fromSource) {
          if (!fromBytecode.contains(line)) {
            differences.add(method.getKey() + "\n    source only:   " + line);
          }
        }
        for (String line : fromBytecode) {
          if (!fromSource.contains(line)) {
            differences.add(method.getKey() + "\n    bytecode only: " + line);
          }
        }
        TreeSet<String> loopsFromSource = ModelText.loops(method.getValue());
        TreeSet<String> loopsFromBytecode = ModelText.loops(other);
        for (String line : loopsFromSource) {
          if (!loopsFromBytecode.contains(line)) {
            differences.add(method.getKey() + "\n    source only:   " + line);
          }
        }
        for (String line : loopsFromBytecode) {
          if (!loopsFromSource.contains(line)) {
            differences.add(method.getKey() + "\n    bytecode only: " + line);
          }
        }
        if (method.getValue().regions().size() != other.regions().size()) {
          differences.add(
              method.getKey()
                  + ": regions "
                  + method.getValue().regions()
                  + " vs "
                  + other.regions());
        }
      }
      for (String method : bytecodeMethods.keySet()) {
        if (!sourceMethods.containsKey(method)) {
          differences.add("method only in bytecode: " + method);
        }
      }
    }
    return differences;
  }

  private static Map<String, MethodFacts> byName(ClassFacts facts) {
    Map<String, MethodFacts> methods = new TreeMap<>();
    for (MethodFacts method : facts.methods()) {
      if ((method.access() & 0x1000) != 0 && !method.ref().isLambdaBody()) {
        continue; // synthetic: accessors, bridges
      }
      methods.put(method.ref().toString(), method);
    }
    return methods;
  }
}
