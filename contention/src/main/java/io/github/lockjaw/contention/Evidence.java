package io.github.lockjaw.contention;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads contention evidence: JFR recordings, thread dumps (one or several per file), or directories
 * of them, told apart by their content, not their names.
 *
 * <pre>{@code
 * Observations seen = Evidence.read(List.of(Path.of("load.jfr")));
 * }</pre>
 */
public final class Evidence {
  private Evidence() {}

  /**
   * Reads every path into one set of observations. A file given by name must be a recording or a
   * dump; in a directory, other files are skipped with a note.
   *
   * @throws EvidenceException with a one-paragraph message when a file cannot be read, or nothing
   *     was
   */
  public static Observations read(List<Path> paths) throws EvidenceException {
    Observations observations = new Observations();
    if (paths.isEmpty()) {
      throw new EvidenceException(
          "No contention evidence given: pass a JFR recording, a thread dump or a directory"
              + " of them (see docs/contention.md for how to record them).");
    }
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        readDirectory(path, observations);
      } else {
        readFile(path, observations, true);
      }
    }
    return observations;
  }

  private static void readDirectory(Path directory, Observations into) throws EvidenceException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(directory, 4)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new EvidenceException(
          "lockjaw cannot list the directory " + directory + ": " + e.getMessage() + ".", e);
    }
    int read = 0;
    List<String> skipped = new ArrayList<>();
    for (Path file : files) {
      try {
        if (readFile(file, into, false)) {
          read++;
        } else {
          skipped.add(directory.relativize(file).toString());
        }
      } catch (EvidenceException e) {
        into.note(e.getMessage() + " (skipped)");
      }
    }
    if (read == 0) {
      throw new EvidenceException(
          "The directory "
              + directory
              + " holds no JFR recording and no thread dump lockjaw"
              + " can read ("
              + files.size()
              + " file(s) looked at). Put the .jfr files or the dumps of jcmd PID"
              + " Thread.print / jstack PID there, or pass the files themselves.");
    }
    if (!skipped.isEmpty()) {
      into.note(
          "Skipped "
              + skipped.size()
              + " file(s) in "
              + directory
              + " that are neither JFR recordings nor thread"
              + " dumps: "
              + String.join(", ", skipped.subList(0, Math.min(5, skipped.size())))
              + (skipped.size() > 5 ? ", ..." : "")
              + ".");
    }
  }

  /** Reads one file; returns false when it is neither kind and {@code mustBeEvidence} is false. */
  private static boolean readFile(Path file, Observations into, boolean mustBeEvidence)
      throws EvidenceException {
    if (!Files.exists(file)) {
      throw new EvidenceException(
          "The contention evidence "
              + file
              + " does not exist. Pass the path of a JFR recording"
              + " (.jfr), a thread dump, or a directory of them.");
    }
    if (!Files.isReadable(file)) {
      throw new EvidenceException("lockjaw may not read " + file + "; check its permissions.");
    }
    String head = head(file);
    try {
      if (JfrReader.looksLikeRecording(file)) {
        new JfrReader().read(file, into);
        return true;
      }
      if (ThreadDumpJsonReader.looksLikeJsonDump(head)) {
        new ThreadDumpJsonReader().read(file, into);
        return true;
      }
      if (JavacoreReader.looksLikeJavacore(head)) {
        new JavacoreReader().read(file, into);
        return true;
      }
      if (ThreadDumpReader.looksLikeDump(file)) {
        new ThreadDumpReader().read(file, into);
        return true;
      }
    } catch (IOException e) {
      throw new EvidenceException("lockjaw cannot read " + file + ": " + e.getMessage() + ".", e);
    }
    if (!mustBeEvidence) {
      return false;
    }
    String name = file.getFileName().toString();
    String hint =
        head.startsWith("JAVA PROFILE") || name.endsWith(".hprof")
            ? " It is a heap dump, which shows no waiting threads."
            : head.startsWith("\u001f\u008b") || name.endsWith(".gz")
                ? " It is compressed: gunzip it first."
                : name.endsWith(".jfr")
                    ? " Its name says JFR, but it does not start with a JFR chunk header: it is corrupt,"
                        + " or was compressed (gunzip it first)."
                    : head.stripLeading().startsWith("{")
                        ? " It is JSON, but not a jcmd Thread.dump_to_file dump (no \"threadDump\" object)."
                        : "";
    throw new EvidenceException(
        file
            + " is neither a JFR recording nor a thread dump lockjaw reads."
            + hint
            + " lockjaw reads .jfr files (-XX:StartFlightRecording, jcmd PID JFR.dump); the text of jcmd PID"
            + " Thread.print, jstack PID or kill -3 PID (also inside a server log), JDK 8 to 25; jcmd PID"
            + " Thread.dump_to_file in its text and JSON formats (virtual threads, JDK 21+); and OpenJ9 or IBM"
            + " javacore files. See docs/contention.md.");
  }

  /** The first bytes of a file as ISO-8859-1 text, to name a format lockjaw does not read. */
  private static String head(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(4096), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }
}
