package io.github.lockjaw.lsp;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.ExecutionException;
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
                  + " Eclipse. Options go in the client's initializationOptions: mavenExecutable, debounceMillis.");
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

  private static boolean javacInternalsOpen() {
    Module compiler = ModuleLayer.boot().findModule("jdk.compiler").orElse(null);
    return compiler != null
        && compiler.isExported(
            "com.sun.tools.javac.api", LockjawLanguageServerLauncher.class.getModule())
        && compiler.isExported(
            "com.sun.tools.javac.tree", LockjawLanguageServerLauncher.class.getModule());
  }
}
