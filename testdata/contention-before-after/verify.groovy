// The load test ran under JFR before and after lockjaw:fix fixed the Class-locked cache.
// lockjaw:contention named the DAO's holder in its socket read, marked the cache better or gone and
// nothing new or worse (run 4), failed the gate on the DAO's monitor (run 5) and on the cache as a
// regression the other way round (run 6); contention.html renders in a browser, bars matching the
// table.
import io.github.lockjaw.engine.report.html.HeadlessChromium
import io.github.lockjaw.it.LockjawSarif

def log = new File(basedir, 'build.log').getText('UTF-8')
def runs = log.split(/\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('BUILD ') }
def failures = []
if (runs.size() != 6) throw new AssertionError("expected 6 Maven runs in build.log, found ${runs.size()}")
['before.jfr', 'after.jfr'].each { if (!new File(basedir, it).isFile()) failures << "the load test wrote no ${it}" }

def catalog = new File(basedir, 'src/main/java/shop/ProductCatalog.java').getText('UTF-8')
if (!catalog.contains('computeIfAbsent') || catalog.contains('synchronized')) failures << 'lockjaw:fix did not fix the cache'
if (!new File(basedir, 'src/main/java/shop/OrderDao.java').getText('UTF-8').contains('public synchronized String find')) {
    failures << 'the DAO was changed, though its check was off'
}

def compared = runs[3]
if (!compared.contains('BUILD SUCCESS')) failures << 'the comparison run failed'
if (!compared.contains('lockjaw: the contention gate passed.')) failures << 'the regression gate did not pass after the fix'
def find = compared.readLines().find { it =~ /\s1\s.*OrderDao\.find\(OrderDao\.java:\d+\)/ }
if (!find || !find.endsWith('SharedMonitorDao')) failures << "the DAO's lookups are not first, tied to SharedMonitorDao: ${find}"
if (find && (find.contains(' new (') || find.contains(' worse ('))) failures << "the DAO is new or worse: ${find}"
if (!(compared =~ /Held by: socket read \(Socket[$]SocketInputStream\.read\) in OrderDao\.statement\(OrderDao\.java:\d+\) < OrderDao\.(find|save)/)) {
    failures << "the DAO's holder in its socket read is not named"
}
def cacheGone = compared =~ /ProductCatalog\.describe\(ProductCatalog\.java:\d+\) \[ClassMonitorCache\]: gone \(/
def cacheRow = compared.readLines().find { it =~ /\s\d+\s.*ProductCatalog\.describe\(/ }
if (!cacheGone && !(cacheRow && cacheRow.contains(' better ('))) failures << "the cache is neither gone nor better: ${cacheRow}"
if (compared.contains('monitor enter: ProductCatalog.class')) failures << 'the Class monitor is still waited on'
def journal = compared.readLines().find { it =~ /\s\d+\s.*Journal\.append\(Journal\.java:\d+\)/ }
if (!journal || !journal.endsWith('no finding') || !journal.contains('lock park: ReentrantLock.lock')) failures << "the journal's lock: ${journal}"

def gate = runs[4]
if (!gate.contains('BUILD FAILURE') || !gate.contains("lockjaw's contention gate failed")) failures << 'the share gate did not fail the build'
if (!(gate =~ /OrderDao\.find\(OrderDao\.java:\d+\) \(SharedMonitorDao\) blocked threads for \d+% of the recording, above the limit of 50%/)) {
    failures << 'the share gate does not name the DAO'
}
def reverse = runs[5]
if (!reverse.contains('BUILD FAILURE') || !(reverse =~ /ProductCatalog\.describe\(ProductCatalog\.java:\d+\) is worse \(/)) {
    failures << 'the Class-locked cache was not a regression against the fixed run'
}

def target = new File(basedir, 'target/lockjaw')
def md = new File(target, 'contention.md')
if (!md.isFile() || !md.getText('UTF-8').contains('## Gone since the baseline') && !md.getText('UTF-8').contains('better (')) {
    failures << 'contention.md lacks the comparison'
}
def sarif = new File(target, 'contention.sarif')
if (!sarif.isFile()) failures << 'no contention.sarif' else failures.addAll(LockjawSarif.problems(sarif).findAll { !it.contains('not relative') })
def html = new File(target, 'contention.html')
if (!html.isFile()) {
    failures << 'no contention.html'
} else {
    def chromium = HeadlessChromium.find()
    if (chromium.isPresent()) {
        failures.addAll(chromium.get().checkChartAgainstTable(html.toPath(), 'blocked', new File(target, 'contention.png').toPath()))
        def dom = chromium.get().dumpDom(html.toPath())
        if (!dom.contains('Compared with the baseline')) failures << 'the page has no comparison'
        if (!dom.contains('at java.net.Socket$SocketInputStream.read(')) failures << "the page lacks the holder's frames"
        if (!(dom =~ /<span class="del">-\s+public synchronized String find\(int id\) \{<\/span>/)) failures << "the page lacks the DAO finding's fix diff"
    } else if (System.getProperty(HeadlessChromium.REQUIRE_PROPERTY) != null) {
        failures << HeadlessChromium.MISSING
    } else {
        println "contention-before-after: ${HeadlessChromium.MISSING}"
    }
}
if (failures) throw new AssertionError('contention-before-after: ' + failures.join('\n  '))
return true
