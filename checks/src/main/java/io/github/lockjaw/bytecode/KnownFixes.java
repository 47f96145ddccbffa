package io.github.lockjaw.bytecode;

import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code knowledge/known-fixes.txt}: which library releases are known to carry an anti-pattern, and
 * the release or the replacement that fixed it. Plain Java.
 */
public final class KnownFixes {

  /** One {@code known-fix} line. */
  public record KnownFix(
      String coordinates,
      String versions,
      List<String> packages,
      List<String> classes,
      String upgrade,
      List<String> replacements,
      List<String> checks,
      String why,
      String checkedUpTo,
      String workaround) {

    /** Whether a class (binary name) belongs to the affected packages (and classes, if listed). */
    public boolean covers(String className) {
      if (!classes.isEmpty()) {
        String outer =
            className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        if (!classes.contains(outer)) {
          return false;
        }
      }
      for (String pkg : packages) {
        if (className.startsWith(pkg + ".")) {
          return true;
        }
      }
      return false;
    }

    /** Whether the advice answers the given check. */
    public boolean answers(String check) {
      return checks.isEmpty() || checks.contains(check);
    }

    /** Whether the jar is this fix's artifact (by coordinates, or by artifactId alone). */
    public boolean isArtifact(JarIdentity jar) {
      if (jar.coordinates().equals(coordinates)) {
        return true;
      }
      return jar.groupId().isEmpty()
          && !jar.artifactId().isEmpty()
          && coordinates.endsWith(":" + jar.artifactId());
    }

    /** The advice sentence for a finding in {@code jar}. */
    public String advice(JarIdentity jar) {
      String library =
          isArtifact(jar) && !jar.version().isEmpty()
              ? coordinates + " " + jar.version()
              : coordinates;
      StringBuilder advice = new StringBuilder();
      if (upgrade.isEmpty() && replacements.isEmpty()) {
        advice
            .append("Known problem of ")
            .append(library)
            .append(", and no release fixes it (checked up to ")
            .append(checkedUpTo.isEmpty() ? "the latest" : checkedUpTo)
            .append(")");
        if (!why.isEmpty()) {
          advice.append(": ").append(why);
        }
        if (!workaround.isEmpty()) {
          advice.append(". Workaround: ").append(workaround);
        }
        return advice.append('.').toString();
      }
      if (!upgrade.isEmpty()) {
        advice
            .append("Known problem, fixed upstream: upgrade ")
            .append(library)
            .append(" to ")
            .append(upgrade)
            .append(" or later");
      } else {
        advice
            .append("Known problem of ")
            .append(library)
            .append(" (all releases ")
            .append(versions)
            .append("), fixed by its successor: replace it with ");
        List<String> names = new ArrayList<>();
        for (String replacement : replacements) {
          String[] parts = replacement.split(":");
          names.add(
              parts.length >= 3 ? parts[0] + ":" + parts[1] + " " + parts[2] + "+" : replacement);
        }
        advice.append(String.join(" or ", names));
      }
      if (!why.isEmpty()) {
        advice.append(" (").append(why).append(")");
      }
      if (!workaround.isEmpty()) {
        advice.append(". Until then: ").append(workaround);
      }
      return advice.append('.').toString();
    }
  }

  private static final List<KnownFix> FIXES = load();

  private KnownFixes() {}

  public static List<KnownFix> all() {
    return FIXES;
  }

  /**
   * The known fix for a finding of {@code check} in class {@code className} (binary name) of {@code
   * jar}. A fix with {@code upgrade=} (a later release of the same artifact) applies only when the
   * jar is that artifact in an affected version; a replacement applies to every class of the
   * affected packages, also when a jar has no Maven metadata or shades the library.
   */
  public static Optional<KnownFix> find(JarIdentity jar, String className, String check) {
    for (KnownFix fix : FIXES) {
      if (!fix.covers(className) || !fix.answers(check)) {
        continue;
      }
      boolean sameArtifact = fix.isArtifact(jar);
      if (sameArtifact && !jar.version().isEmpty()) {
        if (VersionRange.parse(fix.versions()).contains(jar.version())) {
          return Optional.of(fix);
        }
        continue;
      }
      if (fix.upgrade().isEmpty()) {
        return Optional.of(fix);
      }
    }
    return Optional.empty();
  }

  private static List<KnownFix> load() {
    List<KnownFix> fixes = new ArrayList<>();
    for (ApiCatalog.Entry entry : Kind.KnownFixes.KNOWN_FIX.entries()) {
      String versions = "";
      String upgrade = "";
      String why = "";
      String checked = "";
      String workaround = "";
      List<String> packages = new ArrayList<>();
      List<String> classes = new ArrayList<>();
      List<String> replacements = new ArrayList<>();
      List<String> checks = new ArrayList<>();
      for (String attribute : entry.attributes()) {
        int eq = attribute.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String key = attribute.substring(0, eq);
        String value = attribute.substring(eq + 1);
        switch (key) {
          case "versions" -> versions = value;
          case "package" -> packages.add(value);
          case "class" -> classes.add(value);
          case "upgrade" -> upgrade = value;
          case "replace" -> replacements.add(value);
          case "checks" -> checks.addAll(Arrays.asList(value.split(",")));
          case "why" -> why = JavaNames.words(value);
          case "checked" -> checked = value;
          case "workaround" -> workaround = JavaNames.words(value);
          default -> {
            // unknown attributes are ignored, so the file can grow
          }
        }
      }
      fixes.add(
          new KnownFix(
              entry.value(),
              versions,
              List.copyOf(packages),
              List.copyOf(classes),
              upgrade,
              List.copyOf(replacements),
              List.copyOf(checks),
              why,
              checked,
              workaround));
    }
    return List.copyOf(fixes);
  }

  /** A Maven version range such as {@code [1.0,2.0)} or {@code (,2.5.2)}; empty means all. */
  record VersionRange(String low, boolean lowInclusive, String high, boolean highInclusive) {
    static VersionRange parse(String range) {
      String r = range.trim();
      if (r.isEmpty()) {
        return new VersionRange("", true, "", true);
      }
      if (!(r.startsWith("[") || r.startsWith("(")) || !(r.endsWith("]") || r.endsWith(")"))) {
        return new VersionRange(r, true, r, true); // a single version
      }
      String inner = r.substring(1, r.length() - 1);
      int comma = inner.indexOf(',');
      if (comma < 0) {
        return new VersionRange(inner.trim(), true, inner.trim(), true);
      }
      return new VersionRange(
          inner.substring(0, comma).trim(),
          r.startsWith("["),
          inner.substring(comma + 1).trim(),
          r.endsWith("]"));
    }

    boolean contains(String version) {
      if (!low.isEmpty()) {
        int c = compareVersions(version, low);
        if (c < 0 || (c == 0 && !lowInclusive)) {
          return false;
        }
      }
      if (!high.isEmpty()) {
        int c = compareVersions(version, high);
        return c < 0 || (c == 0 && highInclusive);
      }
      return true;
    }
  }

  private static final List<String> PRE_RELEASE =
      List.of("alpha", "a", "beta", "b", "milestone", "m", "rc", "cr", "pre", "snapshot", "ea");

  /** Compares numeric segments; a pre-release qualifier sorts before the release. */
  static int compareVersions(String left, String right) {
    List<Long> a = numbers(left);
    List<Long> b = numbers(right);
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      long x = i < a.size() ? a.get(i) : 0;
      long y = i < b.size() ? b.get(i) : 0;
      if (x != y) {
        return Long.compare(x, y);
      }
    }
    return Boolean.compare(!isPreRelease(left), !isPreRelease(right));
  }

  private static List<Long> numbers(String version) {
    List<Long> numbers = new ArrayList<>();
    for (String part : version.split("[.\\-_]")) {
      if (part.isEmpty() || !part.chars().allMatch(Character::isDigit) || part.length() > 18) {
        break;
      }
      numbers.add(Long.parseLong(part));
    }
    return numbers;
  }

  private static boolean isPreRelease(String version) {
    for (String part : version.toLowerCase(Locale.ROOT).split("[.\\-_]")) {
      String letters = part.replaceAll("[0-9]+$", "");
      if (!letters.isEmpty() && PRE_RELEASE.contains(letters)) {
        return true;
      }
    }
    return false;
  }
}
