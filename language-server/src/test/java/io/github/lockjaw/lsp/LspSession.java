package io.github.lockjaw.lsp;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * An LSP4J client talking JSON-RPC to a lockjaw server, either in this JVM over pipes or in a
 * launched process over its standard streams; it records what the server publishes.
 */
final class LspSession implements AutoCloseable {
  final LanguageServer server;
  final RecordingClient client = new RecordingClient();

  /** The server object, for a server in this JVM; null for a launched process. */
  LockjawLanguageServer local;

  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Launcher<LanguageServer> launcher;

  private LspSession(InputStream fromServer, OutputStream toServer) {
    launcher = LSPLauncher.createClientLauncher(client, fromServer, toServer);
    launcher.startListening();
    server = launcher.getRemoteProxy();
  }

  /** A server in this JVM, connected through a loopback socket; {@code exits} records exits. */
  static LspSession inProcess(List<Integer> exits) throws IOException {
    // A socket, as for a process's standard streams: java.io's piped streams break when the thread
    // that last wrote ends (a class-path thread of the server, say), and an NIO pipe closes when a
    // thread writing to it is interrupted (the server stopping its analysis on shutdown), which
    // stdio does not.
    Socket serverSide;
    Socket clientSide;
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      clientSide = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
      serverSide = listener.accept();
    }
    InputStream serverIn = serverSide.getInputStream();
    OutputStream clientOut = clientSide.getOutputStream();
    InputStream clientIn = clientSide.getInputStream();
    OutputStream serverOut = serverSide.getOutputStream();
    LockjawLanguageServer server = new LockjawLanguageServer(exits::add);
    Launcher<LanguageClient> serverLauncher =
        LSPLauncher.createServerLauncher(server, serverIn, serverOut);
    server.connect(serverLauncher.getRemoteProxy());
    serverLauncher.startListening();
    LspSession session = new LspSession(clientIn, clientOut);
    session.local = server;
    session.resources.add(clientSide);
    session.resources.add(serverSide);
    return session;
  }

  /** A server in the given process, connected through its standard streams. */
  static LspSession overStreams(Process process) {
    return new LspSession(process.getInputStream(), process.getOutputStream());
  }

  InitializeResult initialize(Path workspace, JsonObject options) throws Exception {
    InitializeParams params = new InitializeParams();
    params.setProcessId((int) ProcessHandle.current().pid());
    params.setCapabilities(new ClientCapabilities());
    if (workspace != null) {
      params.setWorkspaceFolders(
          List.of(new WorkspaceFolder(workspace.toUri().toString(), "workspace")));
    }
    params.setInitializationOptions(options);
    InitializeResult result = server.initialize(params).get(60, TimeUnit.SECONDS);
    server.initialized(new InitializedParams());
    return result;
  }

  void open(Path file, String text) {
    server
        .getTextDocumentService()
        .didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri(file), "java", 1, text)));
  }

  void change(Path file, int version, String text) {
    server
        .getTextDocumentService()
        .didChange(
            new DidChangeTextDocumentParams(
                new VersionedTextDocumentIdentifier(uri(file), version),
                List.of(new TextDocumentContentChangeEvent(text))));
  }

  void save(Path file, String text) {
    server
        .getTextDocumentService()
        .didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(uri(file)), text));
  }

  List<CodeAction> codeActions(Path file, Diagnostic diagnostic) throws Exception {
    CodeActionParams params =
        new CodeActionParams(
            new TextDocumentIdentifier(uri(file)),
            diagnostic.getRange(),
            new CodeActionContext(List.of(diagnostic)));
    List<CodeAction> actions = new ArrayList<>();
    for (Either<Command, CodeAction> action :
        server.getTextDocumentService().codeAction(params).get(30, TimeUnit.SECONDS)) {
      if (action.isRight()) {
        actions.add(action.getRight());
      }
    }
    return actions;
  }

  /** The next diagnostics published for the file at (at least) the given document version. */
  PublishDiagnosticsParams diagnostics(Path file, int version) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      PublishDiagnosticsParams params = client.diagnostics.poll(1, TimeUnit.SECONDS);
      if (params != null
          && params.getUri().equals(uri(file))
          && (params.getVersion() == null || params.getVersion() >= version)) {
        return params;
      }
    }
    throw new AssertionError(
        "no diagnostics for "
            + file
            + " version "
            + version
            + " within 120 s; shown: "
            + client.shown
            + "; logged: "
            + client.logged);
  }

  /**
   * The first diagnostics published for the file, from now on, that satisfy the condition, within
   * the given time; earlier ones for the file are passed over.
   */
  PublishDiagnosticsParams diagnosticsWhere(
      Path file, Predicate<PublishDiagnosticsParams> condition, long seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<PublishDiagnosticsParams> passed = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      PublishDiagnosticsParams params = client.diagnostics.poll(100, TimeUnit.MILLISECONDS);
      if (params != null && params.getUri().equals(uri(file))) {
        if (condition.test(params)) {
          return params;
        }
        passed.add(params);
      }
    }
    throw new AssertionError(
        "no such diagnostics for "
            + file
            + " within "
            + seconds
            + " s; published: "
            + passed
            + "; shown: "
            + client.shown
            + "; logged: "
            + client.logged);
  }

  /** Waits until the server has shown at least {@code count} window messages. */
  List<MessageParams> shown(int count, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (client.shown.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    if (client.shown.size() < count) {
      throw new AssertionError(
          "expected " + count + " window messages within " + seconds + " s: " + client.shown);
    }
    return List.copyOf(client.shown);
  }

  /**
   * Waits until the server (in this JVM) has no class path to resolve and no analysis to run, and
   * this client has received everything the server sent until then: a request's answer comes back
   * after the notifications sent before it.
   */
  void settle() throws Exception {
    local.awaitIdle();
    CodeActionParams params =
        new CodeActionParams(
            new TextDocumentIdentifier("file:///lockjaw-fence.java"),
            new Range(new Position(0, 0), new Position(0, 0)),
            new CodeActionContext(List.of()));
    server.getTextDocumentService().codeAction(params).get(30, TimeUnit.SECONDS);
  }

  /** The codes (check names) of the diagnostics, in order. */
  static List<String> codes(PublishDiagnosticsParams params) {
    return params.getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList();
  }

  static String uri(Path file) {
    return file.toUri().toString();
  }

  /** Applies LSP text edits (non-overlapping, any order) to a text. */
  static String apply(String text, List<TextEdit> edits) {
    LineIndex index = new LineIndex(text);
    List<TextEdit> sorted = new ArrayList<>(edits);
    sorted.sort(
        (a, b) ->
            Integer.compare(
                index.offset(b.getRange().getStart()), index.offset(a.getRange().getStart())));
    StringBuilder result = new StringBuilder(text);
    for (TextEdit edit : sorted) {
      Range range = edit.getRange();
      result.replace(
          index.offset(range.getStart()), index.offset(range.getEnd()), edit.getNewText());
    }
    return result.toString();
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable resource : resources) {
      resource.close();
    }
  }

  static final class RecordingClient implements LanguageClient {
    final BlockingQueue<PublishDiagnosticsParams> diagnostics = new LinkedBlockingQueue<>();

    /** The last diagnostics published for each document URI. */
    final Map<String, PublishDiagnosticsParams> latest = new ConcurrentHashMap<>();

    /**
     * Everything received, in the order it arrived: "publish URI VERSION" per diagnostics, and what
     * tests add themselves.
     */
    final List<String> events = new CopyOnWriteArrayList<>();

    final List<MessageParams> shown = new CopyOnWriteArrayList<>();
    final List<MessageParams> logged = new CopyOnWriteArrayList<>();

    @Override
    public void telemetryEvent(Object object) {}

    @Override
    public void publishDiagnostics(PublishDiagnosticsParams params) {
      latest.put(params.getUri(), params);
      events.add("publish " + params.getUri() + " " + params.getVersion());
      diagnostics.add(params);
    }

    @Override
    public void showMessage(MessageParams params) {
      shown.add(params);
    }

    @Override
    public CompletableFuture<MessageActionItem> showMessageRequest(
        ShowMessageRequestParams params) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void logMessage(MessageParams params) {
      logged.add(params);
    }
  }
}
