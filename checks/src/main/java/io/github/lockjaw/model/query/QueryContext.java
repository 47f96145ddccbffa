package io.github.lockjaw.model.query;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/** What a query reads: the program, composed effects, and reachability (computed on first use). */
public final class QueryContext {
  private final Program program;
  private final Effects effects;
  private final Supplier<Reachability> reachabilitySupplier;
  private Reachability reachability;
  private RunsOnce runsOnce;
  private ToIntFunction<String> targetRelease = className -> 0;

  public QueryContext(Program program, Effects effects, Supplier<Reachability> reachability) {
    this.program = program;
    this.effects = effects;
    this.reachabilitySupplier = reachability;
  }

  public Program program() {
    return program;
  }

  public Effects effects() {
    return effects;
  }

  public Reachability reachability() {
    if (reachability == null) {
      reachability = reachabilitySupplier.get();
    }
    return reachability;
  }

  /** Which operations run once (lazily, or once per key) rather than on every call. */
  public RunsOnce runsOnce() {
    if (runsOnce == null) {
      runsOnce = new RunsOnce(program);
    }
    return runsOnce;
  }

  public ClassFacts owner(MethodFacts method) {
    return program.classFacts(method.ref().owner());
  }

  /**
   * The Java release an analysed class was compiled for (javac's {@code --release} or {@code
   * -target} for sources, the class file's version for class files, e.g. 21); 0 when unknown.
   */
  public int targetRelease(String className) {
    return targetRelease.applyAsInt(className);
  }

  /**
   * Tells the queries which release each class targets (set by the engine that built the model).
   */
  public QueryContext withTargetRelease(ToIntFunction<String> releaseOfClass) {
    this.targetRelease = releaseOfClass;
    return this;
  }
}
