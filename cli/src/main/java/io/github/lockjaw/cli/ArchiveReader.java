package io.github.lockjaw.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads archives within {@link ArchiveLimits}: every byte is counted as it inflates, so an entry
 * that lies about its size in the zip directory is caught too. Past a limit it throws the {@code
 * CliException} (exit code 3) that names the entry and the limit; nothing is left half-written.
 */
final class ArchiveReader {
  private final ArchiveLimits limits;
  private long inflated;

  ArchiveReader(ArchiveLimits limits) {
    this.limits = limits;
  }

  /**
   * Checks every entry of an archive the audit reads as it is (a jar given to SpotBugs): each is
   * inflated once and counted, nothing is kept.
   */
  void check(Path archive, String label, int depth) throws CliException, IOException {
    extract(archive, label, depth, name -> false, null);
  }

  /**
   * Writes the entries {@code wanted} accepts under {@code into} (never outside it), checking every
   * entry against the limits on the way; returns how many were written.
   */
  int extract(Path archive, String label, int depth, Predicate<String> wanted, Path into)
      throws CliException, IOException {
    if (depth > limits.maxDepth()) {
      throw ArchiveLimits.exceeded(
          label,
          "is nested " + depth + " archives deep, more than the limit of " + limits.maxDepth(),
          "lockjaw.maxArchiveDepth",
          depth);
    }
    int written = 0;
    int count = 0;
    try (ZipFile zip = new ZipFile(archive.toFile())) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        if (++count > limits.maxEntries()) {
          throw ArchiveLimits.exceeded(
              label,
              "holds more than " + limits.maxEntries() + " entries",
              "lockjaw.maxArchiveEntries",
              limits.maxEntries() * 4L);
        }
        if (entry.isDirectory()) {
          continue;
        }
        String name = entry.getName();
        Path target = null;
        if (into != null && wanted.test(name)) {
          target = into.resolve(name).normalize();
          if (!target.startsWith(into)) {
            target = null; // "../" in an entry name: never written outside the directory
          }
        }
        if (target == null && !isClassOrArchive(name)) {
          continue; // neither read by the audit nor written: its size does not matter
        }
        String where = label + "!/" + name;
        if (target == null) {
          try (InputStream in = zip.getInputStream(entry)) {
            copy(in, OutputStream.nullOutputStream(), entry, where);
          }
          continue;
        }
        Files.createDirectories(target.getParent());
        Path part = Files.createTempFile(target.getParent(), ".lockjaw-", ".part");
        try (InputStream in = zip.getInputStream(entry);
            OutputStream out = Files.newOutputStream(part)) {
          copy(in, out, entry, where);
        } catch (CliException | IOException e) {
          Files.deleteIfExists(part);
          throw e;
        }
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
        written++;
      }
    }
    return written;
  }

  private static boolean isClassOrArchive(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.endsWith(".class")
        || lower.endsWith(".jar")
        || lower.endsWith(".war")
        || lower.endsWith(".ear");
  }

  private void copy(InputStream in, OutputStream out, ZipEntry entry, String where)
      throws IOException, CliException {
    byte[] buffer = new byte[1 << 16];
    long size = 0;
    long compressed = Math.max(1, entry.getCompressedSize());
    for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
      size += n;
      inflated += n;
      if (size > limits.maxEntryBytes()) {
        throw ArchiveLimits.exceeded(
            where,
            "inflates to more than " + megabytes(limits.maxEntryBytes()) + " MB",
            "lockjaw.maxEntryMegabytes",
            megabytes(limits.maxEntryBytes()) * 4);
      }
      if (size > ArchiveLimits.RATIO_FLOOR
          && entry.getMethod() == ZipEntry.DEFLATED
          && size / compressed > limits.maxRatio()) {
        throw ArchiveLimits.exceeded(
            where,
            "inflates to more than "
                + limits.maxRatio()
                + " times its compressed size ("
                + megabytes(size)
                + " MB so far from "
                + Math.max(1, compressed / 1024)
                + " KB)",
            "lockjaw.maxInflateRatio",
            limits.maxRatio() * 10);
      }
      if (inflated > limits.maxTotalBytes()) {
        throw ArchiveLimits.exceeded(
            where,
            "takes what lockjaw read past "
                + megabytes(limits.maxTotalBytes())
                + " MB inflated in all",
            "lockjaw.maxInflatedMegabytes",
            megabytes(limits.maxTotalBytes()) * 4);
      }
      out.write(buffer, 0, n);
    }
  }

  private static long megabytes(long bytes) {
    return bytes / ArchiveLimits.MIB;
  }
}
