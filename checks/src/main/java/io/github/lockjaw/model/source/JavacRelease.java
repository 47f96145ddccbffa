package io.github.lockjaw.model.source;

import com.sun.tools.javac.code.Source;
import com.sun.tools.javac.util.Context;
import com.sun.tools.javac.util.Options;
import java.util.List;

/**
 * The Java release a javac compilation targets: {@code --release}, else {@code -target}, else
 * {@code -source}, else the compiler's own default source level.
 */
final class JavacRelease {
  private JavacRelease() {}

  static int of(Context context) {
    Options options = Options.instance(context);
    for (String option : List.of("--release", "-target", "--target", "-source", "--source")) {
      int release = parse(options.get(option));
      if (release > 0) {
        return release;
      }
    }
    return parse(Source.instance(context).name);
  }

  /** {@code 21}, {@code 1.8} (8), or 0 when not a release number. */
  static int parse(String text) {
    if (text == null) {
      return 0;
    }
    String number = text.strip();
    if (number.startsWith("1.")) {
      number = number.substring(2);
    }
    try {
      return Integer.parseInt(number);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
