package io.github.lockjaw.model;

import java.util.ArrayList;
import java.util.List;

/** JVM descriptors, read into binary names: {@code (ILjava/util/Map;)V}. */
public final class Descriptors {
  private Descriptors() {}

  /** The parameter types of a method descriptor, as binary names. */
  public static List<String> parameterTypes(String descriptor) {
    List<String> types = new ArrayList<>();
    if (descriptor.isEmpty() || descriptor.charAt(0) != '(') {
      return types;
    }
    int i = 1;
    while (i < descriptor.length() && descriptor.charAt(i) != ')') {
      int end = endOfType(descriptor, i);
      types.add(toBinaryName(descriptor.substring(i, end)));
      i = end;
    }
    return types;
  }

  /** The return type of a method descriptor, as a binary name ({@code void} for V). */
  public static String returnType(String descriptor) {
    int close = descriptor.indexOf(')');
    return close < 0 ? "" : toBinaryName(descriptor.substring(close + 1));
  }

  /** One field descriptor as a binary name: {@code Ljava/util/Map;} is {@code java.util.Map}. */
  public static String toBinaryName(String descriptor) {
    if (descriptor.isEmpty()) {
      return "";
    }
    return switch (descriptor.charAt(0)) {
      case 'V' -> "void";
      case 'Z' -> "boolean";
      case 'B' -> "byte";
      case 'C' -> "char";
      case 'S' -> "short";
      case 'I' -> "int";
      case 'J' -> "long";
      case 'F' -> "float";
      case 'D' -> "double";
      case '[' -> toBinaryName(descriptor.substring(1)) + "[]";
      case 'L' -> descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
      default -> descriptor;
    };
  }

  /** The descriptor of a binary type name: {@code java.util.Map} is {@code Ljava/util/Map;}. */
  public static String ofBinaryName(String name) {
    if (name.endsWith("[]")) {
      return "[" + ofBinaryName(name.substring(0, name.length() - 2));
    }
    return switch (name) {
      case "void" -> "V";
      case "boolean" -> "Z";
      case "byte" -> "B";
      case "char" -> "C";
      case "short" -> "S";
      case "int" -> "I";
      case "long" -> "J";
      case "float" -> "F";
      case "double" -> "D";
      default -> "L" + name.replace('.', '/') + ";";
    };
  }

  private static int endOfType(String descriptor, int start) {
    int i = start;
    while (descriptor.charAt(i) == '[') {
      i++;
    }
    if (descriptor.charAt(i) == 'L') {
      return descriptor.indexOf(';', i) + 1;
    }
    return i + 1;
  }
}
