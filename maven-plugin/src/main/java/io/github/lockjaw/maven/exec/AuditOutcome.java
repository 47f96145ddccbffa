package io.github.lockjaw.maven.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link AuditRunner} found: plain data (no lockjaw-checks type), so that the goal reads it in
 * a Maven JVM of any Java version.
 */
public final class AuditOutcome {
  /** One finding in a dependency's bytecode, with the verdict's inputs. */
  public static final class Item {
    public String check;
    public String jar;
    public String className;
    public String methodName;
    public String methodDescriptor;
    public int line;
    public String message;
    public String advice;

    /** The library of the class: {@code groupId:artifactId version}. */
    public String library;

    /** A release or replacement is known to fix it (knowledge/known-fixes.txt). */
    public boolean knownFix;

    /** How the module reaches the class, or empty when it does not. */
    public String reachedBy = "";

    /** The check's documentation page. */
    public String docs;

    /** Fails the build: a known fix, reached, or every finding counts. */
    public boolean actionable;
  }

  public List<Item> findings = new ArrayList<>();
  public int classesInJars;
  public int classesAnalysed;
  public int jarsFromCache;

  /** Each class not analysed: {@code [jar, class, reason]}. */
  public List<List<String>> notAnalysed = new ArrayList<>();

  /** Why reachability could not be told (the module is not compiled), or null. */
  public String reachNote;

  /** Set when the runner failed: the message for the user. */
  public String error;
}
