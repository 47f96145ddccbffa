package io.github.lockjaw.checks;

/** Where the checks' documentation lives, and wording shared by their messages. */
final class LockjawDocs {
  /** Every check's page is {@code BASE + "<CheckName>.md"}. */
  static final String BASE = "https://github.com/lockjaw/lockjaw/blob/main/docs/checks/";

  private LockjawDocs() {}

  /** Appended to a message when lockjaw finds the problem but cannot prove a fix safe. */
  static String noFixReason() {
    return "(No automatic fix: lockjaw cannot show that the rewrite keeps behaviour here,"
        + " e.g. null keys or values, other work under the lock, or a map used elsewhere.)";
  }
}
