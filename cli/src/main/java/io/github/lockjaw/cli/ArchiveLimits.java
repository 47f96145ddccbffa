package io.github.lockjaw.cli;

/**
 * What lockjaw reads of an archive before it stops: a zip bomb (a small archive that inflates to
 * gigabytes) or an archive nested without end must not fill the disk or the heap. Each limit can be
 * raised with a system property ({@code java -Dlockjaw.maxInflatedMegabytes=8192 -jar ...}).
 *
 * @param maxEntryBytes the most one entry (a class file or a nested jar) may inflate to
 * @param maxTotalBytes the most all entries of every archive read may inflate to, together
 * @param maxRatio the most an entry may inflate to per compressed byte, once it passes 1 MiB
 * @param maxDepth how deeply archives may nest (an EAR holding a WAR holding jars is 3)
 * @param maxEntries the most entries one archive may hold
 */
record ArchiveLimits(
    long maxEntryBytes, long maxTotalBytes, long maxRatio, int maxDepth, int maxEntries) {
  static final long MIB = 1024L * 1024;

  /** Above this size an entry is held to {@link #maxRatio}. */
  static final long RATIO_FLOOR = MIB;

  static ArchiveLimits fromSystemProperties() {
    return new ArchiveLimits(
        Long.getLong("lockjaw.maxEntryMegabytes", 512) * MIB,
        Long.getLong("lockjaw.maxInflatedMegabytes", 4096) * MIB,
        Long.getLong("lockjaw.maxInflateRatio", 100),
        Integer.getInteger("lockjaw.maxArchiveDepth", 4),
        Integer.getInteger("lockjaw.maxArchiveEntries", 500_000));
  }

  /** The one-paragraph message for an archive past a limit; the exit code is {@code 3}. */
  static CliException exceeded(String where, String what, String property, long value) {
    return new CliException(
        Main.INPUT_ERROR,
        where
            + " "
            + what
            + ", so lockjaw stopped reading it and audited nothing: an archive like this is a"
            + " zip bomb or damaged. If it is genuine, raise the limit with -D"
            + property
            + "="
            + value
            + " (java -D"
            + property
            + "="
            + value
            + " -jar lockjaw-cli.jar ...).");
  }
}
