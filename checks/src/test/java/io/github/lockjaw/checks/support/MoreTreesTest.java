package io.github.lockjaw.checks.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.tree.CatchTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

class MoreTreesTest {

  private static final String SOURCE =
      """
      import java.util.List;
      import java.util.concurrent.Executor;

      class Worker {
        private final Executor executor;

        Worker(Executor executor) {
          this.executor = executor;
        }

        void run(List<String> names) {
          int count = names.size();
          log(String.valueOf(count));
          executor.execute(() -> deferred("in a lambda"));
          new Thread() {
            @Override
            public void run() {
              deferred("in an anonymous class");
            }
          }.start();
        }

        void log(String line) {
          System.out.println(line);
        }

        void deferred(String why) {}
      }
      """;

  private static CompilationUnitTree parse(String source) throws IOException {
    JavaFileObject file =
        new SimpleJavaFileObject(URI.create("string:///Worker.java"), JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    JavacTask task =
        (JavacTask)
            ToolProvider.getSystemJavaCompiler()
                .getTask(null, null, null, List.of("-proc:none"), null, List.of(file));
    return task.parse().iterator().next();
  }

  private static Predicate<Tree> callTo(String name) {
    return node ->
        node instanceof MethodInvocationTree call
            && call.getMethodSelect().toString().endsWith(name);
  }

  private static MethodTree method(CompilationUnitTree unit, String name) {
    return MoreTrees.findFirst(unit, MethodTree.class, m -> m.getName().contentEquals(name))
        .orElseThrow();
  }

  @Test
  void anyMatchLooksIntoEveryNodeIncludingLambdasAndClassBodies() throws IOException {
    MethodTree run = method(parse(SOURCE), "run");
    assertTrue(MoreTrees.anyMatch(run, callTo("valueOf")));
    assertTrue(MoreTrees.anyMatch(run, callTo("deferred")));
    assertFalse(MoreTrees.anyMatch(run, callTo("println")));
  }

  @Test
  void anyMatchTestsTheRootItself() throws IOException {
    MethodTree log = method(parse(SOURCE), "log");
    assertTrue(MoreTrees.anyMatch(log, node -> node == log));
  }

  @Test
  void prunedSubtreesAreNeitherTestedNorEntered() throws IOException {
    MethodTree run = method(parse(SOURCE), "run");
    assertFalse(MoreTrees.anyMatch(run, MoreTrees.DEFERRED_CODE, callTo("deferred")));
    assertTrue(MoreTrees.anyMatch(run, MoreTrees.DEFERRED_CODE, callTo("start")));
    // the anonymous class's creation runs in place; only its body is deferred
    assertTrue(MoreTrees.anyMatch(run, MoreTrees.DEFERRED_CODE, NewClassTree.class::isInstance));
  }

  @Test
  void findFirstReturnsTheOuterCallBeforeItsArgumentsAndEarlierStatementsFirst()
      throws IOException {
    MethodTree run = method(parse(SOURCE), "run");
    Optional<MethodInvocationTree> first =
        MoreTrees.findFirst(run, MethodInvocationTree.class, call -> true);
    assertEquals("names.size()", first.orElseThrow().toString());
    Optional<MethodInvocationTree> log =
        MoreTrees.findFirst(
            run, MethodInvocationTree.class, call -> !call.getArguments().isEmpty());
    assertEquals("log(String.valueOf(count))", log.orElseThrow().toString());
  }

  @Test
  void findFirstIsEmptyWhenNothingMatches() throws IOException {
    MethodTree log = method(parse(SOURCE), "log");
    assertTrue(MoreTrees.findFirst(log, NewClassTree.class, n -> true).isEmpty());
    assertTrue(MoreTrees.findFirst(log, MoreTrees.DEFERRED_CODE, callTo("deferred")).isEmpty());
  }

  @Test
  void containsComparesNodesByIdentity() throws IOException {
    CompilationUnitTree unit = parse(SOURCE);
    MethodTree log = method(unit, "log");
    MethodTree sameTextElsewhere = method(parse(SOURCE), "log");
    assertTrue(MoreTrees.contains(unit, log));
    assertTrue(MoreTrees.contains(log, log));
    assertFalse(MoreTrees.contains(unit, sameTextElsewhere));
    assertFalse(MoreTrees.contains(method(unit, "deferred"), log));
  }

  @Test
  void caughtTypesAreTheAlternativesOfAMultiCatchOrTheOneType() throws IOException {
    CompilationUnitTree unit =
        parse(
            """
            class Waits {
              void run(Thread t) {
                try {
                  t.join();
                } catch (InterruptedException | RuntimeException e) {
                  return;
                }
                try {
                  t.join();
                } catch (Exception e) {
                  return;
                }
              }
            }
            """);
    List<CatchTree> catches = new ArrayList<>();
    MoreTrees.anyMatch(unit, node -> node instanceof CatchTree c && !catches.add(c));
    assertEquals(2, catches.size());
    assertEquals(
        List.of("InterruptedException", "RuntimeException"),
        MoreTrees.caughtTypes(catches.get(0)).stream().map(Tree::toString).toList());
    assertEquals(
        List.of("Exception"),
        MoreTrees.caughtTypes(catches.get(1)).stream().map(Tree::toString).toList());
  }

  @Test
  void namesAreDeclaredVariablesAndIdentifiersButNotSelectedMembers() throws IOException {
    Set<String> names = MoreTrees.names(method(parse(SOURCE), "log"));
    assertEquals(Set.of("line", "String", "System"), names);
    Set<String> all = MoreTrees.names(parse(SOURCE));
    assertTrue(all.containsAll(Set.of("executor", "names", "count", "why", "Executor", "List")));
    assertFalse(all.contains("println"));
    assertFalse(all.contains("size"));
  }

  @Test
  void declaredMethodsFindsEveryMethodOfTheFileByItsSymbol() throws IOException {
    JavaFileObject file =
        new SimpleJavaFileObject(URI.create("string:///Worker.java"), JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return SOURCE;
          }
        };
    JavacTask task =
        (JavacTask)
            ToolProvider.getSystemJavaCompiler()
                .getTask(null, null, null, List.of("-proc:none"), null, List.of(file));
    CompilationUnitTree unit = task.parse().iterator().next();
    task.analyze();

    List<String> names = new ArrayList<>();
    MoreTrees.declaredMethods(unit)
        .forEach(
            (symbol, tree) -> {
              assertEquals(symbol.getSimpleName(), tree.getName());
              names.add(symbol.owner.getSimpleName() + "." + symbol.getSimpleName());
            });
    names.sort(null);
    // Worker's constructor and three methods, and the anonymous Thread's run() and the constructor
    // javac adds to it (an anonymous class has no name)
    assertEquals(
        List.of(".<init>", ".run", "Worker.<init>", "Worker.deferred", "Worker.log", "Worker.run"),
        names);
  }

  @Test
  void immediateCodeScannerEntersNeitherLambdasNorClassBodies() throws IOException {
    MethodTree run = method(parse(SOURCE), "run");
    List<String> calls = new ArrayList<>();
    new ImmediateCodeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        calls.add(
            node.getMethodSelect() instanceof MemberSelectTree select
                ? select.getIdentifier().toString()
                : node.getMethodSelect().toString());
        return super.visitMethodInvocation(node, unused);
      }
    }.scan(run, null);
    // deferred(...) runs later, in the lambda and in the anonymous class's run()
    assertEquals(List.of("size", "log", "valueOf", "execute", "start"), calls);
  }
}
