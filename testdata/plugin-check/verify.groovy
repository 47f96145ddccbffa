// lockjaw:check on the sample shop: the build fails, every finding is printed as
// path:line:col: [Check] message, and target/lockjaw/lockjaw.sarif describes them in SARIF 2.1.0.
import groovy.json.JsonSlurper
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
// the first build's output: findings must be printed once per build, so count them there
def firstBuild = log.substring(0, log.indexOf('BUILD FAILURE') + 1)

def expected = [
    [check: 'ClassMonitorCache',    file: 'catalog/ClassInfo.java',           marker: 'synchronized (clazz) {',                           fix: true],
    [check: 'SynchronizedMapCache', file: 'catalog/ProductCatalog.java',      marker: 'public synchronized Product findBySku(',           fix: false],
    [check: 'SharedMonitorDao',     file: 'dao/ProductDao.java',              marker: 'public synchronized Product loadProduct(',         fix: true],
    [check: 'SharedMonitorDao',     file: 'dao/ProductDao.java',              marker: 'public synchronized List<Product> listByCategory(', fix: true],
    [check: 'SharedMonitorDao',     file: 'dao/ProductDao.java',              marker: 'public synchronized boolean reserveStock(',        fix: true],
    [check: 'PerRequestHttpClient', file: 'payment/PaymentClient.java',       marker: 'HttpClient client = HttpClient.newHttpClient();',  fix: true],
    [check: 'ThreadAliveBusyWait',  file: 'worker/FulfilmentWorkerPool.java', marker: 'while (worker.isAlive()) {',                       fix: true],
    [check: 'StatisticsUnderSharedLock', file: 'web/RequestStatsFilter.java', marker: 'synchronized (this) {',                          fix: true],
    [check: 'ResourceLookupUnderLock',   file: 'web/AssetHandler.java',       marker: 'synchronized (ASSET_LOCK) {',                    fix: false],
    [check: 'ReadMostlyStateUnderLock',  file: 'catalog/PricingRules.java',   marker: 'public synchronized Map<String, BigDecimal> getDiscounts()', fix: true],
    [check: 'PerRequestHeavyweightObject', file: 'web/OrderExportHandler.java', marker: 'XMLOutputFactory.newInstance()',  fix: false],
    [check: 'VirtualThreadPinning',  file: 'worker/LabelPrinter.java',       marker: 'synchronized (printerLock) {',              fix: true],
]
def sources = new File(basedir, '../sample-shop/src/main/java/io/github/lockjaw/samples/shop').canonicalFile

def printed = []
(firstBuild =~ /(?m)^\[WARNING\] (\S+\.java):(\d+):(\d+): \[([A-Za-z]+)\] (.*)$/).each { all, path, line, col, check, message ->
    printed << [path: path, line: line as int, check: check, message: message]
}
expected.each { e ->
    def hits = new File(sources, e.file).readLines('UTF-8').findIndexValues { it.contains(e.marker) }
    int line = (hits[0] as int) + 1
    e.line = line
    def match = printed.findAll { it.check == e.check && it.path.endsWith(e.file) && it.line == line }
    if (match.size() != 1) {
        failures << "expected one printed [${e.check}] finding at ${e.file}:${line}, found ${match.size()}"
    }
}
if (printed.size() != expected.size()) {
    failures << "expected ${expected.size()} printed findings, found ${printed.size()}: ${printed}"
}
if (!printed.every { !it.path.startsWith('/') }) {
    failures << 'finding paths must be repository-relative'
}
if (!log.contains('+    return (ClassInfo) CLASS_INFO_MAP.computeIfAbsent(clazz, k -> new ClassInfo(clazz));')) {
    failures << 'the ClassMonitorCache fix is not shown as a diff'
}
// issue 24: findings link to the copy of the page the user has, and no line runs past the width
if (!(firstBuild =~ /(?m)^\[WARNING\]     see \S*plugin-check\/target\/lockjaw\/docs\/ClassMonitorCache\.md$/)) {
    failures << 'findings do not link to target/lockjaw/docs/ClassMonitorCache.md'
}
def findingLines = firstBuild.readLines().findAll { it.startsWith('[WARNING] ') && !it.startsWith('[WARNING]     +') && !it.startsWith('[WARNING]     -') && !it.startsWith('[WARNING]      ') }
def tooLong = findingLines.findAll { it.length() - '[WARNING] '.length() > 100 && !(it =~ /^\[WARNING\] \S+\.java:\d+:\d+: \[[A-Za-z]+\] \S+$/) }
if (tooLong) failures << "console lines longer than 100 characters: ${tooLong.take(3)}"
if (!log.contains('lockjaw: SharedMonitorDao: 3 findings')) {
    failures << 'missing the per-check summary line'
}
if (!log.contains('lockjaw found 12 new finding(s) at or above WARNING in plugin-check')) {
    failures << 'the build failure does not give the count'
}

def sarifFile = new File(basedir, 'target/lockjaw/lockjaw.sarif')
if (!sarifFile.isFile()) {
    failures << 'no SARIF report at target/lockjaw/lockjaw.sarif'
} else {
    failures.addAll(LockjawSarif.problems(sarifFile))
    def sarif = new JsonSlurper().parse(sarifFile)
    def run = sarif.runs[0]
    def ruleIds = run.tool.driver.rules*.id
    ['ClassMonitorCache', 'SynchronizedMapCache', 'ThreadAliveBusyWait', 'SharedMonitorDao', 'PerRequestHttpClient',
     'StatisticsUnderSharedLock', 'ResourceLookupUnderLock', 'ReadMostlyStateUnderLock', 'PerRequestHeavyweightObject',
     'VirtualThreadPinning'].each { id ->
        def rule = run.tool.driver.rules.find { it.id == id }
        if (rule == null) {
            failures << "SARIF has no rule ${id}"
        } else {
            // issue 24: the page's text in help.markdown, and helpUri to the copy written beside the report
            def copy = new File(basedir, "target/lockjaw/docs/${id}.md")
            if (!copy.isFile()) failures << "no copy of ${id}'s page at ${copy}"
            if (rule.helpUri == null || new File(new URI(rule.helpUri)).canonicalPath != copy.canonicalPath) {
                failures << "rule ${id} helpUri ${rule.helpUri} is not the copy ${copy.toURI()}"
            }
            if (!rule.help?.markdown?.startsWith("# ${id}")) failures << "rule ${id} has no help.markdown with its page"
        }
    }
    if (run.results.size() != expected.size()) {
        failures << "SARIF has ${run.results.size()} results, expected ${expected.size()}"
    }
    expected.each { e ->
        def r = run.results.find {
            it.ruleId == e.check && it.locations[0].physicalLocation.artifactLocation.uri.endsWith(e.file) &&
                it.locations[0].physicalLocation.region.startLine == e.line
        }
        if (r == null) {
            failures << "SARIF lacks ${e.check} at ${e.file}:${e.line}"
        } else {
            if (r.locations[0].physicalLocation.artifactLocation.uriBaseId != 'SRCROOT' ||
                    !r.locations[0].physicalLocation.artifactLocation.uri.startsWith('testdata/')) {
                failures << "SARIF location of ${e.check} is not repository-relative: ${r.locations[0].physicalLocation.artifactLocation}"
            }
            if (r.baselineState != 'new') {
                failures << "${e.check} baselineState is ${r.baselineState}"
            }
            if (e.fix != (r.fixes != null && !r.fixes.isEmpty())) {
                failures << "${e.check} at ${e.file}:${e.line} should ${e.fix ? '' : 'not '}carry a fix"
            }
        }
    }
}

if (!log.contains('(not failing: lockjaw.failOnViolation=false)')) {
    failures << 'failOnViolation=false did not report without failing'
}
if (!log.contains('lockjaw: 12 finding(s), none new at or above ERROR')) {
    failures << 'failOnSeverity=ERROR still failed on warnings'
}
if (!log.contains('lockjaw: skipped (lockjaw.skip)')) {
    failures << 'lockjaw.skip did not skip'
}
if (log.count('BUILD SUCCESS') != 3) {
    failures << "expected builds 2 to 4 to succeed, saw ${log.count('BUILD SUCCESS')} successes"
}

if (failures) {
    throw new AssertionError('plugin-check: ' + failures.join('\n  '))
}
return true
