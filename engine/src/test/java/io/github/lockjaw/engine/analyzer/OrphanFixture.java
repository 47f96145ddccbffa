package io.github.lockjaw.engine.analyzer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Processes for {@link ParentWatchTest}: a "Maven" that forks an "analyzer" and prints its pid. */
final class OrphanFixture {
  private OrphanFixture() {}

  static List<String> java(Class<?> main, String... jvmArgs) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmArgs));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    return command;
  }

  /** Stands for Maven: forks the child (watched when args[0] is "watch"), prints its pid, waits. */
  static final class Parent {
    public static void main(String[] args) throws Exception {
      String[] jvmArgs =
          args.length > 0 && args[0].equals("watch")
              ? new String[] {
                "-D" + ParentWatch.PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid()
              }
              : new String[0];
      Process child = new ProcessBuilder(java(Child.class, jvmArgs)).inheritIO().start();
      System.out.println(child.pid());
      System.out.flush();
      Thread.sleep(120_000);
    }
  }

  /** Stands for the analyzer: a long run that watches its parent. */
  static final class Child {
    public static void main(String[] args) throws Exception {
      ParentWatch.start();
      Thread.sleep(120_000);
    }
  }
}
