package io.github.lockjaw.cli;

import io.github.lockjaw.contention.ContentionGate;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parsed command line: {@code COMMAND [--recording FILE]... [--baseline FILE]... [--format F]
 * [--output FILE] [--fail-above SHARE] [--fail-on-regression] PATH...}; {@code check} adds {@link
 * CheckOptions}, {@code audit} its release, cache and strictness.
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
    List<Path> paths,
    int release,
    Path cache,
    boolean strict,
    CheckOptions check) {
  static final List<String> FORMATS = List.of("text", "markdown", "sarif", "html");

  Options(String command, List<Path> recordings, String format, Path output, List<Path> paths) {
    this(
        command,
        recordings,
        List.of(),
        format,
        output,
        ContentionGate.OFF,
        paths,
        0,
        null,
        false,
        CheckOptions.NONE);
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
    List<Path> baselines = new ArrayList<>();
    double failAbove = -1;
    boolean failOnRegression = false;
    List<Path> paths = new ArrayList<>();
    String format = "text";
    Path output = null;
    int release = 0;
    Path cache = defaultCache();
    boolean strict = Boolean.getBoolean("lockjaw.strict");
    boolean onlyPaths = false;
    CheckOptions.Builder check = new CheckOptions.Builder(); // --- check (issue 24)
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (onlyPaths || !arg.startsWith("--")) {
        if (arg.isBlank()) {
          throw new CliException(
              Main.USAGE_ERROR,
              "A PATH is empty (''): an unset shell variable? Name the jar, WAR, EAR or directory"
                  + " to audit; '.' is the current directory.");
        }
        paths.add(path(arg));
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
      // (--release is audit's too: the release whose classes of a multi-release jar are read)
      if (CheckOptions.OPTIONS.contains(name)
          && (command.equals(CheckOptions.COMMAND)
              || !(name.equals("--release") || name.equals("--baseline")))) {
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
        case "--no-cache" -> cache = null;
        case "--strict" -> strict = true;
        case "--fail-on-regression" -> failOnRegression = true;
        case "--recording",
            "--baseline",
            "--format",
            "--output",
            "--release",
            "--cache",
            "--fail-above" -> {
          if (value == null) {
            if (i + 1 >= args.length) {
              throw new CliException(
                  Main.USAGE_ERROR, name + " needs a value, e.g. " + example(name) + ".");
            }
            value = args[++i];
          }
          if (value.isBlank()) {
            throw new CliException(
                Main.USAGE_ERROR, name + " is empty; give a value, e.g. " + example(name) + ".");
          }
          switch (name) {
            case "--recording" -> recordings.add(path(value));
            case "--baseline" -> baselines.add(path(value));
            case "--fail-above" -> {
              try {
                failAbove = ContentionGate.parseShare(value);
              } catch (IllegalArgumentException e) {
                throw new CliException(Main.USAGE_ERROR, "--fail-above: " + e.getMessage());
              }
            }
            case "--format" -> format = value.toLowerCase(Locale.ROOT);
            case "--release" -> release = release(value);
            case "--cache" -> cache = path(value);
            default -> output = path(value);
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
          List.of(),
          format,
          output,
          ContentionGate.OFF,
          List.copyOf(paths),
          release,
          cache,
          strict,
          check.build(paths, recordings));
    }
    // --- end of check
    if (!FORMATS.contains(format)) {
      throw new CliException(
          Main.USAGE_ERROR,
          "--format is '"
              + format
              + "'; use text, markdown, sarif or html (html: contention and check only).");
    }
    if (command.equals("audit")) {
      if (format.equals("html")) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--format html is for the check and contention commands; for audit use text, markdown"
                + " or sarif.");
      }
      if (!recordings.isEmpty() || !baselines.isEmpty() || failAbove >= 0 || failOnRegression) {
        throw new CliException(
            Main.USAGE_ERROR,
            "--recording, --baseline, --fail-above and --fail-on-regression belong to"
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
        List.copyOf(paths),
        release,
        cache,
        strict,
        CheckOptions.NONE);
  }

  private static int release(String value) throws CliException {
    try {
      int release = Integer.parseInt(value.trim());
      if (release >= 8 && release <= 99) {
        return release;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new CliException(
        Main.USAGE_ERROR,
        "--release is '"
            + value
            + "'; give the Java release the application runs on, e.g. --release 17 (8 to 99).");
  }

  /**
   * A path from the command line. A name the file system's encoding cannot hold (a non-ASCII name
   * under LANG=C, when the launcher could not switch to UTF-8) is a clear input error.
   */
  static Path path(String value) throws CliException {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new CliException(
          Main.INPUT_ERROR,
          "'"
              + value
              + "' cannot be used as a file name here: this Java runtime reads file names as "
              + System.getProperty("sun.jnu.encoding", "?")
              + " (the locale is LANG="
              + System.getenv().getOrDefault("LANG", "")
              + "). Run lockjaw under a UTF-8 locale, e.g. LC_ALL=C.UTF-8 java -jar lockjaw-cli.jar ...");
    }
  }

  /**
   * The per-user cache of audit results: $XDG_CACHE_HOME/lockjaw/audit or ~/.cache/lockjaw/audit.
   */
  static Path defaultCache() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    try {
      if (xdg != null && !xdg.isBlank()) {
        return Path.of(xdg, "lockjaw", "audit");
      }
      return Path.of(System.getProperty("user.home"), ".cache", "lockjaw", "audit");
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static String example(String option) {
    return switch (option) {
      case "--recording" -> "--recording load.jfr";
      case "--format" -> "--format markdown";
      case "--release" -> "--release 17";
      case "--cache" -> "--cache ~/.cache/lockjaw/audit";
      case "--baseline" -> "--baseline before.jfr";
      case "--fail-above" -> "--fail-above 10%";
      default -> "--output report.md";
    };
  }
}
