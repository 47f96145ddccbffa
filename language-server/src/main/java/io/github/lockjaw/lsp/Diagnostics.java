package io.github.lockjaw.lsp;

import io.github.lockjaw.engine.analyzer.LockjawAnalyzer.Located;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.TraceStep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;

/** Findings as LSP diagnostics, and their edits as LSP workspace edits. */
final class Diagnostics {
  static final String SOURCE = "lockjaw";

  private final DocsLinks links = new DocsLinks();

  /**
   * The finding on the first line of its flagged code, with its check's page as {@code
   * codeDescription}, and its request path and effect chain, when known, as {@code
   * relatedInformation}: one entry per step, at the step's line.
   */
  Diagnostic diagnostic(String uri, Located located, LineIndex index) {
    Finding finding = located.finding();
    // The flagged tree's first line: a whole loop or class underlined is noise.
    int start = located.start();
    int end = Math.min(Math.max(located.end(), start), index.lineEnd(start));
    if (end == start) {
      end = index.lineEnd(start);
    }
    Range range = new Range(index.position(start), index.position(end));
    Diagnostic diagnostic =
        new Diagnostic(
            range,
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
    List<DiagnosticRelatedInformation> related = new ArrayList<>();
    Location here = new Location(uri, range);
    List<TraceStep> path = finding.requestPath();
    for (int i = 0; i < path.size(); i++) {
      related.add(step("request path " + (i + 1) + "/" + path.size(), path.get(i), here));
    }
    List<TraceStep> chain = finding.effectChain();
    for (int i = 0; i < chain.size(); i++) {
      related.add(step("under the lock " + (i + 1) + "/" + chain.size(), chain.get(i), here));
    }
    if (!related.isEmpty()) {
      diagnostic.setRelatedInformation(related);
    }
    return diagnostic;
  }

  /**
   * A step in a source file points at its line; a step in a jar or class file, or of unknown place,
   * points at the finding and names its place in the text.
   */
  private static DiagnosticRelatedInformation step(String label, TraceStep step, Location here) {
    boolean inSource = step.file().endsWith(".java") && step.line() > 0;
    if (inSource) {
      try {
        Position line = new Position(step.line() - 1, 0);
        return new DiagnosticRelatedInformation(
            new Location(Path.of(step.file()).toUri().toString(), new Range(line, line)),
            label + ": " + step.description());
      } catch (RuntimeException e) {
        // not a path on this machine: described at the finding instead
      }
    }
    String place =
        step.file().isEmpty()
            ? ""
            : " (" + step.file() + (step.line() > 0 ? ":" + step.line() : "") + ")";
    return new DiagnosticRelatedInformation(here, label + ": " + step.description() + place);
  }

  static WorkspaceEdit workspaceEdit(String uri, List<Edit> edits, LineIndex index) {
    List<TextEdit> textEdits = new ArrayList<>();
    for (Edit edit : edits) {
      textEdits.add(
          new TextEdit(
              new Range(index.position(edit.start()), index.position(edit.end())), edit.text()));
    }
    return new WorkspaceEdit(Map.of(uri, textEdits));
  }
}
