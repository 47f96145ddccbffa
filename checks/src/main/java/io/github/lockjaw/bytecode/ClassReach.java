package io.github.lockjaw.bytecode;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.ClassFormatException;
import org.apache.bcel.classfile.ClassParser;
import org.apache.bcel.classfile.Constant;
import org.apache.bcel.classfile.ConstantClass;
import org.apache.bcel.classfile.ConstantPool;
import org.apache.bcel.classfile.ConstantString;
import org.apache.bcel.classfile.ConstantUtf8;
import org.apache.bcel.classfile.JavaClass;

/**
 * Which classes of a class path a module's own classes can reach: a class-level reference graph,
 * read from the constant pools of the class files, followed from the module's classes through the
 * jars. A class refers to another when its constant pool names it: a class constant (a superclass,
 * an interface, a type instantiated, cast to or whose members are used, a nested class), a type in
 * a field or method descriptor or generic signature (parameters, return types, annotations), or a
 * string constant that is exactly the name of a class on the class path ({@code
 * Class.forName("com.example.Impl")}). A {@code META-INF/services} provider is reached with its
 * service interface.
 *
 * <p>It is an over-approximation at the class level (a class reached is not a method called), and
 * an under-approximation only where code is found by names computed at run time (reflection on
 * strings built from parts, configuration files naming classes). {@code lockjaw:audit} uses it to
 * tell findings the module can act on from findings in code it does not use.
 */
public final class ClassReach {
  private final Map<String, Source> index = new HashMap<>();
  private final Map<String, List<String>> providers = new HashMap<>();

  /** Where a class file is: a jar entry or a file of a class directory. */
  private record Source(Path root, String entry) {}

  private ClassReach() {}

  /**
   * The binary names ({@code org.example.Foo$Bar}) of the classes of {@code classpath} reachable
   * from the classes in {@code roots} (class directories or jars), the root classes included.
   */
  public static Set<String> from(List<Path> roots, List<Path> classpath) throws IOException {
    ClassReach reach = new ClassReach();
    Set<String> start = new LinkedHashSet<>();
    for (Path root : roots) {
      start.addAll(reach.indexRoot(root));
    }
    for (Path entry : classpath) {
      reach.indexRoot(entry);
    }
    return reach.walk(start);
  }

  /** The binary names of the classes in a class directory or jar. */
  public static Set<String> classesIn(Path root) throws IOException {
    return new LinkedHashSet<>(new ClassReach().indexRoot(root));
  }

  /** Indexes the class files of one class directory or jar (the first entry of a name wins). */
  private List<String> indexRoot(Path root) throws IOException {
    List<String> names = new ArrayList<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          String entry = root.relativize(file).toString().replace('\\', '/');
          if (entry.startsWith("META-INF/services/") && Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
              readProviders(entry, in);
            }
          } else {
            addClass(root, entry, names);
          }
        }
      }
    } else if (Files.isRegularFile(root)) {
      try (ZipFile zip = new ZipFile(root.toFile())) {
        for (ZipEntry entry : Collections.list(zip.entries())) {
          if (entry.isDirectory()) {
            continue;
          }
          if (entry.getName().startsWith("META-INF/services/")) {
            try (InputStream in = zip.getInputStream(entry)) {
              readProviders(entry.getName(), in);
            }
          } else {
            addClass(root, entry.getName(), names);
          }
        }
      }
    }
    return names;
  }

  private void addClass(Path root, String entry, List<String> names) {
    // META-INF/versions/N/... copies of a multi-release jar refer to the same classes
    if (!entry.endsWith(".class")
        || entry.startsWith("META-INF/")
        || entry.endsWith("module-info.class")
        || entry.endsWith("package-info.class")) {
      return;
    }
    String name = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
    if (index.putIfAbsent(name, new Source(root, entry)) == null) {
      names.add(name);
    }
  }

  private void readProviders(String entry, InputStream in) throws IOException {
    String service = entry.substring("META-INF/services/".length());
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8));
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      int comment = line.indexOf('#');
      String provider = (comment >= 0 ? line.substring(0, comment) : line).trim();
      if (!provider.isEmpty()) {
        providers.computeIfAbsent(service, s -> new ArrayList<>()).add(provider);
      }
    }
  }

  private Set<String> walk(Collection<String> start) throws IOException {
    Set<String> reached = new LinkedHashSet<>(start);
    Deque<String> queue = new ArrayDeque<>(start);
    Map<Path, ZipFile> open = new HashMap<>();
    try {
      while (!queue.isEmpty()) {
        String name = queue.poll();
        Set<String> next = new HashSet<>(providers.getOrDefault(name, List.of()));
        Source source = index.get(name);
        if (source != null) {
          JavaClass parsed = parse(source, open);
          if (parsed != null) {
            references(parsed, next);
          }
        }
        for (String referenced : next) {
          if (index.containsKey(referenced) && reached.add(referenced)) {
            queue.add(referenced);
          }
        }
      }
    } finally {
      for (ZipFile zip : open.values()) {
        zip.close();
      }
    }
    return reached;
  }

  /** The class file, or null when it is not a readable class file (it then refers to nothing). */
  private static JavaClass parse(Source source, Map<Path, ZipFile> open) throws IOException {
    try {
      if (Files.isDirectory(source.root())) {
        try (InputStream in = Files.newInputStream(source.root().resolve(source.entry()))) {
          return new ClassParser(in, source.entry()).parse();
        }
      }
      ZipFile zip = open.get(source.root());
      if (zip == null) {
        zip = new ZipFile(source.root().toFile());
        open.put(source.root(), zip);
      }
      ZipEntry entry = zip.getEntry(source.entry());
      try (InputStream in = zip.getInputStream(entry)) {
        return new ClassParser(in, source.entry()).parse();
      }
    } catch (ClassFormatException e) {
      return null;
    }
  }

  /**
   * Every class name the constant pool of {@code type} mentions (unknown names are dropped later).
   */
  private void references(JavaClass type, Set<String> out) {
    ConstantPool pool = type.getConstantPool();
    // the array has null in the slot after a long or double constant
    for (Constant constant : pool.getConstantPool()) {
      if (constant == null) {
        continue;
      }
      switch (constant.getTag()) {
        case Const.CONSTANT_Class -> {
          String internal = ((ConstantClass) constant).getBytes(pool);
          if (internal.startsWith("[")) {
            descriptorTypes(internal, out);
          } else {
            out.add(internal.replace('/', '.'));
          }
        }
        case Const.CONSTANT_Utf8 -> descriptorTypes(((ConstantUtf8) constant).getBytes(), out);
        case Const.CONSTANT_String -> {
          String value = ((ConstantString) constant).getBytes(pool);
          String dotted = value.replace('/', '.');
          if (index.containsKey(dotted)) {
            out.add(dotted);
          }
        }
        default -> {}
      }
    }
  }

  /**
   * The class names in a descriptor or generic signature ({@code (Ljava/lang/String;[Lp/A;)Lp/B;},
   * {@code Ljava/util/List<Lp/A;>;}). Other strings yield names that match no class and are
   * dropped.
   */
  static void descriptorTypes(String text, Set<String> out) {
    if (text.isEmpty()) {
      return;
    }
    char first = text.charAt(0);
    if (first != '(' && first != 'L' && first != '[' && first != '<') {
      return;
    }
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == 'T') {
        // a type variable, TE;
        int end = text.indexOf(';', i);
        i = end < 0 ? text.length() : end + 1;
        continue;
      }
      if (c != 'L') {
        i++;
        continue;
      }
      int end = i + 1;
      while (end < text.length() && ";<".indexOf(text.charAt(end)) < 0) {
        end++;
      }
      if (end < text.length() && end > i + 1) {
        out.add(text.substring(i + 1, end).replace('/', '.'));
      }
      i = end;
    }
  }
}
