package io.github.lockjaw.lsp;

import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Located;
import io.github.lockjaw.engine.finding.Finding;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
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
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.TextDocumentService;

/**
 * The open documents: their text as the editor has it, their analysis (one at a time, on one
 * thread, the edited file only) and the diagnostics and code actions made from it.
 *
 * <p>Diagnostics are published only for the document's latest version: an analysis whose document
 * changed meanwhile is stopped where javac allows it, and its result dropped. Class paths resolve
 * on their own thread ({@link Projects}); a file is analysed at once with what is known and again
 * when its project's class path arrives.
 */
final class Documents implements TextDocumentService, Projects.Listener {
  /** What the last analysis of a document found, for the text and project it analysed. */
  private record Analysed(
      int version,
      String text,
      Project project,
      List<Located> findings,
      List<Diagnostic> diagnostics) {}

  private static final class Doc {
    final String uri;
    final URI parsed;
    String text;
    int version;
    boolean closed;
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
  private final Diagnostics diagnostics = new Diagnostics();
  private volatile LanguageClient client;
  private volatile Projects projects =
      new Projects(List.of(), null, Projects.DEFAULT_TIMEOUT_SECONDS, this);
  private volatile int debounceMillis = LockjawLanguageServer.DEFAULT_DEBOUNCE_MILLIS;

  void connect(LanguageClient client) {
    this.client = client;
  }

  LanguageClient client() {
    return client;
  }

  void configure(
      List<Path> workspaceFolders,
      String mavenExecutable,
      int debounceMillis,
      long classpathTimeoutSeconds) {
    Projects previous = projects;
    this.projects = new Projects(workspaceFolders, mavenExecutable, classpathTimeoutSeconds, this);
    previous.stop();
    this.debounceMillis = debounceMillis;
  }

  void stop() {
    analysis.shutdownNow();
    projects.stop();
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
    Doc replaced = docs.put(uri, doc);
    if (replaced != null) {
      close(replaced);
    }
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
      } else {
        doc.version++; // an unversioned change still makes what was analysed stale
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
    close(doc);
    publish(doc.uri, List.of(), null);
  }

  private static void close(Doc doc) {
    synchronized (doc) {
      doc.closed = true;
      if (doc.pending != null) {
        doc.pending.cancel(false);
      }
    }
  }

  /**
   * A pom.xml changed: its project's class path resolves again (and those of the modules that
   * depend on it), and their open files are analysed again.
   */
  void pomChanged(Path pom) {
    Projects current = projects;
    Set<Path> affected = current.invalidate(pom);
    for (Doc doc : docs.values()) {
      Path nearest = current.nearestPom(Path.of(doc.parsed));
      if (nearest != null && affected.contains(nearest)) {
        schedule(doc, 0);
      }
    }
  }

  /** Runs on the class-path thread: the files whose analysis lacked this class path run again. */
  @Override
  public void resolved(Path pom, Project project) {
    Projects current = projects;
    for (Doc doc : docs.values()) {
      if (!pom.equals(current.nearestPom(Path.of(doc.parsed)))) {
        continue;
      }
      Analysed analysed;
      synchronized (doc) {
        analysed = doc.analysed;
      }
      if (analysed == null || !sameInputs(analysed.project(), project)) {
        schedule(doc, 0);
      }
    }
  }

  @Override
  public void problem(String message) {
    showWarning(message);
  }

  @Override
  public void log(String message) {
    log(MessageType.Info, message);
  }

  private static boolean sameInputs(Project a, Project b) {
    return a.classpath().equals(b.classpath()) && a.sourceRoots().equals(b.sourceRoots());
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
        fix.setEdit(Diagnostics.workspaceEdit(doc.uri, finding.fix(), index));
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
        suppress.setEdit(Diagnostics.workspaceEdit(doc.uri, located.suppress(), index));
        actions.add(Either.forRight(suppress));
      }
    }
    return CompletableFuture.completedFuture(actions);
  }

  /**
   * Waits until no class path is being resolved and no analysis is scheduled or running (tests,
   * benchmark).
   */
  void awaitIdle() throws InterruptedException {
    while (true) {
      projects.awaitResolutions();
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
      if (doc.closed) {
        return;
      }
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
      if (doc.closed) {
        return;
      }
      text = doc.text;
      version = doc.version;
    }
    BooleanSupplier stale =
        () -> {
          synchronized (doc) {
            return doc.closed || doc.version != version;
          }
        };
    Projects current = projects;
    try {
      analyse(doc, text, version, current.projectFor(Path.of(doc.parsed)), stale);
    } finally {
      // after the diagnostics, so that Maven's start does not delay them
      current.resolveFor(Path.of(doc.parsed));
    }
  }

  private void analyse(Doc doc, String text, int version, Project project, BooleanSupplier stale) {
    List<Located> findings;
    try {
      findings = analyzer.analyze(doc.parsed, text, project, stale).findings();
    } catch (FileAnalyzer.Stale e) {
      return; // a newer version arrived: its own analysis is scheduled
    } catch (IOException
        | RuntimeException
        | Error e) { // javac and Error Prone assert on some broken code
      if (stale.getAsBoolean()) {
        return;
      }
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      log(
          MessageType.Error,
          "lockjaw could not analyse " + doc.uri + "; please report this:\n" + trace);
      findings = List.of();
    }
    LineIndex index = new LineIndex(text);
    List<Diagnostic> published = new ArrayList<>();
    for (Located located : findings) {
      published.add(diagnostics.diagnostic(doc.uri, located, index));
    }
    synchronized (doc) {
      // Under the document's lock: a change handled after this check is handled after the publish.
      if (doc.closed || doc.version != version) {
        return;
      }
      doc.analysed = new Analysed(version, text, project, findings, published);
      publish(doc.uri, published, version);
    }
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
      c.showMessage(new MessageParams(MessageType.Warning, MavenLog.plain(message)));
    }
  }

  private void log(MessageType type, String message) {
    LanguageClient c = client;
    if (c != null) {
      c.logMessage(new MessageParams(type, MavenLog.plain(message)));
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
