// Maven on JDK 17: lockjaw:contention fails with one line that says what to do; with
// lockjaw.javaHome it forks that JDK and writes the report.
def log = new File(basedir, 'build.log').getText('UTF-8')
def runs = log.split(/\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('BUILD ') }
def failures = []
if (runs.size() != 2) throw new AssertionError("expected 2 Maven runs, found ${runs.size()}")
if (!runs[0].contains('lockjaw:contention reads recordings and audits jars with code built for Java 21, but Maven is running on JDK 17')) {
    failures << 'no one-line message on JDK 17'
}
if (!runs[0].contains('-Dlockjaw.javaHome=')) failures << 'the message does not name lockjaw.javaHome'
if (log.contains('UnsupportedClassVersionError') || log.contains('ClassRealm')) failures << 'class-loading noise reached the log'
if (!runs[1].contains('BUILD SUCCESS')) failures << 'the forked run failed'
if (!runs[1].contains('lockjaw contention: 3 contended lock sites (1 with a lockjaw finding) from 2 thread dumps in 2 files')) {
    failures << 'the forked run printed no report'
}
if (!(runs[1] =~ /\s1\s+7\s+2\/2\s+ProductCatalog\.describe\(ProductCatalog\.java:13\)\s+monitor enter: ProductCatalog\.class\s+ClassMonitorCache/)) {
    failures << 'the forked run did not tie the catalogue to ClassMonitorCache'
}
['contention.md', 'contention.html', 'contention.sarif'].each {
    if (!new File(basedir, "target/lockjaw/${it}").isFile()) failures << "no target/lockjaw/${it}"
}
if (failures) throw new AssertionError('contention-old-jdk: ' + failures.join('\n  '))
return true
