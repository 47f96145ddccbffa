package io.github.lockjaw.checks.cache;

import com.google.errorprone.CompilationTestHelper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SynchronizedMapCache on the cache shapes of issue 21 ({@link CacheShapes}): a split-lock cache, a
 * put in a helper called under the lock, a cache class of its own, a lazily created map, a value
 * behind a reference unwrapped through a conditional, the found value kept in a field, the map in a
 * local alias, a put keyed by a getter of the new value, a lookup in a {@code switch}; and their
 * look-alikes: two different locks, an overridable helper, a put on every call, another object's
 * key, a {@code Hashtable} of an object made per call.
 */
class CacheShapesTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(SynchronizedMapCache.class, getClass());

  @Test
  void everyShapeIsFoundAndEveryLookAlikeIsLeftAlone() {
    for (Map.Entry<String, String> source : CacheShapes.sources().entrySet()) {
      compilation.addSourceLines(
          source.getKey().replace('.', '/') + ".java", source.getValue().split("\n"));
    }
    compilation.doTest();
  }

  @Test
  void noClassMonitorCacheFindingsOnObjectMonitors() {
    CompilationTestHelper classMonitor =
        CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass());
    for (Map.Entry<String, String> source : CacheShapes.sources().entrySet()) {
      classMonitor.addSourceLines(
          source.getKey().replace('.', '/') + ".java",
          source.getValue().replace("// BUG: Diagnostic contains:", "// ").split("\n"));
    }
    classMonitor.doTest();
  }
}
