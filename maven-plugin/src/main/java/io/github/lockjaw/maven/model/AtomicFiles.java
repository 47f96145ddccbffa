package io.github.lockjaw.maven.model;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes a file whole or not at all: to a sibling temporary file, then an atomic rename. */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path target, String content) throws IOException {
    write(target, content, UTF_8);
  }

  public static void write(Path target, String content, java.nio.charset.Charset charset) throws IOException {
    Path absolute = target.toAbsolutePath();
    Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".lockjaw-tmp");
    try {
      Files.writeString(temporary, content, charset);
      try {
        Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
