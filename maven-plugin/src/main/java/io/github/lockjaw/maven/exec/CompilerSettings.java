package io.github.lockjaw.maven.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * The javac options the analysis needs to compile the module the way its build does: what
 * maven-compiler-plugin's effective configuration passes ({@code --release} only when the project
 * sets {@code release}, else {@code -source}/{@code -target}, each from the plugin's configuration
 * or the {@code maven.compiler.*} properties), and the compiler arguments that change what compiles
 * ({@code --enable-preview}, {@code --add-exports}, ...). {@code lockjaw.release} replaces them
 * with {@code --release}.
 *
 * @param javacOptions e.g. {@code --release 17 --enable-preview}
 * @param notes what the user should know about the choice (e.g. Java 6 code analysed as 8)
 * @param origin where the release options come from, e.g. {@code the compiler plugin's
 *     source/target}, or empty when none are passed
 */
public record CompilerSettings(List<String> javacOptions, List<String> notes, String origin) {
  private static final String COMPILER = "org.apache.maven.plugins:maven-compiler-plugin";

  /** Compiler arguments passed through with their value (next argument, or after '='). */
  private static final Set<String> WITH_VALUE =
      Set.of("--add-exports", "--add-reads", "--add-modules", "--limit-modules");

  /** What the compiler plugin is configured with, as far as the analysis cares. */
  record Configured(
      String release,
      String source,
      String target,
      boolean enablePreview,
      List<String> compilerArgs) {}

  /** Reads the module's compiler configuration and properties, then {@link #resolve}s. */
  public static CompilerSettings of(
      MavenProject project, MavenSession session, String lockjawRelease, int analyzerJdk)
      throws MojoFailureException {
    Plugin compiler = project.getPlugin(COMPILER);
    List<Xpp3Dom> configs = new ArrayList<>(); // most specific first
    if (compiler != null) {
      PluginExecution execution = compiler.getExecutionsAsMap().get("default-compile");
      if (execution != null && execution.getConfiguration() instanceof Xpp3Dom dom) {
        configs.add(dom);
      }
      if (compiler.getConfiguration() instanceof Xpp3Dom dom) {
        configs.add(dom);
      }
    }
    Function<String, String> property =
        name -> {
          String value = session == null ? null : session.getUserProperties().getProperty(name);
          if (value == null) {
            value = project.getProperties().getProperty(name);
          }
          return usable(value);
        };
    String release = first(child(configs, "release"), property.apply("maven.compiler.release"));
    String source =
        first(
            child(configs, "source"),
            property.apply("maven.compiler.source"),
            property.apply("maven.compile.source"));
    String target =
        first(
            child(configs, "target"),
            property.apply("maven.compiler.target"),
            property.apply("maven.compile.target"));
    boolean preview =
        "true"
            .equalsIgnoreCase(
                first(
                    child(configs, "enablePreview"),
                    property.apply("maven.compiler.enablePreview")));
    List<String> args = new ArrayList<>();
    for (Xpp3Dom config : configs) {
      Xpp3Dom list = config.getChild("compilerArgs");
      if (list != null && args.isEmpty()) {
        for (Xpp3Dom arg : list.getChildren()) {
          if (usable(arg.getValue()) != null) {
            args.add(arg.getValue().trim());
          }
        }
      }
    }
    String single = child(configs, "compilerArgument");
    if (single != null) {
      args.addAll(List.of(single.trim().split("\\s+")));
    }
    return resolve(
        new Configured(release, source, target, preview, args), lockjawRelease, analyzerJdk);
  }

  /** The options for a configuration, or a failure that says what to set. */
  static CompilerSettings resolve(Configured configured, String lockjawRelease, int analyzerJdk)
      throws MojoFailureException {
    List<String> options = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<String> passed = passThrough(configured.compilerArgs());
    boolean preview = configured.enablePreview() || passed.contains("--enable-preview");

    String origin;
    String level;
    String targetLevel = null;
    boolean explicitRelease;
    if (usable(lockjawRelease) != null) {
      origin = "lockjaw.release";
      level = lockjawRelease.trim();
      explicitRelease = true;
    } else if (configured.release() != null) {
      origin = "the compiler plugin's release";
      level = configured.release();
      explicitRelease = true;
    } else if (configured.source() != null || configured.target() != null) {
      origin = "the compiler plugin's source/target";
      level = configured.source() != null ? configured.source() : configured.target();
      targetLevel = configured.target();
      explicitRelease = false;
    } else {
      origin = null;
      level = null;
      explicitRelease = false;
    }
    if (level != null) {
      int feature = parse(level);
      String fix =
          "lockjaw.release".equals(origin)
              ? " Set lockjaw.release to a release from 8 to "
                  + analyzerJdk
                  + ", or leave it unset to analyse at the"
                  + " compiler plugin's release."
              : " Set lockjaw.release to the release your sources are written for.";
      if (feature < 0) {
        throw new MojoFailureException(
            "lockjaw cannot use "
                + origin
                + " '"
                + level
                + "': a Java release is a number such as 8, 11, 17 or 21."
                + fix);
      }
      if (feature > analyzerJdk) {
        throw new MojoFailureException(
            "lockjaw cannot analyse at Java release "
                + feature
                + " ("
                + origin
                + "): the analysis runs on JDK "
                + analyzerJdk
                + ", whose javac compiles for releases 8 to "
                + analyzerJdk
                + "."
                + fix
                + " To analyse newer code, run Maven on a newer JDK or point lockjaw.javaHome at one.");
      }
      if (feature < 8) {
        notes.add(
            "lockjaw: "
                + origin
                + " is "
                + level
                + "; JDK "
                + analyzerJdk
                + "'s javac compiles nothing older than 8,"
                + " so lockjaw analyses these sources as Java 8 ("
                + (explicitRelease ? "--release 8" : "-source 8")
                + ").");
        feature = 8;
      }
      if (explicitRelease) {
        // the project (or lockjaw.release) asks for --release: the code is checked against that
        // release's class library, as the compiler plugin does
        options.addAll(List.of("--release", String.valueOf(feature)));
      } else {
        // -source/-target only, exactly as the compiler plugin passes them: they do not restrict
        // the class library, so code that uses a newer API (behind a runtime check, by
        // reflection) compiles here as it does in mvn compile
        int targetFeature = targetLevel == null ? -1 : parse(targetLevel);
        targetFeature = targetFeature < 0 ? feature : Math.max(8, targetFeature);
        options.addAll(
            List.of("-source", String.valueOf(feature), "-target", String.valueOf(targetFeature)));
      }
      if (preview && feature != analyzerJdk) {
        throw new MojoFailureException(
            "lockjaw cannot analyse with --enable-preview at Java release "
                + feature
                + ": preview features need the"
                + " release of the JDK that compiles, and the analysis runs on JDK "
                + analyzerJdk
                + ". Run Maven"
                + " (or lockjaw.javaHome) on JDK "
                + feature
                + ".");
      }
    } else if (preview) {
      options.addAll(List.of("--release", String.valueOf(analyzerJdk)));
    }
    if (preview && !passed.contains("--enable-preview")) {
      options.add("--enable-preview");
    }
    options.addAll(passed);
    return new CompilerSettings(
        List.copyOf(options), List.copyOf(notes), origin == null ? "" : origin);
  }

  /**
   * The compiler arguments that decide what compiles; others (lint, -Werror, plugins) are left out.
   */
  static List<String> passThrough(List<String> args) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = arg.split("=", 2)[0];
      if (arg.equals("--enable-preview")) {
        kept.add(arg);
      } else if (WITH_VALUE.contains(name)) {
        if (arg.contains("=")) {
          kept.add(arg);
        } else if (i + 1 < args.size()) {
          kept.add(arg);
          kept.add(args.get(++i));
        }
      }
    }
    return kept;
  }

  /** {@code 17} for "17", {@code 8} for "1.8", -1 for what is no Java release. */
  static int parse(String level) {
    String trimmed = level.trim();
    String major = trimmed.startsWith("1.") ? trimmed.substring(2) : trimmed;
    try {
      int value = Integer.parseInt(major);
      return value >= 1 ? value : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String child(List<Xpp3Dom> configs, String name) {
    for (Xpp3Dom config : configs) {
      Xpp3Dom child = config.getChild(name);
      if (child != null && usable(child.getValue()) != null) {
        return child.getValue().trim();
      }
    }
    return null;
  }

  private static String first(String... values) {
    for (String value : values) {
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /**
   * A configured value, or null for none (blank, or a property reference Maven could not resolve).
   */
  private static String usable(String value) {
    return value == null || value.isBlank() || value.contains("${") ? null : value.trim();
  }
}
