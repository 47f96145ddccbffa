package io.github.lockjaw.maven.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

/**
 * Finds class path jars that cannot be opened (truncated downloads, HTML error pages saved as a
 * jar), so that check and audit name the jar instead of failing inside javac or reporting that a
 * jar they could not read has no findings.
 */
public final class UnreadableJars {
  private UnreadableJars() {}

  /** Each jar that cannot be read, with javac-like wording of why. */
  public static List<String> among(List<Path> classpath) {
    List<String> problems = new ArrayList<>();
    for (Path entry : classpath) {
      if (!Files.isRegularFile(entry)) {
        continue; // directories, and entries Maven did not download, are not jars to open
      }
      try (ZipFile zip = new ZipFile(entry.toFile())) {
        zip.size();
      } catch (IOException | RuntimeException e) {
        problems.add(
            entry
                + " ("
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                + ")");
      }
    }
    return problems;
  }

  /** The message for a build whose class path has unreadable jars. */
  public static String message(String what, List<String> problems) {
    return "lockjaw cannot "
        + what
        + ": "
        + (problems.size() == 1 ? "this jar" : "these jars")
        + " cannot be read (not"
        + " a valid jar or zip file):\n  "
        + String.join("\n  ", problems)
        + "\nThe file is damaged, often by an"
        + " interrupted download. Delete it from the local repository (~/.m2/repository) so that Maven downloads it"
        + " again, then rerun; mvn compile fails on it too.";
  }
}
