// baseline, then check passes on the accepted finding, then fails on a new one.
import groovy.json.JsonSlurper
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
def baseline = new File(basedir, 'lockjaw-baseline.json')
if (!baseline.isFile()) {
    failures << 'lockjaw:baseline wrote no lockjaw-baseline.json'
} else {
    def entries = new JsonSlurper().parse(baseline).entries
    if (entries.size() != 1 || entries[0].check != 'ClassMonitorCache' || entries[0].member != 'describe(String)') {
        failures << "unexpected baseline entries: ${entries}"
    }
}
if (!log.contains('lockjaw: wrote 1 finding(s) of plugin-baseline')) failures << 'baseline goal did not report what it wrote'
if (!log.contains('[ClassMonitorCache] (baselined)')) failures << 'the accepted finding is not shown as baselined'
if (!log.contains('lockjaw: 1 finding(s), none new at or above WARNING')) failures << 'the second build did not pass on the baseline'
if (!log.contains('lockjaw found 1 new finding(s) at or above WARNING in plugin-baseline: SynchronizedMapCache (1)')) {
    failures << 'the new finding did not fail the third build'
}
def sarifFile = new File(basedir, 'target/lockjaw/lockjaw.sarif')
if (sarifFile.isFile()) {
    failures.addAll(LockjawSarif.problems(sarifFile))
    def states = new JsonSlurper().parse(sarifFile).runs[0].results.collectEntries { [(it.ruleId): it.baselineState] }
    if (states != [ClassMonitorCache: 'unchanged', SynchronizedMapCache: 'new']) failures << "baselineState in SARIF: ${states}"
} else {
    failures << 'no SARIF report'
}
if (failures) throw new AssertionError('plugin-baseline: ' + failures.join('\n  '))
return true
