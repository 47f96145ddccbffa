package io.github.lockjaw.model.query;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import java.util.function.Supplier;

/** What a query reads: the program, composed effects, and reachability (computed on first use). */
public final class QueryContext {
  private final Program program;
  private final Effects effects;
  private final Supplier<Reachability> reachabilitySupplier;
  private Reachability reachability;

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

  public ClassFacts owner(MethodFacts method) {
    return program.classFacts(method.ref().owner());
  }
}
