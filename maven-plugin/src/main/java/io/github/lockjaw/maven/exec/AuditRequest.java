package io.github.lockjaw.maven.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code lockjaw:audit} asks {@link AuditRunner} to do, in Maven's JVM or a forked one: plain
 * data, written as JSON to a forked JVM.
 */
public final class AuditRequest {
  /** The dependency jars, absolute paths. */
  public List<String> jars = new ArrayList<>();

  /** {@code groupId:artifactId:version} of each jar, in the same order. */
  public List<String> coordinates = new ArrayList<>();

  /** The module's compiled classes (the roots of reachability), or null when not compiled. */
  public String moduleClasses;

  /** The Java release multi-release jars are read for; 0 for each jar's newest. */
  public int release;

  /** Where per-jar results are cached, or null. */
  public String cache;

  /** Whether every finding fails the build (no reachability needed). */
  public boolean failOnAll;

  /** Where a forked runner writes its {@link AuditOutcome}. */
  public String output;
}
