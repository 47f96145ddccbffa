package io.github.lockjaw.lsp;

import java.io.Console;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.ExecutionException;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * {@code java -jar lockjaw-language-server.jar}: LSP over standard input and output. Anything else
 * written to standard output (e.g. by a library) would corrupt the protocol, so it goes to standard
 * error, where editors show a language server's log.
 */
public final class LockjawLanguageServerLauncher {
  private LockjawLanguageServerLauncher() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length > 0) {
      boolean help = args[0].equals("--help") || args[0].equals("-h");
      boolean version = args[0].equals("--version");
      if (version) {
        System.out.println("lockjaw-language-server " + Version.current());
        return;
      }
      (help ? System.out : System.err)
          .println(
              "lockjaw-language-server speaks the Language Server Protocol over standard input and output and"
                  + " takes no arguments: an editor starts it as 'java -jar lockjaw-language-server-<version>.jar'"
                  + " (JDK 21 or newer) and talks to it; see docs/ide.md for VS Code, IntelliJ IDEA, Neovim and"
                  + " Eclipse. Options go in the client's initializationOptions: mavenExecutable, debounceMillis,"
                  + " classpathTimeoutSeconds.");
      System.exit(help ? 0 : 2);
    }
    if (!javacInternalsOpen()) {
      System.err.println(
          "lockjaw-language-server needs javac's internal packages, which this JVM does not export to it."
              + " Start it with 'java -jar lockjaw-language-server-<version>.jar' (the jar's manifest exports"
              + " them) on a JDK 21 or newer, not with 'java -cp', or add the --add-exports flags listed in"
              + " docs/ide.md.");
      System.exit(2);
    }
    quietProtocolLog();
    if (interactive()) {
      System.err.println(
          "lockjaw-language-server: waiting for a Language Server Protocol client on standard input."
              + " An editor starts this server and talks to it (see docs/ide.md); typing to it does"
              + " nothing useful. Ctrl+C ends it.");
    }
    InputStream in = System.in;
    PrintStream out = System.out;
    System.setOut(System.err);
    LockjawLanguageServer server = new LockjawLanguageServer(System::exit);
    Launcher<LanguageClient> launcher = LSPLauncher.createServerLauncher(server, in, out);
    server.connect(launcher.getRemoteProxy());
    try {
      launcher.startListening().get();
    } catch (ExecutionException e) {
      System.err.println("lockjaw-language-server: the connection failed: " + e.getCause());
      System.exit(1);
    }
    // The client closed the connection without 'exit'.
    System.exit(1);
  }

  /**
   * LSP4J reports input it cannot read (plain text typed on standard input, a broken message) and
   * other protocol trouble through java.util.logging, with a stack trace; one paragraph instead.
   */
  static void quietProtocolLog() {
    PROTOCOL_LOG.setUseParentHandlers(false);
    Handler oneParagraph =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (isLoggable(record)) {
              System.err.println(describe(record));
            }
          }

          @Override
          public void flush() {
            System.err.flush();
          }

          @Override
          public void close() {}
        };
    oneParagraph.setLevel(Level.WARNING);
    PROTOCOL_LOG.addHandler(oneParagraph);
  }

  private static final Logger PROTOCOL_LOG = Logger.getLogger("org.eclipse.lsp4j");
  private static final int MAX_DETAIL = 160;

  /** A logged protocol problem in one paragraph, without a stack trace. */
  static String describe(LogRecord record) {
    String message = record.getMessage() == null ? "" : record.getMessage();
    Throwable thrown = record.getThrown();
    String detail =
        message.isBlank() && thrown != null ? String.valueOf(thrown.getMessage()) : message;
    detail =
        detail
            .replaceAll("\\s+", " ")
            .replaceFirst("^([\\w$]+\\.)+[\\w$]*(Exception|Error): ", "")
            .strip();
    int see = detail.indexOf(" See http"); // gson's troubleshooting link
    if (see > 0) {
      detail = detail.substring(0, see);
    }
    if (detail.length() > MAX_DETAIL) {
      detail = detail.substring(0, MAX_DETAIL) + "...";
    }
    boolean unreadable =
        String.valueOf(record.getSourceClassName()).endsWith("StreamMessageProducer")
            || detail.contains("Content-Length")
            || (thrown != null && thrown.getClass().getName().contains("Json"));
    if (unreadable) {
      return "lockjaw-language-server: ignored input that is not a Language Server Protocol message ("
          + detail
          + "). The server reads LSP messages (a Content-Length header, then JSON) on standard input"
          + " from an editor, which starts it; see docs/ide.md.";
    }
    return "lockjaw-language-server: " + detail;
  }

  /** Whether standard input is a terminal (someone typing), as far as this JDK can tell. */
  private static boolean interactive() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console); // JDK 22+
    } catch (ReflectiveOperationException | RuntimeException e) {
      return true; // JDK 21: a console only for a terminal
    }
  }

  private static boolean javacInternalsOpen() {
    Module compiler = ModuleLayer.boot().findModule("jdk.compiler").orElse(null);
    return compiler != null
        && compiler.isExported(
            "com.sun.tools.javac.api", LockjawLanguageServerLauncher.class.getModule())
        && compiler.isExported(
            "com.sun.tools.javac.tree", LockjawLanguageServerLauncher.class.getModule());
  }
}
