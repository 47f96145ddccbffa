package io.github.lockjaw.model;

import java.util.List;

/**
 * An assignment of a local within a loop ({@link LoopExit#stores}): the value stored ({@link
 * Value.Computed} or unknown for arithmetic and increments) and the conditions tested within the
 * loop on the way to it, outermost first.
 */
public record LocalStore(Value value, List<Guard> guards) {
  public LocalStore {
    guards = List.copyOf(guards);
  }
}
