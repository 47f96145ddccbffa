// Checks the log of `mvn clean compile` on the sample shop: each lockjaw warning we expect is
// there, on the right file and line, and no other Error Prone check fired.
//
// To add a finding: add a row below. 'marker' is text found only on the flagged line of 'file'.

def expected = [
    [check: 'ClassMonitorCache',    file: 'catalog/ClassInfo.java',      marker: 'synchronized (clazz) {',
     says: 'ConcurrentHashMap'],
    [check: 'SynchronizedMapCache', file: 'catalog/ProductCatalog.java', marker: 'public synchronized Product findBySku(',
     says: 'computeIfAbsent'],
    [check: 'SharedMonitorDao',     file: 'dao/ProductDao.java',          marker: 'public synchronized Product loadProduct(',
     says: 'let the connection pool handle concurrency'],
    [check: 'SharedMonitorDao',     file: 'dao/ProductDao.java',          marker: 'public synchronized List<Product> listByCategory(',
     says: 'let the connection pool handle concurrency'],
    [check: 'SharedMonitorDao',     file: 'dao/ProductDao.java',          marker: 'public synchronized boolean reserveStock(',
     says: 'let the connection pool handle concurrency'],
    [check: 'PerRequestHttpClient', file: 'payment/PaymentClient.java',   marker: 'HttpClient client = HttpClient.newHttpClient();',
     says: 'share it'],
    [check: 'ThreadAliveBusyWait',  file: 'worker/FulfilmentWorkerPool.java', marker: 'while (worker.isAlive()) {',
     says: 'worker.join()'],
    [check: 'StatisticsUnderSharedLock', file: 'web/RequestStatsFilter.java', marker: 'synchronized (this) {',
     says: 'LongAdder'],
    [check: 'ResourceLookupUnderLock', file: 'web/AssetHandler.java',     marker: 'synchronized (ASSET_LOCK) {',
     says: 'ConcurrentHashMap'],
    [check: 'ReadMostlyStateUnderLock', file: 'catalog/PricingRules.java', marker: 'public synchronized Map<String, BigDecimal> getDiscounts()',
     says: 'volatile'],
    [check: 'PerRequestHeavyweightObject', file: 'web/OrderExportHandler.java', marker: 'XMLOutputFactory.newInstance()',
     says: 'Keep one XMLOutputFactory'],
    [check: 'VirtualThreadPinning', file: 'worker/LabelPrinter.java', marker: 'synchronized (printerLock) {',
     says: 'ReentrantLock'],
]

def sources = new File(basedir, 'src/main/java/io/github/lockjaw/samples/shop')
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []

if (!log.contains('BUILD SUCCESS')) {
    failures << 'the build did not succeed'
}
if (log.contains('An unhandled exception was thrown by the Error Prone')) {
    failures << 'a check threw an exception'
}

// Every Error Prone diagnostic in the log: "<path>.java:[line,column] [CheckName] message".
// (javac's own lint warnings use lower-case keys such as [unchecked]; Error Prone checks are
// UpperCamelCase.)
def diagnostic = ~/(?m)^\[(?:WARNING|ERROR)\] (.+?\.java):\[(\d+),(\d+)\] \[([A-Z][A-Za-z0-9]*)\] (.*)$/
def found = []
(log =~ diagnostic).each { all, path, line, column, check, message ->
    found << [path: path.replace('\\', '/'), line: line as int, check: check, message: message]
}

expected.each { e ->
    def source = new File(sources, e.file)
    def lines = source.readLines('UTF-8')
    def hits = lines.findIndexValues { it.contains(e.marker) }
    if (hits.size() != 1) {
        failures << "marker '${e.marker}' must occur exactly once in ${e.file}, found ${hits.size()}"
        return
    }
    int line = (hits[0] as int) + 1
    def matching = found.findAll { it.check == e.check && it.path.endsWith('/' + e.file) && it.line == line }
    if (matching.size() != 1) {
        failures << "expected one [${e.check}] warning at ${e.file}:${line} (${e.marker.trim()}), found ${matching.size()}"
    } else if (!matching[0].message.contains(e.says)) {
        failures << "[${e.check}] at ${e.file}:${line} should name the fix '${e.says}': ${matching[0].message}"
    } else {
        println "found [${e.check}] at ${e.file}:${line}"
    }
}

def unexpected = found.findAll { f ->
    !expected.any { e -> f.check == e.check && f.path.endsWith('/' + e.file) }
}
unexpected.each { failures << "unexpected [${it.check}] at ${it.path}:${it.line}: ${it.message}" }
if (found.size() != expected.size()) {
    failures << "expected ${expected.size()} Error Prone diagnostics, found ${found.size()}"
}

if (!log.contains("lockjaw: the compile of sample-shop already runs lockjaw's checks")) {
    failures << 'lockjaw:check did not recognise the compiler integration'
}

if (failures) {
    throw new AssertionError('sample-shop: ' + failures.join('\n  '))
}
return true
