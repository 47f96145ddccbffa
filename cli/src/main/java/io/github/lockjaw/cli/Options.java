package io.github.lockjaw.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parsed command line: {@code COMMAND [--recording FILE]... [--format F] [--output FILE]
 * PATH...}; {@code check} adds {@link CheckOptions}.
 */
record Options(
    String command,
    List<Path> recordings,
    String format,
    Path output,
    List<Path> paths,
    CheckOptions check) {
  static final List<String> FORMATS = List.of("text", "markdown", "sarif");

  Options(String command, List<Path> recordings, String format, Path output, List<Path> paths) {
    this(command, recordings, format, output, paths, CheckOptions.NONE);
  }

  static Options parse(String[] args) throws CliException {
    if (args.length == 0) {
      throw new CliException(
          Main.USAGE_ERROR, "No command given. Run with --help to see the commands.");
    }
    String command = args[0];
    if (!command.equals("audit")
        && !command.equals("contention")
        && !command.equals(CheckOptions.COMMAND)) {
      throw new CliException(
          Main.USAGE_ERROR,
          "Unknown command '"
              + command
              + "'; the commands are check, audit and contention (--help shows how to use them).");
    }
    List<Path> recordings = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    String format = "text";
    Path output = null;
    boolean onlyPaths = false;
    CheckOptions.Builder check = new CheckOptions.Builder(); // --- check (issue 24)
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (onlyPaths || !arg.startsWith("--")) {
        paths.add(Path.of(arg));
        continue;
      }
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      // --- check (issue 24): its options, parsed by CheckOptions
      if (CheckOptions.OPTIONS.contains(name)) {
        if (!command.equals(CheckOptions.COMMAND)) {
          throw new CliException(
              Main.USAGE_ERROR,
              name + " belongs to the check command (lockjaw check [options] PATH...).");
        }
        i = check.parse(args, i, name, value);
        continue;
      }
      // --- end of check's options
      switch (name) {
        case "--" -> onlyPaths = true;
        case "--recording", "--format", "--output" -> {
          if (value == null) {
            if (i + 1 >= args.length) {
              throw new CliException(
                  Main.USAGE_ERROR, name + " needs a value, e.g. " + example(name) + ".");
            }
            value = args[++i];
          }
          switch (name) {
            case "--recording" -> recordings.add(Path.of(value));
            case "--format" -> format = value.toLowerCase(Locale.ROOT);
            default -> output = Path.of(value);
          }
        }
        default ->
            throw new CliException(
                Main.USAGE_ERROR,
                "Unknown option '" + arg + "' for " + command + "; --help lists the options.");
      }
    }
    // --- check (issue 24): html too
    if (command.equals(CheckOptions.COMMAND)) {
      if (!CheckOptions.FORMATS.contains(format)) {
        throw new CliException(
            Main.USAGE_ERROR, "--format is '" + format + "'; use text, markdown, sarif or html.");
      }
      return new Options(
          command,
          List.copyOf(recordings),
          format,
          output,
          List.copyOf(paths),
          check.build(paths, recordings));
    }
    // --- end of check
    if (!FORMATS.contains(format)) {
      throw new CliException(
          Main.USAGE_ERROR, "--format is '" + format + "'; use text, markdown or sarif.");
    }
    if (command.equals("audit")) {
      if (!recordings.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--recording belongs to the contention command: lockjaw contention"
                + " --recording FILE PATH...");
      }
      if (paths.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "audit needs at least one PATH: a jar, a WAR or EAR file, or a"
                + " WEB-INF/lib or WEB-INF/classes directory (or the exploded application's directory).");
      }
    } else if (recordings.isEmpty()) {
      throw new CliException(
          Main.USAGE_ERROR,
          "contention needs the evidence: --recording FILE with a JFR recording,"
              + " a thread dump (jcmd PID Thread.print > dump.txt) or a directory of them; then the application's jars,"
              + " WAR/EAR or class directories as PATHs.");
    }
    return new Options(command, List.copyOf(recordings), format, output, List.copyOf(paths));
  }

  private static String example(String option) {
    return switch (option) {
      case "--recording" -> "--recording load.jfr";
      case "--format" -> "--format markdown";
      default -> "--output report.md";
    };
  }
}
