package io.github.lockjaw.engine.io;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes a file whole or not at all: to a sibling temporary file, then an atomic rename. */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path target, String content) throws IOException {
    write(target, content, UTF_8);
  }

  /**
   * Writes through symbolic links (the link's target is replaced, the link stays) and keeps the
   * file's permissions. A file with several hard links is detached from the others.
   */
  public static void write(Path target, String content, Charset charset) throws IOException {
    Path absolute = target.toAbsolutePath();
    if (Files.exists(absolute)) {
      absolute = absolute.toRealPath();
    }
    Path temporary =
        Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".lockjaw-tmp");
    try {
      Files.writeString(temporary, content, charset);
      if (Files.exists(absolute)) {
        try {
          Files.setPosixFilePermissions(temporary, Files.getPosixFilePermissions(absolute));
        } catch (UnsupportedOperationException e) {
          // not a POSIX file system: the new file gets the directory's defaults
        }
      } else {
        try {
          Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
          // not a POSIX file system
        }
      }
      try {
        Files.move(
            temporary,
            absolute,
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
