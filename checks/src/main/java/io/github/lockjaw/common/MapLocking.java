package io.github.lockjaw.common;

/**
 * How a map field is synchronised, judged from its type and the maps assigned to it: the cache
 * queries read it from the model ({@code MapLockings}), the source fix from javac trees ({@code
 * CacheField}).
 */
public enum MapLocking {
  /** A ConcurrentMap: never flagged. */
  CONCURRENT,
  /** Hashtable, Collections.synchronizedMap: every call locks the whole map. */
  COARSE,
  /** HashMap and kin: the cache's lock is whatever surrounds it. */
  PLAIN,
  /** Assigned from somewhere lockjaw cannot see. */
  UNKNOWN
}
