package io.github.lockjaw.bytecode;

import java.util.Optional;

/**
 * The SpotBugs bug types of lockjaw's detectors, each tied to the Error Prone check that finds the
 * same anti-pattern in source, and the advice for a finding in a library without a known fix.
 */
public enum LockjawBugType {
  CLASS_MONITOR_CACHE(
      "LOCKJAW_CLASS_MONITOR_CACHE",
      "ClassMonitorCache",
      "In a dependency: upgrade to a release that caches in a"
          + " ConcurrentHashMap (computeIfAbsent) or a ClassValue without the Class lock, or"
          + " replace the library; until then warm the cache at start-up so requests find it"
          + " filled, and report the lock upstream."),
  SYNCHRONIZED_MAP_CACHE(
      "LOCKJAW_SYNCHRONIZED_MAP_CACHE",
      "SynchronizedMapCache",
      "In a dependency: upgrade to a release that caches in a"
          + " ConcurrentHashMap (computeIfAbsent), or replace the library; until then keep the"
          + " call off the hot path (cache its result in your code) and report the lock upstream."),
  THREAD_ALIVE_BUSY_WAIT(
      "LOCKJAW_THREAD_ALIVE_BUSY_WAIT",
      "ThreadAliveBusyWait",
      "In a dependency: upgrade to a release that blocks instead"
          + " of polling, or replace the library; until then avoid calling it on request threads"
          + " and report the busy-wait upstream."),
  SHARED_MONITOR_DAO(
      "LOCKJAW_SHARED_MONITOR_DAO",
      "SharedMonitorDao",
      "In a dependency: upgrade to a release that does not hold one"
          + " monitor around its I/O, or replace it (for connection pools, HikariCP borrows"
          + " without a pool-wide lock); until then size it so the locked path runs rarely (enough idle"
          + " connections, validation off the borrow path) and report the lock upstream."),
  PER_REQUEST_HTTP_CLIENT(
      "LOCKJAW_PER_REQUEST_HTTP_CLIENT",
      "PerRequestHttpClient",
      "In a dependency: if the library accepts a client"
          + " or connection manager, configure it with one shared, pooled instance; otherwise"
          + " upgrade to a release that reuses its client, or replace the library, and report"
          + " it upstream."),
  STATISTICS_UNDER_SHARED_LOCK(
      "LOCKJAW_STATISTICS_UNDER_SHARED_LOCK",
      "StatisticsUnderSharedLock",
      "In a dependency: upgrade to a release that keeps its"
          + " statistics in LongAdder/AtomicLong fields, or switch the monitoring off on hot paths;"
          + " report the lock upstream."),
  RESOURCE_LOOKUP_UNDER_LOCK(
      "LOCKJAW_RESOURCE_LOOKUP_UNDER_LOCK",
      "ResourceLookupUnderLock",
      "In a dependency: upgrade to a release that indexes its"
          + " resources once or looks them up without a shared lock; until then cache what you look"
          + " up through it, and report the lock upstream."),
  READ_MOSTLY_STATE_UNDER_LOCK(
      "LOCKJAW_READ_MOSTLY_STATE_UNDER_LOCK",
      "ReadMostlyStateUnderLock",
      "In a dependency: upgrade to a release that publishes the"
          + " state through a volatile field or an immutable snapshot; until then call the accessor"
          + " once and keep its answer, and report the lock upstream."),
  PER_REQUEST_HEAVYWEIGHT_OBJECT(
      "LOCKJAW_PER_REQUEST_HEAVYWEIGHT_OBJECT",
      "PerRequestHeavyweightObject",
      "In a dependency: upgrade to a release that builds the object once and shares it; if the"
          + " library accepts one (a mapper, a JAXB context, a factory), hand it a shared instance;"
          + " report it upstream."),
  VIRTUAL_THREAD_PINNING(
      "LOCKJAW_VIRTUAL_THREAD_PINNING",
      "VirtualThreadPinning",
      "In a dependency: upgrade to a release that guards its blocking code with a ReentrantLock"
          + " instead of synchronized, or run on JDK 24 or later (JEP 491), where virtual threads"
          + " no longer pin inside synchronized; until then keep the call off virtual threads and"
          + " report the pinning upstream.");

  private final String bugType;
  private final String check;
  private final String genericAdvice;

  LockjawBugType(String bugType, String check, String genericAdvice) {
    this.bugType = bugType;
    this.check = check;
    this.genericAdvice =
        genericAdvice
            + " In your own code, lockjaw's "
            + check
            + " compiler check (Error Prone) explains the fix.";
  }

  /** The SpotBugs bug type, as in findbugs.xml and messages.xml. */
  public String bugType() {
    return bugType;
  }

  /** The name of the Error Prone check for the same anti-pattern, e.g. {@code SharedMonitorDao}. */
  public String check() {
    return check;
  }

  /** Advice for a finding in a library without a known fix. */
  public String genericAdvice() {
    return genericAdvice;
  }

  public static Optional<LockjawBugType> ofBugType(String bugType) {
    for (LockjawBugType type : values()) {
      if (type.bugType.equals(bugType)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** The advice for a finding of this type in {@code className} (binary name) of {@code jar}. */
  public String advice(JarIdentity jar, String className) {
    return KnownFixes.find(jar, className, check).map(fix -> fix.advice(jar)).orElse(genericAdvice);
  }
}
