package io.github.lockjaw.model;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.objectweb.asm.Type;

/**
 * Which supertype declares a method a class implements or overrides: an interface of a listener or
 * a handler, a JDK type ({@code java.sql.Driver#connect}), an abstract class of a library. Code
 * that holds the supertype calls the method through it: a framework, another jar, the JDK, the
 * library's own users. {@code java.lang.Object}'s methods do not count. Supertypes in the analysed
 * code or on its class path are read through the program; JDK types, which the model never reads,
 * through the running JDK's own classes.
 */
public final class Overrides {
  private Overrides() {}

  /**
   * The first supertype (binary name) of the method's class that declares the method and that
   * {@code which} accepts; empty when there is none.
   */
  public static Optional<String> declaringSupertype(
      Program program, MethodRef method, Predicate<String> which) {
    ClassFacts owner = program.classFacts(method.owner());
    if (owner == null
        || method.isConstructor()
        || method.isStaticInitializer()
        || method.isLambdaBody()) {
      return Optional.empty();
    }
    Deque<String> work = new ArrayDeque<>(supertypesOf(owner));
    Set<String> seen = new HashSet<>();
    while (!work.isEmpty()) {
      String type = work.poll();
      if (!seen.add(type) || type.equals("java.lang.Object")) {
        continue;
      }
      ClassFacts facts = program.classFacts(type);
      boolean declares;
      if (facts != null) {
        declares = declares(facts, method);
        work.addAll(supertypesOf(facts));
      } else {
        declares = declaresInJdk(type, method, work);
      }
      if (declares && which.test(type)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  private static boolean declares(ClassFacts facts, MethodRef method) {
    for (MethodFacts declared : facts.methods()) {
      if (declared.ref().name().equals(method.name())
          && declared.ref().descriptor().equals(method.descriptor())
          && !declared.isPrivate()
          && !declared.isStatic()) {
        return true;
      }
    }
    return false;
  }

  private static List<String> supertypesOf(ClassFacts facts) {
    List<String> supertypes = new ArrayList<>(facts.interfaces());
    if (facts.superName() != null) {
      supertypes.add(facts.superName());
    }
    return supertypes;
  }

  /** What the running JDK says of one of its types: its supertypes and its instance methods. */
  private record JdkType(List<String> supertypes, Set<String> methods) {}

  private static final Map<String, Optional<JdkType>> JDK_TYPES = new ConcurrentHashMap<>();

  /**
   * Whether a JDK type declares the method; adds the type's own supertypes to {@code work}. A type
   * the running JDK does not have (a {@code javax} API from a jar) declares nothing lockjaw knows.
   */
  private static boolean declaresInJdk(String type, MethodRef method, Deque<String> work) {
    if (!Program.isPlatform(type)) {
      return false;
    }
    Optional<JdkType> jdkType = JDK_TYPES.computeIfAbsent(type, Overrides::readJdkType);
    if (jdkType.isEmpty()) {
      return false;
    }
    work.addAll(jdkType.get().supertypes());
    return jdkType.get().methods().contains(method.name() + method.descriptor());
  }

  private static Optional<JdkType> readJdkType(String type) {
    try {
      Class<?> jdkType = Class.forName(type, false, ClassLoader.getPlatformClassLoader());
      List<String> supertypes = new ArrayList<>();
      if (jdkType.getSuperclass() != null) {
        supertypes.add(jdkType.getSuperclass().getName());
      }
      for (Class<?> implemented : jdkType.getInterfaces()) {
        supertypes.add(implemented.getName());
      }
      Set<String> methods = new HashSet<>();
      for (Method declared : jdkType.getDeclaredMethods()) {
        if (!Modifier.isPrivate(declared.getModifiers())
            && !Modifier.isStatic(declared.getModifiers())) {
          methods.add(declared.getName() + Type.getMethodDescriptor(declared));
        }
      }
      return Optional.of(new JdkType(List.copyOf(supertypes), Set.copyOf(methods)));
    } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
      return Optional.empty(); // not in this JDK, or a class whose methods name missing classes
    }
  }
}
