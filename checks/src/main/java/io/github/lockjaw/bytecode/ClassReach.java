package io.github.lockjaw.bytecode;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /** Configuration files of the module's roots that name classes: file → the names. */
  private final Map<String, Set<String>> configured = new LinkedHashMap<>();

  /** A class name as configuration files write it: {@code com.zaxxer.hikari.HikariDataSource}. */
  private static final Pattern CLASS_NAME =
      Pattern.compile(
          "[A-Za-z_$][A-Za-z0-9_$]*(?:\\.[A-Za-z_$][A-Za-z0-9_$]*)+(?:\\$[A-Za-z0-9_$]+)*");

  /** Files that configure which classes a framework loads (Spring, JPA, logging, servlets...). */
  private static final List<String> CONFIG_SUFFIXES =
      List.of(".xml", ".properties", ".yml", ".yaml", ".json", ".factories", ".imports", ".conf");

  /**
   * What the module's code and configuration reach, and for each class reached one path that
   * reaches it: the reason a finding there counts.
   */
  public static final class Reach {
    private final Map<String, String> parent;
    private final Map<String, String> via;

    private Reach(Map<String, String> parent, Map<String, String> via) {
      this.parent = parent;
      this.via = via;
    }

    public boolean contains(String className) {
      return via.containsKey(className);
    }

    public Set<String> classes() {
      return Collections.unmodifiableSet(via.keySet());
    }

    /**
     * {@code shop.Config → org.apache.commons.dbcp.BasicDataSource (named in
     * applicationContext.xml) → org.apache.commons.pool.impl.GenericObjectPool}: how the module
     * reaches the class, or empty when it does not.
     */
    public String path(String className) {
      if (!contains(className)) {
        return "";
      }
      List<String> steps = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (String c = className; c != null && seen.add(c); c = parent.get(c)) {
        String how = via.get(c);
        steps.add(0, how.isEmpty() ? c : c + " (" + how + ")");
      }
      return String.join(" → ", steps);
    }
  }

  /** Where a class file is: a jar entry or a file of a class directory. */
  private record Source(Path root, String entry) {}

  private ClassReach() {}

  /**
   * The binary names ({@code org.example.Foo$Bar}) of the classes of {@code classpath} reachable
   * from the classes in {@code roots} (class directories or jars), the root classes included.
   */
  public static Set<String> from(List<Path> roots, List<Path> classpath) throws IOException {
    return reach(roots, classpath).classes();
  }

  /**
   * What the classes and configuration files in {@code roots} (the module's output directories)
   * reach through {@code classpath}, with a path to each class: the module's classes, the classes
   * its configuration files name (Spring and JPA XML, properties, YAML, {@code spring.factories},
   * {@code *.imports}), and, from each class reached, the classes its constant pool names (types,
   * descriptors, annotations, strings that are class names), the {@code META-INF/services}
   * providers and {@code spring.factories} entries of an interface reached.
   */
  public static Reach reach(List<Path> roots, List<Path> classpath) throws IOException {
    ClassReach reach = new ClassReach();
    Map<String, String> start = new LinkedHashMap<>();
    for (Path root : roots) {
      for (String name : reach.indexRoot(root)) {
        start.putIfAbsent(name, "");
      }
      reach.readConfiguration(root);
    }
    for (Path entry : classpath) {
      reach.indexRoot(entry);
    }
    reach.configured.forEach(
        (file, names) -> {
          for (String name : names) {
            if (reach.index.containsKey(name)) {
              start.putIfAbsent(name, "named in " + file);
            }
          }
        });
    return reach.walk(start);
  }

  /** Reads the class names the configuration files of a module's output directory mention. */
  private void readConfiguration(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String entry = root.relativize(file).toString().replace('\\', '/');
        boolean config =
            CONFIG_SUFFIXES.stream().anyMatch(entry::endsWith)
                || entry.startsWith("META-INF/services/");
        if (!config || !Files.isRegularFile(file) || Files.size(file) > 8 << 20) {
          continue;
        }
        String text;
        try {
          text = Files.readString(file, UTF_8);
        } catch (MalformedInputException e) {
          continue; // not text: it names no class lockjaw can read
        }
        Set<String> names = new LinkedHashSet<>();
        Matcher m = CLASS_NAME.matcher(text);
        while (m.find()) {
          names.add(m.group());
        }
        configured.put(entry, names);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
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
          } else if (entry.getName().equals("META-INF/spring.factories")) {
            try (InputStream in = zip.getInputStream(entry)) {
              readSpringFactories(in);
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

  /** {@code key=impl1,impl2} lines: the implementations Spring loads for an interface key. */
  private void readSpringFactories(InputStream in) throws IOException {
    Properties factories = new Properties();
    factories.load(in);
    for (String key : factories.stringPropertyNames()) {
      for (String value : factories.getProperty(key).split(",")) {
        if (!value.isBlank()) {
          providers.computeIfAbsent(key.trim(), k -> new ArrayList<>()).add(value.trim());
        }
      }
    }
  }

  private Reach walk(Map<String, String> start) throws IOException {
    Map<String, String> via = new LinkedHashMap<>(start);
    Map<String, String> parent = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>(start.keySet());
    Map<Path, ZipFile> open = new HashMap<>();
    try {
      while (!queue.isEmpty()) {
        String name = queue.poll();
        Map<String, String> next = new LinkedHashMap<>();
        for (String provider : providers.getOrDefault(name, List.of())) {
          next.putIfAbsent(provider, "a provider of " + JavaNamesSimple.of(name));
        }
        Source source = index.get(name);
        if (source != null) {
          JavaClass parsed = parse(source, open);
          if (parsed != null) {
            references(parsed, next);
          }
        }
        for (Map.Entry<String, String> referenced : next.entrySet()) {
          String target = referenced.getKey();
          if (index.containsKey(target) && !via.containsKey(target)) {
            via.put(target, referenced.getValue());
            parent.put(target, name);
            queue.add(target);
          }
        }
      }
    } finally {
      for (ZipFile zip : open.values()) {
        zip.close();
      }
    }
    return new Reach(parent, via);
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
  private void references(JavaClass type, Map<String, String> out) {
    ConstantPool pool = type.getConstantPool();
    // the array has null in the slot after a long or double constant
    for (Constant constant : pool.getConstantPool()) {
      if (constant == null) {
        continue;
      }
      switch (constant.getTag()) {
        case Const.CONSTANT_Class -> {
          String internal = ((ConstantClass) constant).getBytes(pool);
          Set<String> names = new LinkedHashSet<>();
          if (internal.startsWith("[")) {
            descriptorTypes(internal, names);
          } else {
            names.add(internal.replace('/', '.'));
          }
          names.forEach(n -> out.putIfAbsent(n, ""));
        }
        case Const.CONSTANT_Utf8 -> {
          Set<String> names = new LinkedHashSet<>();
          descriptorTypes(((ConstantUtf8) constant).getBytes(), names);
          names.forEach(n -> out.putIfAbsent(n, ""));
        }
        case Const.CONSTANT_String -> {
          String value = ((ConstantString) constant).getBytes(pool);
          String dotted = value.replace('/', '.');
          if (index.containsKey(dotted)) {
            out.put(dotted, "named by a string in " + JavaNamesSimple.of(type.getClassName()));
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

  /** {@code GenericObjectPool} from {@code org.apache.commons.pool.impl.GenericObjectPool}. */
  private static final class JavaNamesSimple {
    private JavaNamesSimple() {}

    static String of(String className) {
      return className.substring(className.lastIndexOf('.') + 1);
    }
  }
}
