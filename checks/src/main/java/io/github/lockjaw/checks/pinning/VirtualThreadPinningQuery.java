package io.github.lockjaw.checks.pinning;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.SharedLock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.BooleanSupplier;

/**
 * VirtualThreadPinning as a query over the model: a {@code synchronized} method or block that runs
 * on virtual threads ({@link VirtualThreadReach}) and whose composed effects block: I/O on another
 * host, a wait for another thread or a lock, a sleep. On JDK 21 to 23 a virtual thread that blocks
 * inside {@code synchronized} pins its carrier; only code compiled for those releases is checked
 * ({@code virtual-thread-release} in {@code entry-points.txt}). A region inside another region of
 * the same method is reported with the outer one.
 */
public final class VirtualThreadPinningQuery implements ModelQuery {
  /** The SpotBugs system property that says request handlers run on virtual threads. */
  public static final String SPOTBUGS_PROPERTY = "lockjaw.virtualThreads";

  /** The Error Prone flag that says request handlers run on virtual threads. */
  public static final String ERROR_PRONE_FLAG = "Lockjaw:VirtualThreads";

  private static final Set<Effects.EffectKind> BLOCKING =
      EnumSet.of(
          Effects.EffectKind.BLOCKING_IO,
          Effects.EffectKind.BLOCKING_WAIT,
          Effects.EffectKind.SLEEP);
  private static final List<Integer> PINNING_RELEASES =
      Kind.EntryPoints.VIRTUAL_THREAD_RELEASE.values().stream().map(Integer::valueOf).toList();
  private static final List<String> IN_MEMORY_STREAMS =
      Kind.Blocking.IN_MEMORY_STREAM.index().typeNames();
  private static final Map<QueryContext, VirtualThreadReach> REACH =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final BooleanSupplier requestsOnVirtualThreads;

  /**
   * What the region needs for a fix: the region, and whether the code in it waits or notifies on a
   * monitor (then a {@code ReentrantLock} needs a {@code Condition} instead: no fix).
   */
  public record Pinning(Region region, boolean waitsOrNotifies) {}

  /**
   * {@code requestsOnVirtualThreads}: whether the build says request handlers, scheduled and async
   * tasks run on virtual threads (Spring Boot's {@code spring.threads.virtual.enabled=true}).
   */
  public VirtualThreadPinningQuery(BooleanSupplier requestsOnVirtualThreads) {
    this.requestsOnVirtualThreads = requestsOnVirtualThreads;
  }

  @Override
  public String check() {
    return "VirtualThreadPinning";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    if (method.regions().isEmpty()) {
      return List.of();
    }
    int release = context.targetRelease(method.ref().owner());
    if (!PINNING_RELEASES.contains(release)) {
      return List.of(); // JDK 24+ unmounts inside synchronized (JEP 491); unknown: stay silent
    }
    VirtualThreadReach reach = REACH.computeIfAbsent(context, VirtualThreadReach::new);
    Optional<String> configured =
        requestsOnVirtualThreads.getAsBoolean()
            ? Optional.of(
                "the build runs request handlers, @Async and @Scheduled tasks on virtual threads"
                    + " (spring.threads.virtual.enabled=true)")
            : Optional.empty();
    Optional<String> why = reach.why(method, context.reachability(), configured);
    if (why.isEmpty()) {
      return List.of();
    }
    List<ModelFinding> findings = new ArrayList<>();
    for (Region region : method.regions()) {
      if (region.parent() >= 0) {
        continue; // the enclosing region holds its monitor too, and is reported
      }
      Optional<Effects.Effect> blocking = firstBlocking(context, method, region);
      if (blocking.isEmpty()) {
        continue;
      }
      findings.add(
          new ModelFinding(
              check(),
              method,
              region.id(),
              -1,
              region.line(),
              message(method, region, blocking.get(), why.get(), release),
              List.of(why.get()),
              blocking.get(),
              new Pinning(region, waitsOrNotifies(method, region))));
    }
    return findings;
  }

  private static Optional<Effects.Effect> firstBlocking(
      QueryContext context, MethodFacts method, Region region) {
    for (Op op : method.ops()) {
      if (!op.isIn(region.id()) || op.context().inHandler() || !op.isCall()) {
        continue;
      }
      for (Effects.Effect effect : context.effects().of(method, op)) {
        if (BLOCKING.contains(effect.kind()) && !readsMemory(context, effect)) {
          return Optional.of(effect);
        }
      }
    }
    return Optional.empty();
  }

  /** A read of a stream over memory ({@code ByteArrayInputStream}): it never waits. */
  private static boolean readsMemory(QueryContext context, Effects.Effect effect) {
    MethodRef last = effect.chain().get(effect.chain().size() - 1).callee();
    return last != null && context.program().matchType(IN_MEMORY_STREAMS, last.owner()).isPresent();
  }

  private static boolean waitsOrNotifies(MethodFacts method, Region region) {
    for (Op op : method.ops()) {
      if (op.isIn(region.id())
          && op.isCall()
          && op.method().owner().equals("java.lang.Object")
          && List.of("wait", "notify", "notifyAll").contains(op.method().name())) {
        return true;
      }
      if (op.isIn(region.id())
          && op.isCall()
          && List.of("wait", "notify", "notifyAll").contains(op.method().name())
          && (op.method().descriptor().equals("()V")
              || op.method().descriptor().equals("(J)V")
              || op.method().descriptor().equals("(JI)V"))) {
        return true;
      }
    }
    return false;
  }

  private static String message(
      MethodFacts method, Region region, Effects.Effect blocking, String why, int release) {
    String name =
        region.wholeMethod()
            ? method.ref().name() + "()"
            : "The synchronized block in " + name(method);
    String monitor = SharedLock.of(region, method).map(SharedLock::describe).orElse("its monitor");
    String kind =
        switch (blocking.kind()) {
          case BLOCKING_IO -> "blocking I/O";
          case SLEEP -> "a sleep";
          default -> "a blocking wait";
        };
    return name
        + " holds "
        + monitor
        + " while it calls "
        + String.join(", which calls ", blocking.calls(method.ref().owner()))
        + " ("
        + kind
        + ") on a virtual thread ("
        + why
        + "). On JDK 21 to 23, which this code targets (release "
        + release
        + "), a virtual thread that blocks inside synchronized pins its carrier thread, and once"
        + " every carrier is pinned no other virtual thread runs (Netflix, July 2024: four pinned"
        + " virtual threads stopped Tomcat). Guard the code with a ReentrantLock (lock(), and"
        + " unlock() in finally) instead of synchronized, or run on JDK 24 or later, where JEP 491"
        + " lets a virtual thread unmount inside synchronized.";
  }

  private static String name(MethodFacts method) {
    if (method.ref().isLambdaBody()) {
      return "the lambda in " + method.enclosing().name() + "()";
    }
    return method.ref().name() + "()";
  }
}
