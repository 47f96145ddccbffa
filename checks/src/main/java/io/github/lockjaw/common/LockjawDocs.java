package io.github.lockjaw.common;

/** Where the checks' documentation lives, and wording shared by their messages. */
public final class LockjawDocs {
  /**
   * Every check's page is {@code BASE + "<CheckName>.md"}: a path in lockjaw's repository and
   * distribution. lockjaw has no web site, so no web address is made up; the language server turns
   * the path into a {@code file:} link to the page it ships.
   */
  public static final String BASE = "docs/checks/";

  private LockjawDocs() {}

  /** The docs page of a check; the bytecode audit links its findings to the same pages. */
  public static String forCheck(String checkName) {
    return BASE + checkName + ".md";
  }
}
