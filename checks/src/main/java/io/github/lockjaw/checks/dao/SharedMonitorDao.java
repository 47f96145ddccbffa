package io.github.lockjaw.checks.dao;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.SynchronizedTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.cache.CacheRegions;
import io.github.lockjaw.checks.support.EntryPoints;
import io.github.lockjaw.checks.support.LifecyclePaths;
import io.github.lockjaw.common.InheritedTemplates;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.knowledge.JavaNames;
import java.util.List;
import java.util.Optional;
import javax.lang.model.type.TypeKind;

/**
 * {@code synchronized} methods or blocks that open, use or close JDBC connections and statements,
 * look names up in JNDI, or talk to another host, all on one monitor that every request shares:
 * each request waits for the I/O of the one before it. OpenCms 7.5.3's {@code CmsSqlManager} served
 * 54.6 requests/s at 400 users this way and 156 requests/s without the method locks.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Blocking I/O (JDBC, JNDI, sockets, HTTP) under a monitor that every request shares:"
            + " requests queue on one lock while connections open and statements run",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "SharedMonitorDao.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class SharedMonitorDao extends BugChecker
    implements MethodTreeMatcher, SynchronizedTreeMatcher {

  private static final int NAMED_MEMBERS = 5;

  @Override
  public Description matchMethod(MethodTree tree, VisitorState state) {
    Optional<SharedMonitor> monitor = SharedMonitor.ofMethod(tree);
    return monitor.isPresent() ? safely(monitor.get(), state) : safelyInherited(tree, state);
  }

  private Description safelyInherited(MethodTree tree, VisitorState state) {
    try {
      return matchInherited(tree, state);
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Description.NO_MATCH; // a surprise shape is no finding
    }
  }

  /**
   * An override that runs under the monitor a superclass's {@code synchronized} template method
   * takes before it calls the override ({@link InheritedTemplateLock}), and does blocking I/O.
   */
  private Description matchInherited(MethodTree tree, VisitorState state) {
    if (tree.getBody() == null || isLifecycle(tree) || EntryPoints.isStartUp(tree, state)) {
      return Description.NO_MATCH;
    }
    Optional<InheritedTemplateLock.Found> found = InheritedTemplateLock.find(tree, state);
    if (found.isEmpty()) {
      return Description.NO_MATCH;
    }
    Symbol.ClassSymbol owner = ASTHelpers.getSymbol(tree).enclClass();
    if (isPerResourceMonitor(new SharedMonitor(SharedMonitor.Kind.INSTANCE, owner), state)) {
      return Description.NO_MATCH;
    }
    BlockingIoFacts.Summary summary = BlockingIoFacts.forUnit(state).summarize(tree);
    if (!summary.blocks()) {
      return Description.NO_MATCH;
    }
    String className = binarySimpleName(owner);
    return buildDescription(tree)
        .setMessage(
            InheritedTemplates.message(
                className + "." + tree.getName() + "()",
                className,
                binarySimpleName(found.get().superclass()),
                found.get().template(),
                summary.chain()))
        .build();
  }

  /** {@code Outer.Inner}, as the bytecode detector names a class. */
  private static String binarySimpleName(Symbol.ClassSymbol symbol) {
    return JavaNames.simpleName(symbol.flatName().toString().replace('.', '/'));
  }

  @Override
  public Description matchSynchronized(SynchronizedTree tree, VisitorState state) {
    Optional<SharedMonitor> monitor = SharedMonitor.ofBlock(tree);
    if (monitor.isEmpty()
        || monitor.get().isHeldAround(state.getPath())
        || inCatchClause(state.getPath())) {
      return Description.NO_MATCH;
    }
    return safely(monitor.get(), state);
  }

  private Description safely(SharedMonitor monitor, VisitorState state) {
    try {
      return match(monitor, state);
    } catch (RuntimeException e) {
      Resilience.rethrowIfStrict(e);
      return Description.NO_MATCH; // a surprise shape is no finding
    }
  }

  private Description match(SharedMonitor monitor, VisitorState state) {
    TreePath path = state.getPath();
    Tree region = path.getLeaf();
    MethodTree method = SharedMonitor.enclosingMethod(path);
    if (method == null
        || isLifecycle(method)
        || EntryPoints.isStartUp(method, state)
        || isPerResourceMonitor(monitor, state)) {
      return Description.NO_MATCH;
    }
    if (CacheRegions.reportedIn(path, state)) {
      return Description.NO_MATCH; // a synchronized get-then-put: the cache checks report it
    }
    BlockingIoFacts facts = BlockingIoFacts.forUnit(state);
    Optional<LockedLazyCreation.Finding> lazy = LockedLazyCreation.find(path, method, facts, state);
    if (lazy.isPresent()) { // every getConnection() takes the monitor of a lazy pool creation
      String name = region instanceof MethodTree ? method.getName() + "()" : blockName(method);
      return buildDescription(region).setMessage(lazy.get().message(name, monitor)).build();
    }
    BlockingIoFacts.Summary summary = facts.summarize(region);
    if (!summary.blocks()) {
      return Description.NO_MATCH;
    }
    if (LifecyclePaths.of(state, SharedMonitorDao::isLifecycle).isLifecycleOnly(path)) {
      return Description.NO_MATCH; // reached only from set-up, configuration or tear-down code
    }
    List<SharedMonitor.Member> members = monitor.membersIn(facts.unit());
    if (members.size() <= 1 && isLoneTask(method, state)) {
      return Description.NO_MATCH;
    }
    List<String> others =
        members.stream().filter(m -> m.tree() != region).map(SharedMonitor.Member::name).toList();

    String name = region instanceof MethodTree ? method.getName() + "()" : blockName(method);
    DropMonitorLockFix.FixResult fix =
        DropMonitorLockFix.build(monitor, region, method, members, facts, state);
    Description.Builder description =
        buildDescription(region)
            .setMessage(
                message(
                    name,
                    monitor,
                    summary,
                    others,
                    fix.noFixReason(),
                    BlockingIoKnowledge.isCreationPath(ASTHelpers.getSymbol(method), state)));
    fix.fix().ifPresent(description::addFix);
    return description.build();
  }

  /** The finding's message: who holds the monitor around which I/O, the fix, or why none. */
  private static String message(
      String name,
      SharedMonitor monitor,
      BlockingIoFacts.Summary summary,
      List<String> others,
      String noFixReason,
      boolean creationPath) {
    StringBuilder message = new StringBuilder();
    message
        .append(name)
        .append(" holds ")
        .append(monitor.describe())
        .append(" while it calls ")
        .append(String.join(", which calls ", summary.chain()));
    if (creationPath) {
      // say what is serialised: the creation, not every request
      message.append(
          ": it creates the pool or data source, so its creation is serialised; threads that need it"
              + " while it is being created wait on that one monitor while connections open, later requests do not");
    } else {
      message.append(
          ": every request queues on that one monitor while connections open and I/O runs");
    }
    if (!others.isEmpty()) {
      message.append(", together with ").append(list(others)).append(", which hold it too");
    }
    if (creationPath) {
      message.append(
          ". Create it before requests arrive, or open its connections outside the lock and hold"
              + " the lock only to publish the created object.");
    } else {
      message
          .append(". Drop the lock around the I/O and let the connection pool handle concurrency;")
          .append(" keep a lock only around the in-memory state it guards.");
    }
    if (noFixReason != null) {
      message.append(" (No automatic fix: ").append(noFixReason).append(".)");
    }
    return message.toString();
  }

  /**
   * Constructors, set-up or tear-down methods by name or annotation, and property setters
   * (entry-points.txt): they run when the object is built, configured or closed, not per request.
   */
  private static boolean isLifecycle(MethodTree method) {
    return method.getName().contentEquals("<init>") || LifecyclePaths.isLifecycleMethod(method);
  }

  /**
   * A parameterless {@code void} method that is the monitor's only member is a task (a purge, a
   * refresh), and its lock most likely stops two runs from overlapping; no request waits on it.
   */
  private static boolean isLoneTask(MethodTree method, VisitorState state) {
    Symbol.MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol != null
        && method.getParameters().isEmpty()
        && symbol.getReturnType() != null
        && symbol.getReturnType().getKind() == TypeKind.VOID;
  }

  /**
   * A block in a {@code catch} clause of its method runs when something failed (an interrupted
   * wait, an exception), not on every request: commons-pool 1.5.6's borrowObject hands an object
   * back under the pool monitor only when the waiting borrower is interrupted.
   */
  private static boolean inCatchClause(TreePath block) {
    for (TreePath path = block.getParentPath(); path != null; path = path.getParentPath()) {
      Tree leaf = path.getLeaf();
      if (leaf instanceof CatchTree) {
        return true;
      }
      if (leaf instanceof MethodTree
          || leaf instanceof LambdaExpressionTree
          || leaf instanceof ClassTree) {
        return false;
      }
    }
    return false;
  }

  /** The instance monitor of a connection, statement or result set wrapper is per resource. */
  private static boolean isPerResourceMonitor(SharedMonitor monitor, VisitorState state) {
    // a wrapper that is itself a connection, or 'synchronized (connection)' on a field holding one
    if (monitor.kind() != SharedMonitor.Kind.INSTANCE
        && monitor.kind() != SharedMonitor.Kind.FIELD) {
      return false;
    }
    Type type = monitor.symbol() == null ? null : monitor.symbol().type;
    if (BlockingIoKnowledge.isResourceType(type, state)) {
      return true;
    }
    // an inner class of a connection or statement (c3p0's per-connection invocation handler): each
    // instance belongs to one resource, and so does its monitor
    if (monitor.kind() == SharedMonitor.Kind.INSTANCE
        && monitor.symbol() instanceof Symbol.ClassSymbol inner) {
      for (Symbol.ClassSymbol c = inner; c != null && c.hasOuterInstance(); ) {
        Symbol.ClassSymbol outer = c.owner == null ? null : c.owner.enclClass();
        if (outer != null && BlockingIoKnowledge.isResourceType(outer.type, state)) {
          return true;
        }
        c = outer;
      }
    }
    // a lock in an instance field of an object that is itself a statement, connection or result
    // set (a pool's proxy: c3p0's NewProxyStatement locks its own set of open result sets)
    return monitor.kind() == SharedMonitor.Kind.FIELD
        && !monitor.symbol().isStatic()
        && monitor.symbol().owner != null
        && BlockingIoKnowledge.isResourceType(monitor.symbol().owner.type, state);
  }

  private static String blockName(MethodTree method) {
    return "The synchronized block in " + method.getName() + "()";
  }

  private static String list(List<String> names) {
    if (names.size() <= NAMED_MEMBERS) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, NAMED_MEMBERS))
        + " and "
        + (names.size() - NAMED_MEMBERS)
        + " more";
  }
}
