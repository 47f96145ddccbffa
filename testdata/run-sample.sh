#!/usr/bin/env bash
# See lockjaw flag a sample: compiles testdata/sample-shop, a small web shop, with lockjaw's
# Error Prone checks and prints the warnings they report.
#
#   testdata/run-sample.sh
#
# Needs Maven 3.6.3+ on the PATH and a JDK 21+ (found by scripts/jdk21.sh). Builds lockjaw-checks
# into your local Maven repository first when it is missing or older than the sources.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
sample="$here/sample-shop"

say() { printf 'lockjaw: %s\n' "$*"; }

# Re-run under scripts/jdk21.sh, which selects a JDK 21+ (or explains what to install).
if [[ -z "${LOCKJAW_JDK_SELECTED:-}" ]]; then
  export LOCKJAW_JDK_SELECTED=1
  exec "$root/scripts/jdk21.sh" "$0" "$@"
fi
say "using the JDK at $JAVA_HOME"

if ! command -v mvn >/dev/null 2>&1; then
  echo "lockjaw: Maven (mvn) is not on the PATH. Install Maven 3.6.3 or newer and run this script again." >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# --- make sure lockjaw-checks is in the local repository ------------------------------------------
version=$(sed -n 's:.*<lockjaw.version>\(.*\)</lockjaw.version>.*:\1:p' "$sample/pom.xml" | head -n 1)
repo="${HOME}/.m2/repository"
jar="$repo/io/github/lockjaw/lockjaw-checks/$version/lockjaw-checks-$version.jar"
if [[ ! -f "$jar" ]] || [[ -n "$(find "$root/pom.xml" "$root/checks/pom.xml" "$root/checks/src/main" -newer "$jar" -print -quit)" ]]; then
  say "building lockjaw-checks $version into your local Maven repository..."
  if ! (cd "$root" && mvn -q -B install -pl checks -am -DskipTests) >"$log" 2>&1; then
    cat "$log" >&2
    say "building lockjaw-checks failed; the Maven output is above." >&2
    exit 1
  fi
else
  say "lockjaw-checks $version is up to date in $repo"
fi

# --- compile the sample -----------------------------------------------------------------------
# 'clean' so the compiler sees every source again (an up-to-date build compiles nothing and so
# reports nothing).
say "compiling testdata/sample-shop (mvn -B clean compile)..."
status=0
(cd "$sample" && mvn -B clean compile) >"$log" 2>&1 || status=$?
mkdir -p "$sample/target"
cp "$log" "$sample/target/run-sample.log"

if [[ $status -ne 0 ]]; then
  grep -v -e 'sun.misc.Unsafe' -e 'terminally deprecated method' "$log" >&2 || true
  say "the sample build failed (exit $status); the log is above and in testdata/sample-shop/target/run-sample.log" >&2
  exit "$status"
fi

# Error Prone diagnostics: "[WARNING] <file>.java:[line,column] [CheckName] message", then "(see <url>)".
echo
awk -v src="$sample/src/main/java/" '
  /^\[(WARNING|ERROR)\] .*\.java:\[[0-9]+,[0-9]+\] \[[A-Z][A-Za-z0-9]*\] / {
    line = $0
    sub(/^\[(WARNING|ERROR)\] /, "", line)
    i = index(line, src); if (i > 0) line = substr(line, i + length(src))
    print line; shown = 1; count++; next
  }
  shown && /^ *\(see / { print; print ""; shown = 0; next }
  { shown = 0 }
  END { printf "lockjaw: %d finding(s) in the sample shop; the full log is in testdata/sample-shop/target/run-sample.log\n", count }
' "$log"
