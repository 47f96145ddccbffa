package io.github.lockjaw.bytecode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One anti-pattern found in a dependency's bytecode.
 *
 * @param check the name of the lockjaw check for the same anti-pattern in source, e.g. {@code
 *     SharedMonitorDao}
 * @param jar the jar (or class directory) the class was read from; null if lockjaw cannot tell
 * @param className the binary class name, e.g. {@code
 *     org.apache.commons.pool.impl.GenericObjectPool}
 * @param methodName the method name, e.g. {@code borrowObject} ({@code <init>} for constructors)
 * @param methodDescriptor the JVM method descriptor, e.g. {@code ()Ljava/lang/Object;}
 * @param line the source line, or -1 when the class file has no line numbers
 * @param message what is wrong and why it hurts under load
 * @param advice what the user can do: the release or replacement that fixed it when lockjaw knows
 *     one (knowledge/known-fixes.txt), else how to upgrade, replace or configure around it
 * @param library the library the class belongs to, {@code groupId:artifactId version} when lockjaw
 *     can tell (for a shaded jar, the bundled artifact whose packages hold the class), else the
 *     jar's file name
 */
public record AuditFinding(
    String check,
    Path jar,
    String className,
    String methodName,
    String methodDescriptor,
    int line,
    String message,
    String advice,
    String library) {

  /** {@code GenericObjectPool.borrowObject()} or {@code ClassInfo.getInstance(Class)}. */
  public String readableMethod() {
    String simpleClass = className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
    String name = methodName.equals("<init>") ? simpleClass : methodName;
    return simpleClass + "." + name + "(" + String.join(", ", parameterNames()) + ")";
  }

  private List<String> parameterNames() {
    List<String> names = new ArrayList<>();
    int close = methodDescriptor.indexOf(')');
    if (!methodDescriptor.startsWith("(") || close < 0) {
      return names;
    }
    String params = methodDescriptor.substring(1, close);
    int i = 0;
    while (i < params.length()) {
      int dims = 0;
      while (params.charAt(i) == '[') {
        dims++;
        i++;
      }
      String type;
      char c = params.charAt(i);
      if (c == 'L') {
        int end = params.indexOf(';', i);
        String internal = params.substring(i + 1, end);
        type = internal.substring(internal.lastIndexOf('/') + 1).replace('$', '.');
        i = end + 1;
      } else {
        type =
            switch (c) {
              case 'Z' -> "boolean";
              case 'B' -> "byte";
              case 'C' -> "char";
              case 'S' -> "short";
              case 'I' -> "int";
              case 'J' -> "long";
              case 'F' -> "float";
              case 'D' -> "double";
              default -> String.valueOf(c);
            };
        i++;
      }
      names.add(type + "[]".repeat(dims));
    }
    return names;
  }

  /** One line for a console: {@code jar: Class.method(..) line N: [check] message advice}. */
  @Override
  public String toString() {
    return (jar == null ? "" : jar.getFileName() + ": ")
        + readableMethod()
        + (line > 0 ? " line " + line : "")
        + ": ["
        + check
        + "] "
        + message
        + " "
        + advice;
  }
}
