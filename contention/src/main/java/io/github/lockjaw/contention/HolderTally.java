package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The holders seen at one contended site, grouped by what they were doing (their frames), each with
 * its weight: the waiting threads it held up (dumps) or its samples inside the waits (JFR).
 * Bounded: past {@link #MAX_GROUPS} distinct holder stacks, the rest count as "other".
 */
public final class HolderTally {
  static final int MAX_GROUPS = 32;
  private static final int MAX_NAMES = 4;

  /** One group: a holder's frames, its weight, and some of the threads that held the lock. */
  public record Group(Holder holder, long weight, List<String> threads) {}

  private static final class Counts {
    final Holder first;
    long weight;
    final Set<String> threads = new LinkedHashSet<>();

    Counts(Holder first) {
      this.first = first;
    }
  }

  private final Map<String, Counts> groups = new LinkedHashMap<>();
  private long other;
  private long total;

  void add(Holder holder, String thread, long weight) {
    total += weight;
    String key = holder.groupKey();
    Counts counts = groups.get(key);
    if (counts == null) {
      if (groups.size() >= MAX_GROUPS) {
        other += weight;
        return;
      }
      counts = new Counts(holder);
      groups.put(key, counts);
    }
    counts.weight += weight;
    if (thread != null && !thread.isEmpty() && counts.threads.size() < MAX_NAMES) {
      counts.threads.add(thread);
    }
  }

  /** The groups, heaviest first. */
  public List<Group> groups() {
    List<Group> list = new ArrayList<>();
    groups.forEach((k, c) -> list.add(new Group(c.first, c.weight, List.copyOf(c.threads))));
    list.sort(Comparator.comparingLong(Group::weight).reversed());
    return list;
  }

  /** The heaviest group, or null when no holder was seen. */
  public Group top() {
    List<Group> all = groups();
    return all.isEmpty() ? null : all.get(0);
  }

  /** The summed weight of all holders seen. */
  public long total() {
    return total;
  }

  /** The weight of the holders past the bound, not grouped. */
  public long other() {
    return other;
  }

  public boolean isEmpty() {
    return total == 0;
  }
}
