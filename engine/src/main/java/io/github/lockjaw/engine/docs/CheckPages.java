package io.github.lockjaw.engine.docs;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.lockjaw.engine.io.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks' documentation pages ({@code docs/checks/<Check>.md}), shipped inside the engine's jar
 * and so inside the Maven plugin and the command-line tool. lockjaw has no web site: every report
 * links to a copy the user has, written next to the report ({@code target/lockjaw/docs/} by the
 * goals, next to {@code --output} by the command-line tool), and SARIF rules carry the page's text.
 */
public final class CheckPages {
  private static final String RESOURCES = "/io/github/lockjaw/engine/docs/checks/";

  /** A markdown link or image: {@code [text](target)}; the target has no spaces or parentheses. */
  private static final Pattern LINK = Pattern.compile("(!?)\\[([^\\]\\n]*)\\]\\(([^)\\s]+)\\)");

  private static final Pattern SIBLING = Pattern.compile("([A-Za-z0-9]+)\\.md(#.*)?");

  private final Map<String, Path> pages;

  private CheckPages(Map<String, Path> pages) {
    this.pages = pages;
  }

  /** No copies: reports name the pages by check only. */
  public static CheckPages none() {
    return new CheckPages(Map.of());
  }

  /** The page of a check as lockjaw ships it, or empty when it has none. */
  public static Optional<String> markdown(String check) {
    if (check == null || !check.matches("[A-Za-z0-9]+")) {
      return Optional.empty();
    }
    try (InputStream in = CheckPages.class.getResourceAsStream(RESOURCES + check + ".md")) {
      return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The page's text for a SARIF rule's {@code help.markdown}: links to lockjaw's other pages lead
   * nowhere in a code-scanning UI, so they become their text; web links stay.
   */
  public static Optional<String> helpMarkdown(String check) {
    return markdown(check).map(text -> relink(text, Set.of()));
  }

  /**
   * Writes the pages of {@code checks}, and the pages they link to, into {@code directory} as
   * {@code <Check>.md}; links between the written pages stay, links to the rest of lockjaw's
   * documentation become their text. A page already there with the same text is not rewritten.
   */
  public static CheckPages writeTo(Path directory, Collection<String> checks) throws IOException {
    Map<String, String> texts = new LinkedHashMap<>();
    Deque<String> pending = new ArrayDeque<>(new TreeSet<>(checks));
    while (!pending.isEmpty()) {
      String check = pending.pop();
      if (texts.containsKey(check)) {
        continue;
      }
      Optional<String> text = markdown(check);
      if (text.isEmpty()) {
        continue;
      }
      texts.put(check, text.get());
      Matcher links = LINK.matcher(text.get());
      while (links.find()) {
        Matcher sibling = SIBLING.matcher(links.group(3));
        if (sibling.matches() && !texts.containsKey(sibling.group(1))) {
          pending.add(sibling.group(1));
        }
      }
    }
    Map<String, Path> written = new LinkedHashMap<>();
    if (texts.isEmpty()) {
      return new CheckPages(written);
    }
    Files.createDirectories(directory);
    for (Map.Entry<String, String> page : texts.entrySet()) {
      Path file = directory.resolve(page.getKey() + ".md");
      String text = relink(page.getValue(), texts.keySet());
      if (!Files.isRegularFile(file) || !Files.readString(file, UTF_8).equals(text)) {
        AtomicFiles.write(file, text, UTF_8);
      }
      written.put(page.getKey(), file.toAbsolutePath().normalize());
    }
    return new CheckPages(written);
  }

  /**
   * As {@link #writeTo}, into a directory of the temporary directory shared by every run of this
   * lockjaw version, for a report that has no place of its own (a terminal); none when it cannot be
   * written.
   */
  public static CheckPages inTemporaryDirectory(Collection<String> checks, String version) {
    Path directory =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "lockjaw-docs-"
                + (version == null ? "dev" : version.replaceAll("[^A-Za-z0-9._-]", "_")));
    try {
      return writeTo(directory, checks);
    } catch (IOException | RuntimeException e) {
      return none();
    }
  }

  /** The written copy of a check's page, if any. */
  public Optional<Path> page(String check) {
    return Optional.ofNullable(pages.get(check));
  }

  /** The copy's {@code file:} URI, if any. */
  public Optional<String> uri(String check) {
    return page(check).map(p -> p.toUri().toString());
  }

  /** Keeps web links and links to {@code kept} pages; any other link becomes its text. */
  static String relink(String markdown, Set<String> kept) {
    Matcher m = LINK.matcher(markdown);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String target = m.group(3);
      Matcher sibling = SIBLING.matcher(target);
      boolean keep =
          target.matches("[a-zA-Z][a-zA-Z0-9+.-]*:.*")
              || target.startsWith("#")
              || (sibling.matches() && kept.contains(sibling.group(1)));
      m.appendReplacement(out, Matcher.quoteReplacement(keep ? m.group() : m.group(2)));
    }
    m.appendTail(out);
    return out.toString();
  }
}
