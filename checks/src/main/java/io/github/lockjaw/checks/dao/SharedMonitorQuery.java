package io.github.lockjaw.checks.dao;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.RunsOnce;
import io.github.lockjaw.model.query.SharedLock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * SharedMonitorDao as a query over the model: a region on a request path that holds a monitor every
 * caller shares while its code, or code it calls anywhere in the program or its jars, opens or uses
 * JDBC connections, looks names up, calls a pool's object factory or talks to another host on every
 * call. Also an override that runs under the monitor of a superclass's synchronized template
 * ({@link InheritedTemplate}), and a lazy pool creation that every {@code getConnection()} takes
 * ({@link LockedLazyCreation}).
 *
 * <p>Silent for I/O that runs once (lazy initialisation, once per key: {@link RunsOnce}), for the
 * monitor of one connection, statement or stream ({@link MonitorScope}), for locks taken in a
 * {@code catch} clause, for code that requests do not reach (set-up, configuration, shutdown,
 * background and admin paths), and for a lone parameterless task (its lock stops two runs from
 * overlapping; no request waits on it).
 */
public final class SharedMonitorQuery implements ModelQuery {
  private static final List<String> POOL_TYPES = Kind.Jdbc.POOL_TYPE.index().typeNames();

  /** The facts composed for one program, shared by every method the query is asked about. */
  private static final Map<QueryContext, RecurringIo> FACTS =
      Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public String check() {
    return "SharedMonitorDao";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    RecurringIo io = FACTS.computeIfAbsent(context, RecurringIo::new);
    List<ModelFinding> findings = new ArrayList<>();
    if (isPerCallCode(method)) {
      for (Region region : method.regions()) {
        regionFinding(context, io, method, region).ifPresent(findings::add);
      }
    }
    inheritedFinding(context, io, method).ifPresent(findings::add);
    return findings;
  }

  /** Constructors, initialisers and set-up or tear-down steps by name run once per object. */
  private static boolean isPerCallCode(MethodFacts method) {
    MethodRef ref = method.ref();
    return !ref.isConstructor()
        && !ref.isStaticInitializer()
        && (ref.isLambdaBody()
            || !Lifecycle.isLifecycleOrConfiguration(
                ref.name(), ref.parameterCount(), ref.returnType().equals("void")));
  }

  private Optional<ModelFinding> regionFinding(
      QueryContext context, RecurringIo io, MethodFacts method, Region region) {
    Optional<SharedLock> lock = SharedLock.of(region, method);
    if (lock.isEmpty()
        || SharedLock.isHeldAround(region, method)
        || isInCatchClause(method, region)
        || MonitorScope.isPerResource(context.program(), lock.get(), method)
        || (MonitorScope.isPerObject(context.program(), lock.get())
            && io.isPerRequestObject(context, method.ref().owner()))) {
      return Optional.empty();
    }
    Optional<LockedLazyCreation.Finding> lazy =
        LockedLazyCreation.find(context, io, method, region)
            .filter(found -> !onRequestPath(context, found.callers()).isEmpty());
    if (lazy.isPresent()) {
      return Optional.of(lazyFinding(context, method, region, lock.get(), lazy.get()));
    }
    boolean onRequestPath = RequestReach.isOnRequestPath(context, method);
    if (!onRequestPath && !RequestReach.isBackground(context, method)) {
      return Optional.empty();
    }
    boolean perObject = MonitorScope.isPerObject(context.program(), lock.get());
    Optional<Effects.Effect> blocking =
        io.inRegion(
            method,
            region,
            effect -> !perObject || !MonitorScope.usesOwnResource(context.program(), effect));
    if (blocking.isEmpty()) {
      return Optional.empty();
    }
    List<MonitorScope.Member> members = MonitorScope.members(context, io, lock.get(), method);
    if (!onRequestPath && !sharesWithRequests(context, members, method)) {
      return Optional.empty(); // a background task that no request waits for
    }
    List<String> others = new ArrayList<>();
    for (boolean withIo : new boolean[] {true, false}) {
      for (MonitorScope.Member member : members) {
        if (member.doesIo() == withIo
            && !(member.method() == method && member.region() == region.id())) {
          others.add(member.name());
        }
      }
    }
    Set<String> otherNames = new LinkedHashSet<>(others);
    otherNames.remove(name(method, region, false));
    if (otherNames.isEmpty() && isLoneTask(method)) {
      return Optional.empty();
    }
    String className = method.ref().owner();
    String message =
        DaoMessages.region(
            name(method, region, true),
            lock.get().describe(),
            DaoMessages.chain(context.program(), blocking.get(), className),
            List.copyOf(otherNames),
            isCreationPath(context, method),
            !onRequestPath);
    List<FixFacts.Member> fixMembers = new ArrayList<>();
    for (MonitorScope.Member member : members) {
      fixMembers.add(new FixFacts.Member(member.name(), member.executions()));
    }
    int line = region.wholeMethod() ? blocking.get().chain().get(0).line() : region.line();
    return Optional.of(
        new ModelFinding(
            check(),
            method,
            region.id(),
            -1,
            line > 0 ? line : region.line(),
            message,
            context.reachability().requestPath(method.ref()),
            blocking.get(),
            new FixFacts(fixMembers)));
  }

  private ModelFinding lazyFinding(
      QueryContext context,
      MethodFacts method,
      Region region,
      SharedLock lock,
      LockedLazyCreation.Finding lazy) {
    String className = method.ref().owner();
    String qualified = DaoMessages.simpleName(className) + "." + baseName(method) + "()";
    List<String> chain = new ArrayList<>();
    chain.add(baseName(method) + "()");
    chain.addAll(DaoMessages.chain(context.program(), lazy.io(), className));
    List<String> callers = onRequestPath(context, lazy.callers());
    String message =
        DaoMessages.lazyCreation(
            region.wholeMethod() ? qualified : "The synchronized block in " + qualified,
            lock.describe(),
            callers,
            lazy.field(),
            lazy.isVolatile(),
            chain);
    int line = region.wholeMethod() ? lazy.io().chain().get(0).line() : region.line();
    return new ModelFinding(
        check(),
        method,
        region.id(),
        -1,
        line > 0 ? line : region.line(),
        message,
        List.of(),
        lazy.io(),
        null);
  }

  private static List<String> onRequestPath(
      QueryContext context, List<LockedLazyCreation.Caller> callers) {
    List<String> names = new ArrayList<>();
    for (LockedLazyCreation.Caller caller : callers) {
      String name = caller.method().ref().name() + "()";
      if (RequestReach.isOnRequestPath(context, caller.method()) && !names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  private Optional<ModelFinding> inheritedFinding(
      QueryContext context, RecurringIo io, MethodFacts method) {
    Optional<InheritedTemplate.Found> template = InheritedTemplate.of(context.program(), method);
    if (template.isEmpty()
        || !isPerCallCode(method)
        || !RequestReach.isOnRequestPath(context, method)) {
      return Optional.empty();
    }
    ClassFacts owner = context.owner(method);
    if (owner == null
        || MonitorScope.isPerResourceClass(context.program(), owner.name())
        || io.isPerRequestObject(context, owner.name())) {
      return Optional.empty();
    }
    Optional<Effects.Effect> blocking = io.inMethod(method.ref());
    if (blocking.isEmpty()) {
      return Optional.empty();
    }
    String className = DaoMessages.simpleName(owner.name());
    String message =
        DaoMessages.inherited(
            className + "." + method.ref().name() + "()",
            className,
            DaoMessages.simpleName(template.get().superclass()),
            template.get().template().ref().name(),
            DaoMessages.chain(context.program(), blocking.get(), owner.name()));
    return Optional.of(
        new ModelFinding(
            check(),
            method,
            -1,
            -1,
            blocking.get().chain().get(0).line(),
            message,
            context.reachability().requestPath(method.ref()),
            blocking.get(),
            new TemplateLock(
                DaoMessages.simpleName(template.get().superclass()),
                template.get().template().ref().name())));
  }

  /**
   * A hook that runs under the monitor its superclass's synchronized template takes: the source
   * check names why it offers no fix.
   *
   * @param superclass the simple name of the superclass that declares the template
   * @param template the template method's name
   */
  record TemplateLock(String superclass, String template) {}

  /** Whether another region of the monitor is in a method requests reach. */
  private static boolean sharesWithRequests(
      QueryContext context, List<MonitorScope.Member> members, MethodFacts method) {
    for (MonitorScope.Member member : members) {
      if (member.method() != method && RequestReach.isOnRequestPath(context, member.method())) {
        return true;
      }
    }
    return false;
  }

  /** A region every one of whose operations runs in a {@code catch} clause: a failure path. */
  private static boolean isInCatchClause(MethodFacts method, Region region) {
    boolean any = false;
    for (Op op : method.ops()) {
      if (op.isIn(region.id())) {
        if (!op.context().inHandler()) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  /**
   * A parameterless {@code void} method that is the monitor's only member is a task (a purge, a
   * refresh), and its lock most likely stops two runs from overlapping; no request waits on it.
   */
  private static boolean isLoneTask(MethodFacts method) {
    MethodRef ref = method.ref();
    return !ref.isLambdaBody() && ref.parameterCount() == 0 && ref.returnType().equals("void");
  }

  /**
   * Whether a method creates a pool or a data source rather than serving requests: it is named
   * {@code create...} and returns a {@code pool-type} (commons-dbcp's
   * BasicDataSource#createDataSource).
   */
  private static boolean isCreationPath(QueryContext context, MethodFacts method) {
    MethodRef ref = method.ref();
    return !ref.isLambdaBody()
        && ref.name().startsWith("create")
        && !ref.returnType().equals("void")
        && context.program().matchType(POOL_TYPES, ref.returnType()).isPresent();
  }

  /** How a message names a region: {@code load()}, {@code The synchronized block in load()}. */
  static String name(MethodFacts method, Region region, boolean capital) {
    if (region.wholeMethod()) {
      return baseName(method) + "()";
    }
    MethodRef ref = method.enclosing() != null ? method.enclosing() : method.ref();
    if (ref.isStaticInitializer()) {
      return (capital ? "An" : "an") + " initializer's synchronized block";
    }
    return (capital ? "The" : "the")
        + " synchronized block in "
        + (ref.isConstructor() ? "constructor" : ref.name() + "()");
  }

  /** The method's name as its source names it (a lambda body's: the method it is written in). */
  private static String baseName(MethodFacts method) {
    return method.enclosing() != null ? method.enclosing().name() : method.ref().name();
  }
}
