#!/usr/bin/env bash
# Benchmark of the contention readers' parse throughput (not part of the test suite).
#
#   scripts/benchmark-contention.sh [size-in-MB]     (default 200)
#
# 1. Records a real load: the cli module's LoadProgram (a Class-locked cache, a DAO doing socket
#    I/O under its monitor, a ReentrantLock, a polling loop) for 3 s under JFR with the profile
#    settings (their execution samples name the lock holders) and the lock events' thresholds at
#    0 ms, so nearly every contended enter and park is an event.
# 2. Makes a 200 MB recording of it (LongRecording): the recording's chunk written again and again,
#    each copy's start time moved on by the chunk's duration, as a recording that ran that long
#    and rotated its chunks holds them; its events are all real, dense in lock events, the worst
#    case for lockjaw, which keeps one entry per lock site and converts each lock event's stack.
#    Also the same copies joined with cat unchanged: 200 MB of separate recordings, which lockjaw
#    reads one by one (each copied out to a temporary file first).
# 3. Repeats a jcmd Thread.print dump of the same program into a log of half that size.
# 4. Reads both in a JVM with a 64 MB heap (LOCKJAW_BENCH_HEAP to change it) and prints seconds,
#    MB/s and the peak heap, beside a bare RecordingFile loop that only reads the events.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
size_mb="${1:-200}"
heap="${LOCKJAW_BENCH_HEAP:--Xmx64m}"
work="$root/contention/target/benchmark-contention"
mkdir -p "$work"

eval "$("$here/jdk21.sh" | sed 's/^/export /')"
export PATH="$JAVA_HOME/bin:$PATH"

echo "== building lockjaw-contention and the load program"
"$here/jdk21.sh" mvn -q -B -o -f "$root/pom.xml" -pl cli -am test-compile
# the contention module's libraries (Gson reads Thread.dump_to_file JSON)
"$here/jdk21.sh" mvn -q -B -o -f "$root/pom.xml" -pl contention -am dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile="$work/classpath.txt" > /dev/null
libraries="$(tr ':' '\n' < "$work/classpath.txt" | grep -v '/io/github/lockjaw/' | paste -sd: -)"

echo "== recording the load program for 3 s"
rm -f "$work/load.out" # else the wait below may find the last run's "ready"
java -XX:StartFlightRecording=filename="$work/seed.jfr",settings=profile,jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadPark#threshold=0ms \
  -cp "$root/cli/target/test-classes" io.github.lockjaw.cli.load.LoadProgram 3 > "$work/load.out" 2>&1 &
pid=$!
until grep -q '^ready' "$work/load.out" 2>/dev/null; do sleep 0.1; done
sleep 1
jcmd "$pid" Thread.print > "$work/seed-dump.txt"
wait "$pid"

echo "== repeating them to ${size_mb} MB (one recording, and recordings joined) and $((size_mb / 2)) MB (dumps)"
seed_bytes=$(stat -c %s "$work/seed.jfr")
copies=$(( (size_mb * 1000000 + seed_bytes - 1) / seed_bytes ))
java -cp "$root/contention/target/test-classes" io.github.lockjaw.contention.LongRecording \
  "$work/seed.jfr" "$work/big.jfr" "$size_mb"
: > "$work/joined.jfr"
for ((i = 0; i < copies; i++)); do cat "$work/seed.jfr"; done >> "$work/joined.jfr"
dump_bytes=$(stat -c %s "$work/seed-dump.txt")
dump_copies=$(( (size_mb * 500000 + dump_bytes - 1) / dump_bytes ))
for ((i = 0; i < dump_copies; i++)); do cat "$work/seed-dump.txt"; done > "$work/big-dumps.log"
echo "seed recording: $seed_bytes bytes, repeated $copies times; seed dump: $dump_bytes bytes, repeated $dump_copies times"

echo "== reading (heap $heap)"
java "$heap" -cp "$root/contention/target/classes:$root/contention/target/test-classes:$root/checks/target/classes:$libraries" \
  io.github.lockjaw.contention.ParseBenchmark "$work/big.jfr" "$work/big-dumps.log" "$work/joined.jfr"
