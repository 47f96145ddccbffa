package io.github.lockjaw.lsp;

import java.net.URI;
import java.nio.file.Path;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * Workspace notifications: a changed {@code pom.xml} makes its project's classpath resolve again.
 */
final class Workspace implements WorkspaceService {
  private final Documents documents;
  private boolean watchPoms;

  Workspace(Documents documents) {
    this.documents = documents;
  }

  void watchPoms(boolean watch) {
    this.watchPoms = watch;
  }

  boolean watchesPoms() {
    return watchPoms;
  }

  @Override
  public void didChangeConfiguration(DidChangeConfigurationParams params) {}

  @Override
  public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
    for (FileEvent event : params.getChanges()) {
      try {
        URI uri = URI.create(event.getUri());
        if ("file".equals(uri.getScheme()) && uri.getPath().endsWith("/pom.xml")) {
          documents.pomChanged(Path.of(uri));
        }
      } catch (RuntimeException e) {
        // not a file URI: nothing to refresh
      }
    }
  }
}
