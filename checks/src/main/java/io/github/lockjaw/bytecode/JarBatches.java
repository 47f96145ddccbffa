package io.github.lockjaw.bytecode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A large jar split into batches of classes, so that SpotBugs holds the analysis of one batch at a
 * time, not of the whole jar: a shaded jar of 20,000 classes otherwise keeps gigabytes. A class and
 * its nested classes stay in one batch; the whole jar stays on the class path of each batch, so
 * every reference resolves as before.
 */
final class JarBatches {
  /**
   * Classes per batch: {@code -Dlockjaw.audit.batchClasses=N} turns batching on (off by default: on
   * a 22,000-class shaded jar, batches of 3,000 took more than twice as long, each re-reading the
   * jar's class hierarchy, and what they save in memory is not measured yet).
   */
  static volatile int batchClasses =
      Integer.getInteger("lockjaw.audit.batchClasses", Integer.MAX_VALUE);

  private JarBatches() {}

  /**
   * The class entries of a jar, in batches of about {@link #batchClasses}; a single batch (no split
   * needed) when the jar is small or not a file.
   */
  static List<List<String>> plan(Path jar) throws IOException {
    if (!Files.isRegularFile(jar)) {
      return List.of();
    }
    Map<String, List<String>> byOuter = new TreeMap<>();
    int classes = 0;
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (ZipEntry entry : Collections.list(zip.entries())) {
        String name = entry.getName();
        if (entry.isDirectory() || !name.endsWith(".class") || name.startsWith("META-INF/")) {
          continue;
        }
        String base = name.substring(0, name.length() - ".class".length());
        int dollar = base.indexOf('$', base.lastIndexOf('/') + 1);
        byOuter
            .computeIfAbsent(dollar < 0 ? base : base.substring(0, dollar), k -> new ArrayList<>())
            .add(name);
        classes++;
      }
    }
    int size = batchClasses;
    if (classes <= size) {
      return List.of();
    }
    List<List<String>> batches = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (List<String> nest : byOuter.values()) {
      if (!current.isEmpty() && current.size() + nest.size() > size) {
        batches.add(current);
        current = new ArrayList<>();
      }
      current.addAll(nest);
    }
    if (!current.isEmpty()) {
      batches.add(current);
    }
    return batches;
  }

  /** Writes one batch's class entries of {@code jar} into {@code into}. */
  static void write(Path jar, List<String> entries, Path into) throws IOException {
    Files.createDirectories(into.getParent());
    try (ZipFile zip = new ZipFile(jar.toFile());
        OutputStream file = Files.newOutputStream(into);
        ZipOutputStream out = new ZipOutputStream(file)) {
      for (String name : entries) {
        out.putNextEntry(new ZipEntry(name));
        try (InputStream in = zip.getInputStream(zip.getEntry(name))) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
    }
  }
}
