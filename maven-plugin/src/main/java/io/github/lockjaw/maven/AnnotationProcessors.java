package io.github.lockjaw.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

/**
 * The class path entries that carry annotation processors, which lockjaw's analysis does not run.
 */
final class AnnotationProcessors {
  private static final String SERVICE = "META-INF/services/javax.annotation.processing.Processor";

  private AnnotationProcessors() {}

  /** The file names of the jars and directories on {@code classpath} that register a processor. */
  static List<String> on(List<String> classpath) {
    List<String> found = new ArrayList<>();
    for (String entry : classpath) {
      Path path = Path.of(entry);
      boolean registers;
      if (Files.isDirectory(path)) {
        registers = Files.isRegularFile(path.resolve(SERVICE));
      } else {
        try (ZipFile zip = new ZipFile(path.toFile())) {
          registers = zip.getEntry(SERVICE) != null;
        } catch (IOException | RuntimeException e) {
          registers = false;
        }
      }
      if (registers) {
        found.add(String.valueOf(path.getFileName()));
      }
    }
    return found;
  }
}
