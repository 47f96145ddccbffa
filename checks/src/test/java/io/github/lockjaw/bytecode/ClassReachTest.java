package io.github.lockjaw.bytecode;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class-level reference graph {@code lockjaw:audit} uses to tell reachable findings apart. */
class ClassReachTest {
  private static final Path POOL2 = Path.of("target", "audit-jars", "commons-pool2-2.12.0.jar");

  @TempDir Path dir;

  @Test
  void followsReferencesFromTheModuleThroughALibrary() throws Exception {
    Path lib = dir.resolve("lib");
    BytecodeFixtures.compile(
        Map.of(
            "lib.Used",
            """
            package lib;
            public class Used extends Base {
              public Object run() throws Exception {
                return new Helper().load();
              }
            }
            """,
            "lib.Base",
            """
            package lib;
            public abstract class Base {
              protected java.util.List<Typed> typed;
            }
            """,
            "lib.Typed",
            """
            package lib;
            public class Typed {}
            """,
            "lib.Helper",
            """
            package lib;
            class Helper {
              Object load() throws Exception {
                return Class.forName("lib.ByName").getDeclaredConstructor().newInstance();
              }
            }
            """,
            "lib.ByName",
            """
            package lib;
            public class ByName {}
            """,
            "lib.Unused",
            """
            package lib;
            public class Unused {
              Used used;
              Object cached = new Helper();
            }
            """,
            "lib.Service",
            """
            package lib;
            public interface Service {}
            """,
            "lib.ServiceImpl",
            """
            package lib;
            public class ServiceImpl implements Service {}
            """,
            "lib.OtherImpl",
            """
            package lib;
            public class OtherImpl {}
            """),
        lib);
    Files.createDirectories(lib.resolve("META-INF/services"));
    Files.writeString(
        lib.resolve("META-INF/services/lib.Service"), "# providers\nlib.ServiceImpl\n", UTF_8);
    Files.writeString(lib.resolve("META-INF/services/lib.Missing"), "lib.OtherImpl\n", UTF_8);

    Path app = dir.resolve("app");
    BytecodeFixtures.compile(
        Map.of(
            "app.Main",
            """
            package app;
            import java.util.ServiceLoader;
            public class Main {
              public static void main(String[] args) throws Exception {
                new lib.Used().run();
                ServiceLoader.load(lib.Service.class).forEach(System.out::println);
              }
            }
            """),
        app,
        List.of(lib));

    Set<String> reached = ClassReach.from(List.of(app), List.of(lib));

    assertEquals(
        Set.of(
            "app.Main",
            "lib.Used",
            "lib.Base",
            "lib.Typed",
            "lib.Helper",
            "lib.ByName",
            "lib.Service",
            "lib.ServiceImpl"),
        reached);
    assertFalse(reached.contains("lib.Unused"), "nothing refers to Unused: " + reached);
    assertFalse(
        reached.contains("lib.OtherImpl"), "a provider of a service nobody reaches: " + reached);
  }

  @Test
  void aModuleUsingGenericObjectPoolDoesNotReachSoftReferenceObjectPool() throws Exception {
    assertTrue(
        Files.isRegularFile(POOL2),
        POOL2 + " is copied by maven-dependency-plugin (checks/pom.xml)");
    Path app = dir.resolve("app");
    BytecodeFixtures.compile(
        Map.of(
            "shop.Connections",
            """
            package shop;
            import org.apache.commons.pool2.BasePooledObjectFactory;
            import org.apache.commons.pool2.PooledObject;
            import org.apache.commons.pool2.impl.DefaultPooledObject;
            import org.apache.commons.pool2.impl.GenericObjectPool;
            public class Connections {
              private final GenericObjectPool<StringBuilder> pool =
                  new GenericObjectPool<>(new BasePooledObjectFactory<StringBuilder>() {
                    @Override public StringBuilder create() { return new StringBuilder(); }
                    @Override public PooledObject<StringBuilder> wrap(StringBuilder b) {
                      return new DefaultPooledObject<>(b);
                    }
                  });
              public String render(String name) throws Exception {
                StringBuilder b = pool.borrowObject();
                try {
                  return b.append(name).toString();
                } finally {
                  b.setLength(0);
                  pool.returnObject(b);
                }
              }
            }
            """),
        app,
        List.of(POOL2));

    Set<String> reached = ClassReach.from(List.of(app), List.of(POOL2));

    assertTrue(
        reached.contains("org.apache.commons.pool2.impl.GenericObjectPool"),
        String.valueOf(reached));
    assertTrue(
        reached.contains("org.apache.commons.pool2.impl.LinkedBlockingDeque"),
        String.valueOf(reached));
    assertFalse(
        reached.contains("org.apache.commons.pool2.impl.SoftReferenceObjectPool"),
        String.valueOf(reached));
    Set<String> all = ClassReach.classesIn(POOL2);
    assertTrue(
        all.contains("org.apache.commons.pool2.impl.SoftReferenceObjectPool"), "the jar has it");
    assertTrue(reached.size() < all.size(), reached.size() + " of " + all.size());
  }

  @Test
  void aModuleUsingSoftReferenceObjectPoolReachesIt() throws Exception {
    Path app = dir.resolve("app");
    BytecodeFixtures.compile(
        Map.of(
            "shop.Buffers",
            """
            package shop;
            import org.apache.commons.pool2.BasePooledObjectFactory;
            import org.apache.commons.pool2.PooledObject;
            import org.apache.commons.pool2.impl.DefaultPooledObject;
            import org.apache.commons.pool2.impl.SoftReferenceObjectPool;
            public class Buffers {
              final SoftReferenceObjectPool<byte[]> pool =
                  new SoftReferenceObjectPool<>(new BasePooledObjectFactory<byte[]>() {
                    @Override public byte[] create() { return new byte[8192]; }
                    @Override public PooledObject<byte[]> wrap(byte[] b) { return new DefaultPooledObject<>(b); }
                  });
            }
            """),
        app,
        List.of(POOL2));

    Set<String> reached = ClassReach.from(List.of(app), List.of(POOL2));

    assertTrue(
        reached.contains("org.apache.commons.pool2.impl.SoftReferenceObjectPool"),
        String.valueOf(reached));
  }

  @Test
  void readsClassNamesOutOfDescriptorsAndSignatures() {
    Set<String> names = new LinkedHashSet<>();
    ClassReach.descriptorTypes("(ILjava/lang/String;[Lp/A;J)Lp/B;", names);
    ClassReach.descriptorTypes("Ljava/util/Map<TK;Ljava/util/List<Lp/C;>;>;", names);
    ClassReach.descriptorTypes("<TLIST:Ljava/lang/Object;>(TTLIST;)Lp/D;", names);
    ClassReach.descriptorTypes("borrowObject", names);
    assertEquals(
        List.of("java.lang.String", "p.A", "p.B", "java.util.Map", "java.util.List", "p.C", "p.D"),
        List.copyOf(names));
  }

  @Test
  void aPoolBuiltFromSpringXmlIsReachedAndThePathSaysHow() throws Exception {
    Path dbcp = Path.of("target", "audit-jars", "commons-dbcp-1.2.2.jar");
    Path pool = Path.of("target", "audit-jars", "commons-pool-1.3.jar");
    Path app = dir.resolve("classes");
    BytecodeFixtures.compile(
        Map.of(
            "shop.OrderService",
            """
            package shop;
            public class OrderService {
              private javax.sql.DataSource dataSource;
              public void setDataSource(javax.sql.DataSource dataSource) { this.dataSource = dataSource; }
            }
            """),
        app);
    ClassReach.Reach withoutXml = ClassReach.reach(List.of(app), List.of(dbcp, pool));
    assertFalse(
        withoutXml.contains("org.apache.commons.pool.impl.GenericObjectPool"),
        "no code names the pool: without configuration it is not reached");
    assertEquals("", withoutXml.path("org.apache.commons.dbcp.BasicDataSource"));

    Files.writeString(
        app.resolve("applicationContext.xml"),
        """
        <beans>
          <bean id="dataSource" class="org.apache.commons.dbcp.BasicDataSource" destroy-method="close">
            <property name="driverClassName" value="org.h2.Driver"/>
          </bean>
          <bean class="shop.OrderService"><property name="dataSource" ref="dataSource"/></bean>
        </beans>
        """,
        UTF_8);
    ClassReach.Reach withXml = ClassReach.reach(List.of(app), List.of(dbcp, pool));
    assertTrue(withXml.contains("org.apache.commons.pool.impl.GenericObjectPool"));
    String path = withXml.path("org.apache.commons.pool.impl.GenericObjectPool");
    assertTrue(
        path.startsWith(
            "org.apache.commons.dbcp.BasicDataSource (named in applicationContext.xml) → "),
        path);
    assertTrue(path.endsWith("→ org.apache.commons.pool.impl.GenericObjectPool"), path);
    assertEquals("shop.OrderService", withXml.path("shop.OrderService"));
  }
}
