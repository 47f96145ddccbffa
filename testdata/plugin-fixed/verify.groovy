// The fixed shop passes lockjaw:check and still gets an (empty) SARIF report.
import groovy.json.JsonSlurper
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('BUILD SUCCESS')) failures << 'the build did not succeed'
if (!log.contains('lockjaw: no findings in plugin-fixed')) failures << 'lockjaw did not report a clean module'
def sarifFile = new File(basedir, 'target/lockjaw/lockjaw.sarif')
if (!sarifFile.isFile()) {
    failures << 'no SARIF report'
} else {
    failures.addAll(LockjawSarif.problems(sarifFile))
    if (!new JsonSlurper().parse(sarifFile).runs[0].results.isEmpty()) failures << 'SARIF lists results for a clean module'
}
if (failures) throw new AssertionError('plugin-fixed: ' + failures.join('\n  '))
return true
