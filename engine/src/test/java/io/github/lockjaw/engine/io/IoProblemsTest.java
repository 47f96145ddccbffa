package io.github.lockjaw.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** Item 13 of issue 17: a failed write says why, not only which file. */
class IoProblemsTest {
  @Test
  void theReasonIsNamed() {
    assertEquals(
        "permission denied: /r/.A.java.tmp",
        IoProblems.describe(new AccessDeniedException("/r/.A.java.tmp")));
    assertEquals(
        "no such file or directory: /gone/x",
        IoProblems.describe(new NoSuchFileException("/gone/x")));
    assertEquals(
        "No space left on device: /r/a",
        IoProblems.describe(new FileSystemException("/r/a", null, "No space left on device")));
    assertEquals("disk on fire", IoProblems.describe(new IOException("disk on fire")));
  }
}
