// Issue 22, item 8: reachability from configuration, with the path; the dependency's own suppression.
import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
def line = (log =~ /(?m)^\[WARNING\] org\.apache\.commons:commons-pool2:2\.12\.0: org\.apache\.commons\.pool2\.impl\.SoftReferenceObjectPool\.[^\n]*\[SharedMonitorDao\][^\n]*$/)
if (!line) {
    failures << 'the SoftReferenceObjectPool built by the Spring XML did not fail the audit'
} else if (!line[0].contains('Reached from audit-config-reach: org.apache.commons.pool2.impl.SoftReferenceObjectPool (named in applicationContext.xml)')) {
    failures << 'the finding does not say how it is reached: ' + line[0]
}
if (!(log =~ /lockjaw found \d+ new finding\(s\) at or above WARNING in audit-config-reach/)) failures << 'run 1 did not fail'
if (!log.contains('<auditExcludes><exclude>groupId:artifactId:ClassName</exclude></auditExcludes>')) {
    failures << 'the failure does not name the dependency suppression'
}
if (log.contains('@SuppressWarnings("CheckName")')) failures << 'the audit still suggests @SuppressWarnings, which jars cannot carry'
def sarif = new JsonSlurper().parse(new File(basedir, 'target/lockjaw/lockjaw-audit.sarif')).runs[0]
def reached = sarif.results.findAll { it.properties?.get('lockjaw/reachedBy') }
if (reached.isEmpty()) failures << 'no SARIF result carries lockjaw/reachedBy'
if (sarif.invocations == null || sarif.invocations[0].executionSuccessful != true) failures << 'no SARIF invocation'
// run 2: excluded by artifact and class, the build passes
if (!(log =~ /lockjaw: \d+ finding\(s\) left out by auditExcludes/)) failures << 'auditExcludes left nothing out'
def excluded = new JsonSlurper().parse(new File(basedir, 'target/lockjaw/excluded.sarif')).runs[0].results
if (excluded.any { it.locations[0].logicalLocations[0].fullyQualifiedName.contains('SoftReferenceObjectPool') }) {
    failures << 'an excluded class is still reported'
}
if (!log.contains('BUILD SUCCESS')) failures << 'run 2 did not pass'
if (failures) throw new AssertionError('audit-config-reach: ' + failures.join('\n  '))
return true
