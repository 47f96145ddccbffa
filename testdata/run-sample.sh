#!/usr/bin/env bash
# See lockjaw flag a sample web shop (testdata/sample-shop: a catalog cache, a DAO, a payment
# client and a worker pool, with every anti-pattern lockjaw knows).
#
#   testdata/run-sample.sh             lockjaw:check, as a team adds it: one <plugin> block, no
#                                      compiler changes (testdata/plugin-check). The build fails,
#                                      listing each finding with its fix; SARIF goes to
#                                      testdata/plugin-check/target/lockjaw/lockjaw.sarif.
#   testdata/run-sample.sh --compiler  the compiler integration: mvn compile with Error Prone and
#                                      lockjaw-checks, warnings in the compile output.
#
# Needs Maven 3.6.3+ on the PATH and a JDK 21+ (found by scripts/jdk21.sh). Installs this build's
# lockjaw-checks and lockjaw-maven-plugin into your local Maven repository first.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
say() { printf 'lockjaw: %s\n' "$*"; }

# Re-run under scripts/jdk21.sh, which selects a JDK 21+ (or explains what to install).
if [[ -z "${LOCKJAW_JDK_SELECTED:-}" ]]; then
  export LOCKJAW_JDK_SELECTED=1
  exec "$root/scripts/jdk21.sh" "$0" "$@"
fi
if ! command -v mvn >/dev/null 2>&1; then
  echo "lockjaw: Maven (mvn) is not on the PATH. Install Maven 3.6.3 or newer and run this script again." >&2
  exit 1
fi
say "using the JDK at $JAVA_HOME"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
say "installing lockjaw-checks and lockjaw-maven-plugin from this checkout into your local Maven repository..."
if ! (cd "$root" && mvn -q -B -ntp install -pl checks,maven-plugin -am -DskipTests) >"$log" 2>&1; then
  cat "$log" >&2
  say "building lockjaw failed; the Maven output is above." >&2
  exit 1
fi

if [[ "${1:-}" == "--compiler" ]]; then
  project="$here/sample-shop"
  say "compiling testdata/sample-shop with Error Prone and lockjaw-checks (mvn -B clean compile)..."
  goals=(clean compile)
  pattern='^\[(WARNING|ERROR)\] .*\.java:\[[0-9]+,[0-9]+\] \[[A-Z][A-Za-z0-9]*\] '
else
  project="$here/plugin-check"
  say "running lockjaw:check on the sample shop (mvn -B clean verify in testdata/plugin-check)..."
  goals=(clean verify)
  pattern='^\[(WARNING|ERROR)\] (\S+\.java:[0-9]+:[0-9]+: \[|    |lockjaw)|^\[INFO\] lockjaw: |Failed to execute goal io.github.lockjaw'
fi
status=0
(cd "$project" && mvn -B -ntp "${goals[@]}") >"$log" 2>&1 || status=$?
mkdir -p "$project/target"
cp "$log" "$project/target/run-sample.log"
echo
grep -E "$pattern" "$log" | sed -E 's/^\[(WARNING|ERROR|INFO)\] //' || true
echo
if [[ "${1:-}" == "--compiler" && $status -ne 0 ]] || ! grep -q -E 'lockjaw|\[[A-Z][A-Za-z]+\]' "$log"; then
  grep -v -e 'sun.misc.Unsafe' -e 'terminally deprecated method' "$log" | tail -40 >&2
  say "the sample build did not run as expected (exit $status); the full log is in ${project#$root/}/target/run-sample.log" >&2
  exit 1
fi
say "done; the full log is in ${project#$root/}/target/run-sample.log"
