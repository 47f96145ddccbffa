package io.github.lockjaw.lsp.launcher;

import java.lang.reflect.InvocationTargetException;

/**
 * The entry point of {@code java -jar lockjaw-language-server.jar}: on a Java older than 21 it says
 * so in one line and exits with status 2, instead of the JVM's class-version error; on 21 or newer
 * it runs {@code io.github.lockjaw.lsp.LockjawLanguageServerLauncher}. Built for Java 8, so that
 * any JVM an editor may pick can print why it cannot run the server.
 */
public final class JavaVersionCheck {
  static final int REQUIRED = 21;

  private JavaVersionCheck() {}

  public static void main(String[] args) throws Throwable {
    String version = System.getProperty("java.specification.version", "0");
    if (feature(version) < REQUIRED) {
      System.err.println(
          "lockjaw-language-server needs Java "
              + REQUIRED
              + " or newer, but was started with Java "
              + version
              + " ("
              + System.getProperty("java.home")
              + "): point your editor at a JDK "
              + REQUIRED
              + "+ (VS Code: the lockjaw.java setting; see docs/ide.md); the code you edit may target any"
              + " release.");
      System.exit(2);
    }
    try {
      Class.forName("io.github.lockjaw.lsp.LockjawLanguageServerLauncher")
          .getMethod("main", String[].class)
          .invoke(null, (Object) args);
    } catch (InvocationTargetException e) {
      throw e.getCause() == null ? e : e.getCause();
    }
  }

  /** 8 for "1.8", 21 for "21", 0 when unreadable. */
  static int feature(String version) {
    String v = version.startsWith("1.") ? version.substring(2) : version;
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
  }
}
