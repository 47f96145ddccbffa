package io.github.lockjaw.engine.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Says why a file operation failed in words: Java's exceptions often carry only the path. */
public final class IoProblems {
  private IoProblems() {}

  /** E.g. "permission denied: /repo/target/lockjaw/.x.tmp". */
  public static String describe(IOException e) {
    String reason;
    if (e instanceof AccessDeniedException) {
      reason = "permission denied";
    } else if (e instanceof NoSuchFileException) {
      reason = "no such file or directory";
    } else if (e instanceof NotDirectoryException) {
      reason = "not a directory";
    } else if (e instanceof FileAlreadyExistsException) {
      reason = "a file of that name already exists";
    } else if (e instanceof DirectoryNotEmptyException) {
      reason = "the directory is not empty";
    } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
      reason = fs.getReason();
    } else {
      return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
    FileSystemException fs = (FileSystemException) e;
    String file = fs.getFile() == null ? "" : ": " + fs.getFile();
    String other = fs.getOtherFile() == null ? "" : " -> " + fs.getOtherFile();
    return reason + file + other;
  }
}
