package io.github.lockjaw.knowledge;

/**
 * Type names as the knowledge files, javac and the JVM spell them: a knowledge file may write a
 * nested type either way ({@code java.lang.System.Logger} or {@code okhttp3.Request$Builder});
 * javac's binary name is {@code java.lang.System$Logger}, the JVM's internal name {@code
 * java/lang/System$Logger}.
 */
public final class JavaNames {

  private JavaNames() {}

  /**
   * The binary name of a type named in a knowledge file: {@code java.lang.System.Logger} becomes
   * {@code java.lang.System$Logger}, {@code okhttp3.Request$Builder} stays nested. Package segments
   * are the lower-case ones before the first capitalised segment.
   */
  public static String binaryName(String javaName) {
    return internalName(javaName).replace('/', '.');
  }

  /** The JVM's internal name of a type named in a knowledge file: {@code java/util/Map$Entry}. */
  public static String internalName(String javaName) {
    String[] parts = javaName.split("\\.");
    StringBuilder name = new StringBuilder();
    boolean inType = false;
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        name.append(inType ? '$' : '/');
      }
      name.append(parts[i]);
      if (!parts[i].isEmpty() && Character.isUpperCase(parts[i].charAt(0))) {
        inType = true;
      }
    }
    return name.toString();
  }

  /** {@code java/util/Map$Entry} → {@code Map.Entry}. */
  public static String simpleName(String internalName) {
    String name = internalName.substring(internalName.lastIndexOf('/') + 1);
    return name.replace('$', '.');
  }

  /** {@code java/util/Map$Entry} → {@code java.util.Map$Entry} (a binary name, for reports). */
  public static String binaryNameOfInternal(String internalName) {
    return internalName.replace('/', '.');
  }

  /** Words written with '-' for blanks in an attribute value. */
  public static String words(String value) {
    return value.replace('-', ' ');
  }
}
