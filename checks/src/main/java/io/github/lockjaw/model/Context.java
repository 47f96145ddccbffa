package io.github.lockjaw.model;

import java.util.List;

/**
 * Where an operation runs within its method.
 *
 * @param regions the ids of the monitor regions held, outermost first ({@link MethodFacts#regions})
 * @param loops the ids of the loops it is in, outermost first ({@link MethodFacts#loops})
 * @param guards the conditions under which it runs, outermost first
 * @param inHandler whether it runs in a {@code catch} clause (a failure path)
 */
public record Context(
    List<Integer> regions, List<Integer> loops, List<Guard> guards, boolean inHandler) {

  public static final Context NONE = new Context(List.of(), List.of(), List.of(), false);

  public Context {
    regions = List.copyOf(regions);
    loops = List.copyOf(loops);
    guards = List.copyOf(guards);
  }

  public boolean isLocked() {
    return !regions.isEmpty();
  }

  public boolean isInLoop() {
    return !loops.isEmpty();
  }
}
