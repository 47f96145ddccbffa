package io.github.lockjaw.cli.launcher;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The entry point of {@code java -jar lockjaw-cli.jar}: checks the Java version, unpacks the
 * bundled libraries ({@code lib/*.jar}) once into a cache directory, and runs {@code
 * io.github.lockjaw.cli.Main} on a class loader over them. Built for Java 8, so that any JVM can
 * print why it cannot run lockjaw. Exits with Main's exit code.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    String version = System.getProperty("java.specification.version", "0");
    int feature = feature(version);
    if (feature < 21) {
      System.err.println(
          "lockjaw needs Java 21 or newer, but this is Java "
              + version
              + " ("
              + System.getProperty("java.home")
              + "). Run it with a Java 21+ runtime, for example"
              + " /usr/lib/jvm/temurin-21-jdk/bin/java -jar lockjaw-cli.jar ...; the application you analyse may run"
              + " on any Java version.");
      System.exit(4);
    }
    try {
      ClassLoader loader = loader();
      Thread.currentThread().setContextClassLoader(loader);
      Class<?> main = Class.forName("io.github.lockjaw.cli.Main", true, loader);
      Object code = main.getMethod("run", String[].class).invoke(null, (Object) args);
      System.exit((Integer) code);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      System.err.println(
          "lockjaw failed unexpectedly: " + cause + ". Please report this, with the command line.");
      System.exit(4);
    } catch (IOException | ReflectiveOperationException | RuntimeException e) {
      System.err.println(
          "lockjaw cannot start: "
              + e
              + ". Check that the jar is complete and that the temporary"
              + " directory ("
              + System.getProperty("java.io.tmpdir")
              + ") is writable, or set -Djava.io.tmpdir=DIR.");
      System.exit(4);
    }
  }

  static int feature(String version) {
    String v = version.startsWith("1.") ? version.substring(2) : version;
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
  }

  private static ClassLoader loader() throws IOException, ReflectiveOperationException {
    File self;
    try {
      self = new File(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    if (!self.isFile()) {
      return Launcher.class
          .getClassLoader(); // run from a class directory: the class path has it all
    }
    List<URL> urls = new ArrayList<URL>();
    urls.add(self.toURI().toURL());
    File cache =
        new File(
            System.getProperty("java.io.tmpdir"),
            "lockjaw-cli-"
                + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_")
                + "-"
                + Long.toHexString(self.length() ^ self.lastModified() * 31));
    if (!cache.isDirectory() && !cache.mkdirs() && !cache.isDirectory()) {
      throw new IOException("cannot create " + cache);
    }
    JarFile jar = new JarFile(self);
    try {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        String name = entry.getName();
        if (!name.startsWith("lib/") || !name.endsWith(".jar") || name.indexOf('/', 4) >= 0) {
          continue;
        }
        File target = new File(cache, name.substring(4));
        if (!target.isFile() || target.length() != entry.getSize()) {
          File partial = File.createTempFile(target.getName(), ".part", cache);
          InputStream in = jar.getInputStream(entry);
          try {
            OutputStream out = new FileOutputStream(partial);
            try {
              byte[] buffer = new byte[1 << 16];
              int n;
              while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
              }
            } finally {
              out.close();
            }
          } finally {
            in.close();
          }
          if (!partial.renameTo(target)
              && !(target.isFile() && target.length() == entry.getSize())) {
            throw new IOException("cannot write " + target);
          }
          partial.delete();
        }
        urls.add(target.toURI().toURL());
      }
    } finally {
      jar.close();
    }
    ClassLoader parent =
        (ClassLoader) ClassLoader.class.getMethod("getPlatformClassLoader").invoke(null);
    return new JavacSharing(urls.toArray(new URL[0]), parent);
  }

  /**
   * The bundled libraries' loader. Its parent is the platform loader (the jar's own classes must
   * come from the bundled copies), but javac's classes (module jdk.compiler, which the application
   * loader defines) come from the application loader: the source check runs javac with Error Prone
   * in this JVM, and the manifest's Add-Exports opens javac's packages to it.
   */
  static final class JavacSharing extends URLClassLoader {
    private final ClassLoader javac = ClassLoader.getSystemClassLoader();

    JavacSharing(URL[] urls, ClassLoader parent) {
      super(urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("com.sun.tools.javac.") || name.startsWith("com.sun.source.")) {
        return javac.loadClass(name);
      }
      return super.loadClass(name, resolve);
    }
  }
}
