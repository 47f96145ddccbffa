package io.github.lockjaw.corpus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** The manifest, and for each library the files to compile and the classpath to compile them on. */
final class Corpus {

  /** One library, ready for javac. */
  record Prepared(
      Manifest.Library library,
      List<Path> sources,
      List<Path> classpath,
      List<String> missing,
      long lines) {}

  final Manifest manifest;
  final Path work;
  private CorpusResolver resolver;

  Corpus() throws IOException {
    manifest =
        Manifest.read(
            Path.of(property("lockjaw.corpus.manifest", "../testdata/corpus/libraries.txt")));
    work = Path.of(property("lockjaw.corpus.work", "target/corpus"));
    Files.createDirectories(work);
  }

  private static String property(String name, String fallback) {
    String value = System.getProperty(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  Prepared prepare(Manifest.Library library) throws Exception {
    if (resolver == null) {
      resolver = new CorpusResolver();
    }
    CorpusResolver.Resolved resolved = resolver.resolve(library);
    Path root = unpack(library, resolved.sources());
    List<Path> sources = new ArrayList<>();
    if (library.compilesAll()) {
      try (Stream<Path> files = Files.walk(root)) {
        files
            .filter(f -> f.toString().endsWith(".java"))
            .filter(
                f -> {
                  String relative = root.relativize(f).toString().replace('\\', '/');
                  return !relative.startsWith("META-INF/")
                      && !relative.endsWith("module-info.java")
                      && library.exclude().stream().noneMatch(relative::startsWith);
                })
            .sorted()
            .forEach(sources::add);
      }
    } else {
      for (String file : library.compile()) {
        Path path = root.resolve(file);
        if (!Files.isRegularFile(path)) {
          throw new IllegalStateException(
              library.id() + ": " + file + " is not in " + resolved.sources());
        }
        sources.add(path);
      }
    }
    long lines = 0;
    for (Path source : sources) {
      byte[] bytes = Files.readAllBytes(source);
      for (byte b : bytes) {
        if (b == '\n') {
          lines++;
        }
      }
    }
    return new Prepared(
        library, List.copyOf(sources), resolved.classpath(), resolved.missing(), lines);
  }

  /** Unpacks the -sources.jar into target/corpus/src/&lt;id&gt; (once). */
  private Path unpack(Manifest.Library library, Path jar) throws IOException {
    Path root = work.resolve("src").resolve(library.id());
    Path done = root.resolve(".unpacked");
    if (Files.exists(done)) {
      return root;
    }
    Files.createDirectories(root);
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        if (entry.isDirectory() || !entry.getName().endsWith(".java")) {
          continue;
        }
        Path target = root.resolve(entry.getName()).normalize();
        if (!target.startsWith(root)) {
          continue; // no zip-slip
        }
        Files.createDirectories(target.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    Files.writeString(done, jar.toString());
    return root;
  }
}
