package io.github.lockjaw.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * lockjaw's command-line tool: {@code check} runs the source checks over Java files without a
 * build; for the application as it is deployed, {@code audit} finds lockjaw's anti-patterns in its
 * jars, WAR/EAR and classes; {@code contention} ranks the locks a JFR recording or thread dumps saw
 * threads wait on, each tied to the finding that covers it.
 */
public final class Main {
  /** audit: no findings; contention: the report was written. */
  static final int OK = 0;

  /** audit: findings reported; contention: the gate failed. */
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
        java -jar lockjaw-cli.jar contention --recording FILE [--baseline FILE] [options] [PATH...]

      Commands:
        check        run lockjaw's source checks over the Java files in PATH... (files or
                     directories) without a build, as lockjaw:check does, and show each fix
        audit        find lockjaw's anti-patterns in the bytecode of PATH... and say how to fix
                     them (for a library: the release that fixed it)
        contention   read a JFR recording or thread dumps, rank the contended lock sites by blocked
                     time (JFR) or waiting threads (dumps), name who held each lock and what it
                     did, and tie each site to the finding in PATH... that covers it, or "no finding"

      check's PATH: a .java file or a directory of them (src, src/main/java).
      audit's and contention's PATH: a jar (a Spring Boot executable jar: BOOT-INF/classes and
      BOOT-INF/lib; a shaded jar: each bundled library named); a WAR (WEB-INF/classes, WEB-INF/lib,
      WEB-INF/lib-provided) or EAR file; an exploded application; a directory of applications
      (webapps/); a Quarkus quarkus-app/ directory; a WEB-INF/lib or WEB-INF/classes directory; any
      directory of jars or class files.

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
                           jstack PID, a server log with kill -3 dumps, jcmd PID Thread.dump_to_file
                           in text or JSON, an OpenJ9 javacore), or a directory of them; may be given
                           more than once
        --baseline FILE    contention: the recording or dumps of an earlier run; each site is marked
                           new, worse, better, gone or unchanged, per second of recording or per dump
        --fail-above SHARE contention: exit 1 when a site tied to a lockjaw finding blocks threads for
                           more than SHARE of the recording, e.g. 10% (100% = one thread all the time;
                           from dumps, one waiting thread per dump)
        --fail-on-regression
                           contention, with --baseline: exit 1 when a site is new or worse
        --format FORMAT    text (default), markdown, sarif (SARIF 2.1.0; contention adds the observed
                           figures as result properties) or html (contention: one self-contained page
                           with a bar chart, the holders and the fixes)
        --output FILE      write the report to FILE instead of the terminal
        --release N        audit: read multi-release jars as Java N loads them (default: the newest
                           release each jar has)
        --cache DIR        audit: keep per-jar results in DIR (default ~/.cache/lockjaw/audit);
                           --no-cache reads every jar again
        --strict           audit: fail (exit 3, or 4 when a detector failed) when a class could not
                           be analysed; -Dlockjaw.strict=true does the same
        --help             show this help

      Exit codes:
        0  check, audit: no (new) findings; contention: the report was written (findings alone
           never fail it)
        1  check, audit: findings were reported; contention: the gate (--fail-above,
           --fail-on-regression) failed
        2  wrong usage: unknown command or option, missing PATH or --recording
        3  an input cannot be read: a missing file, not a jar, a corrupt or truncated recording,
           nothing to audit, an archive past a size limit (a zip bomb; see docs/cli.md);
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
      preflight(options);
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
    } catch (OutOfMemoryError e) {
      err.println(
          "lockjaw ran out of memory ("
              + Runtime.getRuntime().maxMemory() / (1024 * 1024)
              + " MB heap). Give it more with java -Xmx4g -jar lockjaw-cli.jar ..., or audit the"
              + " application's jars in smaller groups.");
      return FAILURE;
    } catch (RuntimeException | IOException | LinkageError e) {
      err.println(
          "lockjaw failed unexpectedly: " + e + ". Please report this, with the command line.");
      return FAILURE;
    }
  }

  /**
   * Checks every input and the output before anything is read: a mistyped PATH must not wait for a
   * large recording to be read first, nor an unwritable --output for the whole audit.
   */
  static void preflight(Options options) throws CliException {
    for (Path recording : options.recordings()) {
      Targets.requireExists(recording);
    }
    for (Path path : options.paths()) {
      Targets.requireExists(path);
    }
    Path output = options.output();
    if (output == null) {
      return;
    }
    if (Files.isDirectory(output)) {
      throw new CliException(
          INPUT_ERROR,
          "--output "
              + output
              + " is a directory; name a file, e.g. "
              + output.resolve("report.txt")
              + ".");
    }
    Path parent = output.toAbsolutePath().getParent();
    Path existing = parent;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null
        || !Files.isDirectory(existing)
        || !Files.isWritable(existing)
        || (Files.exists(output) && !Files.isWritable(output))) {
      throw new CliException(
          INPUT_ERROR,
          "lockjaw cannot write --output "
              + output
              + ": "
              + (existing == null || !Files.isDirectory(existing)
                  ? "its directory cannot be created"
                  : (Files.exists(output) ? output : existing)
                      + " is not writable (permission denied)")
              + ". Choose a file in a directory you can write to.");
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
          INPUT_ERROR,
          "lockjaw cannot write "
              + output
              + " ("
              + e.getClass()
                  .getSimpleName()
                  .replaceAll("(?<=[a-z])(?=[A-Z])", " ")
                  .toLowerCase(Locale.ROOT)
              + (e.getMessage() == null ? "" : ": " + e.getMessage())
              + "). Choose a file in a directory you can write to.");
    }
  }

  /** What a command produced: the rendered report, a one-line summary, the exit code. */
  record Report(String text, String summary, int exitCode) {}
}
