package io.github.lockjaw.model;

import java.util.List;

/**
 * A loop of a method: {@code for}, {@code while}, {@code do}, an enhanced {@code for}.
 *
 * @param id the loop's index in {@link MethodFacts#loops()}
 * @param parent the id of the loop it is nested in, or -1
 * @param line the line of the loop's head
 * @param exits how control jumps out of it: its condition coming out false, a {@code break}, a
 *     {@code continue} of an enclosing loop (not {@code return} or {@code throw}: those are
 *     operations of the method)
 * @param varying the indexes of the calls in it whose receiver or arguments read a local that the
 *     loop assigns (directly, or through an array element, a field or arithmetic): they may act on
 *     another object on each pass
 */
public record Loop(int id, int parent, int line, List<LoopExit> exits, List<Integer> varying) {

  public Loop {
    exits = List.copyOf(exits);
    varying = List.copyOf(varying);
  }

  /** A loop whose exits and varying calls are not known. */
  public Loop(int id, int parent, int line) {
    this(id, parent, line, List.of(), List.of());
  }
}
