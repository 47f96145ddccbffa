// lockjaw:contention reads the two thread dumps in load-test/, ranks the three contended sites by
// the threads seen waiting, ties the catalogue's class monitor to ClassMonitorCache, commons-pool's
// monitor to SharedMonitorDao with the release that fixed it, and the journal's lock to "no
// finding", names the thread that held the catalogue's monitor; writes contention.md, contention.html and
// SARIF with the figures; evidence that cannot be read fails the build in one paragraph.
import groovy.json.JsonSlurper
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('lockjaw contention: 3 contended lock sites (2 with a lockjaw finding) from 2 thread dumps in 2 files')) {
    failures << 'the summary line is missing or wrong'
}
def rows = [
    /\s1\s+7\s+2\/2\s+ProductCatalog\.describe\(ProductCatalog\.java:13\)\s+monitor enter: ProductCatalog\.class\s+ClassMonitorCache/,
    /\s2\s+3\s+2\/2\s+GenericObjectPool\.borrowObject\(GenericObjectPool\.java:771\)\s+monitor enter: GenericObjectPool\s+SharedMonitorDao/,
    /\s3\s+1\s+1\/2\s+Journal\.append\(Journal\.java:13\)\s+lock park: ReentrantLock\.lock\s+no finding/,
]
rows.eachWithIndex { row, i -> if (!(log =~ row)) failures << "ranked row ${i + 1} is missing: ${row}" }
if (!log.contains('org.apache.commons:commons-pool2')) failures << 'the advice for commons-pool does not name commons-pool2'
if (!(log =~ /commons-pool:commons-pool:1\.3: \d+ findings in code no thread was seen waiting in \(SharedMonitorDao \d+\)/)) {
    failures << 'the unobserved findings in commons-pool are not summed up per artifact'
}
if (!log.contains('Skipped 1 file(s)') || !log.contains('README.txt')) failures << 'the README in load-test/ was not skipped with a note'
if (!log.contains('is neither a JFR recording nor a thread dump lockjaw reads')) failures << 'bad input was not explained'
if ((log =~ /BUILD SUCCESS/).count != 1 || (log =~ /BUILD FAILURE/).count != 1) failures << 'the good evidence must succeed and the bad fail'
// the invoker runs Maven with -e, which adds Maven's own stack trace; the message is one line
if (!(log =~ /(?m)^\[ERROR\] Failed to execute goal .*: lockjaw: .*pom\.xml is neither a JFR recording nor a thread dump lockjaw reads\. .* See docs\/contention\.md\.( -> \[Help 1\])?$/)) {
    failures << 'the error is not one paragraph'
}
if (!(log =~ /Held by: running in ProductCatalog\.load\(ProductCatalog\.java:22\) < ProductCatalog\.describe\(ProductCatalog\.java:15\)/)) {
    failures << "the catalogue's holder (the thread that lists '- locked' for its Class monitor) is not named"
}

def markdown = new File(basedir, 'target/lockjaw/contention.md')
if (!markdown.isFile()) {
    failures << 'no target/lockjaw/contention.md'
} else {
    def md = markdown.getText('UTF-8')
    if (!md.contains('| rank | waiting threads | dumps | site | waits for | finding |')) failures << 'contention.md has no table'
    if (!md.contains('| 3 | 1 | 1/2 | `Journal.append(Journal.java:13)` | lock park: ReentrantLock.lock | no finding |')) {
        failures << 'contention.md lacks the no-finding row'
    }
}
def sarifFile = new File(basedir, 'target/lockjaw/contention.sarif')
if (!sarifFile.isFile()) {
    failures << 'no target/lockjaw/contention.sarif'
} else {
    failures.addAll(LockjawSarif.problems(sarifFile).findAll { !it.contains('not relative') })
    def results = new JsonSlurper().parse(sarifFile).runs[0].results
    def cache = results.find { it.ruleId == 'ClassMonitorCache' }
    if (cache?.properties?.'lockjaw/contentionRank' != 1 || cache?.properties?.'lockjaw/waitingThreadsInDumps' != 7) {
        failures << "the ClassMonitorCache result lacks its observed figures: ${cache?.properties}"
    }
    def pool = results.find { it.ruleId == 'SharedMonitorDao' && it.properties?.'lockjaw/observed' }
    if (pool?.properties?.'lockjaw/contentionRank' != 2 || !pool.locations[0].physicalLocation.artifactLocation.uri.endsWith('commons-pool-1.3.jar')) {
        failures << "no observed SharedMonitorDao result in commons-pool-1.3.jar: ${pool}"
    }
}
if (failures) throw new AssertionError('plugin-contention: ' + failures.join('\n  '))
return true
