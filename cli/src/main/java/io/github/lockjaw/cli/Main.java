package io.github.lockjaw.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * lockjaw's command-line tool: {@code check} runs the source checks over Java files without a
 * build; for the application as it is deployed, {@code audit} finds lockjaw's anti-patterns in its
 * jars, WAR/EAR and classes; {@code contention} ranks the locks a JFR recording or thread dumps saw
 * threads wait on, each tied to the finding that covers it.
 */
public final class Main {
  /** audit: no findings; contention: the report was written. */
  static final int OK = 0;

  /** audit: findings reported. */
  static final int FINDINGS = 1;

  /** Wrong usage: unknown command or option, missing PATH or --recording. */
  static final int USAGE_ERROR = 2;

  /** An input cannot be read: a missing file, not a jar, a corrupt recording. */
  static final int INPUT_ERROR = 3;

  /** lockjaw itself failed. */
  static final int FAILURE = 4;

  static final String HELP =
      """
      lockjaw: finds the Java concurrency anti-patterns that make servers collapse under load,
      in Java sources, in an application's jars and classes, and ranks the locks a load test saw
      threads wait on.

      Usage:
        java -jar lockjaw-cli.jar check [--classpath CP] [--release N] [--fix] [options] PATH...
        java -jar lockjaw-cli.jar audit [options] PATH...
        java -jar lockjaw-cli.jar contention --recording FILE [options] [PATH...]

      Commands:
        check        run lockjaw's source checks over the Java files in PATH... (files or
                     directories) without a build, as lockjaw:check does, and show each fix
        audit        find lockjaw's anti-patterns in the bytecode of PATH... and say how to fix
                     them (for a library: the release that fixed it)
        contention   read a JFR recording or thread dumps, rank the contended lock sites by blocked
                     time (JFR) or waiting threads (dumps), and tie each to the finding in PATH...
                     that covers it, or "no finding"

      check's PATH: a .java file or a directory of them (src, src/main/java).
      audit's and contention's PATH: a jar; a WAR or EAR file; an exploded application (its WEB-INF/classes and
      WEB-INF/lib are read); a WEB-INF/lib or WEB-INF/classes directory; any directory of jars or
      class files.

      check's options:
        --classpath CP     the jars and class directories the sources compile against, separated
                           by ':' (';' on Windows); 'lib/*' (quoted) is every jar in lib; may be
                           given more than once. Classes it lacks are named once ("analysed
                           without: ...") and the analysis goes on with what resolves
        --release N        compile at Java release N (default: the running Java's)
        --encoding E       the sources' charset (default UTF-8)
        --fix              apply the suggested fixes in place, as lockjaw:fix does: each file is
                           written whole, and a file whose fix does not compile is restored
        --baseline FILE    findings listed in FILE are reported as baselined and do not count
        --write-baseline   write the current findings to the --baseline FILE
        --format html      check also writes a self-contained HTML page

      Options:
        --recording FILE   contention: a JFR recording (.jfr), a thread dump (jcmd PID Thread.print,
                           jstack PID, or a server log with kill -3 dumps), or a directory of them;
                           may be given more than once
        --format FORMAT    text (default), markdown or sarif (SARIF 2.1.0; contention adds the observed
                           figures as result properties)
        --output FILE      write the report to FILE instead of the terminal
        --help             show this help

      Exit codes:
        0  check, audit: no (new) findings; contention: the report was written
        1  check, audit: findings were reported
        2  wrong usage: unknown command or option, missing PATH or --recording
        3  an input cannot be read: a missing file, not a jar, a corrupt or truncated recording;
           check: sources that do not compile (for another reason than missing classes)
        4  lockjaw failed; please report it with the message

      How to record: docs/contention.md. The tool itself: docs/cli.md.
      """;

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs a command with the process's standard streams; returns the exit code. */
  public static int run(String[] args) {
    return run(args, System.out, System.err);
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    for (String arg : args) {
      if (arg.equals("--help") || arg.equals("-h") || arg.equals("help")) {
        out.print(HELP);
        return OK;
      }
    }
    try {
      Options options = Options.parse(args);
      Report report =
          switch (options.command()) {
            case CheckOptions.COMMAND -> new CheckCommand(err).run(options); // issue 24
            case "audit" -> new AuditCommand(err).run(options);
            default -> new ContentionCommand(err).run(options);
          };
      write(options.output(), report.text(), out);
      if (options.output() != null) {
        err.println("lockjaw: " + report.summary() + "; report written to " + options.output());
      }
      return report.exitCode();
    } catch (CliException e) {
      err.println("lockjaw: " + e.getMessage());
      return e.exitCode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("lockjaw: interrupted.");
      return FAILURE;
    } catch (RuntimeException | IOException | LinkageError e) {
      err.println(
          "lockjaw failed unexpectedly: " + e + ". Please report this, with the command line.");
      return FAILURE;
    }
  }

  private static void write(Path output, String text, PrintStream out) throws CliException {
    if (output == null) {
      out.print(text);
      out.flush();
      return;
    }
    try {
      Path parent = output.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(output, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException(
          INPUT_ERROR, "lockjaw cannot write " + output + ": " + e.getMessage() + ".");
    }
  }

  /** What a command produced: the rendered report, a one-line summary, the exit code. */
  record Report(String text, String summary, int exitCode) {}
}
