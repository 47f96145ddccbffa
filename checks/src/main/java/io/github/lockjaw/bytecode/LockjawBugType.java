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
      "lockjaw knows no release of this library that fixes it. Workaround: warm the cache at"
          + " start-up so requests find it filled, or keep the call off the hot path (keep its"
          + " result in your own ConcurrentHashMap); report the Class lock upstream (the fix is a"
          + " ConcurrentHashMap.computeIfAbsent or a ClassValue)."),
  SYNCHRONIZED_MAP_CACHE(
      "LOCKJAW_SYNCHRONIZED_MAP_CACHE",
      "SynchronizedMapCache",
      "lockjaw knows no release of this library that fixes it. Workaround: keep the call off"
          + " the hot path (cache its result in your own code), or warm it at start-up; report the"
          + " lock upstream (the fix is a ConcurrentHashMap.computeIfAbsent)."),
  THREAD_ALIVE_BUSY_WAIT(
      "LOCKJAW_THREAD_ALIVE_BUSY_WAIT",
      "ThreadAliveBusyWait",
      "lockjaw knows no release of this library that fixes it. Workaround: do not call it on"
          + " request threads (hand it to one background thread); report the busy-wait upstream"
          + " (the fix is join(), get() or awaitTermination())."),
  SHARED_MONITOR_DAO(
      "LOCKJAW_SHARED_MONITOR_DAO",
      "SharedMonitorDao",
      "lockjaw knows no release of this library that fixes it. Workaround: configure it so the"
          + " locked path runs rarely (for a pool: enough idle connections, validation off the"
          + " borrow path), or replace it (for connection pools, HikariCP borrows without a"
          + " pool-wide lock); report the lock upstream."),
  PER_REQUEST_HTTP_CLIENT(
      "LOCKJAW_PER_REQUEST_HTTP_CLIENT",
      "PerRequestHttpClient",
      "lockjaw knows no release of this library that fixes it. Workaround: if the library"
          + " accepts a client or connection manager, configure it with one shared, pooled"
          + " instance; otherwise report it upstream."),
  STATISTICS_UNDER_SHARED_LOCK(
      "LOCKJAW_STATISTICS_UNDER_SHARED_LOCK",
      "StatisticsUnderSharedLock",
      "lockjaw knows no release of this library that fixes it. Workaround: switch its"
          + " statistics or monitoring off on hot paths; report the lock upstream (the fix is"
          + " LongAdder/AtomicLong fields)."),
  RESOURCE_LOOKUP_UNDER_LOCK(
      "LOCKJAW_RESOURCE_LOOKUP_UNDER_LOCK",
      "ResourceLookupUnderLock",
      "lockjaw knows no release of this library that fixes it. Workaround: cache what you"
          + " look up through it (or switch its own resource cache on); report the lock upstream."),
  READ_MOSTLY_STATE_UNDER_LOCK(
      "LOCKJAW_READ_MOSTLY_STATE_UNDER_LOCK",
      "ReadMostlyStateUnderLock",
      "lockjaw knows no release of this library that fixes it. Workaround: call the accessor"
          + " once and keep its answer; report the lock upstream (the fix is a volatile field or"
          + " an immutable snapshot)."),
  PER_REQUEST_HEAVYWEIGHT_OBJECT(
      "LOCKJAW_PER_REQUEST_HEAVYWEIGHT_OBJECT",
      "PerRequestHeavyweightObject",
      "lockjaw knows no release of this library that fixes it. Workaround: if the library"
          + " accepts one (a mapper, a JAXB context, a factory), hand it a shared instance; report"
          + " it upstream (the fix is one instance, built once and shared)."),
  VIRTUAL_THREAD_PINNING(
      "LOCKJAW_VIRTUAL_THREAD_PINNING",
      "VirtualThreadPinning",
      "lockjaw knows no release of this library that fixes it. Workaround: run on JDK 24 or"
          + " later (JEP 491), where virtual threads no longer pin inside synchronized, or keep the"
          + " call off virtual threads; report the pinning upstream (the fix is a ReentrantLock"
          + " instead of synchronized).");

  private final String bugType;
  private final String check;
  private final String genericAdvice;

  LockjawBugType(String bugType, String check, String genericAdvice) {
    this.bugType = bugType;
    this.check = check;
    this.genericAdvice =
        genericAdvice
            + " If this is your own code, lockjaw's "
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
