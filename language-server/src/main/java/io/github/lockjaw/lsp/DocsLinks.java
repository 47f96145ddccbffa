package io.github.lockjaw.lsp;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a check's documentation page is, as a {@code file:} URI an editor can open: the page in the
 * lockjaw checkout the server runs from ({@code docs/checks/<Check>.md}), else the copy bundled in
 * the server's jar, unpacked once into a temporary directory. lockjaw has no web site of its own,
 * so no web address is made up.
 */
final class DocsLinks {
  private static final String BUNDLED = "/io/github/lockjaw/lsp/docs/";

  private final Path checkoutDocs;
  private final Map<String, String> links = new ConcurrentHashMap<>();

  DocsLinks() {
    this.checkoutDocs = findCheckoutDocs();
  }

  /** The page's URI, or null when there is none. */
  String forCheck(String check) {
    String link = links.computeIfAbsent(check, this::locate);
    return link.isEmpty() ? null : link;
  }

  private String locate(String check) {
    String page = check + ".md";
    if (checkoutDocs != null && Files.isRegularFile(checkoutDocs.resolve(page))) {
      return checkoutDocs.resolve(page).toUri().toString();
    }
    try (InputStream in = DocsLinks.class.getResourceAsStream(BUNDLED + page)) {
      if (in == null) {
        return "";
      }
      Path dir = Path.of(System.getProperty("java.io.tmpdir"), "lockjaw-docs-" + version());
      Files.createDirectories(dir);
      Path target = dir.resolve(page);
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      return target.toUri().toString();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** docs/checks of the checkout holding the server's classes or jar, if any. */
  private static Path findCheckoutDocs() {
    String override = System.getProperty("lockjaw.docs");
    if (override != null && !override.isBlank()) {
      return Path.of(override);
    }
    try {
      Path location =
          Path.of(DocsLinks.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      for (Path p = location; p != null; p = p.getParent()) {
        if (Files.isDirectory(p.resolve("docs/checks"))
            && Files.isRegularFile(p.resolve("language-server/pom.xml"))) {
          return p.resolve("docs/checks");
        }
      }
    } catch (URISyntaxException | RuntimeException e) {
      // no code source (e.g. a custom class loader): use the bundled pages
    }
    return null;
  }

  private static String version() {
    String version = DocsLinks.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
