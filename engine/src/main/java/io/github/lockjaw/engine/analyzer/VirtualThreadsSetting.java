package io.github.lockjaw.engine.analyzer;

import io.github.lockjaw.checks.pinning.VirtualThreadPinningQuery;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * Whether an application runs its request handlers on virtual threads because its configuration
 * says so ({@code virtual-thread-property} in {@code entry-points.txt}: Spring Boot's {@code
 * spring.threads.virtual.enabled=true} in {@code application.properties}, {@code .yml} or {@code
 * .yaml}). The compiler cannot read resources, so the analysis passes what this finds to the
 * VirtualThreadPinning check as an Error Prone flag. Profile documents of a YAML file ({@code
 * spring.config.activate.on-profile}) and profile files ({@code application-prod.properties}) are
 * not read: they apply only when that profile is active.
 */
public final class VirtualThreadsSetting {
  /** The Error Prone flag VirtualThreadPinning reads. */
  public static final String ERROR_PRONE_FLAG =
      "-XepOpt:" + VirtualThreadPinningQuery.ERROR_PRONE_FLAG + "=true";

  private VirtualThreadsSetting() {}

  /** A property that runs request handlers on virtual threads, and the file that sets it. */
  public record Found(Path file, String key, String value) {
    /** {@code src/main/resources/application.yml: spring.threads.virtual.enabled=true}. */
    public String describe(Path base) {
      Path shown =
          file.toAbsolutePath().normalize().startsWith(base.toAbsolutePath().normalize())
              ? base.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize())
              : file;
      return shown + ": " + key + "=" + value;
    }
  }

  /**
   * The file and property that switch request handlers to virtual threads; empty when none does (or
   * a file cannot be read: then lockjaw checks only what the code shows).
   */
  public static Optional<Found> find(List<Path> resourceDirectories) {
    for (ApiCatalog.Entry property : Kind.EntryPoints.VIRTUAL_THREAD_PROPERTY.entries()) {
      String key = property.value();
      String wanted = property.attribute("value").orElse("true");
      List<String> files = List.of(property.attribute("files").orElse("").split(","));
      for (Path directory : resourceDirectories) {
        for (String name : files) {
          Path file = directory.resolve(name.strip());
          if (name.isBlank() || !Files.isRegularFile(file)) {
            continue;
          }
          Optional<String> value = read(file, key);
          if (value.isPresent() && value.get().equalsIgnoreCase(wanted)) {
            return Optional.of(new Found(file, key, value.get()));
          }
        }
      }
    }
    return Optional.empty();
  }

  static Optional<String> read(Path file, String key) {
    try {
      String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
      if (name.endsWith(".properties")) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
          properties.load(reader);
        }
        return Optional.ofNullable(properties.getProperty(key)).map(String::strip);
      }
      return yamlValue(Files.readAllLines(file, StandardCharsets.UTF_8), key);
    } catch (IOException | IllegalArgumentException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * The scalar at a dotted key in the first YAML document that activates no profile, written nested
   * ({@code spring:} / {@code threads:} / ...) or flat ({@code spring.threads.virtual .enabled:
   * true}) or mixed. Enough YAML for configuration files: mappings by indentation, comments, quoted
   * scalars; lists and anchors are skipped.
   */
  static Optional<String> yamlValue(List<String> lines, String key) {
    List<List<String>> documents = new ArrayList<>();
    documents.add(new ArrayList<>());
    for (String line : lines) {
      if (line.startsWith("---")) {
        documents.add(new ArrayList<>());
      } else {
        documents.get(documents.size() - 1).add(line);
      }
    }
    for (List<String> document : documents) {
      Optional<String> profile = valueIn(document, "spring.config.activate.on-profile");
      if (profile.isEmpty() && valueIn(document, "spring.profiles").isEmpty()) {
        Optional<String> value = valueIn(document, key);
        if (value.isPresent()) {
          return value;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> valueIn(List<String> document, String key) {
    List<Integer> indents = new ArrayList<>();
    List<String> path = new ArrayList<>();
    for (String raw : document) {
      String line = withoutComment(raw);
      if (line.isBlank() || line.strip().startsWith("-")) {
        continue;
      }
      int indent = line.length() - line.stripLeading().length();
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
        indents.remove(indents.size() - 1);
        path.remove(path.size() - 1);
      }
      String name = unquote(line.substring(0, colon).strip());
      String value = unquote(line.substring(colon + 1).strip());
      String full = path.isEmpty() ? name : String.join(".", path) + "." + name;
      if (!value.isEmpty()) {
        if (full.equals(key)) {
          return Optional.of(value);
        }
        continue;
      }
      indents.add(indent);
      path.add(name);
    }
    return Optional.empty();
  }

  private static String withoutComment(String line) {
    boolean quoted = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if ((c == '"' || c == '\'') && (!quoted || c == quote)) {
        quoted = !quoted;
        quote = c;
      } else if (c == '#' && !quoted && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static String unquote(String text) {
    if (text.length() >= 2
        && (text.startsWith("\"") && text.endsWith("\"")
            || text.startsWith("'") && text.endsWith("'"))) {
      return text.substring(1, text.length() - 1);
    }
    return text;
  }
}
