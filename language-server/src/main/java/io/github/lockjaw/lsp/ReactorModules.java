package io.github.lockjaw.lsp;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The Maven modules on disk around the edited files: every {@code pom.xml} under the workspace
 * folders and under the reactor root above a module (found through its {@code <parent>}'s relative
 * path), so that a module's dependency on a sibling of its reactor is served from the sibling's
 * sources and {@code target/classes} rather than from a repository where it may never have been
 * installed. Reads each {@code pom.xml} as XML (coordinates, dependencies, parent), without Maven.
 */
final class ReactorModules {
  /** Directories that never hold a module of the reactor, or hold copies of one. */
  private static final Set<String> SKIPPED =
      Set.of("target", "node_modules", "src", "build", "out", "bin");

  private static final int MAX_DEPTH = 8;

  /**
   * One module's {@code pom.xml} as far as lockjaw reads it.
   *
   * @param key {@code groupId:artifactId}, or null when the file is not a readable pom
   * @param dependencies the {@code groupId:artifactId} of each declared dependency (any scope); a
   *     group id given by a property the pom does not define is {@code *}
   * @param parentPom the parent's {@code pom.xml} on disk, or null
   */
  record Module(Path pom, String key, List<String> dependencies, Path parentPom) {
    Path dir() {
      return pom.getParent();
    }

    /** {@code src/main/java}, when it exists: what a dependant module reads of this one. */
    List<Path> mainSourceRoots() {
      Path root = dir().resolve("src/main/java");
      return Files.isDirectory(root) ? List.of(root) : List.of();
    }

    /** {@code target/classes}, when it exists (generated classes, resources). */
    List<String> classesDirectory() {
      Path classes = dir().resolve("target/classes");
      return Files.isDirectory(classes) ? List.of(classes.toString()) : List.of();
    }
  }

  private record Parsed(FileTime modified, Module module) {}

  private final List<Path> workspaceFolders;
  private final Map<Path, Parsed> parsed = new ConcurrentHashMap<>();
  private volatile Map<String, Path> index;
  private final Set<Path> scanned = ConcurrentHashMap.newKeySet();

  ReactorModules(List<Path> workspaceFolders) {
    this.workspaceFolders =
        workspaceFolders.stream().map(p -> p.toAbsolutePath().normalize()).toList();
  }

  /** A pom.xml was added, changed or removed: the modules are read again when next needed. */
  synchronized void invalidate() {
    index = null;
    scanned.clear();
  }

  /**
   * The modules of the workspace (and of the reactor around {@code pom}) that {@code pom} depends
   * on, directly: the dependency's declared version is not compared, since the workspace's code is
   * what the developer is editing.
   */
  List<Module> siblingsOf(Path pom) {
    Module module = module(pom);
    if (module.key() == null || module.dependencies().isEmpty()) {
      return List.of();
    }
    Map<String, Path> modules = index(pom);
    List<Module> siblings = new ArrayList<>();
    for (String dependency : module.dependencies()) {
      Path found = modules.get(dependency);
      if (found == null && dependency.startsWith("*:")) {
        found = uniqueByArtifactId(modules, dependency.substring(2));
      }
      if (found != null && !found.equals(module.pom())) {
        Module sibling = module(found);
        if (!siblings.contains(sibling)) {
          siblings.add(sibling);
        }
      }
    }
    return siblings;
  }

  /** The sibling modules {@code pom} depends on, directly or through other siblings. */
  List<Module> closure(Path pom) {
    Set<Module> all = new LinkedHashSet<>();
    List<Module> next = new ArrayList<>(siblingsOf(pom));
    while (!next.isEmpty()) {
      Module sibling = next.remove(0);
      if (!sibling.pom().equals(pom) && all.add(sibling)) {
        next.addAll(siblingsOf(sibling.pom()));
      }
    }
    return List.copyOf(all);
  }

  Module module(Path pom) {
    Path normalized = pom.toAbsolutePath().normalize();
    FileTime modified;
    try {
      modified = Files.getLastModifiedTime(normalized);
    } catch (IOException e) {
      modified = FileTime.fromMillis(0);
    }
    Parsed known = parsed.get(normalized);
    if (known != null && known.modified().equals(modified)) {
      return known.module();
    }
    Module module = read(normalized);
    parsed.put(normalized, new Parsed(modified, module));
    return module;
  }

  private Map<String, Path> index(Path pom) {
    Path root = reactorRoot(pom);
    synchronized (this) {
      Map<String, Path> current = index;
      if (current != null && (root == null || scanned.contains(root))) {
        return current;
      }
      Map<String, Path> modules = current == null ? new HashMap<>() : new HashMap<>(current);
      List<Path> roots = new ArrayList<>();
      if (current == null) {
        roots.addAll(workspaceFolders);
      }
      if (root != null) {
        roots.add(root);
      }
      for (Path dir : roots) {
        if (scanned.add(dir)) {
          for (Path found : pomsUnder(dir)) {
            Module module = module(found);
            if (module.key() != null) {
              modules.putIfAbsent(module.key(), module.pom());
            }
          }
        }
      }
      index = Map.copyOf(modules);
      return index;
    }
  }

  /** The directory of the outermost pom.xml reached through parents' relative paths. */
  private Path reactorRoot(Path pom) {
    Path top = null;
    Set<Path> seen = new LinkedHashSet<>();
    for (Module m = module(pom); m.parentPom() != null && seen.add(m.pom()); ) {
      m = module(m.parentPom());
      top = m.dir();
    }
    return top;
  }

  private static Path uniqueByArtifactId(Map<String, Path> modules, String artifactId) {
    Path found = null;
    for (Map.Entry<String, Path> entry : modules.entrySet()) {
      if (entry.getKey().endsWith(":" + artifactId)) {
        if (found != null) {
          return null; // two modules of that name: which one is not known
        }
        found = entry.getValue();
      }
    }
    return found;
  }

  private static List<Path> pomsUnder(Path dir) {
    List<Path> poms = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return poms;
    }
    try {
      Files.walkFileTree(
          dir,
          EnumSet.noneOf(FileVisitOption.class),
          MAX_DEPTH,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
              String name = d.getFileName() == null ? "" : d.getFileName().toString();
              boolean skip = !d.equals(dir) && (SKIPPED.contains(name) || name.startsWith("."));
              return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (file.getFileName().toString().equals("pom.xml")) {
                poms.add(file.toAbsolutePath().normalize());
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // an unreadable folder: the modules found so far
    }
    return poms;
  }

  /**
   * A pom.xml's {@code <project>} as lockjaw reads it: its group (its own, else its parent's), its
   * parent's group, its properties, and each dependency's {@code groupId:artifactId}.
   */
  private record PomXml(
      Element project, String group, String parentGroup, Map<String, String> properties) {
    static PomXml of(Document document) {
      Element project = document.getDocumentElement();
      Element parent = child(project, "parent");
      String parentGroup = parent == null ? null : text(child(parent, "groupId"));
      String group = text(child(project, "groupId"));
      Map<String, String> properties = new LinkedHashMap<>();
      Element declared = child(project, "properties");
      if (declared != null) {
        for (Element property : children(declared)) {
          properties.put(property.getTagName(), property.getTextContent().trim());
        }
      }
      return new PomXml(project, group == null ? parentGroup : group, parentGroup, properties);
    }

    List<Element> dependencies() {
      Element dependencies = child(project, "dependencies");
      return dependencies == null ? List.of() : children(dependencies);
    }

    /**
     * {@code groupId:artifactId} of a dependency; {@code *:artifactId} when its group is a property
     * the pom does not define; null when its artifact id is not plain text.
     */
    String key(Element dependency) {
      String artifact = text(child(dependency, "artifactId"));
      if (artifact == null || artifact.contains("${")) {
        return null;
      }
      String depGroup = resolve(text(child(dependency, "groupId")));
      return (depGroup == null ? "*" : depGroup) + ":" + artifact;
    }

    private String resolve(String value) {
      if (value == null || !value.startsWith("${") || !value.endsWith("}")) {
        return value;
      }
      String name = value.substring(2, value.length() - 1);
      return switch (name) {
        case "project.groupId", "pom.groupId", "groupId" -> group;
        case "project.parent.groupId", "parent.groupId" -> parentGroup;
        default -> {
          String property = properties.get(name);
          yield property == null || property.contains("${") ? null : property;
        }
      };
    }
  }

  private static Module read(Path pom) {
    PomXml xml;
    try {
      xml = PomXml.of(parse(pom));
    } catch (Exception e) { // a broken pom.xml: Maven says what is wrong with it
      return new Module(pom, null, List.of(), null);
    }
    Element parent = child(xml.project(), "parent");
    Path parentPom = null;
    if (parent != null) {
      String relative = text(child(parent, "relativePath"));
      if (relative == null) {
        relative = "../pom.xml";
      }
      if (!relative.isEmpty()) {
        Path candidate = pom.getParent().resolve(relative).normalize();
        if (Files.isDirectory(candidate)) {
          candidate = candidate.resolve("pom.xml");
        }
        parentPom = Files.isRegularFile(candidate) ? candidate : null;
      }
    }
    List<String> dependencies = new ArrayList<>();
    for (Element dependency : xml.dependencies()) {
      String key = xml.key(dependency);
      if (key != null) {
        dependencies.add(key);
      }
    }
    String group = xml.group();
    String artifact = text(child(xml.project(), "artifactId"));
    String key =
        group == null || artifact == null || group.contains("${") ? null : group + ":" + artifact;
    return new Module(pom, key, List.copyOf(dependencies), parentPom);
  }

  /**
   * The text of {@code module}'s pom.xml without its dependencies on {@code siblings} and without
   * {@code <modules>}, for a copy at {@code copy}: the parent's relative path and {@code
   * ${project.basedir}} are rewritten so that the copy means what the original means. Maven
   * resolves the copy's class path without looking for the siblings in a repository.
   */
  static String withoutSiblings(Module module, List<Module> siblings, Path copy) throws Exception {
    Document document = parse(module.pom());
    PomXml xml = PomXml.of(document);
    Element project = xml.project();
    Set<String> keys = new LinkedHashSet<>();
    Set<String> artifactIds = new LinkedHashSet<>();
    for (Module sibling : siblings) {
      keys.add(sibling.key());
      artifactIds.add(sibling.key().substring(sibling.key().indexOf(':') + 1));
    }
    for (Element dependency : xml.dependencies()) {
      String key = xml.key(dependency);
      boolean sibling =
          key != null
              && (key.startsWith("*:")
                  ? artifactIds.contains(key.substring(2))
                  : keys.contains(key));
      if (sibling) {
        dependency.getParentNode().removeChild(dependency);
      }
    }
    Element modules = child(project, "modules");
    if (modules != null) {
      project.removeChild(modules);
    }
    Element parent = child(project, "parent");
    if (parent != null) {
      Element relativePath = child(parent, "relativePath");
      if (relativePath == null) {
        relativePath = document.createElement("relativePath");
        parent.appendChild(relativePath);
      }
      relativePath.setTextContent(
          module.parentPom() == null
              ? ""
              : copy.getParent().relativize(module.parentPom()).toString().replace('\\', '/'));
    }
    Transformer transformer = TransformerFactory.newInstance().newTransformer();
    StringWriter text = new StringWriter();
    transformer.transform(new DOMSource(document), new StreamResult(text));
    String dir = module.dir().toString().replace('\\', '/');
    return text.toString().replace("${project.basedir}", dir).replace("${basedir}", dir);
  }

  private static Document parse(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    factory.setExpandEntityReferences(false);
    DocumentBuilder builder = factory.newDocumentBuilder();
    builder.setErrorHandler(new DefaultHandler()); // errors throw; nothing printed
    return builder.parse(pom.toFile());
  }

  private static Element child(Element parent, String name) {
    for (Element element : children(parent)) {
      if (element.getTagName().equals(name)) {
        return element;
      }
    }
    return null;
  }

  private static List<Element> children(Element parent) {
    List<Element> elements = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element element) {
        elements.add(element);
      }
    }
    return elements;
  }

  private static String text(Element element) {
    if (element == null) {
      return null;
    }
    String text = element.getTextContent().trim();
    return text.isEmpty() ? null : text;
  }
}
