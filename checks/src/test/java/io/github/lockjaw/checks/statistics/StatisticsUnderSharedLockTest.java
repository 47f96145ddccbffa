package io.github.lockjaw.checks.statistics;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class StatisticsUnderSharedLockTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(StatisticsUnderSharedLock.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(StatisticsUnderSharedLock.class, getClass());

  /** The AspectJ annotations and join point, as the aspects below compile against them. */
  private static final String[] AROUND = {
    "package org.aspectj.lang.annotation;",
    "import java.lang.annotation.*;",
    "@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD)",
    "public @interface Around { String value(); }"
  };

  private static final String[] JOIN_POINT = {
    "package org.aspectj.lang;",
    "public interface ProceedingJoinPoint {",
    "  Object proceed() throws Throwable;",
    "  String toShortString();",
    "}"
  };

  private static final String[] METHOD_INTERCEPTOR = {
    "package org.aopalliance.intercept;",
    "public interface MethodInterceptor {",
    "  Object invoke(MethodInvocation invocation) throws Throwable;",
    "}"
  };

  private static final String[] METHOD_INVOCATION = {
    "package org.aopalliance.intercept;",
    "public interface MethodInvocation {",
    "  Object proceed() throws Throwable;",
    "  java.lang.reflect.Method getMethod();",
    "}"
  };

  @Test
  void petClinicCallMonitoringAspect() {
    compilation
        .addSourceLines("Around.java", AROUND)
        .addSourceLines("ProceedingJoinPoint.java", JOIN_POINT)
        .addSourceLines(
            "CallMonitoringAspect.java",
            "import org.aspectj.lang.ProceedingJoinPoint;",
            "import org.aspectj.lang.annotation.Around;",
            "public class CallMonitoringAspect {",
            "  private boolean enabled = true;",
            "  private int callCount = 0;",
            "  private long accumulatedCallTime = 0;",
            "  public long getCallCount() { return callCount; }",
            "  public long getCallTime() {",
            "    return (this.callCount > 0 ? this.accumulatedCallTime / this.callCount : 0);",
            "  }",
            "  public void reset() {",
            "    this.callCount = 0;",
            "    this.accumulatedCallTime = 0;",
            "  }",
            "  @Around(\"within(@org.springframework.stereotype.Repository *)\")",
            "  public Object invoke(ProceedingJoinPoint joinPoint) throws Throwable {",
            "    if (this.enabled) {",
            "      long start = System.currentTimeMillis();",
            "      try {",
            "        return joinPoint.proceed();",
            "      } finally {",
            "        long elapsed = System.currentTimeMillis() - start;",
            "        // BUG: Diagnostic contains: takes the monitor of the CallMonitoringAspect instance on every call of invoke() only to update 'callCount', 'accumulatedCallTime'",
            "        synchronized (this) {",
            "          this.callCount++;",
            "          this.accumulatedCallTime += elapsed;",
            "        }",
            "      }",
            "    }",
            "    return joinPoint.proceed();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void longAdderFixForThePetClinicAspect() {
    refactoring
        .addInputLines("Around.java", AROUND)
        .expectUnchanged()
        .addInputLines("ProceedingJoinPoint.java", JOIN_POINT)
        .expectUnchanged()
        .addInputLines(
            "CallMonitoringAspect.java",
            "import org.aspectj.lang.ProceedingJoinPoint;",
            "import org.aspectj.lang.annotation.Around;",
            "",
            "public class CallMonitoringAspect {",
            "  private int callCount = 0;",
            "  private long accumulatedCallTime;",
            "",
            "  public int getCallCount() {",
            "    return callCount;",
            "  }",
            "",
            "  public long getCallTime() {",
            "    return (this.callCount > 0 ? this.accumulatedCallTime / this.callCount : 0);",
            "  }",
            "",
            "  public void reset() {",
            "    this.callCount = 0;",
            "    this.accumulatedCallTime = 0;",
            "  }",
            "",
            "  @Around(\"within(@org.springframework.stereotype.Repository *)\")",
            "  public Object invoke(ProceedingJoinPoint joinPoint) throws Throwable {",
            "    long start = System.nanoTime();",
            "    try {",
            "      return joinPoint.proceed();",
            "    } finally {",
            "      long elapsed = (System.nanoTime() - start) / 1_000_000;",
            "      synchronized (this) {",
            "        this.callCount++;",
            "        this.accumulatedCallTime += elapsed;",
            "      }",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "CallMonitoringAspect.java",
            "import java.util.concurrent.atomic.LongAdder;",
            "import org.aspectj.lang.ProceedingJoinPoint;",
            "import org.aspectj.lang.annotation.Around;",
            "",
            "public class CallMonitoringAspect {",
            "  private final LongAdder callCount = new LongAdder();",
            "  private final LongAdder accumulatedCallTime = new LongAdder();",
            "",
            "  public int getCallCount() {",
            "    return callCount.intValue();",
            "  }",
            "",
            "  public long getCallTime() {",
            "    return (this.callCount.intValue() > 0 ? this.accumulatedCallTime.sum() / this.callCount.intValue() : 0);",
            "  }",
            "",
            "  public void reset() {",
            "    this.callCount.reset();",
            "    this.accumulatedCallTime.reset();",
            "  }",
            "",
            "  @Around(\"within(@org.springframework.stereotype.Repository *)\")",
            "  public Object invoke(ProceedingJoinPoint joinPoint) throws Throwable {",
            "    long start = System.nanoTime();",
            "    try {",
            "      return joinPoint.proceed();",
            "    } finally {",
            "      long elapsed = (System.nanoTime() - start) / 1_000_000;",
            "      this.callCount.increment();",
            "      this.accumulatedCallTime.add(elapsed);",
            "    }",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void longAdderFixKeepsTheCommentsOfTheUnwrappedBlock() {
    refactoring
        .addInputLines("Around.java", AROUND)
        .expectUnchanged()
        .addInputLines("ProceedingJoinPoint.java", JOIN_POINT)
        .expectUnchanged()
        .addInputLines(
            "TimingAspect.java",
            "import org.aspectj.lang.ProceedingJoinPoint;",
            "import org.aspectj.lang.annotation.Around;",
            "",
            "public class TimingAspect {",
            "  private long calls;",
            "",
            "  public long getCalls() {",
            "    return calls;",
            "  }",
            "",
            "  @Around(\"execution(* *..*Service.*(..))\")",
            "  public Object time(ProceedingJoinPoint joinPoint) throws Throwable {",
            "    try {",
            "      return joinPoint.proceed();",
            "    } finally {",
            "      synchronized (this) { // one lock for all requests",
            "        // counted even when the call failed",
            "        calls++; // read by the JMX bean",
            "        /* nothing else is guarded */",
            "      }",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "TimingAspect.java",
            "import java.util.concurrent.atomic.LongAdder;",
            "import org.aspectj.lang.ProceedingJoinPoint;",
            "import org.aspectj.lang.annotation.Around;",
            "",
            "public class TimingAspect {",
            "  private final LongAdder calls = new LongAdder();",
            "",
            "  public long getCalls() {",
            "    return calls.sum();",
            "  }",
            "",
            "  @Around(\"execution(* *..*Service.*(..))\")",
            "  public Object time(ProceedingJoinPoint joinPoint) throws Throwable {",
            "    try {",
            "      return joinPoint.proceed();",
            "    } finally {",
            "      // one lock for all requests",
            "      // counted even when the call failed",
            "      calls.increment(); // read by the JMX bean",
            "      /* nothing else is guarded */",
            "    }",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void longAdderFixForASynchronizedHelperOfAnHttpFilter() {
    refactoring
        .addInputLines(
            "RequestCounter.java",
            "import com.sun.net.httpserver.Filter;",
            "import com.sun.net.httpserver.HttpExchange;",
            "import java.io.IOException;",
            "",
            "public class RequestCounter extends Filter {",
            "  private volatile long requests;",
            "",
            "  @Override",
            "  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {",
            "    count();",
            "    chain.doFilter(exchange);",
            "  }",
            "",
            "  private synchronized void count() {",
            "    requests++;",
            "  }",
            "",
            "  public long requests() {",
            "    return requests;",
            "  }",
            "",
            "  @Override",
            "  public String description() {",
            "    return \"counts requests\";",
            "  }",
            "}")
        .addOutputLines(
            "RequestCounter.java",
            "import com.sun.net.httpserver.Filter;",
            "import com.sun.net.httpserver.HttpExchange;",
            "import java.io.IOException;",
            "import java.util.concurrent.atomic.LongAdder;",
            "",
            "public class RequestCounter extends Filter {",
            "  private final LongAdder requests = new LongAdder();",
            "",
            "  @Override",
            "  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {",
            "    count();",
            "    chain.doFilter(exchange);",
            "  }",
            "",
            "  private void count() {",
            "    requests.increment();",
            "  }",
            "",
            "  public long requests() {",
            "    return requests.sum();",
            "  }",
            "",
            "  @Override",
            "  public String description() {",
            "    return \"counts requests\";",
            "  }",
            "}")
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void maximaAndCountersPerKeyAreReportedWithoutAFix() {
    compilation
        .addSourceLines("MethodInterceptor.java", METHOD_INTERCEPTOR)
        .addSourceLines("MethodInvocation.java", METHOD_INVOCATION)
        .addSourceLines(
            "TimingInterceptor.java",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "import org.aopalliance.intercept.MethodInterceptor;",
            "import org.aopalliance.intercept.MethodInvocation;",
            "public class TimingInterceptor implements MethodInterceptor {",
            "  private static final Object STATS = new Object();",
            "  private long slowest;",
            "  private final Map<String, Integer> callsPerMethod = new HashMap<>();",
            "  @Override public Object invoke(MethodInvocation invocation) throws Throwable {",
            "    long start = System.nanoTime();",
            "    try {",
            "      return invocation.proceed();",
            "    } finally {",
            "      record(invocation.getMethod().getName(), System.nanoTime() - start);",
            "    }",
            "  }",
            "  private void record(String method, long nanos) {",
            "    // BUG: Diagnostic contains: on every call of invoke(), which calls record(), only to update 'slowest', 'callsPerMethod'",
            "    synchronized (STATS) {",
            "      if (nanos > slowest) {",
            "        slowest = nanos;",
            "      }",
            "      callsPerMethod.merge(method, 1, Integer::sum);",
            "    }",
            "  }",
            "  public synchronized Map<String, Integer> snapshot() {",
            "    synchronized (STATS) {",
            "      return new HashMap<>(callsPerMethod);",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenAReaderTakesTheSameLock() {
    compilation
        .addSourceLines("MethodInterceptor.java", METHOD_INTERCEPTOR)
        .addSourceLines("MethodInvocation.java", METHOD_INVOCATION)
        .addSourceLines(
            "CountingInterceptor.java",
            "import org.aopalliance.intercept.MethodInterceptor;",
            "import org.aopalliance.intercept.MethodInvocation;",
            "public class CountingInterceptor implements MethodInterceptor {",
            "  private long calls;",
            "  private long failures;",
            "  @Override public Object invoke(MethodInvocation invocation) throws Throwable {",
            "    // BUG: Diagnostic contains: other code in this file takes the same lock",
            "    synchronized (this) { calls++; }",
            "    return invocation.proceed();",
            "  }",
            "  public synchronized double failureRate() {",
            "    return calls == 0 ? 0 : (double) failures / calls;",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void silentOffTheRequestPathAndWhenTheLockGuardsMore() {
    compilation
        .addSourceLines("MethodInterceptor.java", METHOD_INTERCEPTOR)
        .addSourceLines("MethodInvocation.java", METHOD_INVOCATION)
        .addSourceLines(
            "NightlyImport.java",
            "public class NightlyImport {",
            "  private long imported;",
            "  public void importAll(java.util.List<String> rows) {",
            "    for (String row : rows) {",
            "      synchronized (this) { imported++; }",
            "    }",
            "  }",
            "}")
        .addSourceLines(
            "AuditInterceptor.java",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "import org.aopalliance.intercept.MethodInterceptor;",
            "import org.aopalliance.intercept.MethodInvocation;",
            "public class AuditInterceptor implements MethodInterceptor {",
            "  private long calls;",
            "  private final List<String> trail = new ArrayList<>();",
            "  private boolean open;",
            "  @Override public Object invoke(MethodInvocation invocation) throws Throwable {",
            "    synchronized (this) {",
            "      calls++;",
            "      trail.add(invocation.getMethod().getName());",
            "    }",
            "    synchronized (this) {",
            "      if (calls > 1000) { open = true; }",
            "    }",
            "    Object lock = new Object();",
            "    synchronized (lock) { calls++; }",
            "    return invocation.proceed();",
            "  }",
            "  public synchronized long getCalls() { return calls; }",
            "}")
        .doTest();
  }

  @Test
  void suppressible() {
    compilation
        .addSourceLines("MethodInterceptor.java", METHOD_INTERCEPTOR)
        .addSourceLines("MethodInvocation.java", METHOD_INVOCATION)
        .addSourceLines(
            "Counted.java",
            "import org.aopalliance.intercept.MethodInterceptor;",
            "import org.aopalliance.intercept.MethodInvocation;",
            "public class Counted implements MethodInterceptor {",
            "  private long calls;",
            "  @SuppressWarnings(\"StatisticsUnderSharedLock\")",
            "  @Override public Object invoke(MethodInvocation invocation) throws Throwable {",
            "    synchronized (this) { calls++; }",
            "    return invocation.proceed();",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void noFixWhenTheRegionReadsACounterIntoALocal() {
    refactoring
        .addInputLines("Around.java", AROUND)
        .expectUnchanged()
        .addInputLines("ProceedingJoinPoint.java", JOIN_POINT)
        .expectUnchanged()
        .addInputLines(
            "CallMonitoringAspect.java",
            """
            import org.aspectj.lang.ProceedingJoinPoint;
            import org.aspectj.lang.annotation.Around;

            public class CallMonitoringAspect {
              private int callCount = 0;
              private long accumulatedCallTime;
              private volatile boolean enabled = true;

              public int getCallCount() {
                return callCount;
              }

              @Around("within(@org.springframework.stereotype.Repository *)")
              public Object invoke(ProceedingJoinPoint joinPoint) throws Throwable {
                long start = System.nanoTime();
                try {
                  return joinPoint.proceed();
                } finally {
                  long elapsed = (System.nanoTime() - start) / 1_000_000;
                  synchronized (this) {
                    long before = this.callCount;
                    this.callCount++;
                    this.accumulatedCallTime += elapsed + before - before;
                  }
                }
              }
            }
            """
                .lines()
                .toArray(String[]::new))
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixWhenTheLockedBlockIsTheOnlyStatementOfAnIf() {
    refactoring
        .addInputLines("Around.java", AROUND)
        .expectUnchanged()
        .addInputLines("ProceedingJoinPoint.java", JOIN_POINT)
        .expectUnchanged()
        .addInputLines(
            "CallMonitoringAspect.java",
            """
            import org.aspectj.lang.ProceedingJoinPoint;
            import org.aspectj.lang.annotation.Around;

            public class CallMonitoringAspect {
              private int callCount = 0;
              private long accumulatedCallTime;
              private volatile boolean enabled = true;

              public int getCallCount() {
                return callCount;
              }

              @Around("within(@org.springframework.stereotype.Repository *)")
              public Object invoke(ProceedingJoinPoint joinPoint) throws Throwable {
                long start = System.nanoTime();
                try {
                  return joinPoint.proceed();
                } finally {
                  long elapsed = (System.nanoTime() - start) / 1_000_000;
                  if (enabled)
                    synchronized (this) {
                      this.callCount++;
                      this.accumulatedCallTime += elapsed;
                    }
                }
              }
            }
            """
                .lines()
                .toArray(String[]::new))
        .expectUnchanged()
        .doTest();
  }
}
