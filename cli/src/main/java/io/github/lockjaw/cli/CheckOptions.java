package io.github.lockjaw.cli;

import java.io.File;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The options of {@code check [--classpath CP] [--release N] [--encoding E] [--baseline FILE
 * [--write-baseline]] [--fix] PATH...}.
 *
 * @param classpath the class path entries as given: jars, directories, {@code lib/*} globs
 * @param release the Java release to compile at ({@code --release N}), or null for the running
 *     JDK's
 * @param encoding the sources' charset
 * @param baseline the baseline file, or null
 * @param writeBaseline write the current findings to the baseline instead of reporting
 * @param fix apply the suggested fixes
 */
record CheckOptions(
    List<String> classpath,
    String release,
    Charset encoding,
    Path baseline,
    boolean writeBaseline,
    boolean fix) {
  static final String COMMAND = "check";

  static final Set<String> OPTIONS =
      Set.of("--classpath", "--release", "--encoding", "--baseline", "--write-baseline", "--fix");

  static final List<String> FORMATS = List.of("text", "markdown", "sarif", "html");

  static final CheckOptions NONE = new CheckOptions(List.of(), null, null, null, false, false);

  /** Collects check's options while the command line is read. */
  static final class Builder {
    private final List<String> classpath = new ArrayList<>();
    private String release;
    private Charset encoding;
    private Path baseline;
    private boolean writeBaseline;
    private boolean fix;

    /** Reads option {@code name} at {@code args[i]}; returns the index of its last argument. */
    int parse(String[] args, int i, String name, String inlineValue) throws CliException {
      if (name.equals("--fix") || name.equals("--write-baseline")) {
        if (inlineValue != null) {
          throw new CliException(Main.USAGE_ERROR, name + " takes no value.");
        }
        if (name.equals("--fix")) {
          fix = true;
        } else {
          writeBaseline = true;
        }
        return i;
      }
      String value = inlineValue;
      int last = i;
      if (value == null) {
        if (i + 1 >= args.length) {
          throw new CliException(
              Main.USAGE_ERROR, name + " needs a value, e.g. " + example(name) + ".");
        }
        value = args[++last];
      }
      switch (name) {
        case "--classpath" -> {
          for (String entry : value.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
              classpath.add(entry.trim());
            }
          }
        }
        case "--release" -> {
          String trimmed = value.trim();
          if (!trimmed.matches("\\d+") || Integer.parseInt(trimmed) < 8) {
            throw new CliException(
                Main.USAGE_ERROR,
                "--release is '"
                    + value
                    + "'; give the Java release the sources are written for, 8 or newer (e.g."
                    + " --release 11).");
          }
          int running = Runtime.version().feature();
          if (Integer.parseInt(trimmed) > running) {
            throw new CliException(
                Main.USAGE_ERROR,
                "--release "
                    + trimmed
                    + " is newer than the Java "
                    + running
                    + " running lockjaw, whose javac compiles for releases 8 to "
                    + running
                    + ". Run lockjaw with a newer Java.");
          }
          release = trimmed;
        }
        case "--encoding" -> {
          try {
            encoding = Charset.forName(value.trim());
          } catch (RuntimeException e) {
            throw new CliException(
                Main.USAGE_ERROR,
                "--encoding is '"
                    + value
                    + "', which is no charset; use e.g. UTF-8 or ISO-8859-1.");
          }
        }
        default -> baseline = Path.of(value);
      }
      return last;
    }

    CheckOptions build(List<Path> paths, List<Path> recordings) throws CliException {
      if (!recordings.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--recording belongs to the contention command: lockjaw contention --recording FILE"
                + " PATH...");
      }
      if (paths.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "check needs at least one PATH: a Java source file or a directory of them (e.g."
                + " src/main/java).");
      }
      if (writeBaseline && baseline == null) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--write-baseline needs --baseline FILE: the file to write the current findings to.");
      }
      if (writeBaseline && fix) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--write-baseline and --fix do not go together: fix first, then accept what is left.");
      }
      return new CheckOptions(
          List.copyOf(classpath), release, encoding, baseline, writeBaseline, fix);
    }

    private static String example(String option) {
      return switch (option) {
        case "--classpath" -> "--classpath 'lib/*" + File.pathSeparator + "build/classes'";
        case "--release" -> "--release 11";
        case "--encoding" -> "--encoding ISO-8859-1";
        default -> "--baseline lockjaw-baseline.json";
      };
    }
  }
}
