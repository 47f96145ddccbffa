package io.github.lockjaw.model;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What reaches each method of the analysed code, decided by the call graph rather than by names:
 * requests (framework entry points, or the public API of a library: public methods nobody in the
 * analysed code calls), start-up, configuration and shutdown, background schedulers, administrators
 * (JMX), and tests. A method reached by a request has a witness: the entry point and the calls that
 * lead to it.
 */
public final class Reachability {
  /** Where a method can be reached from. */
  public enum Origin {
    REQUEST,
    LIFECYCLE,
    BACKGROUND,
    ADMIN,
    TEST
  }

  private static final KnowledgeIndex REQUEST_METHODS =
      Kind.EntryPoints.REQUEST_ENTRY_METHOD.index();
  private static final List<String> REQUEST_ANNOTATIONS =
      names(Kind.EntryPoints.REQUEST_ENTRY_ANNOTATION);
  private static final KnowledgeIndex BACKGROUND_METHODS =
      Kind.EntryPoints.BACKGROUND_ENTRY_METHOD.index();
  private static final List<String> BACKGROUND_ANNOTATIONS =
      names(Kind.EntryPoints.BACKGROUND_ENTRY_ANNOTATION);
  private static final List<String> ADMIN_ANNOTATIONS =
      names(Kind.EntryPoints.ADMIN_ENTRY_ANNOTATION);
  private static final List<String> ADMIN_SUFFIXES =
      Kind.EntryPoints.ADMIN_INTERFACE_SUFFIX.values();
  private static final List<String> SET_UP_ANNOTATIONS =
      union(
          names(Kind.EntryPoints.SET_UP_ANNOTATION), names(Kind.EntryPoints.TEAR_DOWN_ANNOTATION));
  private static final KnowledgeIndex SET_UP_METHODS =
      KnowledgeIndex.of(
          Kind.EntryPoints.SET_UP_METHOD,
          Kind.EntryPoints.START_UP_METHOD,
          Kind.EntryPoints.ONE_SHOT_METHOD);
  private static final List<String> TEST_ANNOTATIONS = names(Kind.EntryPoints.TEST_ANNOTATION);
  private static final List<String> TEST_CLASS_ANNOTATIONS =
      names(Kind.EntryPoints.TEST_CLASS_ANNOTATION);
  private static final List<String> TEST_PATHS = Kind.EntryPoints.TEST_SOURCE_PATH.values();

  private final Program program;
  private final Effects effects;
  private final Map<MethodRef, EnumSet<Origin>> origins = new HashMap<>();
  private final Map<MethodRef, Step> requestParent = new HashMap<>();
  private final Map<MethodRef, String> requestEntry = new HashMap<>();
  private final Set<MethodRef> apiEntries = new HashSet<>();
  private final Set<MethodRef> fromEntryPoints = new HashSet<>();
  private final Set<MethodRef> startUpEntries = new HashSet<>();

  /** How a request reaches a method: the caller and the call. */
  private record Step(MethodRef caller, int line) {}

  public Reachability(Program program, Effects effects) {
    this.program = program;
    this.effects = effects;
    compute();
  }

  private static List<String> names(Kind kind) {
    return kind.index().typeNames();
  }

  private static List<String> union(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** Where a method can be reached from; empty when nothing in the analysed code reaches it. */
  public Set<Origin> originsOf(MethodRef method) {
    EnumSet<Origin> found = origins.get(method);
    return found == null ? Set.of() : Collections.unmodifiableSet(found);
  }

  public boolean isOnRequestPath(MethodRef method) {
    return originsOf(method).contains(Origin.REQUEST);
  }

  /** Whether only start-up, configuration, shutdown, background, admin or test code reaches it. */
  public boolean isReachedOnlyOffRequestPath(MethodRef method) {
    Set<Origin> found = originsOf(method);
    return !found.isEmpty() && !found.contains(Origin.REQUEST);
  }

  /**
   * The request path to a method: the entry point first ({@code "public API of a library:
   * Foo.bar()"} or {@code "OrderServlet.doGet()"}), then each call, as text; empty when requests do
   * not reach it.
   */
  public List<String> requestPath(MethodRef method) {
    if (!isOnRequestPath(method)) {
      return List.of();
    }
    List<String> path = new ArrayList<>();
    MethodRef current = method;
    int guard = 0;
    while (requestParent.containsKey(current) && guard++ < 50) {
      Step step = requestParent.get(current);
      path.add(step.caller().display() + "() calls " + current.display() + "()");
      current = step.caller();
    }
    path.add(requestEntry.getOrDefault(current, current.display() + "()"));
    Collections.reverse(path);
    return path;
  }

  /**
   * The method requests enter by on their way to {@code method} (the start of {@link
   * #requestPath}): a framework entry point, or API; {@code null} when requests do not reach it.
   */
  public MethodRef requestEntry(MethodRef method) {
    if (!isOnRequestPath(method)) {
      return null;
    }
    MethodRef current = method;
    int guard = 0;
    while (requestParent.containsKey(current) && guard++ < 50) {
      current = requestParent.get(current).caller();
    }
    return current;
  }

  /**
   * Whether requests reach a method as API: it is not private, no framework entry point names it,
   * and nothing in the analysed code (tests aside) calls it, or it implements a type outside the
   * analysed code, whose code calls it. Such a method is a request path by assumption (a library's
   * callers may call it per request), not by a call lockjaw saw.
   */
  public boolean isApiEntry(MethodRef method) {
    return apiEntries.contains(method);
  }

  /**
   * Whether requests reach a method from a framework entry point (a servlet, a filter, an aspect, a
   * handler, a listener of {@code entry-points.txt}), not only from API methods by assumption.
   */
  public boolean isReachedFromEntryPoint(MethodRef method) {
    return fromEntryPoints.contains(method);
  }

  /**
   * Whether a method is itself a start-up, configuration or shutdown step: its name, annotations or
   * interface say it starts, stops, initialises, registers, refreshes or configures ({@code
   * entry-points.txt}), not only that such a step calls it.
   */
  public boolean isStartUpEntry(MethodRef method) {
    return startUpEntries.contains(method);
  }

  // ------------------------------------------------------------------- roots

  private void compute() {
    Map<Origin, List<MethodRef>> roots = new HashMap<>();
    for (Origin origin : Origin.values()) {
      roots.put(origin, new ArrayList<>());
    }
    for (ClassFacts c : program.classes()) {
      boolean testClass = isTestClass(c);
      for (MethodFacts m : c.methods()) {
        Origin origin = testClass ? Origin.TEST : rootOrigin(c, m);
        if (origin != null) {
          roots.get(origin).add(m.ref());
        }
      }
    }
    startUpEntries.addAll(roots.get(Origin.LIFECYCLE));
    // tests first, so that a method only tests call is still a library's public API
    for (Origin origin : List.of(Origin.TEST, Origin.LIFECYCLE, Origin.BACKGROUND, Origin.ADMIN)) {
      propagate(origin, roots.get(origin));
    }
    // framework entry points first: what they reach is reached by requests lockjaw saw
    propagate(Origin.REQUEST, roots.get(Origin.REQUEST));
    origins.forEach(
        (method, found) -> {
          if (found.contains(Origin.REQUEST)) {
            fromEntryPoints.add(method);
          }
        });
    Set<MethodRef> tasks = tasksHandedToCalls();
    List<MethodRef> requests = new ArrayList<>();
    for (ClassFacts c : program.classes()) {
      if (isTestClass(c)) {
        continue;
      }
      for (MethodFacts m : c.methods()) {
        if (isApi(m)
            && rootOrigin(c, m) == null
            && ((!hasNonTestCaller(m.ref()) && !tasks.contains(m.ref()))
                || implementsOutsideType(m))) {
          requests.add(m.ref());
          markApiEntry(c, m);
        }
      }
    }
    propagate(Origin.REQUEST, requests);
    apiInCycles(tasks);
    threadsStartedAtStartUp();
    scheduledTasks();
  }

  private void markApiEntry(ClassFacts c, MethodFacts m) {
    apiEntries.add(m.ref());
    requestEntry.put(
        m.ref(),
        (c.isPublic() && m.isPublic() ? "public API: " : "called from outside this code: ")
            + m.ref().display()
            + "()");
  }

  /**
   * API methods that call each other and nothing else reaches (wrappers of one interface, each
   * calling the interface's method on the object it wraps: with class-hierarchy resolution every
   * one is a caller of every other) have callers but no origin. A library's callers reach them, so
   * each such method nothing reached yet becomes an API entry in its turn.
   */
  private void apiInCycles(Set<MethodRef> tasks) {
    for (ClassFacts c : program.classes()) {
      if (isTestClass(c)) {
        continue;
      }
      for (MethodFacts m : c.methods()) {
        Set<Origin> found = origins.get(m.ref());
        if ((found == null || found.isEmpty())
            && isApi(m)
            && rootOrigin(c, m) == null
            && !tasks.contains(m.ref())) {
          markApiEntry(c, m);
          propagate(Origin.REQUEST, List.of(m.ref()));
        }
      }
    }
  }

  /**
   * The methods of anonymous and local classes that analysed code creates and hands to a call that
   * runs them on the spot or keeps them (a callback, a shutdown hook): they run when and where that
   * call runs them, so their reach is their creator's, not an API's.
   */
  private Set<MethodRef> tasksHandedToCalls() {
    Set<MethodRef> tasks = new HashSet<>();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        for (Op op : m.ops()) {
          // a task handed to another thread (a thread, an executor) runs on its own, as often as
          // that thread runs it: it is an entry of its own, not part of its creator's reach
          if (op.isCall() && !effects.isHandOff(op.method())) {
            tasks.addAll(effects.runnablesPassed(m, op));
          }
        }
      }
    }
    return tasks;
  }

  /**
   * Whether a method implements or overrides a method a type outside the analysed code declares
   * ({@code java.sql.Driver#connect}, a pool's object factory in another jar): that code calls it,
   * whatever the analysed code does with it.
   */
  private boolean implementsOutsideType(MethodFacts m) {
    return !m.isStatic()
        && Overrides.declaringSupertype(program, m.ref(), type -> !program.isAnalysed(type))
            .isPresent();
  }

  /**
   * Whether code other than tests calls a method. A call of the method from itself (a recursion, or
   * a call through an interface it implements: a wrapper of a {@code DataSource} calls {@code
   * getConnection()} on the one it wraps) and the bridge javac writes for it (a generic override)
   * are the method's own, not callers; nor is a call through a JDK type ({@code
   * DataSource.getConnection()}, {@code Runnable.run()}): the JDK and every framework call the
   * implementations of its interfaces, so they are entry points whatever else calls them.
   */
  private boolean hasNonTestCaller(MethodRef method) {
    for (Program.CallSite site : program.callersOf(method)) {
      MethodRef caller = site.caller().ref();
      if (caller.equals(method)
          || isBridgeOf(site.caller(), method)
          || program.isPlatformClass(site.op().method().owner())) {
        continue;
      }
      if (!originsOf(site.caller().ref()).contains(Origin.TEST)
          || originsOf(site.caller().ref()).size() > 1) {
        return true;
      }
    }
    return false;
  }

  /** A bridge method (javac's, for a generic or covariant override) of {@code method}. */
  private static boolean isBridgeOf(MethodFacts bridge, MethodRef method) {
    return (bridge.access() & 0x40) != 0
        && (bridge.access() & 0x1000) != 0
        && bridge.ref().owner().equals(method.owner())
        && bridge.ref().name().equals(method.name());
  }

  private boolean isTestClass(ClassFacts c) {
    for (String path : TEST_PATHS) {
      if (c.origin().contains(path)) {
        return true;
      }
    }
    for (String annotation : TEST_CLASS_ANNOTATIONS) {
      if (c.hasAnnotation(annotation)) {
        return true;
      }
    }
    for (MethodFacts m : c.methods()) {
      for (String annotation : TEST_ANNOTATIONS) {
        if (m.hasAnnotation(annotation)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The origin a method is a root of, or {@code null} when it is reached only through calls. */
  private Origin rootOrigin(ClassFacts c, MethodFacts m) {
    MethodRef ref = m.ref();
    if (ref.isLambdaBody()) {
      return null;
    }
    for (String annotation : REQUEST_ANNOTATIONS) {
      if (m.hasAnnotation(annotation)) {
        return Origin.REQUEST;
      }
    }
    for (String annotation : BACKGROUND_ANNOTATIONS) {
      if (m.hasAnnotation(annotation)) {
        return Origin.BACKGROUND;
      }
    }
    for (String annotation : ADMIN_ANNOTATIONS) {
      if (m.hasAnnotation(annotation)) {
        return Origin.ADMIN;
      }
    }
    for (String annotation : SET_UP_ANNOTATIONS) {
      if (m.hasAnnotation(annotation)) {
        return Origin.LIFECYCLE;
      }
    }
    if (ref.isStaticInitializer() || isMain(m)) {
      return Origin.LIFECYCLE;
    }
    MethodRef asCall = new MethodRef(c.name(), ref.name(), ref.descriptor());
    if (program.match(REQUEST_METHODS, asCall).isPresent() && !m.isStatic()) {
      return Origin.REQUEST;
    }
    if (program.match(BACKGROUND_METHODS, asCall).isPresent() && !m.isStatic()) {
      return Origin.BACKGROUND;
    }
    if (program.match(SET_UP_METHODS, asCall).isPresent()) {
      return Origin.LIFECYCLE;
    }
    if (isAdminOperation(c, m)) {
      return Origin.ADMIN;
    }
    if (!ref.isConstructor()
        && (Lifecycle.isConfigurationName(ref.name())
            || Lifecycle.isLifecycleOrConfiguration(
                ref.name(), ref.parameterCount(), ref.returnType().equals("void")))) {
      return Origin.LIFECYCLE;
    }
    return null;
  }

  /** A method that starts, stops, initialises or destroys: it runs once in an object's life. */
  private static boolean isLifecycleStep(MethodRef method) {
    return !method.isConstructor()
        && !method.isLambdaBody()
        && Lifecycle.isLifecycleName(method.name());
  }

  private static boolean isMain(MethodFacts m) {
    return m.isStatic()
        && m.ref().name().equals("main")
        && m.ref().descriptor().equals("([Ljava/lang/String;)V");
  }

  /** A method of a JMX management interface ({@code FooMBean}) the class implements. */
  private boolean isAdminOperation(ClassFacts c, MethodFacts m) {
    for (String type : c.interfaces()) {
      for (String suffix : ADMIN_SUFFIXES) {
        if (type.endsWith(suffix)) {
          ClassFacts mbean = program.classFacts(type);
          if (mbean == null) {
            return true; // a management interface lockjaw cannot read: every method may be on it
          }
          for (MethodFacts declared : mbean.methods()) {
            if (declared.ref().name().equals(m.ref().name())
                && declared.ref().descriptor().equals(m.ref().descriptor())) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  /**
   * A method code outside the analysed classes can call: not private, not a constructor,
   * initialiser, lambda body or synthetic method. With no caller inside, it is an entry point: the
   * public API of a library, or code a framework or another module calls.
   */
  public static boolean isApi(MethodFacts m) {
    return !m.isPrivate()
        && !m.isAbstract()
        && !m.ref().isConstructor()
        && !m.ref().isStaticInitializer()
        && !m.ref().isLambdaBody()
        && (m.access() & 0x1000) == 0;
  }

  // ------------------------------------------------------------------- propagation

  private void propagate(Origin origin, List<MethodRef> roots) {
    Deque<MethodRef> work = new ArrayDeque<>();
    for (MethodRef root : roots) {
      if (mark(root, origin)) {
        work.add(root);
        if (origin == Origin.REQUEST) {
          requestEntry.putIfAbsent(root, root.display() + "()");
        }
      }
    }
    while (!work.isEmpty()) {
      MethodRef ref = work.poll();
      MethodFacts method = program.method(ref);
      if (method == null) {
        continue;
      }
      for (Op op : method.ops()) {
        if (!op.isCall()) {
          continue;
        }
        List<MethodRef> next = new ArrayList<>();
        for (MethodFacts target : program.targets(op)) {
          next.add(target.ref());
        }
        if (!effects.isScheduling(op.method())) {
          next.addAll(effects.runnablesPassed(method, op));
        }
        for (MethodRef callee : next) {
          if (!program.isAnalysed(callee.owner())) {
            continue;
          }
          if (origin == Origin.REQUEST && isLifecycleStep(callee)) {
            continue; // a request that starts or stops a component configures it: not per request
          }
          if (mark(callee, origin)) {
            if (origin == Origin.REQUEST) {
              requestParent.putIfAbsent(callee, new Step(ref, op.line()));
            }
            work.add(callee);
          }
        }
      }
    }
  }

  /** Tasks handed to a scheduler from reached code run in the background. */
  /**
   * A task that start-up code ({@code main}, an initialiser) hands to a thread of its own (a {@code
   * Thread}, an executor; not a timer) runs for as long as that thread does, as the loops of a
   * hand-written server that serve requests do: requests reach it, by assumption, as they reach a
   * library's API.
   */
  private void threadsStartedAtStartUp() {
    for (ClassFacts c : program.classes()) {
      if (isTestClass(c)) {
        continue;
      }
      for (MethodFacts m : c.methods()) {
        Set<Origin> found = originsOf(m.ref());
        if (!found.contains(Origin.LIFECYCLE) || found.contains(Origin.REQUEST)) {
          continue;
        }
        for (Op op : m.ops()) {
          if (!op.isCall()
              || !effects.isHandOff(op.method())
              || effects.isScheduling(op.method())) {
            continue;
          }
          for (MethodRef task : effects.runnablesPassed(m, op)) {
            if (!originsOf(task).contains(Origin.REQUEST)) {
              requestEntry.put(
                  task,
                  "a thread started by " + m.ref().display() + "(): " + task.display() + "()");
              propagate(Origin.REQUEST, List.of(task));
            }
          }
        }
      }
    }
  }

  private void scheduledTasks() {
    List<MethodRef> tasks = new ArrayList<>();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        if (originsOf(m.ref()).isEmpty()) {
          continue;
        }
        for (Op op : m.ops()) {
          if (op.isCall() && effects.isScheduling(op.method())) {
            for (MethodRef task : effects.runnablesPassed(m, op)) {
              if (!originsOf(task).contains(Origin.BACKGROUND)) {
                tasks.add(task);
              }
            }
          }
        }
      }
    }
    if (!tasks.isEmpty()) {
      propagate(Origin.BACKGROUND, tasks);
    }
  }

  private boolean mark(MethodRef method, Origin origin) {
    return origins.computeIfAbsent(method, k -> EnumSet.noneOf(Origin.class)).add(origin);
  }
}
