package io.github.lockjaw.checks.cache;

import io.github.lockjaw.model.MethodFacts;
import java.util.List;

/**
 * A check-then-act lookup in one method: a put of key K on container C that runs only when a read
 * of K on C missed, and hands the cached value back.
 *
 * @param method the method
 * @param check the first read of the key (in the region of the read that guards the put): where the
 *     lookup starts
 * @param read the read whose miss the put runs on
 * @param put the put that fills the cache
 * @param commonRegions the regions that hold both the read and the put, outermost first
 * @param splitFrom for a cache split across two regions on one monitor, the region of the read;
 *     else -1
 * @param splitTo for such a split, the region of the put; else -1
 */
record Lookup(
    MethodFacts method,
    MapAccess check,
    MapAccess read,
    MapAccess put,
    List<Integer> commonRegions,
    int splitFrom,
    int splitTo) {

  Lookup {
    commonRegions = List.copyOf(commonRegions);
  }

  boolean isSplit() {
    return splitTo >= 0;
  }

  /** Whether a helper or a cache class's method makes the read or the put. */
  boolean throughCalls() {
    return read.via() != null || put.via() != null;
  }

  /** The map's name as messages give it: its field's name. */
  String mapName() {
    return check.field() != null ? check.field().name() : "the cache";
  }
}
