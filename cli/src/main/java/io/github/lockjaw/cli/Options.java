package io.github.lockjaw.cli;

import io.github.lockjaw.contention.ContentionGate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parsed command line: {@code COMMAND [--recording FILE]... [--baseline FILE]... [--format F]
 * [--output FILE] [--fail-above SHARE] [--fail-on-regression] PATH...}.
 *
 * @param baselines contention: the evidence of an earlier run to compare with; empty for none
 * @param gate contention: when the report fails (exit 1); {@link ContentionGate#OFF} by default
 */
record Options(
    String command,
    List<Path> recordings,
    List<Path> baselines,
    String format,
    Path output,
    ContentionGate gate,
    List<Path> paths) {
  static final List<String> FORMATS = List.of("text", "markdown", "sarif", "html");

  static Options parse(String[] args) throws CliException {
    if (args.length == 0) {
      throw new CliException(
          Main.USAGE_ERROR, "No command given. Run with --help to see the commands.");
    }
    String command = args[0];
    if (!command.equals("audit") && !command.equals("contention")) {
      throw new CliException(
          Main.USAGE_ERROR,
          "Unknown command '"
              + command
              + "'; the commands are audit and contention (--help shows how to use them).");
    }
    List<Path> recordings = new ArrayList<>();
    List<Path> baselines = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    String format = "text";
    Path output = null;
    double failAbove = -1;
    boolean failOnRegression = false;
    boolean onlyPaths = false;
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
      switch (name) {
        case "--" -> onlyPaths = true;
        case "--fail-on-regression" -> failOnRegression = true;
        case "--recording", "--baseline", "--format", "--output", "--fail-above" -> {
          if (value == null) {
            if (i + 1 >= args.length) {
              throw new CliException(
                  Main.USAGE_ERROR, name + " needs a value, e.g. " + example(name) + ".");
            }
            value = args[++i];
          }
          switch (name) {
            case "--recording" -> recordings.add(Path.of(value));
            case "--baseline" -> baselines.add(Path.of(value));
            case "--format" -> format = value.toLowerCase(Locale.ROOT);
            case "--fail-above" -> {
              try {
                failAbove = ContentionGate.parseShare(value);
              } catch (IllegalArgumentException e) {
                throw new CliException(Main.USAGE_ERROR, "--fail-above: " + e.getMessage());
              }
            }
            default -> output = Path.of(value);
          }
        }
        default ->
            throw new CliException(
                Main.USAGE_ERROR,
                "Unknown option '" + arg + "' for " + command + "; --help lists the options.");
      }
    }
    if (!FORMATS.contains(format)) {
      throw new CliException(
          Main.USAGE_ERROR,
          "--format is '"
              + format
              + "'; use text, markdown, sarif or html (html: contention only).");
    }
    if (command.equals("audit")) {
      if (!recordings.isEmpty()
          || !baselines.isEmpty()
          || failAbove >= 0
          || failOnRegression
          || format.equals("html")) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--recording, --baseline, --fail-above, --fail-on-regression and --format html belong to"
                + " the contention command: lockjaw contention --recording FILE PATH...");
      }
      if (paths.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "audit needs at least one PATH: a jar, a WAR or EAR file, or a"
                + " WEB-INF/lib or WEB-INF/classes directory (or the exploded application's directory).");
      }
    } else {
      if (recordings.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "contention needs the evidence: --recording FILE with a JFR recording,"
                + " a thread dump (jcmd PID Thread.print > dump.txt) or a directory of them; then the application's jars,"
                + " WAR/EAR or class directories as PATHs.");
      }
      if (failOnRegression && baselines.isEmpty()) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--fail-on-regression compares with an earlier run: add --baseline FILE with that run's"
                + " recording or dumps.");
      }
    }
    return new Options(
        command,
        List.copyOf(recordings),
        List.copyOf(baselines),
        format,
        output,
        new ContentionGate(failAbove, failOnRegression),
        List.copyOf(paths));
  }

  private static String example(String option) {
    return switch (option) {
      case "--recording" -> "--recording load.jfr";
      case "--baseline" -> "--baseline before.jfr";
      case "--format" -> "--format markdown";
      case "--fail-above" -> "--fail-above 10%";
      default -> "--output report.md";
    };
  }
}
