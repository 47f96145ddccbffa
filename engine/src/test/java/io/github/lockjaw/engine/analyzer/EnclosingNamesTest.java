package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import io.github.lockjaw.engine.finding.Finding;
import io.github.lockjaw.engine.finding.Fingerprint;
import io.github.lockjaw.engine.finding.Severity;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Item 2 of issue 17: a finding in an anonymous or local class is fingerprinted with the member
 * that declares the class, so a new busy-wait in another method's anonymous class is not taken for
 * a baselined one.
 */
class EnclosingNamesTest {
  private static final String BEFORE =
      """
      class Outer {
        void start(Thread t) {
          new Thread(new Runnable() {
            public void run() {
              while (t.isAlive()) {}
            }
          }).start();
        }
      }
      """;
  private static final String AFTER =
      """
      class Outer {
        void restart(Thread t) {
          new Thread(new Runnable() {
            public void run() {
              while (t.isAlive()) {}
            }
          }).start();
        }
        void local(Thread t) {
          class Waiter {
            void run() {
              while (t.isAlive()) {}
            }
          }
        }
        static class Nested {
          void run(Thread t) {
            while (t.isAlive()) {}
          }
        }
      }
      """;

  @Test
  void anonymousAndLocalClassesAreNamedAfterTheirDeclaringMember() throws Exception {
    assertEquals(List.of("Outer.start(Thread).<anonymous>"), classesOfLoops(BEFORE));
    assertEquals(
        List.of("Outer.restart(Thread).<anonymous>", "Outer.local(Thread).Waiter", "Outer.Nested"),
        classesOfLoops(AFTER));
  }

  @Test
  void theMovedLoopGetsAnotherFingerprint() throws Exception {
    String baselined = fingerprint(classesOfLoops(BEFORE).get(0));
    String added = fingerprint(classesOfLoops(AFTER).get(0));
    assertNotEquals(baselined, added);
  }

  private static String fingerprint(String enclosingClass) {
    Finding finding =
        new Finding(
            "ThreadAliveBusyWait",
            Severity.WARNING,
            "/r/Outer.java",
            5,
            7,
            "m",
            "l",
            enclosingClass,
            "run()",
            "while(t.isAlive())",
            List.of());
    return Fingerprint.of(finding, "Outer.java");
  }

  private static List<String> classesOfLoops(String source) throws Exception {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    SimpleJavaFileObject file =
        new SimpleJavaFileObject(
            URI.create("string:///Outer.java"), javax.tools.JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    JavacTask task =
        (JavacTask) compiler.getTask(null, null, null, List.of("-proc:none"), null, List.of(file));
    List<String> names = new ArrayList<>();
    for (CompilationUnitTree unit : task.parse()) {
      new TreePathScanner<Void, Void>() {
        @Override
        public Void visitWhileLoop(WhileLoopTree loop, Void unused) {
          names.add(
              LockjawAnalyzer.enclosingClass(new TreePath(getCurrentPath(), loop.getCondition())));
          return super.visitWhileLoop(loop, unused);
        }
      }.scan(unit, null);
    }
    return names;
  }
}
