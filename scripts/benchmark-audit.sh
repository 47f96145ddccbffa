#!/usr/bin/env bash
# Benchmark of lockjaw's dependency audit (not part of the test suite).
#
#   scripts/benchmark-audit.sh [groupId:artifactId:version of a large jar]
#
# 1. A large real jar (default: org.apache.hive:hive-exec:3.1.3, a 40 MB shaded jar of Hive and
#    its dependencies) audited twice, each in a fresh JVM at the default heap, with a fresh cache
#    directory: the first run analyses every class, the second reads the per-jar cache. It prints,
#    for each run, wall time, CPU time, peak memory (maximum resident set size), the JVM's peak
#    heap, the findings, the classes analysed and the jars read from the cache.
# 2. With LOCKJAW_BENCH_BOOT=1, also the runtime dependencies of a typical Spring Boot web
#    application (starters web, actuator, validation and data-jpa, plus the PostgreSQL driver: 60+
#    jars, Hibernate and HikariCP included), audited twice, each in a fresh JVM with the same heap
#    limit:
#      a. lockjaw: io.github.lockjaw.bytecode.JarAuditor (SpotBugs with only lockjaw's detectors);
#      b. SpotBugs' own command line (-textui) with its default detectors.
#    LOCKJAW_BENCH_SKIP_DEFAULT=1 skips b; LOCKJAW_BENCH_HEAP sets the heap (-Xmx3g).
# Needs network access to Maven Central the first time.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
large_jar="${1:-org.apache.hive:hive-exec:3.1.3}"
boot_version="${LOCKJAW_BENCH_BOOT_VERSION:-3.4.1}"
heap="${LOCKJAW_BENCH_HEAP:--Xmx3g}"
work="$root/checks/target/benchmark-audit"
mkdir -p "$work"

# Maven and the benchmark JVMs on JDK 21+ (lockjaw-checks is built for 21).
eval "$("$here/jdk21.sh" | sed 's/^/export /')"
export PATH="$JAVA_HOME/bin:$PATH"
mvn_() { "$here/jdk21.sh" mvn -q -B "$@"; }

echo "== building lockjaw-checks and its class path"
mvn_ -f "$root/pom.xml" -pl checks compile
mvn_ -f "$root/pom.xml" -pl checks dependency:build-classpath \
  -Dmdep.includeScope=provided -Dmdep.outputFile="$work/lockjaw.classpath"
# SpotBugs and its own libraries only, for the default run
mvn_ -f "$root/pom.xml" -pl checks dependency:build-classpath -Dmdep.includeGroupIds=com.github.spotbugs,org.ow2.asm,org.apache.bcel,commons-io,com.github.stephenc.jcip,org.dom4j,org.apache.commons,org.slf4j,com.google.code.findbugs,com.google.code.gson,jaxen,net.sf.saxon,org.xmlresolver,org.apache.logging.log4j \
  -Dmdep.excludeArtifactIds=commons-dbcp2,commons-pool2 -Dmdep.outputFile="$work/spotbugs.classpath"
lockjaw_cp="$root/checks/target/classes:$(cat "$work/lockjaw.classpath")"

echo "== compiling the benchmark main"
mkdir -p "$work/main"
cat > "$work/main/AuditBenchmark.java" <<'EOF'
import io.github.lockjaw.bytecode.AuditFinding;
import io.github.lockjaw.bytecode.JarAuditor;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** AuditBenchmark [--cache DIR] JAR...: one audit, its figures, its findings. */
public class AuditBenchmark {
  public static void main(String[] args) throws Exception {
    JarAuditor.Options options = JarAuditor.Options.DEFAULT;
    int first = 0;
    if (args.length > 1 && args[0].equals("--cache")) {
      options = options.withCache(Path.of(args[1]));
      first = 2;
    }
    List<Path> jars = Arrays.stream(args, first, args.length).map(Path::of).toList();
    long start = System.nanoTime();
    JarAuditor.Result result = new JarAuditor().run(jars, List.of(), options);
    List<AuditFinding> findings = result.findings();
    long millis = (System.nanoTime() - start) / 1_000_000;
    long peakHeap = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peakHeap += pool.getPeakUsage().getUsed();
      }
    }
    Map<String, Integer> byCheck = new TreeMap<>();
    findings.forEach(f -> byCheck.merge(f.check(), 1, Integer::sum));
    System.out.println("lockjaw audit: " + findings.size() + " findings " + byCheck
        + " in " + millis + " ms (in-JVM audit time), peak heap " + peakHeap / (1024 * 1024) + " MB, "
        + result.classesAnalysed() + " of " + result.classesInJars() + " classes analysed, "
        + result.notAnalysed().size() + " not, " + result.jarsFromCache() + " of " + jars.size()
        + " jar(s) from the cache");
    for (AuditFinding f : findings) {
      System.out.println("  " + f.jar().getFileName() + ": " + f.library() + " " + f.readableMethod()
          + (f.line() > 0 ? ":" + f.line() : "") + " [" + f.check() + "]");
    }
  }
}
EOF
javac -d "$work/main" -cp "$lockjaw_cp" "$work/main/AuditBenchmark.java"

measure() { # label, command...: runs it under /usr/bin/time, prints wall, CPU and peak RSS
  local label="$1"; shift
  local log="$work/$label.time"
  /usr/bin/time -f '%e %U %S %M' -o "$log" "$@"
  read -r wall user sys rss < "$log"
  printf '%-34s wall %6.1f s   cpu %6.1f s   peak RSS %5d MB\n' \
    "$label" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$((rss / 1024))"
}

echo "== a large real jar: $large_jar (default heap, first run and second run)"
IFS=: read -r lg la lv <<< "$large_jar"
mvn_ -f "$root/pom.xml" -pl checks dependency:copy -Dartifact="$large_jar" \
  -DoutputDirectory="$work/large" -Dmdep.overWriteReleases=true
big="$work/large/$la-$lv.jar"
echo "   $(du -h "$big" | cut -f1), $(unzip -Z1 "$big" | grep -c '\.class$') class files"
rm -rf "$work/large-cache"
measure large-first java -cp "$work/main:$lockjaw_cp" AuditBenchmark --cache "$work/large-cache" "$big" \
  | tee "$work/large-first.out" | grep -v '^  ' || true
measure large-second java -cp "$work/main:$lockjaw_cp" AuditBenchmark --cache "$work/large-cache" "$big" \
  | tee "$work/large-second.out" | grep -v '^  ' || true
if [[ -z "${LOCKJAW_BENCH_BOOT:-}" ]]; then
  echo "== details: $work (LOCKJAW_BENCH_BOOT=1 also audits a Spring Boot application's 60+ jars)"
  exit 0
fi

echo "== resolving a Spring Boot $boot_version web application's runtime dependencies"
app="$work/app"
mkdir -p "$app"
cat > "$app/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId><artifactId>web-app</artifactId><version>1</version>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-dependencies</artifactId>
        <version>$boot_version</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-actuator</artifactId></dependency>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-validation</artifactId></dependency>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-data-jpa</artifactId></dependency>
    <dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId></dependency>
  </dependencies>
</project>
EOF
rm -rf "$app/jars"
mvn_ -f "$app/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
  -DoutputDirectory="$app/jars"
jars=("$app"/jars/*.jar)
size="$(du -sh "$app/jars" | cut -f1)"
classes="$(for j in "${jars[@]}"; do unzip -Z1 "$j"; done | grep -c '\.class$' || true)"
echo "   ${#jars[@]} jars, $size, $classes class files"


echo "== lockjaw audit (JarAuditor, lockjaw detectors only)"
measure lockjaw-audit java $heap -cp "$work/main:$lockjaw_cp" AuditBenchmark "${jars[@]}" \
  | tee "$work/lockjaw.out"
grep -v '^  ' "$work/lockjaw.out" || true

if [[ -n "${LOCKJAW_BENCH_SKIP_DEFAULT:-}" ]]; then
  echo "== SpotBugs default run skipped (LOCKJAW_BENCH_SKIP_DEFAULT)"
  exit 0
fi
echo "== SpotBugs -textui with its default detectors"
# SpotBugs and its libraries only (no lockjaw classes, so no lockjaw findbugs.xml in sight)
measure spotbugs-default java $heap -cp "$(cat "$work/spotbugs.classpath")" \
  edu.umd.cs.findbugs.LaunchAppropriateUI \
  -textui -quiet -xml -output "$work/spotbugs-default.xml" "${jars[@]}" \
  2> "$work/spotbugs-default.err"
echo "   SpotBugs default bug instances: $(grep -c '<BugInstance' "$work/spotbugs-default.xml" || true)"
echo "== details: $work"
