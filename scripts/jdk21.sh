#!/usr/bin/env bash
# Runs a command (default: nothing, just reports) with JAVA_HOME set to a JDK 21 or newer.
#
#   scripts/jdk21.sh mvn -B verify
#
# lockjaw's checks run inside javac through Error Prone 2.50, which needs JDK 21+. This picks,
# in order: $JAVA_HOME if it is 21+, the `java` on the PATH if it is 21+, then the newest JDK 21+
# found under /usr/lib/jvm, /opt/java, /usr/java and ~/.sdkman/candidates/java.
set -euo pipefail

major_version() { # prints the feature version of the JDK at $1, or nothing
  local java="$1/bin/java"
  [[ -x "$java" && -x "$1/bin/javac" ]] || return 0
  "$java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n1
}

pick_jdk() {
  local candidate version best="" best_version=0
  if [[ -n "${JAVA_HOME:-}" ]]; then
    version="$(major_version "$JAVA_HOME")"
    if [[ -n "$version" && "$version" -ge 21 ]]; then echo "$JAVA_HOME"; return; fi
  fi
  if command -v javac >/dev/null 2>&1; then
    candidate="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
    version="$(major_version "$candidate")"
    if [[ -n "$version" && "$version" -ge 21 ]]; then echo "$candidate"; return; fi
  fi
  for candidate in /usr/lib/jvm/* /opt/java/* /usr/java/* "$HOME"/.sdkman/candidates/java/*; do
    [[ -d "$candidate" && ! -L "$candidate" ]] || continue
    version="$(major_version "$candidate")"
    if [[ -n "$version" && "$version" -ge 21 && "$version" -gt "$best_version" ]]; then
      best="$candidate"; best_version="$version"
    fi
  done
  echo "$best"
}

jdk="$(pick_jdk)"
if [[ -z "$jdk" ]]; then
  echo "lockjaw needs a JDK 21 or newer (Error Prone 2.50 runs only on JDK 21+), and none was found:" \
    "JAVA_HOME is '${JAVA_HOME:-unset}', the java on the PATH is older, and /usr/lib/jvm has no JDK 21+." \
    "Install one (for example Temurin 21 or 25, or 'apt-get install openjdk-21-jdk') and set JAVA_HOME to it," \
    "then run this command again." >&2
  exit 1
fi
export JAVA_HOME="$jdk"
export PATH="$JAVA_HOME/bin:$PATH"
# JDK 24+ warns about sun.misc.Unsafe use by Maven's own bundled libraries; that noise is not ours.
if [[ "$(major_version "$jdk")" -ge 24 ]]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
if [[ $# -eq 0 ]]; then
  echo "JAVA_HOME=$JAVA_HOME"
  exit 0
fi
exec "$@"
