package io.github.lockjaw.lsp;

/** The server's version, from its jar's manifest when it has one. */
final class Version {
  private Version() {}

  static String current() {
    String version = Version.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
