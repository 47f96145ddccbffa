package io.github.lockjaw.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a Maven run's output says went wrong, in one line a window message can show: the actual
 * problem (the unreadable pom and where, the artifact that could not be resolved), not Maven's
 * framing ("Some problems were encountered", "[Help 1]", "re-run with -e"), and never a terminal's
 * colour codes.
 */
final class MavenLog {
  /** ANSI/VT100 control sequences (CSI ... letter) and the odd lone escape. */
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]|\u001B");

  private static final List<String> FRAMING =
      List.of(
          "Some problems were encountered while processing the POMs",
          "The build could not read",
          "To see the full stack trace",
          "Re-run Maven using",
          "For more information about the errors",
          "[Help ",
          "After correcting the problems",
          "mvn <args> -rf");

  private MavenLog() {}

  /** The text without terminal control sequences. */
  static String plain(String text) {
    return text == null ? null : ANSI.matcher(text).replaceAll("");
  }

  /** The actual problem Maven reported, or its first line of output, or "no output". */
  static String problem(String log) {
    List<String> lines = plain(log).lines().map(String::strip).toList();
    // [FATAL] lines name the broken pom and where ("Non-readable POM ...: ... @1:44")
    for (String line : lines) {
      if (line.startsWith("[FATAL]")) {
        return tidy(line.substring("[FATAL]".length()));
      }
    }
    List<String> errors = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("[ERROR]")) {
        String message = line.substring("[ERROR]".length()).strip();
        while (message.startsWith("[ERROR]")) {
          message = message.substring("[ERROR]".length()).strip();
        }
        if (!message.isEmpty() && FRAMING.stream().noneMatch(message::startsWith)) {
          errors.add(message);
        }
      }
    }
    for (String error : errors) {
      // "Failed to execute goal on project b: Could not resolve dependencies for ...: <why> ->
      // [Help 1]"
      if (error.startsWith("Failed to execute goal")) {
        int reason = error.indexOf(": ", error.indexOf("project "));
        return tidy(reason < 0 ? error : error.substring(reason + 2));
      }
    }
    for (String error : errors) {
      if (!error.startsWith("The project ")) { // "The project g:a:1 (/x/pom.xml) has 1 error"
        return tidy(error);
      }
    }
    if (!errors.isEmpty()) {
      return tidy(errors.get(0));
    }
    return lines.stream().filter(l -> !l.isEmpty()).findFirst().orElse("no output");
  }

  /**
   * The repository address Maven was last downloading from ("Downloading from central: URL"), or
   * null: where a run that did not finish was waiting.
   */
  static String lastDownload(String log) {
    String last = null;
    for (String line : plain(log).lines().toList()) {
      int at = line.indexOf("Downloading from ");
      if (at >= 0) {
        int colon = line.indexOf(": ", at);
        last = colon < 0 ? null : line.substring(colon + 2).strip();
      }
    }
    return last;
  }

  private static String tidy(String message) {
    String m = message.strip();
    int help = m.indexOf(" -> [Help");
    if (help >= 0) {
      m = m.substring(0, help);
    }
    while (m.endsWith("@") || m.endsWith(" ")) {
      m = m.substring(0, m.length() - 1).strip();
    }
    return m;
  }
}
