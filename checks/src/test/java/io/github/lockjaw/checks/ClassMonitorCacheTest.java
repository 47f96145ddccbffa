package io.github.lockjaw.checks;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

class ClassMonitorCacheTest {
  private final CompilationTestHelper compilation =
      CompilationTestHelper.newInstance(ClassMonitorCache.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(ClassMonitorCache.class, getClass());

  @Test
  void ibatisClassInfoGetInstance() {
    compilation
        .addSourceLines(
            "ClassInfo.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());",
            "  private final String className;",
            "  private ClassInfo(Class clazz) { className = clazz.getName(); }",
            "  public static ClassInfo getInstance(Class clazz) {",
            "    // BUG: Diagnostic contains: ConcurrentHashMap",
            "    synchronized (clazz) {",
            "      ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo(clazz);",
            "        CLASS_INFO_MAP.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "}")
        .doTest();
  }

  @Test
  void ibatisFix() {
    refactoring
        .addInputLines(
            "ClassInfo.java",
            "import java.util.Collections;",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());",
            "  private final String className;",
            "  private ClassInfo(Class clazz) { className = clazz.getName(); }",
            "  public static ClassInfo getInstance(Class clazz) {",
            "    synchronized (clazz) {",
            "      ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);",
            "      if (cached == null) {",
            "        cached = new ClassInfo(clazz);",
            "        CLASS_INFO_MAP.put(clazz, cached);",
            "      }",
            "      return cached;",
            "    }",
            "  }",
            "}")
        .addOutputLines(
            "ClassInfo.java",
            "import java.util.Map;",
            "import java.util.concurrent.ConcurrentHashMap;",
            "public class ClassInfo {",
            "  private static final Map CLASS_INFO_MAP = new ConcurrentHashMap();",
            "  private final String className;",
            "  private ClassInfo(Class clazz) { className = clazz.getName(); }",
            "  public static ClassInfo getInstance(Class clazz) {",
            "    return (ClassInfo) CLASS_INFO_MAP.computeIfAbsent(clazz, k -> new ClassInfo(clazz));",
            "  }",
            "}")
        .doTest();
  }
}
