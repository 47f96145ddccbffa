package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.classfile.Global;
import edu.umd.cs.findbugs.classfile.IAnalysisCache;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which classes of the analysed code are created per call and never published, as {@link
 * PerCallObjectsDetector} saw them in a first pass over every class: a class is a candidate when
 * something creates it ({@code new}) and no instruction hands out one of its instances (stores it
 * in a field or an array, passes it as an argument, returns it, captures it in a lambda). A map
 * field of such an object has a monitor per call; the cache detectors leave it alone, as the source
 * check does ({@code PerCallOwner}). Only private member classes and local classes qualify: others
 * can be created by code lockjaw does not see.
 */
final class PerCallObjects {
  private final Set<String> created = ConcurrentHashMap.newKeySet();
  private final Set<String> published = ConcurrentHashMap.newKeySet();

  /** The facts of the current analysis, created on first use. */
  static synchronized PerCallObjects current() {
    IAnalysisCache cache = Global.getAnalysisCache();
    PerCallObjects facts = cache == null ? null : cache.getOptionalDatabase(PerCallObjects.class);
    if (facts == null) {
      facts = new PerCallObjects();
      if (cache != null) {
        cache.eagerlyPutDatabase(PerCallObjects.class, facts);
      }
    }
    return facts;
  }

  void created(String className) {
    created.add(className);
  }

  void published(String className) {
    published.add(className);
  }

  /** Whether instances of the class (dotted name) are created and never handed out. */
  boolean isPerCall(String className) {
    return created.contains(className) && !published.contains(className);
  }
}
