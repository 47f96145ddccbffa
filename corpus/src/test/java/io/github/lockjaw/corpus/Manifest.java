package io.github.lockjaw.corpus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus manifest ({@code testdata/corpus/libraries.txt}): which real library versions to
 * compile with the lockjaw checks, how, and what the checks must and must not find in them. The
 * format is described at the top of that file.
 */
record Manifest(List<Library> libraries) {

  /**
   * How an entry is used: as evidence for recall/silence on one file, or as part of the wide
   * corpus.
   */
  enum Kind {
    /** only the listed files are compiled; the rest of the library comes from its binary jar */
    TARGETED,
    /** every compilation unit of the -sources.jar is compiled; counts towards the wide corpus */
    WIDE
  }

  /** The check must flag {@code member} of {@code className} (binary name). */
  record Expectation(String check, String className, String member) {
    @Override
    public String toString() {
      return check + " at " + className + "#" + member;
    }
  }

  /**
   * The check must not flag anything in {@code className} (binary name, nested classes included).
   */
  record Silence(String check, String className) {
    @Override
    public String toString() {
      return check + " silent in " + className;
    }
  }

  record Library(
      String id,
      String coordinates,
      Kind kind,
      String release,
      String encoding,
      List<String> compile,
      List<String> exclude,
      List<String> classpath,
      List<Expectation> expect,
      List<Expectation> gaps,
      List<Expectation> sourceOnly,
      List<Expectation> bytecodeOnly,
      List<Silence> silent,
      String note) {

    boolean compilesAll() {
      return compile.isEmpty();
    }
  }

  static Manifest read(Path file) throws IOException {
    List<Library> libraries = new ArrayList<>();
    Builder current = null;
    int number = 0;
    for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      number++;
      String line = stripComment(raw).strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] words = line.split("\\s+");
      String key = words[0];
      try {
        if (key.equals("library")) {
          if (current != null) {
            libraries.add(current.build());
          }
          require(words.length == 3, "library <id> <groupId:artifactId:version>");
          current = new Builder(words[1], words[2]);
          continue;
        }
        require(current != null, "'" + key + "' before the first 'library' line");
        switch (key) {
          case "kind" -> {
            require(words.length == 2, "kind wide|targeted");
            current.kind = Kind.valueOf(words[1].toUpperCase(java.util.Locale.ROOT));
          }
          case "release" -> current.release = single(words);
          case "encoding" -> current.encoding = single(words);
          case "compile" -> current.compile.addAll(rest(words));
          case "exclude" -> current.exclude.addAll(rest(words));
          case "classpath" -> current.classpath.addAll(rest(words));
          case "note" ->
              current.note = (current.note + " " + line.substring(key.length()).strip()).strip();
          case "expect" -> {
            require(words.length == 3 && words[2].contains("#"), "expect <Check> <class>#<member>");
            int hash = words[2].indexOf('#');
            current.expect.add(
                new Expectation(
                    words[1], words[2].substring(0, hash), words[2].substring(hash + 1)));
          }
          case "gap" -> {
            require(words.length == 3 && words[2].contains("#"), "gap <Check> <class>#<member>");
            int hash = words[2].indexOf('#');
            current.gaps.add(
                new Expectation(
                    words[1], words[2].substring(0, hash), words[2].substring(hash + 1)));
          }
          case "source-only" -> {
            require(
                words.length == 3 && words[2].contains("#"),
                "source-only <Check> <class>#<member>");
            int hash = words[2].indexOf('#');
            current.sourceOnly.add(
                new Expectation(
                    words[1], words[2].substring(0, hash), words[2].substring(hash + 1)));
          }
          case "bytecode-only" -> {
            require(
                words.length == 3 && words[2].contains("#"),
                "bytecode-only <Check> <class>#<member>");
            int hash = words[2].indexOf('#');
            current.bytecodeOnly.add(
                new Expectation(
                    words[1], words[2].substring(0, hash), words[2].substring(hash + 1)));
          }
          case "silent" -> {
            require(words.length == 3, "silent <Check|*> <class>");
            current.silent.add(new Silence(words[1], words[2]));
          }
          default -> throw new IllegalArgumentException("unknown key '" + key + "'");
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ":" + number + ": " + e.getMessage(), e);
      }
    }
    if (current != null) {
      libraries.add(current.build());
    }
    return new Manifest(List.copyOf(libraries));
  }

  private static String stripComment(String line) {
    int hash = line.indexOf(" #");
    if (line.startsWith("#")) {
      return "";
    }
    return hash >= 0 ? line.substring(0, hash) : line;
  }

  private static String single(String[] words) {
    require(words.length == 2, words[0] + " takes one value");
    return words[1];
  }

  private static List<String> rest(String[] words) {
    require(words.length >= 2, words[0] + " takes at least one value");
    return List.of(words).subList(1, words.length);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  private static final class Builder {
    final String id;
    final String coordinates;
    Kind kind = Kind.WIDE;
    String release = "17";
    String encoding = "UTF-8";
    String note = "";
    final List<String> compile = new ArrayList<>();
    final List<String> exclude = new ArrayList<>();
    final List<String> classpath = new ArrayList<>();
    final List<Expectation> expect = new ArrayList<>();
    final List<Expectation> gaps = new ArrayList<>();
    final List<Expectation> sourceOnly = new ArrayList<>();
    final List<Expectation> bytecodeOnly = new ArrayList<>();
    final List<Silence> silent = new ArrayList<>();

    Builder(String id, String coordinates) {
      this.id = id;
      this.coordinates = coordinates;
      require(coordinates.split(":").length == 3, "coordinates must be groupId:artifactId:version");
    }

    Library build() {
      require(
          (kind == Kind.TARGETED) != compile.isEmpty(),
          id + ": a targeted library lists the files to compile; a wide one compiles all");
      return new Library(
          id,
          coordinates,
          kind,
          release,
          encoding,
          List.copyOf(compile),
          List.copyOf(exclude),
          List.copyOf(classpath),
          List.copyOf(expect),
          List.copyOf(gaps),
          List.copyOf(sourceOnly),
          List.copyOf(bytecodeOnly),
          List.copyOf(silent),
          note);
    }
  }
}
