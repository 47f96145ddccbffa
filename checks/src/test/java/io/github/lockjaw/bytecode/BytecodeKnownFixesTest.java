package io.github.lockjaw.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.knowledge.JavaNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** known-fixes.txt, jar identification and version ranges; plain Java, no SpotBugs run. */
class BytecodeKnownFixesTest {
  @TempDir Path dir;

  @Test
  void versionRanges() {
    assertTrue(KnownFixes.VersionRange.parse("[0,2.0)").contains("1.2.2"));
    assertFalse(KnownFixes.VersionRange.parse("[0,2.0)").contains("2.0"));
    assertTrue(KnownFixes.VersionRange.parse("[0,2.5.2)").contains("2.5.1"));
    assertFalse(KnownFixes.VersionRange.parse("[0,2.5.2)").contains("2.5.2"));
    assertTrue(KnownFixes.VersionRange.parse("[0,4.1.0)").contains("4.0.9.RELEASE"));
    assertFalse(KnownFixes.VersionRange.parse("[0,4.1.0)").contains("4.1.0.RELEASE"));
    assertTrue(KnownFixes.VersionRange.parse("[0,3.0)").contains("2.3.4.726"));
    assertTrue(KnownFixes.VersionRange.parse("[0,2.0)").contains("2.0-beta1"));
    assertTrue(KnownFixes.VersionRange.parse("(,2.0]").contains("2.0"));
  }

  @Test
  void identifiesJarsByRepositoryPathFileNameAndManifest() throws Exception {
    Path repo = dir.resolve("repository/org/apache/ibatis/ibatis-sqlmap/2.3.4.726");
    Files.createDirectories(repo);
    Path inRepo = emptyJar(repo.resolve("ibatis-sqlmap-2.3.4.726.jar"), null);
    JarIdentity ibatis = JarIdentity.of(inRepo);
    assertEquals("org.apache.ibatis:ibatis-sqlmap", ibatis.coordinates());
    assertEquals("2.3.4.726", ibatis.version());

    JarIdentity byName = JarIdentity.of(emptyJar(dir.resolve("spring-beans-2.5.1.jar"), null));
    assertEquals("spring-beans", byName.artifactId());
    assertEquals("2.5.1", byName.version());

    JarIdentity byManifest = JarIdentity.of(emptyJar(dir.resolve("dbcp.jar"), "1.2.2"));
    assertEquals("", byManifest.coordinates());
    assertEquals("1.2.2", byManifest.version());
  }

  @Test
  void replacementAdviceFollowsThePackageEvenWithoutMavenMetadata() throws Exception {
    JarIdentity unknown = JarIdentity.of(emptyJar(dir.resolve("lib.jar"), null));
    String advice =
        LockjawBugType.SHARED_MONITOR_DAO.advice(
            unknown, "org.apache.commons.pool.impl.GenericObjectPool");
    assertTrue(advice.contains("replace it with org.apache.commons:commons-pool2 2.0+"), advice);
    // dbcp2 is not dbcp: the package boundary is a dot
    String dbcp2 =
        LockjawBugType.SHARED_MONITOR_DAO.advice(
            unknown, "org.apache.commons.dbcp2.BasicDataSource");
    assertFalse(dbcp2.contains("Known problem"), dbcp2);
  }

  @Test
  void upgradeAdviceNeedsTheArtifactInAnAffectedVersion() throws Exception {
    String className = "org.springframework.beans.CachedIntrospectionResults";
    JarIdentity old =
        new JarIdentity(null, "org.springframework", "spring-beans", "3.2.18.RELEASE");
    assertTrue(
        LockjawBugType.SYNCHRONIZED_MAP_CACHE
            .advice(old, className)
            .contains("upgrade org.springframework:spring-beans 3.2.18.RELEASE to 4.1.0 or later"));
    JarIdentity fixed =
        new JarIdentity(null, "org.springframework", "spring-beans", "4.1.0.RELEASE");
    assertFalse(LockjawBugType.SYNCHRONIZED_MAP_CACHE.advice(fixed, className).contains("Known"));
    JarIdentity unknown = new JarIdentity(null, "", "", "");
    assertFalse(LockjawBugType.SYNCHRONIZED_MAP_CACHE.advice(unknown, className).contains("Known"));
    // the fix is for the introspection cache only, not for any finding in spring-beans
    assertFalse(
        LockjawBugType.SYNCHRONIZED_MAP_CACHE
            .advice(old, "org.springframework.beans.TypeConverterDelegate")
            .contains("Known"));
  }

  @Test
  void everyKnownFixNamesVersionsPackagesAndAFix() {
    assertFalse(KnownFixes.all().isEmpty());
    for (KnownFixes.KnownFix fix : KnownFixes.all()) {
      assertTrue(fix.coordinates().matches("[\\w.-]+:[\\w.-]+"), fix.coordinates());
      assertFalse(fix.versions().isEmpty(), fix.toString());
      assertFalse(fix.packages().isEmpty(), fix.toString());
      // a fix, or (issue 22) the last release checked that still has it
      assertTrue(
          !fix.upgrade().isEmpty() || !fix.replacements().isEmpty() || !fix.checkedUpTo().isEmpty(),
          fix.toString());
      for (String check : fix.checks()) {
        assertTrue(
            java.util.Arrays.stream(LockjawBugType.values()).anyMatch(t -> t.check().equals(check)),
            check);
      }
    }
  }

  @Test
  void knowledgeNamesBecomeInternalNames() {
    assertEquals("java/lang/System$Logger", JavaNames.internalName("java.lang.System.Logger"));
    assertEquals("okhttp3/Request$Builder", JavaNames.internalName("okhttp3.Request$Builder"));
    assertEquals("java/util/Map", JavaNames.internalName("java.util.Map"));
  }

  private static Path emptyJar(Path path, String implementationVersion) throws Exception {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    if (implementationVersion != null) {
      manifest
          .getMainAttributes()
          .put(Attributes.Name.IMPLEMENTATION_VERSION, implementationVersion);
    }
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(path), manifest)) {
      // an empty library
    }
    return path;
  }
}
