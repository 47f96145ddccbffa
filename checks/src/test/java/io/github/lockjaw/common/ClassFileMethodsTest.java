package io.github.lockjaw.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The class-file reader behind the inherited-template lock: it reads real class files (table and
 * lookup switches, long constants, lambdas), and on a broken file it answers "no evidence" instead
 * of throwing.
 */
class ClassFileMethodsTest {

  /** A class with every awkward shape the reader must step over. */
  abstract static class Framework {
    private long total;
    private final double ratio = 2.5;

    public synchronized void handle(String event, int kind) throws Exception {
      long big = 1L << 40;
      switch (kind) {
        case 1, 2, 3, 4 -> total += big;
        case 1000, -7 -> total--;
        default -> total += (long) ratio;
      }
      switch (event.length()) {
        case 0 -> total = 0;
        case 1 -> total++;
        case 2 -> total += 2;
        default -> total += event.length();
      }
      Runnable later = () -> total++;
      later.run();
      doHandle(event);
    }

    public static synchronized void replay(Framework framework, String event) throws Exception {
      framework.doHandle(event);
    }

    public synchronized void init(String config) throws Exception {
      doHandle(config);
    }

    protected abstract void doHandle(String event) throws Exception;
  }

  private static byte[] classFile(Class<?> type) throws IOException {
    String name = type.getName();
    try (InputStream in =
        type.getResourceAsStream(name.substring(name.lastIndexOf('.') + 1) + ".class")) {
      return in.readAllBytes();
    }
  }

  @Test
  void readsTheMethodsAndTheirVirtualCalls() throws IOException {
    List<ClassFileMethods.MethodInfo> methods =
        ClassFileMethods.read(classFile(Framework.class)).orElseThrow();
    ClassFileMethods.MethodInfo handle =
        methods.stream().filter(m -> m.name().equals("handle")).findFirst().orElseThrow();
    assertEquals("(Ljava/lang/String;I)V", handle.descriptor());
    assertEquals(2, handle.parameterCount());
    assertTrue(handle.is(ClassFileMethods.SYNCHRONIZED));
    // later.run() is an invokeinterface, the lambda's code another method
    assertEquals(
        List.of(
            "java/lang/String.length()I",
            "java/lang/String.length()I",
            "io/github/lockjaw/common/ClassFileMethodsTest$Framework.doHandle(Ljava/lang/String;)V"),
        handle.virtualCalls().stream()
            .map(c -> c.owner() + "." + c.name() + c.descriptor())
            .toList());
    assertTrue(
        methods.stream()
            .anyMatch(m -> m.name().equals("doHandle") && m.is(ClassFileMethods.ABSTRACT)));
  }

  @Test
  void templatesAreSynchronizedInstanceMethodsThatCallAHookAndNoLifecycleStep() throws IOException {
    List<InheritedTemplates.Template> templates =
        InheritedTemplates.callingHooks(
                classFile(Framework.class), Set.of("doHandle(Ljava/lang/String;)V"))
            .orElseThrow();
    // replay is static (another object's hook, under the class monitor), init a lifecycle step
    assertEquals(
        "handle(Ljava/lang/String;I)V -> doHandle(Ljava/lang/String;)V",
        templates.stream()
            .map(t -> t.name() + t.descriptor() + " -> " + t.hook())
            .collect(Collectors.joining(", ")));
  }

  @Test
  void readsTheJdksOwnClassFiles() throws IOException {
    for (Class<?> type : List.of(ConcurrentHashMap.class, String.class, Random.class)) {
      Optional<List<ClassFileMethods.MethodInfo>> methods = ClassFileMethods.read(classFile(type));
      assertTrue(methods.isPresent(), type.getName());
      assertTrue(methods.get().size() > 10, type.getName());
    }
  }

  @Test
  void aBrokenClassFileIsNoEvidenceAndNeverAnException() throws IOException {
    byte[] bytes = classFile(Framework.class);
    Optional<List<ClassFileMethods.MethodInfo>> whole = ClassFileMethods.read(bytes);
    int readable = 0;
    for (int length = 0; length < bytes.length; length++) {
      byte[] truncated = java.util.Arrays.copyOf(bytes, length);
      Optional<List<ClassFileMethods.MethodInfo>> read = ClassFileMethods.read(truncated);
      // the class's own attributes after the methods are not read; before them, nothing partial
      assertTrue(read.isEmpty() || read.equals(whole), "truncated at " + length);
      readable += read.isPresent() ? 1 : 0;
    }
    assertTrue(readable < 200, "a file cut inside its methods was read: " + readable);
    Random random = new Random(12);
    for (int round = 0; round < 2_000; round++) {
      byte[] garbled = bytes.clone();
      for (int flips = 0; flips < 1 + random.nextInt(4); flips++) {
        garbled[8 + random.nextInt(garbled.length - 8)] = (byte) random.nextInt(256);
      }
      ClassFileMethods.read(garbled); // empty or a reading of the bytes, never a throw
    }
    assertEquals(Optional.empty(), ClassFileMethods.read(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
  }
}
