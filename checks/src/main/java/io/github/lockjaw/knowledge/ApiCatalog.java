package io.github.lockjaw.knowledge;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What lockjaw knows about an API family, read from a data file under {@code
 * io/github/lockjaw/knowledge/}. The source checks (Error Prone) and the bytecode detectors read
 * the same files, so a new HTTP client or JDBC type is taught to lockjaw in one place.
 *
 * <p>Format: one entry per line, {@code <kind> <value> [<attribute>...]}, separated by white space;
 * {@code #} starts a comment. A kind groups entries ({@code coarsely-locked-type}, {@code factory},
 * ...); a value is a fully qualified type, or {@code type#method} for a method.
 */
public final class ApiCatalog {
  private static final Map<String, ApiCatalog> LOADED = new ConcurrentHashMap<>();

  private final String name;
  private final Map<String, List<Entry>> byKind;

  /** One line of a catalog: its value and any attributes that follow it. */
  public record Entry(String kind, String value, List<String> attributes) {
    /** The type part of a {@code type#method} value, or the whole value. */
    public String type() {
      int hash = value.indexOf('#');
      return hash < 0 ? value : value.substring(0, hash);
    }

    /** The method part of a {@code type#method} value, or the empty string. */
    public String method() {
      int hash = value.indexOf('#');
      return hash < 0 ? "" : value.substring(hash + 1);
    }

    public boolean hasAttribute(String attribute) {
      return attributes.contains(attribute);
    }

    /** The value of a {@code key=value} attribute, e.g. {@code attribute("duration")}. */
    public Optional<String> attribute(String key) {
      String prefix = key + "=";
      return attributes.stream()
          .filter(a -> a.startsWith(prefix))
          .map(a -> a.substring(prefix.length()))
          .findFirst();
    }
  }

  private ApiCatalog(String name, Map<String, List<Entry>> byKind) {
    this.name = name;
    this.byKind = byKind;
  }

  /**
   * The catalog in {@code io/github/lockjaw/knowledge/<name>.txt}, loaded once per class loader.
   */
  public static ApiCatalog named(String name) {
    return LOADED.computeIfAbsent(name, ApiCatalog::load);
  }

  public String name() {
    return name;
  }

  /** The entries of one kind, in file order; empty if the catalog has none. */
  public List<Entry> entries(String kind) {
    return byKind.getOrDefault(kind, List.of());
  }

  /** The values of one kind, in file order. */
  public List<String> values(String kind) {
    return entries(kind).stream().map(Entry::value).toList();
  }

  public Set<String> kinds() {
    return Collections.unmodifiableSet(byKind.keySet());
  }

  private static ApiCatalog load(String name) {
    String resource = "/io/github/lockjaw/knowledge/" + name + ".txt";
    try (InputStream in = ApiCatalog.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "lockjaw knowledge file " + resource + " is missing from the lockjaw-checks jar");
      }
      return parse(name, new BufferedReader(new InputStreamReader(in, UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read lockjaw knowledge file " + resource, e);
    }
  }

  static ApiCatalog parse(String name, BufferedReader reader) throws IOException {
    Map<String, List<Entry>> byKind = new LinkedHashMap<>();
    String line;
    int lineNumber = 0;
    while ((line = reader.readLine()) != null) {
      lineNumber++;
      // '#' also separates type and method; a comment starts only at line start or after a blank.
      String content = stripComment(line);
      if (content.isBlank()) {
        continue;
      }
      String[] words = content.trim().split("\\s+");
      if (words.length < 2) {
        throw new IllegalStateException(
            "lockjaw knowledge file "
                + name
                + ".txt line "
                + lineNumber
                + ": expected '<kind> <value> [attributes]' but found '"
                + line.trim()
                + "'");
      }
      List<String> attributes = List.of(words).subList(2, words.length);
      byKind
          .computeIfAbsent(words[0], k -> new ArrayList<>())
          .add(new Entry(words[0], words[1], List.copyOf(attributes)));
    }
    byKind.replaceAll((k, v) -> List.copyOf(v));
    return new ApiCatalog(name, Collections.unmodifiableMap(byKind));
  }

  private static String stripComment(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }
}
