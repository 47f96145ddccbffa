package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lock-region queries of {@link ModelDetector} on the released jars of the field reports
 * (copied into target/audit-jars by the build): found in the affected releases with the release
 * that fixed it as advice, silent on the fixed releases.
 */
class LockRegionRealJarsTest {
  private static final Path JARS = Path.of("target", "audit-jars");
  private static final List<String> CHECKS =
      List.of("StatisticsUnderSharedLock", "ResourceLookupUnderLock", "ReadMostlyStateUnderLock");

  private static List<AuditFinding> spring251;
  private static List<AuditFinding> spring252;
  private static List<AuditFinding> context5115;
  private static List<AuditFinding> context5116;
  private static List<AuditFinding> tomcat7;
  private static List<AuditFinding> tomcat85;
  private static List<AuditFinding> dbcp2;

  @BeforeAll
  static void audit() throws Exception {
    JarAuditor auditor = new JarAuditor();
    spring251 = auditor.audit(List.of(jar("spring-beans-2.5.1.jar")), List.of());
    spring252 = auditor.audit(List.of(jar("spring-beans-2.5.2.jar")), List.of());
    context5115 = auditor.audit(List.of(jar("spring-context-5.1.15.RELEASE.jar")), List.of());
    context5116 = auditor.audit(List.of(jar("spring-context-5.1.16.RELEASE.jar")), List.of());
    tomcat7 = auditor.audit(List.of(jar("tomcat-catalina-7.0.109.jar")), List.of());
    tomcat85 = auditor.audit(List.of(jar("tomcat-catalina-8.5.100.jar")), List.of());
    dbcp2 = auditor.audit(List.of(jar("commons-dbcp2-2.12.0.jar")), List.of());
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

  private static List<AuditFinding> of(
      List<AuditFinding> findings, String check, String className) {
    return findings.stream()
        .filter(f -> f.check().equals(check) && f.className().equals(className))
        .toList();
  }

  private static String methods(List<AuditFinding> findings) {
    return findings.stream()
        .map(AuditFinding::methodName)
        .distinct()
        .sorted()
        .collect(Collectors.joining(", "));
  }

  @Test
  void spring251CopiesBeanNamesUnderTheMapMonitorAndAdvises252() {
    String factory = "org.springframework.beans.factory.support.DefaultListableBeanFactory";
    List<AuditFinding> found = of(spring251, "ReadMostlyStateUnderLock", factory);
    assertEquals("getBeanDefinitionNames, getBeanNamesForType", methods(found));
    assertTrue(found.get(0).message().contains("'beanDefinitionNames'"), found.get(0).message());
    assertTrue(
        found.get(0).advice().contains("upgrade org.springframework:spring-beans 2.5.1 to 2.5.2"),
        found.get(0).advice());
    assertEquals(List.of(), of(spring252, "ReadMostlyStateUnderLock", factory));
  }

  @Test
  void spring5115ReadsTheBeanFactoryUnderAMonitorAndAdvises5116() {
    String context = "org.springframework.context.support.AbstractRefreshableApplicationContext";
    List<AuditFinding> found = of(context5115, "ReadMostlyStateUnderLock", context);
    assertTrue(methods(found).contains("getBeanFactory"), methods(found));
    AuditFinding getBeanFactory =
        found.stream()
            .filter(f -> f.methodName().equals("getBeanFactory"))
            .findFirst()
            .orElseThrow();
    assertTrue(getBeanFactory.advice().contains("5.1.16"), getBeanFactory.advice());
    assertEquals(List.of(), of(context5116, "ReadMostlyStateUnderLock", context));
  }

  @Test
  void tomcat7ProbesJarsUnderTheJarFilesLockAndAdvises85() {
    String loader = "org.apache.catalina.loader.WebappClassLoaderBase";
    List<AuditFinding> found = of(tomcat7, "ResourceLookupUnderLock", loader);
    assertEquals("findResourceInternal, findResources", methods(found));
    assertTrue(found.get(0).message().contains("JarFile.getJarEntry()"), found.get(0).message());
    assertTrue(found.get(0).advice().contains("8.5.0"), found.get(0).advice());
    for (String check : CHECKS) {
      assertEquals(List.of(), of(tomcat85, check, loader), check);
    }
  }

  @Test
  void dbcp2PoolingDriverReadsItsPoolMapUnderTheDriverMonitorOnEveryConnect() {
    // connect() calls the synchronized getConnectionPool(name): a HashMap read that only
    // registerPool() and closePool() write; a ConcurrentHashMap would need no lock
    List<AuditFinding> found =
        of(dbcp2, "ReadMostlyStateUnderLock", "org.apache.commons.dbcp2.PoolingDriver");
    assertEquals("getConnectionPool, getPoolNames", methods(found));
    assertTrue(
        found.get(0).message().contains("'pools', which only closePool(), registerPool() write"),
        found.get(0).message());
    // a JavaBean's synchronized getters and setters are configuration, not read-mostly state
    assertEquals(
        List.of(),
        of(dbcp2, "ReadMostlyStateUnderLock", "org.apache.commons.dbcp2.BasicDataSource"));
  }

  @AfterAll
  static void noDetectorSwallowedAnException() {
    assertEquals(
        List.of(),
        io.github.lockjaw.common.Resilience.swallowed(),
        "a detector threw; SpotBugs logged it and went on");
  }
}
