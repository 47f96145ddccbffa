package io.github.lockjaw.checks.dao;

import java.util.List;

/**
 * What the model knows that the source fix of a finding needs ({@link
 * io.github.lockjaw.model.query.ModelFinding#detail}): every region that holds the monitor, with
 * the statements it executes on every call.
 *
 * @param members the regions that hold the monitor, the flagged one among them
 */
record FixFacts(List<Member> members) {
  /**
   * A region that holds the monitor.
   *
   * @param name how a message names it, e.g. {@code transfer()}
   * @param executions the statements it executes on every call: 0, 1, or 2 for more than one
   */
  record Member(String name, int executions) {}
}
