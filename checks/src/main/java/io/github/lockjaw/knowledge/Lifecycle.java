package io.github.lockjaw.knowledge;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Which method names mean set-up or tear-down ({@code lifecycle-method} and {@code lifecycle-phase}
 * in {@code entry-points.txt}): plain Java, for the source checks and the bytecode detectors alike.
 */
public final class Lifecycle {
  private static final List<String> METHODS =
      Kind.EntryPoints.LIFECYCLE_METHOD.entries().stream()
          .filter(e -> !e.hasAttribute("no-args"))
          .map(ApiCatalog.Entry::value)
          .toList();
  private static final List<String> NO_ARG_METHODS =
      Kind.EntryPoints.LIFECYCLE_METHOD.entries().stream()
          .filter(e -> e.hasAttribute("no-args"))
          .map(ApiCatalog.Entry::value)
          .toList();
  private static final List<String> SETTER_PREFIXES =
      Kind.EntryPoints.CONFIGURATION_SETTER.values();
  private static final List<String> PHASES =
      Kind.EntryPoints.LIFECYCLE_PHASE.values().stream()
          .map(p -> p.toLowerCase(Locale.ROOT))
          .toList();

  private static final List<String> CONFIGURATION_PREFIXES =
      Kind.EntryPoints.CONFIGURATION_PREFIX.values();

  private Lifecycle() {}

  /**
   * Whether a method of this name registers, configures, refreshes or tears down ({@code
   * configuration-prefix} in {@code entry-points.txt}): {@code registerBeanDefinition}, {@code
   * refreshBeanFactory}, {@code setConfig}, {@code close}.
   */
  public static boolean isConfigurationName(String methodName) {
    return isLifecycleName(methodName) || hasPrefix(methodName, CONFIGURATION_PREFIXES);
  }

  /**
   * Whether {@code name} is one of {@code prefixes}, or starts with one followed by an upper-case
   * letter or a digit ({@code get} matches {@code get} and {@code getBeanFactory}, not {@code
   * getaway}).
   */
  public static boolean hasPrefix(String name, List<String> prefixes) {
    for (String prefix : prefixes) {
      if (name.equals(prefix)
          || (name.startsWith(prefix)
              && name.length() > prefix.length()
              && !Character.isLowerCase(name.charAt(prefix.length())))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a method of this name runs once in an object's life rather than per request. */
  public static boolean isLifecycleName(String methodName) {
    if (METHODS.contains(methodName)) {
      return true;
    }
    String lower = methodName.toLowerCase(Locale.ROOT);
    return PHASES.stream()
        .anyMatch(phase -> lower.endsWith(phase) || lower.startsWith(phase + "internal"));
  }

  /**
   * Whether a method runs once in an object's life or when it is configured, not per request: a
   * lifecycle name, a parameterless tear-down such as {@code close()}, or a one-parameter {@code
   * void} property setter ({@code setMaxActive(int)}).
   */
  public static boolean isLifecycleOrConfiguration(
      String methodName, int parameterCount, boolean returnsVoid) {
    if (isLifecycleName(methodName)) {
      return true;
    }
    if (parameterCount == 0 && NO_ARG_METHODS.contains(methodName)) {
      return true;
    }
    if (parameterCount != 1 || !returnsVoid) {
      return false;
    }
    for (String prefix : SETTER_PREFIXES) {
      if (methodName.length() > prefix.length()
          && methodName.startsWith(prefix)
          && Character.isUpperCase(methodName.charAt(prefix.length()))) {
        return true;
      }
    }
    return false;
  }

  /** The simple names of the set-up and tear-down annotations ({@code PostConstruct}, ...). */
  public static List<String> annotationSimpleNames() {
    return Stream.concat(
            Kind.EntryPoints.SET_UP_ANNOTATION.values().stream(),
            Kind.EntryPoints.TEAR_DOWN_ANNOTATION.values().stream())
        .map(name -> name.substring(name.lastIndexOf('.') + 1))
        .distinct()
        .toList();
  }
}
