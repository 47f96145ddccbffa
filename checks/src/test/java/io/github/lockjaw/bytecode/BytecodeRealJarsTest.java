package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The detectors on the real library jars of the field reports, and on the releases that fixed them.
 * The jars come from Maven Central through maven-dependency-plugin's copy goal (see checks/pom.xml)
 * into target/audit-jars, so the test runs offline once they are in ~/.m2.
 */
class BytecodeRealJarsTest {
  private static final Path JARS = Path.of("target", "audit-jars");

  private static List<AuditFinding> legacy;
  private static List<AuditFinding> successors;
  private static List<AuditFinding> spring251;
  private static List<AuditFinding> spring252;

  @BeforeAll
  static void audit() throws Exception {
    JarAuditor auditor = new JarAuditor();
    legacy =
        auditor.audit(
            List.of(
                jar("commons-dbcp-1.2.2.jar"),
                jar("commons-pool-1.3.jar"),
                jar("ibatis-sqlmap-2.3.4.726.jar")),
            List.of());
    successors =
        auditor.audit(
            List.of(
                jar("commons-dbcp2-2.12.0.jar"),
                jar("commons-pool2-2.12.0.jar"),
                jar("mybatis-3.5.16.jar")),
            List.of());
    spring251 = auditor.audit(List.of(jar("spring-beans-2.5.1.jar")), List.of());
    spring252 = auditor.audit(List.of(jar("spring-beans-2.5.2.jar")), List.of());
  }

  private static Path jar(String name) {
    Path jar = JARS.resolve(name);
    assertTrue(
        Files.isRegularFile(jar),
        jar
            + " is missing: run the build's generate-test-resources"
            + " phase (maven-dependency-plugin copies it from ~/.m2)");
    return jar;
  }

  private static AuditFinding finding(
      List<AuditFinding> findings, String check, String className, String method) {
    return findings.stream()
        .filter(
            f ->
                f.check().equals(check)
                    && f.className().equals(className)
                    && f.methodName().equals(method))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    check
                        + " in "
                        + className
                        + "."
                        + method
                        + " not found; found:\n"
                        + describe(findings)));
  }

  private static String describe(List<AuditFinding> findings) {
    return findings.stream()
        .map(f -> "  " + f.check() + " " + f.className() + "." + f.methodName())
        .collect(Collectors.joining("\n"));
  }

  private static List<AuditFinding> inClass(List<AuditFinding> findings, String className) {
    return findings.stream().filter(f -> f.className().equals(className)).toList();
  }

  @Test
  void commonsPool13SerialisesBorrowersOnThePoolMonitor() {
    AuditFinding borrow =
        finding(
            legacy,
            "SharedMonitorDao",
            "org.apache.commons.pool.impl.GenericObjectPool",
            "borrowObject");
    assertEquals("()Ljava/lang/Object;", borrow.methodDescriptor());
    assertTrue(borrow.line() > 0, "line from the class file: " + borrow.line());
    assertTrue(borrow.jar().endsWith("commons-pool-1.3.jar"), String.valueOf(borrow.jar()));
    assertTrue(
        borrow
            .message()
            .contains(
                "holds the monitor of the GenericObjectPool instance"
                    + " while it calls PoolableObjectFactory.makeObject()"),
        borrow.message());
    assertTrue(borrow.message().contains("returnObject()"), borrow.message());
    assertTrue(borrow.advice().contains("commons-pool:commons-pool 1.3"), borrow.advice());
    assertTrue(borrow.advice().contains("org.apache.commons:commons-pool2 2.0+"), borrow.advice());
    finding(
        legacy,
        "SharedMonitorDao",
        "org.apache.commons.pool.impl.GenericKeyedObjectPool",
        "borrowObject");
    finding(
        legacy,
        "SharedMonitorDao",
        "org.apache.commons.pool.impl.GenericObjectPool",
        "returnObject");
  }

  @Test
  void commonsDbcp122OpensConnectionsUnderTheFactoryMonitor() {
    AuditFinding make =
        finding(
            legacy,
            "SharedMonitorDao",
            "org.apache.commons.dbcp.PoolableConnectionFactory",
            "makeObject");
    assertTrue(make.message().contains("ConnectionFactory.createConnection()"), make.message());
    assertTrue(make.advice().contains("commons-dbcp:commons-dbcp 1.2.2"), make.advice());
    assertTrue(
        make.advice().contains("org.apache.commons:commons-dbcp2 2.0+ or com.zaxxer:HikariCP"),
        make.advice());
  }

  @Test
  void commonsDbcp1TakesTheDataSourceMonitorOnEveryGetConnection() throws Exception {
    // 1.2.2 (no -sources.jar on Central) and 1.4 (its sources no longer compile: JDBC 4.1
    // getParentLogger): synchronized createDataSource(), called by every getConnection()
    List<AuditFinding> dbcp14 =
        new JarAuditor()
            .audit(List.of(jar("commons-dbcp-1.4.jar")), List.of(jar("commons-pool-1.3.jar")));
    for (List<AuditFinding> audited : List.of(legacy, dbcp14)) {
      String className = "org.apache.commons.dbcp.BasicDataSource";
      assertEquals(
          List.of("createDataSource"),
          inClass(audited, className).stream().map(AuditFinding::methodName).toList(),
          describe(audited));
      AuditFinding create = finding(audited, "SharedMonitorDao", className, "createDataSource");
      assertTrue(
          create
              .message()
              .startsWith(
                  "BasicDataSource.createDataSource() holds the monitor of the BasicDataSource"
                      + " instance for its whole body, and getConnection() calls it on every call"),
          create.message());
      assertTrue(create.message().contains("PoolableObjectFactory.makeObject()"), create.message());
      assertTrue(
          create.message().contains("'dataSource' stays null, so every later request retries it"),
          create.message());
      assertTrue(create.advice().contains("com.zaxxer:HikariCP"), create.advice());
      assertTrue(
          create.advice().contains("reads its volatile pool field before it locks"),
          create.advice());
    }
    assertTrue(
        finding(
                legacy,
                "SharedMonitorDao",
                "org.apache.commons.dbcp.BasicDataSource",
                "createDataSource")
            .advice()
            .contains("commons-dbcp:commons-dbcp 1.2.2"));
  }

  @Test
  void commonsPool13AuditNamesEverySynchronizedLifecyclePath() {
    for (String pool :
        List.of(
            "org.apache.commons.pool.impl.GenericObjectPool",
            "org.apache.commons.pool.impl.GenericKeyedObjectPool")) {
      for (String method :
          List.of("borrowObject", "returnObject", "invalidateObject", "addObject", "evict")) {
        finding(legacy, "SharedMonitorDao", pool, method);
      }
    }
    AuditFinding invalidate =
        finding(
            legacy,
            "SharedMonitorDao",
            "org.apache.commons.pool.impl.GenericObjectPool",
            "invalidateObject");
    assertTrue(
        invalidate
            .message()
            .contains(
                "PoolableObjectFactory.destroyObject()"
                    + " (for a connection pool: closes the connection)"),
        invalidate.message());
    AuditFinding giveBack =
        finding(
            legacy,
            "SharedMonitorDao",
            "org.apache.commons.pool.impl.GenericObjectPool",
            "returnObject");
    assertTrue(giveBack.message().contains("addObjectToPool()"), giveBack.message());
  }

  @Test
  void ibatis2LocksTheClassInClassInfoGetInstance() {
    AuditFinding classInfo =
        finding(legacy, "ClassMonitorCache", "com.ibatis.common.beans.ClassInfo", "getInstance");
    assertEquals(
        "(Ljava/lang/Class;)Lcom/ibatis/common/beans/ClassInfo;", classInfo.methodDescriptor());
    assertEquals(495, classInfo.line());
    assertTrue(classInfo.message().contains("'CLASS_INFO_MAP'"), classInfo.message());
    assertTrue(
        classInfo.advice().contains("org.apache.ibatis:ibatis-sqlmap 2.3.4.726"),
        classInfo.advice());
    assertTrue(classInfo.advice().contains("org.mybatis:mybatis 3.0+"), classInfo.advice());
    AuditFinding pool =
        finding(
            legacy, "SharedMonitorDao", "com.ibatis.common.jdbc.SimpleDataSource", "popConnection");
    assertTrue(pool.message().contains("DriverManager.getConnection()"), pool.message());
  }

  @Test
  void commonsDbcp2BorrowsWithoutAPoolWideMonitor() {
    for (String className :
        List.of(
            "org.apache.commons.dbcp2.BasicDataSource",
            "org.apache.commons.dbcp2.PoolingDataSource",
            "org.apache.commons.dbcp2.PoolableConnectionFactory",
            "org.apache.commons.dbcp2.PoolingDriver")) {
      // PoolingDriver.connect() reads its pool map under the driver monitor: a true
      // ReadMostlyStateUnderLock finding (LockRegionRealJarsTest), not a borrow under a pool lock
      assertEquals(
          List.of(),
          inClass(successors, className).stream()
              .filter(f -> !f.check().equals("ReadMostlyStateUnderLock"))
              .toList(),
          className);
    }
    assertFalse(
        successors.stream().anyMatch(f -> f.advice().contains("Known problem")),
        describe(successors));
  }

  @Test
  void commonsPool2GenericPoolsAreNotFlagged() {
    for (String className :
        List.of(
            "org.apache.commons.pool2.impl.GenericObjectPool",
            "org.apache.commons.pool2.impl.GenericKeyedObjectPool")) {
      assertEquals(List.of(), inClass(successors, className), className);
    }
  }

  @Test
  void myBatis3OwnCodeIsNotFlagged() {
    List<AuditFinding> mybatis =
        successors.stream()
            .filter(f -> f.className().startsWith("org.apache.ibatis."))
            .filter(f -> !f.className().startsWith("org.apache.ibatis.javassist."))
            .filter(f -> !f.className().startsWith("org.apache.ibatis.ognl."))
            .toList();
    assertEquals("", describe(mybatis));
  }

  @Test
  void theOgnlShadedIntoMyBatis35HoldsAMethodsMonitorOnEveryInvocation() {
    // OGNL's OgnlRuntime.invokeMethod, shaded into MyBatis 3.5.16 for dynamic SQL: its cache
    // checks run under synchronized (method) on every call (orphan-oss/ognl#522, mybatis#3589:
    // 980 threads BLOCKED waiting to lock a java.lang.reflect.Method), and a non-public member is
    // invoked with that monitor held
    List<String> messages =
        successors.stream()
            .filter(
                f ->
                    f.check().equals("ClassMonitorCache")
                        && f.className().equals("org.apache.ibatis.ognl.OgnlRuntime")
                        && f.methodName().equals("invokeMethod"))
            .map(AuditFinding::message)
            .toList();
    assertTrue(
        messages.stream()
            .anyMatch(
                m ->
                    m.contains(
                        "fills the cache '_methodAccessCache' while it holds the monitor of the"
                            + " shared Method 'method'")),
        messages.toString());
    assertTrue(
        messages.stream()
            .anyMatch(
                m ->
                    m.startsWith(
                        "Holds the monitor of the Method 'method' while it calls through it"
                            + " (Method.invoke() in invokeMethodInsideSandbox())")),
        messages.toString());
  }

  @Test
  void spring251IntrospectionCacheAdvisesTheReleaseThatFixedIt() {
    AuditFinding cache =
        finding(
            spring251,
            "SynchronizedMapCache",
            "org.springframework.beans.CachedIntrospectionResults",
            "forClass");
    assertTrue(cache.message().contains("'classCache'"), cache.message());
    assertTrue(
        cache.advice().contains("upgrade org.springframework:spring-beans 2.5.1 to 4.1.0 or later"),
        cache.advice());
    AuditFinding same =
        finding(
            spring252,
            "SynchronizedMapCache",
            "org.springframework.beans.CachedIntrospectionResults",
            "forClass");
    assertTrue(same.advice().contains("spring-beans 2.5.2 to 4.1.0"), same.advice());
  }

  @org.junit.jupiter.api.AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(
        java.util.List.of(),
        io.github.lockjaw.common.Resilience.swallowed(),
        "a detector threw; SpotBugs logged it and went on");
  }
}
