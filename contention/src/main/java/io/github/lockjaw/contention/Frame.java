package io.github.lockjaw.contention;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One stack frame as a JFR recording or a thread dump gives it.
 *
 * @param className the binary class name, e.g. {@code com.acme.Cache$Entry}
 * @param methodName the method name as compiled, e.g. {@code lambda$get$0}
 * @param descriptor the JVM descriptor, e.g. {@code (Ljava/lang/String;)V}; empty when unknown
 *     (dumps)
 * @param line the source line, or -1 when unknown
 * @param fileName the source file name, e.g. {@code Cache.java}; empty when unknown (JFR)
 */
public record Frame(
    String className, String methodName, String descriptor, int line, String fileName) {
  private static final Pattern LAMBDA = Pattern.compile("lambda\\$(.+)\\$\\d+");

  public Frame {
    descriptor = descriptor == null ? "" : descriptor;
    fileName = fileName == null ? "" : fileName;
  }

  /**
   * Parses one stack element as thread dumps print it: {@code com.acme.Cache.get(Cache.java:42)},
   * with a module or class loader before a {@code /} ({@code java.base@17/java.lang.Thread.run(
   * Thread.java:840)}, {@code app//com.acme.Cache.get(...)}), a location of {@code (Native Method)}
   * or {@code (Unknown Source)}, or OpenJ9's {@code com/acme/Cache.get(Cache.java:42( Compiled
   * Code))}. Returns null when the text is not a stack element.
   */
  public static Frame parse(String element) {
    String text = element.strip();
    if (text.startsWith("at ")) {
      text = text.substring(3).strip();
    }
    int open = text.indexOf('(');
    if (open <= 0 || !text.endsWith(")")) {
      return null;
    }
    String qualified = text.substring(0, open);
    int slash = qualified.lastIndexOf('/');
    int firstDot = qualified.indexOf('.');
    if (slash >= 0 && firstDot >= 0 && firstDot < slash) {
      qualified = qualified.substring(slash + 1); // java.base@17/java.lang.Thread.run
    } else if (qualified.contains("//")) {
      qualified = qualified.substring(qualified.lastIndexOf("//") + 2); // app//com.acme.X.m
    } else if (slash >= 0) {
      qualified = qualified.replace('/', '.'); // OpenJ9: com/acme/Cache.get
    }
    int dot = qualified.lastIndexOf('.');
    if (dot <= 0 || dot == qualified.length() - 1) {
      return null;
    }
    for (int i = 0; i < qualified.length(); i++) {
      if (Character.isWhitespace(qualified.charAt(i))) {
        return null;
      }
    }
    String location = text.substring(open + 1, text.length() - 1);
    location = location.substring(location.lastIndexOf('/') + 1); // java.base@17/Thread.java:840
    String file = "";
    int line = -1;
    int java = location.indexOf(".java");
    if (java > 0) {
      file = location.substring(0, java + 5);
      int digits = java + 5;
      if (digits < location.length() && location.charAt(digits) == ':') {
        int end = digits + 1;
        while (end < location.length() && Character.isDigit(location.charAt(end))) {
          end++;
        }
        if (end > digits + 1 && end - digits <= 10) {
          line = Integer.parseInt(location.substring(digits + 1, end));
        }
      }
    }
    return new Frame(qualified.substring(0, dot), qualified.substring(dot + 1), "", line, file);
  }

  /** {@code com.acme.Cache.get}: the class and method, without the line. */
  public String method() {
    return className + "." + methodName;
  }

  /**
   * The method as written in source: {@code get} for {@code lambda$get$0} (a lambda's body is part
   * of the method that declares it); the name itself otherwise.
   */
  public String sourceMethodName() {
    Matcher lambda = LAMBDA.matcher(methodName);
    if (lambda.matches()) {
      String enclosing = lambda.group(1);
      return enclosing.equals("static")
          ? "<clinit>"
          : enclosing.equals("new") ? "<init>" : enclosing;
    }
    return methodName;
  }

  /**
   * The top-level class that holds this frame's code: {@code com.acme.Cache} for {@code
   * com.acme.Cache$Entry}.
   */
  public String topLevelClassName() {
    int dollar = className.indexOf('$', className.lastIndexOf('.') + 1);
    return dollar < 0 ? className : className.substring(0, dollar);
  }

  /** The package, empty for the default package. */
  public String packageName() {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? "" : className.substring(0, dot);
  }

  /** {@code Cache.get(Cache.java:42)}, the way a stack trace names a frame, short. */
  public String display() {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    String file =
        fileName.isEmpty()
            ? topLevelClassName().substring(topLevelClassName().lastIndexOf('.') + 1) + ".java"
            : fileName;
    return simple + "." + methodName + "(" + file + (line > 0 ? ":" + line : "") + ")";
  }

  /** {@code com.acme.Cache.get:42}. */
  public String qualified() {
    return className + "." + methodName + (line > 0 ? ":" + line : "");
  }
}
