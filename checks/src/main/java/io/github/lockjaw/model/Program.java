package io.github.lockjaw.model;

import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The analysed code as one whole: the classes the front-ends read (the compilation, the module, the
 * jars), the type hierarchy around them, calls resolved to the methods they may run (class
 * hierarchy analysis), and knowledge entries matched against calls. Classes outside the analysed
 * code come in on demand, through a {@link ClassFactsSource}, when a call leads into them.
 */
public final class Program {
  private final Map<String, ClassFacts> classes = new LinkedHashMap<>();
  private final Map<MethodRef, MethodFacts> methods = new HashMap<>();
  private final Map<String, Optional<ClassFacts>> loaded = new HashMap<>();
  private final Map<String, Optional<TypeHierarchy.Supertypes>> supertypeCache = new HashMap<>();
  private final Map<String, Boolean> subtypeCache = new HashMap<>();
  private final Map<String, List<String>> directSubtypes = new HashMap<>();
  private final TypeHierarchy hierarchy;
  private final ClassFactsSource library;
  private Map<MethodRef, List<CallSite>> callers;
  private final Map<String, Set<String>> subtypesCache = new HashMap<>();
  private final Map<MethodRef, Optional<MethodFacts>> resolved = new HashMap<>();
  private final Map<MethodRef, List<MethodFacts>> dispatched = new HashMap<>();

  /** One call: the calling method and the operation. */
  public record CallSite(MethodFacts caller, Op op) {}

  public Program(TypeHierarchy hierarchy, ClassFactsSource library) {
    this.hierarchy = hierarchy;
    this.library = library;
  }

  /** Adds the facts of analysed classes (a later class of the same name replaces the earlier). */
  public Program addAll(Collection<ClassFacts> facts) {
    for (ClassFacts c : facts) {
      add(c);
    }
    return this;
  }

  public Program add(ClassFacts facts) {
    ClassFacts old = classes.put(facts.name(), facts);
    if (old != null) {
      old.methods().forEach(m -> methods.remove(m.ref()));
    }
    index(facts);
    callers = null;
    subtypesCache.clear();
    resolved.clear();
    dispatched.clear();
    return this;
  }

  private void index(ClassFacts facts) {
    for (MethodFacts method : facts.methods()) {
      methods.put(method.ref(), method);
    }
    if (facts.superName() != null) {
      directSubtypes.computeIfAbsent(facts.superName(), k -> new ArrayList<>()).add(facts.name());
    }
    for (String i : facts.interfaces()) {
      directSubtypes.computeIfAbsent(i, k -> new ArrayList<>()).add(facts.name());
    }
  }

  /** The analysed classes. */
  public Collection<ClassFacts> classes() {
    return classes.values();
  }

  /** An analysed class, or one loaded on demand from the library class path; {@code null}. */
  public ClassFacts classFacts(String name) {
    ClassFacts facts = classes.get(name);
    if (facts != null) {
      return facts;
    }
    return loaded
        .computeIfAbsent(
            name,
            n -> {
              if (isPlatform(n)) {
                return Optional.empty();
              }
              Optional<ClassFacts> read = library.load(n);
              read.ifPresent(c -> c.methods().forEach(m -> methods.putIfAbsent(m.ref(), m)));
              return read;
            })
        .orElse(null);
  }

  /** Whether the class was read as part of the analysed code (not loaded on demand). */
  public boolean isAnalysed(String className) {
    return classes.containsKey(className);
  }

  /** JDK classes are known by their knowledge entries, never read. */
  /**
   * Whether a class is the JDK's: a {@code java.}, {@code javax.}, {@code jdk.}, {@code sun.} or
   * {@code com.sun.} name that is not among the analysed classes. Libraries use those prefixes too
   * (javax.mail, javax.activation, Jersey 1's {@code com.sun.jersey}, Mojarra's {@code
   * com.sun.faces}); analysed, they are the program's code, resolved and dispatched as any other.
   */
  public boolean isPlatformClass(String name) {
    return isPlatform(name) && !classes.containsKey(name);
  }

  static boolean isPlatform(String name) {
    return name.startsWith("java.")
        || name.startsWith("javax.")
        || name.startsWith("jdk.")
        || name.startsWith("sun.")
        || name.startsWith("com.sun.");
  }

  /** The facts of a method of an analysed or loaded class, or {@code null}. */
  public MethodFacts method(MethodRef ref) {
    MethodFacts facts = methods.get(ref);
    if (facts == null && classFacts(ref.owner()) != null) {
      facts = methods.get(ref);
    }
    return facts;
  }

  /** The class declaring a method, or {@code null}. */
  public ClassFacts owner(MethodFacts method) {
    return classFacts(method.ref().owner());
  }

  // ------------------------------------------------------------------- types

  private Optional<TypeHierarchy.Supertypes> supertypes(String name) {
    ClassFacts facts = classes.get(name);
    if (facts == null && !isPlatform(name)) {
      facts = classFacts(name);
    }
    if (facts != null) {
      return Optional.of(
          new TypeHierarchy.Supertypes(facts.superName(), facts.interfaces(), facts.isInterface()));
    }
    return supertypeCache.computeIfAbsent(name, hierarchy::supertypes);
  }

  /** Whether {@code sub} is {@code sup} or a subtype of it (binary names). */
  public boolean isSubtype(String sub, String sup) {
    if (sub.equals(sup) || sup.equals("java.lang.Object")) {
      return true;
    }
    String key = sub + ' ' + sup;
    Boolean known = subtypeCache.get(key);
    if (known != null) {
      return known;
    }
    boolean result = false;
    Deque<String> work = new ArrayDeque<>();
    Set<String> seen = new HashSet<>();
    work.add(sub);
    while (!work.isEmpty() && !result) {
      String type = work.poll();
      if (!seen.add(type)) {
        continue;
      }
      Optional<TypeHierarchy.Supertypes> supers = supertypes(type);
      if (supers.isEmpty()) {
        continue;
      }
      TypeHierarchy.Supertypes s = supers.get();
      if (s.superName() != null) {
        result |= s.superName().equals(sup);
        work.add(s.superName());
      }
      for (String i : s.interfaces()) {
        result |= i.equals(sup);
        work.add(i);
      }
    }
    subtypeCache.put(key, result);
    return result;
  }

  /** Whether a class (binary name) is an interface, as far as the hierarchy knows. */
  public boolean isInterface(String name) {
    return supertypes(name).map(TypeHierarchy.Supertypes::isInterface).orElse(false);
  }

  /** The analysed classes that are {@code type} or a subtype of it. */
  public Set<String> analysedSubtypes(String type) {
    Set<String> known = subtypesCache.get(type);
    if (known != null) {
      return known;
    }
    Set<String> all = new LinkedHashSet<>();
    Deque<String> work = new ArrayDeque<>();
    work.add(type);
    while (!work.isEmpty()) {
      String t = work.poll();
      if (!all.add(t)) {
        continue;
      }
      work.addAll(directSubtypes.getOrDefault(t, List.of()));
    }
    all.removeIf(name -> !classes.containsKey(name));
    subtypesCache.put(type, all);
    return all;
  }

  // ------------------------------------------------------------------- calls

  /**
   * The method a call names as declared: the class named in the call or its nearest superclass or
   * interface that declares it; {@code null} when none is known (the JDK, a missing class).
   */
  public MethodFacts resolve(MethodRef call) {
    Optional<MethodFacts> known = resolved.get(call);
    if (known == null) {
      known = Optional.ofNullable(resolveUncached(call));
      resolved.put(call, known);
    }
    return known.orElse(null);
  }

  private MethodFacts resolveUncached(MethodRef call) {
    Deque<String> work = new ArrayDeque<>();
    Set<String> seen = new HashSet<>();
    work.add(call.owner());
    while (!work.isEmpty()) {
      String type = work.poll();
      if (!seen.add(type) || isPlatformClass(type)) {
        continue;
      }
      MethodFacts found = method(new MethodRef(type, call.name(), call.descriptor()));
      if (found != null) {
        return found;
      }
      ClassFacts facts = classFacts(type);
      if (facts != null) {
        if (facts.superName() != null) {
          work.add(facts.superName());
        }
        work.addAll(facts.interfaces());
      }
    }
    return null;
  }

  /**
   * The methods a call may run: for a static, special or constructor call, the resolved method; for
   * a virtual call, the resolved one and every override in analysed subtypes of the named class.
   * Empty for calls into the JDK and unknown code (knowledge speaks for those).
   */
  public List<MethodFacts> targets(Op call) {
    if (!call.isCall()) {
      return List.of();
    }
    MethodRef named = call.method();
    if (call.kind() == Op.Kind.INVOKE_VIRTUAL) {
      return dispatched.computeIfAbsent(named, n -> virtualTargets(n));
    }
    MethodFacts resolvedTarget = resolve(named);
    return resolvedTarget != null && !resolvedTarget.isAbstract()
        ? List.of(resolvedTarget)
        : List.of();
  }

  /**
   * The overrides a virtual call may run. A call named on a JDK type ({@code out.write(…)} on an
   * {@code OutputStream}) is not dispatched into the program's subclasses: every stream, runnable
   * or collection of the program would be a target, and the knowledge files speak for the JDK. Nor
   * is a call with more than {@link #MAX_TARGETS} overrides: lockjaw cannot tell which one runs.
   */
  private List<MethodFacts> virtualTargets(MethodRef named) {
    List<MethodFacts> targets = new ArrayList<>();
    MethodFacts declared = resolve(named);
    if (declared != null && !declared.isAbstract()) {
      targets.add(declared);
    }
    if (isPlatformClass(named.owner())) {
      return targets;
    }
    for (String sub : analysedSubtypes(named.owner())) {
      if (sub.equals(named.owner())) {
        continue;
      }
      MethodFacts override = methods.get(new MethodRef(sub, named.name(), named.descriptor()));
      if (override != null && !override.isAbstract() && !targets.contains(override)) {
        targets.add(override);
      }
    }
    return targets.size() > MAX_TARGETS ? List.of() : targets;
  }

  /** The most overrides a virtual call is followed into. */
  public static final int MAX_TARGETS = 8;

  /** Every call site in analysed code that may run {@code method}. */
  public List<CallSite> callersOf(MethodRef method) {
    if (callers == null) {
      callers = new HashMap<>();
      for (ClassFacts c : classes.values()) {
        for (MethodFacts m : c.methods()) {
          for (Op op : m.ops()) {
            if (!op.isCall()) {
              continue;
            }
            for (MethodFacts target : targets(op)) {
              callers
                  .computeIfAbsent(target.ref(), k -> new ArrayList<>())
                  .add(new CallSite(m, op));
            }
            for (Value arg : op.args()) {
              if (arg instanceof Value.Lambda lambda && lambda.body().isLambdaBody()) {
                callers
                    .computeIfAbsent(lambda.body(), k -> new ArrayList<>())
                    .add(new CallSite(m, op));
              }
            }
          }
        }
      }
    }
    return callers.getOrDefault(method, List.of());
  }

  // ------------------------------------------------------------------- knowledge

  /**
   * The first entry of {@code index} that a call ({@code owner.name}) is or overrides: the entry's
   * type is the call's class or a supertype of it; a {@code type#*} entry matches the methods that
   * type itself declares.
   */
  public Optional<KnowledgeIndex.MethodEntry> match(KnowledgeIndex index, MethodRef call) {
    for (KnowledgeIndex.MethodEntry entry : index.candidates(call.name())) {
      String type = entry.owner();
      if (entry.isWildcard()) {
        // every method the type declares: a class's own calls, or any call through an interface
        if (call.owner().equals(type) || (isInterface(type) && isSubtype(call.owner(), type))) {
          return Optional.of(entry);
        }
        continue;
      }
      if (isSubtype(call.owner(), type)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** The first type of {@code types} (binary names) that {@code type} is or extends. */
  public Optional<String> matchType(List<String> types, String type) {
    for (String candidate : types) {
      if (isSubtype(type, candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
