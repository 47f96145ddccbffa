#!/usr/bin/env bash
# Compile-overhead benchmark of the lockjaw checks on the wide corpus (testdata/corpus/libraries.txt):
# for each library and in total, the median wall time (and, in a second table, the compiling
# thread's CPU time) of plain javac, of javac with Error Prone attached and every check disabled,
# with Error Prone and only the lockjaw checks, and with Error Prone's default checks, run
# alternately (A B C D A B C D ...), with ratios to plain javac.
# Not part of `mvn verify`. The tables are also written to corpus/target/corpus/benchmark.md.
#
#   scripts/benchmark-compile.sh                 # 3 rounds after 1 warm-up round
#   scripts/benchmark-compile.sh -Dlockjaw.benchmark.rounds=5 -Dlockjaw.benchmark.warmup=2
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/jdk21.sh mvn -B -ntp -Pbenchmark -pl checks,corpus -am test \
  -Dtest=CompileBenchmark -Dsurefire.failIfNoSpecifiedTests=false "$@"
