package io.github.lockjaw.checks.resources;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.KeyedAccess;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.SharedLock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * ResourceLookupUnderLock as a query over the model: a region on a request path that holds a shared
 * monitor while its code (or code it calls, in this class or any other, source or jar) searches the
 * class path, a jar or a file tree. Silent for a lock of one archive, a lookup that runs once (a
 * field the method tests is set in the region), a lookup memoised per key, and a private loader its
 * callers call only on a miss of the key it puts.
 */
public final class ResourceLookupQuery implements ModelQuery {
  private static final List<String> ARCHIVE_TYPES = Kind.Resources.ARCHIVE_TYPE.index().typeNames();

  @Override
  public String check() {
    return "ResourceLookupUnderLock";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    List<ModelFinding> findings = new ArrayList<>();
    for (Region region : method.regions()) {
      Optional<SharedLock> lock = SharedLock.of(region, method);
      if (lock.isEmpty()
          || SharedLock.isHeldAround(region, method)
          || isPerArchiveLock(context, region)
          || !context.reachability().isOnRequestPath(method.ref())
          || context.runsOnce().isFillCalledOnMiss(method)) {
        continue;
      }
      Optional<Effects.Effect> lookup = firstLookup(context, method, region);
      if (lookup.isEmpty()
          || isOneTimeInitialisation(context.program(), method, region)
          || isMemoisedPerKey(context, method, region, lookup.get())) {
        continue;
      }
      findings.add(
          new ModelFinding(
              check(),
              method,
              region.id(),
              -1,
              region.line(),
              message(method, region, lock.get(), lookup.get()),
              context.reachability().requestPath(method.ref()),
              lookup.get(),
              null));
    }
    return findings;
  }

  private static boolean isPerArchiveLock(QueryContext context, Region region) {
    return !region.monitorType().isEmpty()
        && context.program().matchType(ARCHIVE_TYPES, region.monitorType()).isPresent();
  }

  private static Optional<Effects.Effect> firstLookup(
      QueryContext context, MethodFacts method, Region region) {
    for (Op op : method.ops()) {
      if (!op.isIn(region.id()) || op.context().inHandler()) {
        continue;
      }
      for (Effects.Effect effect : context.effects().of(method, op)) {
        if (effect.kind() == Effects.EffectKind.RESOURCE_LOOKUP
            && !context.runsOnce().isOnceAlong(effect)) {
          return Optional.of(effect);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The region sets a field of its object or class that the method tests in a condition: once set,
   * the lookup does not run again (a lazily built index, a configuration loaded once). The field
   * may be set by a helper the region calls on {@code this} (commons-dbcp 1.4 {@code
   * createDataSourceInstance()}).
   */
  private static boolean isOneTimeInitialisation(
      Program program, MethodFacts method, Region region) {
    Set<FieldRef> written = new HashSet<>();
    for (Op op : method.ops()) {
      if (op.isIn(region.id())) {
        addOwnFieldWrites(program, op, written, 0);
      }
    }
    if (written.isEmpty()) {
      return false;
    }
    for (Op op : method.ops()) {
      for (Guard guard : op.context().guards()) {
        if (guard.subject() instanceof Value.FieldValue field && written.contains(field.field())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The field of its object or class an operation sets, itself or through helpers on {@code this}.
   */
  private static void addOwnFieldWrites(Program program, Op op, Set<FieldRef> written, int depth) {
    if (op.kind() == Op.Kind.PUT_FIELD
        && (op.receiver() == null || op.receiver() instanceof Value.This)) {
      written.add(op.field());
    } else if (depth < 3
        && !op.context().inHandler()
        && (op.kind() == Op.Kind.INVOKE_STATIC
            || ((op.kind() == Op.Kind.INVOKE_SPECIAL || op.kind() == Op.Kind.INVOKE_VIRTUAL)
                && op.receiver() instanceof Value.This))) {
      for (MethodFacts helper : program.targets(op)) {
        for (Op inner : helper.ops()) {
          addOwnFieldWrites(program, inner, written, depth + 1);
        }
      }
    }
  }

  /**
   * The lookup runs only when a map read of the region missed, and the region puts that key in the
   * same map before it: once per key (Struts 1 {@code PropertyMessageResources.loadLocale}).
   */
  private static boolean isMemoisedPerKey(
      QueryContext context, MethodFacts method, Region region, Effects.Effect lookup) {
    Op lookupOp = method.ops().get(lookup.chain().get(0).op());
    for (KeyedAccess read : KeyedAccess.in(context.program(), method)) {
      if (read.isWrite() || !read.op().isIn(region.id()) || !read.guardsAsMiss(lookupOp)) {
        continue;
      }
      for (KeyedAccess write : KeyedAccess.in(context.program(), method)) {
        if (write.isWrite()
            && write.op().isIn(region.id())
            && write.op().index() < lookupOp.index()
            && lookupOp.context().guards().containsAll(write.op().context().guards())
            && write.container().equals(read.container())
            && write.key().equals(read.key())
            && !(read.key() instanceof Value.Unknown)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String message(
      MethodFacts method, Region region, SharedLock lock, Effects.Effect lookup) {
    String name =
        region.wholeMethod()
            ? method.ref().name() + "()"
            : "The synchronized block in " + method.ref().name() + "()";
    List<String> calls = new ArrayList<>(lookup.calls(method.ref().owner()));
    if (lookup.entry() != null) {
      int last = calls.size() - 1;
      calls.set(
          last,
          calls.get(last)
              + lookup
                  .entry()
                  .attribute("what")
                  .map(w -> " (" + w.replace('-', ' ') + ")")
                  .orElse(""));
    }
    return name
        + " holds "
        + lock.describe()
        + " while it calls "
        + String.join(", which calls ", calls)
        + ": every request that looks a resource up waits for the lookups of all the ones before it."
        + " Index the resources once at start-up (an immutable map), or memoise each lookup per"
        + " name in a ConcurrentHashMap, and look up without the lock."
        + " (No automatic fix: "
        + guardedState(method, region)
        + ".)";
  }

  /**
   * What the lock may keep consistent besides the lookup: the fields of the lookup's class the
   * region writes, or else reads, named; a person decides whether the lookup may leave the lock.
   */
  private static String guardedState(MethodFacts method, Region region) {
    Set<String> written = new LinkedHashSet<>();
    Set<String> read = new LinkedHashSet<>();
    for (Op op : method.ops()) {
      if (op.isFieldAccess()
          && op.isIn(region.id())
          && op.field().owner().equals(method.ref().owner())) {
        (op.kind() == Op.Kind.PUT_FIELD ? written : read).add("'" + op.field().name() + "'");
      }
    }
    if (!written.isEmpty()) {
      return "the lock also guards the writes of " + names(written) + " in the same region";
    }
    if (!read.isEmpty()) {
      return "the region also reads "
          + names(read)
          + " under the lock, which other code may write under it";
    }
    return "the lock may order this lookup with other code that takes it";
  }

  private static String names(Set<String> names) {
    List<String> list = new ArrayList<>(names);
    if (list.size() > 4) {
      list = new ArrayList<>(list.subList(0, 4));
      list.add("more");
    }
    return list.size() == 1
        ? list.get(0)
        : String.join(", ", list.subList(0, list.size() - 1)) + " and " + list.get(list.size() - 1);
  }
}
