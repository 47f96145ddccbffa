package io.github.lockjaw.checks.dao;

import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.query.QueryContext;
import java.util.List;
import java.util.Set;

/**
 * Whether requests reach a method, as the model's {@link Reachability} decides it by the call
 * graph, with one addition for this check: a method of the API whose name starts with a {@code
 * per-call-prefix} ({@code addObject}, {@code removeUser}, {@code close(borrowed)}) is an operation
 * of every call on a pool or a data-access object, not the configuration step the prefix means
 * elsewhere; when nothing in the analysed code calls it and other packages can (it is public or
 * protected), requests do. A package-private one nothing calls (Tomcat 7's {@code
 * WebappClassLoaderBase.addJar}, compiled alone) has callers lockjaw does not see: the loader of
 * its package, at start-up.
 */
final class RequestReach {
  private static final List<String> PER_CALL_PREFIXES = Kind.EntryPoints.PER_CALL_PREFIX.values();
  private static final List<String> FOLLOWED_PREFIXES =
      Kind.EntryPoints.PER_CALL_PREFIX.entries().stream()
          .filter(entry -> !entry.hasAttribute("not-followed"))
          .map(ApiCatalog.Entry::value)
          .toList();

  private RequestReach() {}

  /**
   * Whether a name with a configuration prefix names an operation of every call on a pool or a DAO
   * ({@code per-call-prefix}): {@code addObject}, {@code removeUser}, {@code closeAll}.
   */
  static boolean isPerCallName(String name) {
    return Lifecycle.hasPrefix(name, PER_CALL_PREFIXES);
  }

  /**
   * Whether a call of a method so named is followed under a lock: {@code addObjectToPool}, not a
   * {@code close...} (it tears down, it serves no request).
   */
  static boolean isFollowedPerCallName(String name) {
    return Lifecycle.hasPrefix(name, FOLLOWED_PREFIXES);
  }

  /**
   * Whether a method that holds a shared monitor counts: requests reach it, or a background task
   * runs it while a method requests reach takes the same monitor ({@code sharesWithRequests}): a
   * pool's evictor validating idle connections under the pool monitor stalls every borrower.
   */
  static boolean isBackground(QueryContext context, MethodFacts method) {
    return context.reachability().originsOf(method.ref()).contains(Reachability.Origin.BACKGROUND);
  }

  static boolean isOnRequestPath(QueryContext context, MethodFacts method) {
    Reachability reachability = context.reachability();
    MethodRef ref = method.ref();
    if (reachability.isOnRequestPath(ref)) {
      return true;
    }
    return reachability.originsOf(ref).equals(Set.of(Reachability.Origin.LIFECYCLE))
        && Reachability.isApi(method)
        && method.isVisibleOutsideItsPackage()
        && isPerCallName(ref.name())
        && !Lifecycle.isLifecycleOrConfiguration(
            ref.name(), ref.parameterCount(), ref.returnType().equals("void"))
        && context.program().callersOf(ref).isEmpty();
  }
}
