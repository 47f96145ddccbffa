#!/usr/bin/env bash
# How fast does the language server answer while editing? Generates a 200-file Maven project under
# language-server/target/benchmark/, starts the server in one JVM (JSON-RPC over pipes) and prints
# the first diagnostics (which do not wait for Maven), when Maven's class path arrived, warm
# re-analyses after edits (median, p90, max) and the heap after a full GC. Not part of the tests.
#
#   scripts/benchmark-language-server.sh [edits, default 40]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
scripts/jdk21.sh mvn -B -o -q package -pl language-server -am -DskipTests
exports=$(sed -n '/<lockjaw.javacExports>/,/<\/lockjaw.javacExports>/p' pom.xml | grep -o -- '--add-[a-z]*=[^ <]*' | tr '\n' ' ')
jar=$(ls language-server/target/lockjaw-language-server-*.jar | grep -v original | head -n1)
rm -rf language-server/target/benchmark
# shellcheck disable=SC2086
exec scripts/jdk21.sh java $exports ${LOCKJAW_BENCH_JAVA_OPTS:-} -Xmx1g -cp "language-server/target/test-classes:$jar" \
  io.github.lockjaw.lsp.LanguageServerBenchmark "${1:-40}" language-server/target/benchmark/project-200
