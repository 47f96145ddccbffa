package io.github.lockjaw.model;

import java.util.List;

/**
 * One way control jumps out of a loop on a normal path (not from a {@code catch} clause), and what
 * was tested on the way, within the loop: {@code while (t.isAlive() && count < 100)} has two exits,
 * {@code [!t.isAlive()]} and {@code [t.isAlive(), ?]}; {@code if (!t.isAlive()) break;} is the exit
 * {@code [!t.isAlive()]}. The last guard is the test that decides the exit (none for a {@code
 * break} in a branch's code); besides the tests of {@link Guard}, it may compare with zero ({@link
 * Guard.Test#POSITIVE}). Guards that hold around the whole loop are not listed.
 *
 * @param guards the conditions tested within the loop on the way out, in order
 * @param stores when the deciding test reads a local that the loop assigns ({@code while (alive) {
 *     ...; alive = t.isAlive(); }}), every assignment of that local in the loop; the test's subject
 *     is then {@link Value#UNKNOWN} unless the value is known where it is tested
 */
public record LoopExit(List<Guard> guards, List<LocalStore> stores) {

  public LoopExit {
    guards = List.copyOf(guards);
    stores = List.copyOf(stores);
  }

  /** The test that decides the exit, or {@code null} when it is taken unconditionally. */
  public Guard deciding() {
    return guards.isEmpty() ? null : guards.get(guards.size() - 1);
  }
}
