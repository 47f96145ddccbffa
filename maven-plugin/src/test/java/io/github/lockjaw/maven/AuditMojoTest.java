package io.github.lockjaw.maven;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

/** lockjaw.auditFailOn: which dependency findings fail the build. */
class AuditMojoTest {
  @Test
  void actionableIsTheDefaultAndAllFailsOnEveryFinding() throws Exception {
    assertFalse(AuditMojo.failOnAll(null));
    assertFalse(AuditMojo.failOnAll("actionable"));
    assertFalse(AuditMojo.failOnAll(" Actionable "));
    assertTrue(AuditMojo.failOnAll("all"));
    assertTrue(AuditMojo.failOnAll("ALL"));
  }

  @Test
  void anUnknownValueIsAClearError() {
    MojoFailureException e =
        assertThrows(MojoFailureException.class, () -> AuditMojo.failOnAll("reachable-only"));
    assertTrue(
        e.getMessage().startsWith("lockjaw.auditFailOn is 'reachable-only'; use 'actionable'"),
        e.getMessage());
    assertTrue(e.getMessage().contains("'all'"), e.getMessage());
  }
}
