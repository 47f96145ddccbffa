// lockjaw:audit names the artifact, class, method and check, says what fixed it, writes SARIF,
// fails the build, and with failOnViolation=false reports without failing.
import groovy.json.JsonSlurper
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!(log =~ /commons-pool:commons-pool:1\.3: org\.apache\.commons\.pool\.impl\.GenericObjectPool\.borrowObject\(\)[^\n]*\[SharedMonitorDao\]/)) {
    failures << 'GenericObjectPool.borrowObject in commons-pool 1.3 was not reported as SharedMonitorDao'
}
if (!log.contains('org.apache.commons:commons-pool2')) failures << 'the advice does not name commons-pool2'
// issue 12: every getConnection() of DBCP 1.x takes the monitor of the synchronized createDataSource()
def create = (log =~ /(?m)^\[WARNING\] commons-dbcp:commons-dbcp:1\.2\.2: org\.apache\.commons\.dbcp\.BasicDataSource\.createDataSource\(\)[^\n]*\[SharedMonitorDao\][^\n]*$/)
if (!create) {
    failures << 'BasicDataSource.createDataSource in commons-dbcp 1.2.2 was not reported as SharedMonitorDao'
} else {
    def line = create[0]
    if (!line.contains('getConnection() calls it on every call')) failures << 'the createDataSource finding does not name getConnection(): ' + line
    if (!line.contains('replace it with com.zaxxer:HikariCP') || !line.contains('dbcp2 2.0 to 2.9 did the same, 2.10+ synchronizes createDataSource() again')) {
        failures << 'the createDataSource advice does not name HikariCP and the dbcp2 releases: ' + line
    }
}
if (!(log =~ /lockjaw found \d+ new finding\(s\) at or above WARNING in audit-legacy: [^\n]*SharedMonitorDao/)) {
    failures << 'the audit did not fail the build'
}
if (!log.contains('(not failing: lockjaw.failOnViolation=false)')) failures << 'failOnViolation=false still failed'
def sarifFile = new File(basedir, 'target/lockjaw/lockjaw-audit.sarif')
if (!sarifFile.isFile()) {
    failures << 'no audit SARIF report'
} else {
    failures.addAll(LockjawSarif.problems(sarifFile).findAll { !it.contains('not relative') })
    def results = new JsonSlurper().parse(sarifFile).runs[0].results
    def borrow = results.find { it.locations[0].logicalLocations?.getAt(0)?.fullyQualifiedName?.contains('borrowObject') }
    if (borrow == null || !borrow.locations[0].physicalLocation.artifactLocation.uri.endsWith('commons-pool-1.3.jar')) {
        failures << 'the SARIF result does not locate borrowObject in commons-pool-1.3.jar'
    }
}
if (failures) throw new AssertionError('audit-legacy: ' + failures.join('\n  '))
return true
