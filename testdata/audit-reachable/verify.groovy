// A modern stack passes: the findings in commons-pool2 sit in SoftReferenceObjectPool, which the
// shop's classes do not reach (it uses GenericObjectPool), and no known fix covers them, so they are
// reported as notes and the build passes; -Dlockjaw.auditFailOn=all fails on them.
import groovy.json.JsonSlurper
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
def reported = (log =~ /(?m)^\[WARNING\] org\.apache\.commons:commons-pool2:2\.12\.0: (\S+)\.[^.\s]+\(/).collect { it[1] }
if (reported.isEmpty()) failures << 'no commons-pool2 finding was reported'
if (!reported.every { it.endsWith('.SoftReferenceObjectPool') }) failures << "findings outside SoftReferenceObjectPool: ${reported.unique()}"
if (!(log =~ /SoftReferenceObjectPool\.\S+\)[^\n]*\[SharedMonitorDao\] \(not reached from audit-reachable's classes, no known fix: not failing\)/)) {
    failures << 'the SoftReferenceObjectPool findings are not marked as not reached'
}
if (!(log =~ /lockjaw: \d+ finding\(s\) in dependency classes that audit-reachable's classes do not reach and with no known fix: reported as notes, not failing the build/)) {
    failures << 'no summary of the findings that do not fail'
}
if (!(log =~ /lockjaw: \d+ finding\(s\), none new at or above WARNING/)) failures << 'the default audit did not pass'
// run 2: every finding fails
if (!(log =~ /lockjaw found \d+ new finding\(s\) at or above WARNING in audit-reachable: SharedMonitorDao/)) {
    failures << 'auditFailOn=all did not fail the build'
}
// run 3: a clear error for a bad value
if (!log.contains("lockjaw.auditFailOn is 'sometimes'; use 'actionable'")) failures << 'no clear error for a bad auditFailOn'

def sarifFile = new File(basedir, 'target/lockjaw/lockjaw-audit.sarif')
if (!sarifFile.isFile()) {
    failures << 'no audit SARIF report'
} else {
    failures.addAll(LockjawSarif.problems(sarifFile).findAll { !it.contains('not relative') })
    def results = new JsonSlurper().parse(sarifFile).runs[0].results
    if (results.isEmpty() || !results.every { it.level == 'note' }) failures << "unreached findings are not SARIF notes: ${results*.level}"
}
def allSarif = new File(basedir, 'target/lockjaw/all.sarif')
def allResults = allSarif.isFile() ? new JsonSlurper().parse(allSarif).runs[0].results : []
if (allResults.isEmpty() || !allResults.every { it.level == 'warning' }) {
    failures << 'with auditFailOn=all the findings are not warnings'
}
if (failures) throw new AssertionError('audit-reachable: ' + failures.join('\n  '))
return true
