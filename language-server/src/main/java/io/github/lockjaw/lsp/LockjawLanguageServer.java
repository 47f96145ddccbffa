package io.github.lockjaw.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.SaveOptions;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * lockjaw's language server: full-text document sync, diagnostics published after each open, save
 * and (debounced) change, quick fixes and suppress actions as code actions.
 *
 * <p>Initialization options (all optional): {@code mavenExecutable} (the {@code mvn} that resolves
 * class paths), {@code debounceMillis} (quiet time after an edit before analysing, default 300),
 * {@code classpathTimeoutSeconds} (how long Maven may take to resolve a class path, default 120).
 */
public final class LockjawLanguageServer implements LanguageServer, LanguageClientAware {
  static final int DEFAULT_DEBOUNCE_MILLIS = 300;

  private final IntConsumer exit;
  private final Documents documents = new Documents();
  private final Workspace workspace = new Workspace(documents);
  private volatile boolean shutdownRequested;

  /**
   * @param exit ends the process with the given status when the client sends {@code exit}
   */
  public LockjawLanguageServer(IntConsumer exit) {
    this.exit = exit;
  }

  @Override
  public void connect(LanguageClient client) {
    documents.connect(client);
  }

  @Override
  public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
    List<Path> folders = new ArrayList<>();
    if (params.getWorkspaceFolders() != null) {
      for (WorkspaceFolder folder : params.getWorkspaceFolders()) {
        toPath(folder.getUri(), folders);
      }
    }
    if (folders.isEmpty() && params.getRootUri() != null) {
      toPath(params.getRootUri(), folders);
    }
    String maven = null;
    int debounce = DEFAULT_DEBOUNCE_MILLIS;
    long timeout = Projects.DEFAULT_TIMEOUT_SECONDS;
    if (params.getInitializationOptions() instanceof JsonObject options) {
      maven = string(options.get("mavenExecutable"));
      debounce = (int) number(options.get("debounceMillis"), debounce, 0);
      timeout = number(options.get("classpathTimeoutSeconds"), timeout, 1);
    }
    boolean watchDynamically =
        params.getCapabilities() != null
            && params.getCapabilities().getWorkspace() != null
            && params.getCapabilities().getWorkspace().getDidChangeWatchedFiles() != null
            && Boolean.TRUE.equals(
                params
                    .getCapabilities()
                    .getWorkspace()
                    .getDidChangeWatchedFiles()
                    .getDynamicRegistration());
    workspace.watchPoms(watchDynamically);
    documents.configure(folders, maven, debounce, timeout);

    TextDocumentSyncOptions sync = new TextDocumentSyncOptions();
    sync.setOpenClose(true);
    sync.setChange(TextDocumentSyncKind.Full);
    sync.setSave(new SaveOptions(true));
    ServerCapabilities capabilities = new ServerCapabilities();
    capabilities.setTextDocumentSync(sync);
    capabilities.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix)));
    return CompletableFuture.completedFuture(
        new InitializeResult(capabilities, new ServerInfo("lockjaw", Version.current())));
  }

  @Override
  public void initialized(InitializedParams params) {
    if (workspace.watchesPoms()) {
      FileSystemWatcher poms = new FileSystemWatcher(Either.forLeft("**/pom.xml"));
      documents
          .client()
          .registerCapability(
              new RegistrationParams(
                  List.of(
                      new Registration(
                          "lockjaw-poms",
                          "workspace/didChangeWatchedFiles",
                          new DidChangeWatchedFilesRegistrationOptions(List.of(poms))))));
    }
  }

  @Override
  public CompletableFuture<Object> shutdown() {
    shutdownRequested = true;
    documents.stop();
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void exit() {
    documents.stop();
    exit.accept(shutdownRequested ? 0 : 1);
  }

  @Override
  public TextDocumentService getTextDocumentService() {
    return documents;
  }

  @Override
  public WorkspaceService getWorkspaceService() {
    return workspace;
  }

  /** For tests and the benchmark: waits until every scheduled analysis has published. */
  public void awaitIdle() throws InterruptedException {
    documents.awaitIdle();
  }

  private static void toPath(String uri, List<Path> into) {
    try {
      URI parsed = URI.create(uri);
      if ("file".equals(parsed.getScheme())) {
        into.add(Path.of(parsed));
      }
    } catch (RuntimeException e) {
      // not a file: no project model from it
    }
  }

  /** A whole number option, at least {@code min}; the default when absent or not a number. */
  private static long number(JsonElement element, long otherwise, long min) {
    String text = string(element);
    if (text == null) {
      return otherwise;
    }
    try {
      return Math.max(min, (long) Double.parseDouble(text.trim()));
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  private static String string(JsonElement element) {
    return element == null || element.isJsonNull() || !element.isJsonPrimitive()
        ? null
        : element.getAsString();
  }
}
