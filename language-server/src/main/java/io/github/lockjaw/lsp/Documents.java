package io.github.lockjaw.lsp;

import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Located;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.TextDocumentService;

/**
 * The open documents: their text as the editor has it, their analysis (one at a time, on one
 * thread, the edited file only) and the diagnostics and code actions made from it.
 */
final class Documents implements TextDocumentService {
  static final String SOURCE = "lockjaw";

  /** What the last analysis of a document found, for the text it analysed. */
  private record Analysed(
      int version, String text, List<Located> findings, List<Diagnostic> diagnostics) {}

  private static final class Doc {
    final String uri;
    final URI parsed;
    String text;
    int version;
    ScheduledFuture<?> pending;
    Analysed analysed;

    Doc(String uri, URI parsed, String text, int version) {
      this.uri = uri;
      this.parsed = parsed;
      this.text = text;
      this.version = version;
    }
  }

  private final Map<String, Doc> docs = new ConcurrentHashMap<>();
  private final ScheduledExecutorService analysis =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "lockjaw-analysis");
            thread.setDaemon(true);
            return thread;
          });
  private final FileAnalyzer analyzer = new FileAnalyzer();
  private final DocsLinks links = new DocsLinks();
  private volatile LanguageClient client;
  private volatile Projects projects = new Projects(List.of(), null, this::showWarning);
  private volatile int debounceMillis = LockjawLanguageServer.DEFAULT_DEBOUNCE_MILLIS;

  void connect(LanguageClient client) {
    this.client = client;
  }

  LanguageClient client() {
    return client;
  }

  void configure(List<Path> workspaceFolders, String mavenExecutable, int debounceMillis) {
    this.projects = new Projects(workspaceFolders, mavenExecutable, this::showWarning);
    this.debounceMillis = debounceMillis;
  }

  void stop() {
    analysis.shutdownNow();
  }

  @Override
  public void didOpen(DidOpenTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    URI parsed = fileUri(uri);
    if (parsed == null || !uri.endsWith(".java")) {
      return; // not a Java file on disk: nothing lockjaw can place in a project
    }
    Doc doc =
        new Doc(
            uri, parsed, params.getTextDocument().getText(), params.getTextDocument().getVersion());
    docs.put(uri, doc);
    schedule(doc, 0);
  }

  @Override
  public void didChange(DidChangeTextDocumentParams params) {
    Doc doc = docs.get(params.getTextDocument().getUri());
    if (doc == null) {
      return;
    }
    synchronized (doc) {
      String text = doc.text;
      for (TextDocumentContentChangeEvent change : params.getContentChanges()) {
        if (change.getRange() == null) {
          text = change.getText();
        } else {
          LineIndex index = new LineIndex(text);
          int start = index.offset(change.getRange().getStart());
          int end = Math.max(start, index.offset(change.getRange().getEnd()));
          text = text.substring(0, start) + change.getText() + text.substring(end);
        }
      }
      doc.text = text;
      if (params.getTextDocument().getVersion() != null) {
        doc.version = params.getTextDocument().getVersion();
      }
    }
    schedule(doc, debounceMillis);
  }

  @Override
  public void didSave(DidSaveTextDocumentParams params) {
    Doc doc = docs.get(params.getTextDocument().getUri());
    if (doc == null) {
      return;
    }
    if (params.getText() != null) {
      synchronized (doc) {
        doc.text = params.getText();
      }
    }
    schedule(doc, 0);
  }

  @Override
  public void didClose(DidCloseTextDocumentParams params) {
    Doc doc = docs.remove(params.getTextDocument().getUri());
    if (doc == null) {
      return;
    }
    synchronized (doc) {
      if (doc.pending != null) {
        doc.pending.cancel(false);
      }
    }
    publish(doc.uri, List.of(), null);
  }

  /**
   * A pom.xml changed: its project's classpath resolves again, and its open files are analysed
   * again.
   */
  void pomChanged(Path pom) {
    Projects current = projects;
    current.invalidate(pom);
    for (Doc doc : docs.values()) {
      Path nearest = current.nearestPom(Path.of(doc.parsed));
      if (nearest != null && nearest.equals(pom.toAbsolutePath().normalize())) {
        schedule(doc, 0);
      }
    }
  }

  @Override
  public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
    List<Either<Command, CodeAction>> actions = new ArrayList<>();
    Doc doc = docs.get(params.getTextDocument().getUri());
    if (doc == null) {
      return CompletableFuture.completedFuture(actions);
    }
    Analysed analysed;
    int version;
    synchronized (doc) {
      analysed = doc.analysed;
      version = doc.version;
      // Edits are offsets into the analysed text: offered only while the editor still has it.
      if (analysed == null || analysed.version() != version || !analysed.text().equals(doc.text)) {
        return CompletableFuture.completedFuture(actions);
      }
    }
    List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
    if (only != null
        && only.stream().noneMatch(k -> CodeActionKind.QuickFix.startsWith(k) || k.isEmpty())) {
      return CompletableFuture.completedFuture(actions);
    }
    LineIndex index = new LineIndex(analysed.text());
    for (int i = 0; i < analysed.findings().size(); i++) {
      Located located = analysed.findings().get(i);
      Diagnostic diagnostic = analysed.diagnostics().get(i);
      if (!intersects(params.getRange(), diagnostic.getRange())) {
        continue;
      }
      Finding finding = located.finding();
      if (finding.hasFix()) {
        CodeAction fix = new CodeAction("Apply lockjaw's fix for " + finding.check());
        fix.setKind(CodeActionKind.QuickFix);
        fix.setDiagnostics(List.of(diagnostic));
        fix.setIsPreferred(true);
        fix.setEdit(workspaceEdit(doc.uri, finding.fix(), index));
        actions.add(Either.forRight(fix));
      }
      if (!located.suppress().isEmpty()) {
        CodeAction suppress =
            new CodeAction(
                "Suppress "
                    + finding.check()
                    + " with @SuppressWarnings(\""
                    + finding.check()
                    + "\")");
        suppress.setKind(CodeActionKind.QuickFix);
        suppress.setDiagnostics(List.of(diagnostic));
        suppress.setEdit(workspaceEdit(doc.uri, located.suppress(), index));
        actions.add(Either.forRight(suppress));
      }
    }
    return CompletableFuture.completedFuture(actions);
  }

  /** Waits until no analysis is scheduled or running (tests, benchmark). */
  void awaitIdle() throws InterruptedException {
    while (true) {
      List<ScheduledFuture<?>> pending = new ArrayList<>();
      for (Doc doc : docs.values()) {
        synchronized (doc) {
          if (doc.pending != null && !doc.pending.isDone()) {
            pending.add(doc.pending);
          }
        }
      }
      if (pending.isEmpty()) {
        return;
      }
      for (ScheduledFuture<?> future : pending) {
        try {
          future.get();
        } catch (ExecutionException | CancellationException e) {
          // done either way
        }
      }
    }
  }

  private void schedule(Doc doc, int delayMillis) {
    synchronized (doc) {
      if (doc.pending != null) {
        doc.pending.cancel(false);
      }
      try {
        doc.pending = analysis.schedule(() -> analyse(doc), delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        doc.pending = null; // shutting down
      }
    }
  }

  /** Runs on the analysis thread; never throws, so that the server outlives any file. */
  private void analyse(Doc doc) {
    String text;
    int version;
    synchronized (doc) {
      text = doc.text;
      version = doc.version;
    }
    if (docs.get(doc.uri) != doc) {
      return; // closed meanwhile
    }
    List<Located> findings;
    try {
      Project project = projects.projectFor(Path.of(doc.parsed));
      findings = analyzer.analyze(doc.parsed, text, project).findings();
    } catch (IOException
        | RuntimeException
        | Error e) { // javac and Error Prone assert on some broken code
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      log(
          MessageType.Error,
          "lockjaw could not analyse " + doc.uri + "; please report this:\n" + trace);
      findings = List.of();
    }
    LineIndex index = new LineIndex(text);
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (Located located : findings) {
      diagnostics.add(diagnostic(located, index));
    }
    synchronized (doc) {
      doc.analysed = new Analysed(version, text, findings, diagnostics);
    }
    if (docs.get(doc.uri) == doc) {
      publish(doc.uri, diagnostics, version);
    }
  }

  private Diagnostic diagnostic(Located located, LineIndex index) {
    Finding finding = located.finding();
    // The flagged tree's first line: a whole loop or class underlined is noise.
    int start = located.start();
    int end = Math.min(Math.max(located.end(), start), index.lineEnd(start));
    if (end == start) {
      end = index.lineEnd(start);
    }
    Diagnostic diagnostic =
        new Diagnostic(
            new Range(index.position(start), index.position(end)),
            finding.message(),
            switch (finding.severity()) {
              case ERROR -> DiagnosticSeverity.Error;
              case WARNING -> DiagnosticSeverity.Warning;
              case SUGGESTION -> DiagnosticSeverity.Information;
            },
            SOURCE,
            finding.check());
    String link = links.forCheck(finding.check());
    if (link != null) {
      diagnostic.setCodeDescription(new DiagnosticCodeDescription(link));
    }
    return diagnostic;
  }

  private static WorkspaceEdit workspaceEdit(String uri, List<Edit> edits, LineIndex index) {
    List<TextEdit> textEdits = new ArrayList<>();
    for (Edit edit : edits) {
      textEdits.add(
          new TextEdit(
              new Range(index.position(edit.start()), index.position(edit.end())), edit.text()));
    }
    return new WorkspaceEdit(Map.of(uri, textEdits));
  }

  private static boolean intersects(Range a, Range b) {
    return compare(a.getStart(), b.getEnd()) <= 0 && compare(b.getStart(), a.getEnd()) <= 0;
  }

  private static int compare(Position a, Position b) {
    return a.getLine() != b.getLine()
        ? Integer.compare(a.getLine(), b.getLine())
        : Integer.compare(a.getCharacter(), b.getCharacter());
  }

  private void publish(String uri, List<Diagnostic> diagnostics, Integer version) {
    LanguageClient c = client;
    if (c != null) {
      c.publishDiagnostics(new PublishDiagnosticsParams(uri, diagnostics, version));
    }
  }

  private void showWarning(String message) {
    LanguageClient c = client;
    if (c != null) {
      c.showMessage(new MessageParams(MessageType.Warning, message));
    }
  }

  private void log(MessageType type, String message) {
    LanguageClient c = client;
    if (c != null) {
      c.logMessage(new MessageParams(type, message));
    }
  }

  private static URI fileUri(String uri) {
    try {
      URI parsed = URI.create(uri);
      return "file".equals(parsed.getScheme()) ? parsed : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
