package io.github.lockjaw.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Maven's output as Maven 3.8 writes it to a log, escape codes included. */
class MavenLogTest {
  private static final String ESC = "\u001B";

  @Test
  void aBrokenPomIsItsParserMessageWithoutMavensFramingOrColours() {
    String log =
        ESC
            + "[0m"
            + ESC
            + "[0m[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n"
            + "[FATAL] Non-readable POM /work/shop/pom.xml: no more data available - expected end"
            + " tag </project> to close start tag <project> from line 1, parser stopped on END_TAG"
            + " seen ...<modelVersion>4.0.0</modelVersion>... @1:44 @ \n"
            + " @ \n"
            + "[ERROR] The build could not read 1 project -> [Help 1]\n"
            + "[ERROR]   \n"
            + "[ERROR]   The project  (/work/shop/pom.xml) has 1 error\n"
            + "[ERROR]     Non-readable POM /work/shop/pom.xml: no more data available @1:44\n"
            + "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n";
    assertEquals(
        "Non-readable POM /work/shop/pom.xml: no more data available - expected end tag"
            + " </project> to close start tag <project> from line 1, parser stopped on END_TAG seen"
            + " ...<modelVersion>4.0.0</modelVersion>... @1:44",
        MavenLog.problem(log));
  }

  @Test
  void anUnresolvableDependencyIsMavensReasonWithoutTheGoalAndHelpLink() {
    String log =
        ESC
            + "[0m"
            + ESC
            + "[0m[ERROR] Failed to execute goal on project m: Could not resolve dependencies for"
            + " project shop:m:jar:1.0: Could not find artifact org.example:gone:jar:1.0 in central"
            + " (https://repo.maven.apache.org/maven2) -> [Help 1]\n"
            + "[ERROR] \n"
            + "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n"
            + "[ERROR] [Help 1]"
            + " http://cwiki.apache.org/confluence/display/MAVEN/DependencyResolutionException\n";
    assertEquals(
        "Could not resolve dependencies for project shop:m:jar:1.0: Could not find artifact"
            + " org.example:gone:jar:1.0 in central (https://repo.maven.apache.org/maven2)",
        MavenLog.problem(log));
  }

  @Test
  void colourCodesAreRemovedFromAnyText() {
    assertEquals(
        "[INFO] BUILD FAILURE",
        MavenLog.plain(ESC + "[1;31m[INFO] " + ESC + "[1mBUILD FAILURE" + ESC + "[m" + ESC));
  }

  @Test
  void theRepositoryAStalledRunWasWaitingOnIsItsLastDownload() {
    String log =
        "[INFO] Scanning for projects...\n"
            + "Downloading from central: http://127.0.0.1:4000/maven2/a/b/1/b-1.pom\n"
            + "Downloaded from central: http://127.0.0.1:4000/maven2/a/b/1/b-1.pom (2 kB)\n"
            + ESC
            + "[0mDownloading from nexus: http://127.0.0.1:4000/maven2/a/c/1/c-1.pom\n";
    assertEquals("http://127.0.0.1:4000/maven2/a/c/1/c-1.pom", MavenLog.lastDownload(log));
    assertNull(MavenLog.lastDownload("[INFO] Scanning for projects...\n"));
  }
}
