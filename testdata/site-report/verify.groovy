// Issue 24: mvn site with lockjaw under <reporting> writes target/site/lockjaw.html, in the site's
// menu, listing the findings by check and by file with their messages, fixes and the checks' pages,
// the audit's findings by artifact, and a summary table; the findings never fail the site.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('BUILD SUCCESS')) failures << 'mvn site failed'
def page = new File(basedir, 'target/site/lockjaw.html')
if (!page.isFile()) throw new AssertionError('site-report: no target/site/lockjaw.html')
def html = page.getText('UTF-8')

// in the site's menu and its list of project reports, like the other reports
def reports = new File(basedir, 'target/site/project-reports.html')
if (!reports.isFile() || !reports.getText('UTF-8').contains('href="lockjaw.html"')) failures << 'lockjaw.html is not among the project reports'
if (!html.contains('<li class="active"><a>lockjaw</a></li>')) failures << 'the page is not rendered in the site\'s skin, with lockjaw in its menu'

// the summary: one row per check, with counts
def expected = [
    ClassMonitorCache: 1, SynchronizedMapCache: 1, SharedMonitorDao: 3, PerRequestHttpClient: 1,
    ThreadAliveBusyWait: 1, StatisticsUnderSharedLock: 1, ResourceLookupUnderLock: 1, ReadMostlyStateUnderLock: 1,
    PerRequestHeavyweightObject: 1, VirtualThreadPinning: 1,
]
if (!html.contains('<h2 id="summary">Summary</h2>')) failures << 'no summary table'
expected.each { check, count ->
    if (!html.contains("<h3 id=\"check-${check}\">${check} (${count})</h3>")) failures << "no section of ${count} ${check} finding(s)"
    def copy = new File(basedir, "target/site/lockjaw-docs/${check}.md")
    if (!copy.isFile()) failures << "the site has no copy of ${check}'s page"
    if (!html.contains("<a href=\"lockjaw-docs/${check}.md\">${check}</a>")) failures << "${check} does not link to its page"
}
// by file: each finding's file and line, linked to its entry
def rows = (html =~ /<tr><td><code>([^<]*sample-shop\/[^<]+\.java)<\/code><\/td><td class="num">(\d+)<\/td><td><a href="#F\d+">([A-Za-z]+)<\/a>/).collect { it }
if (rows.size() != 12) failures << "expected 12 findings by file, found ${rows.size()}"
def sources = new File(basedir, '../sample-shop/src/main/java/io/github/lockjaw/samples/shop').canonicalFile
def marker = [ClassMonitorCache: ['catalog/ClassInfo.java', 'synchronized (clazz) {'],
              ThreadAliveBusyWait: ['worker/FulfilmentWorkerPool.java', 'while (worker.isAlive()) {']]
marker.each { check, where ->
    def line = new File(sources, where[0]).readLines('UTF-8').findIndexOf { it.contains(where[1]) } + 1
    if (!rows.any { it[3] == check && it[1].endsWith(where[0]) && (it[2] as int) == line }) failures << "${check} is not listed at ${where[0]}:${line}"
}
// messages and fixes
if (!html.contains('ConcurrentHashMap')) failures << 'the messages are missing'
if (!html.contains('<span class="add">+    return (ClassInfo) CLASS_INFO_MAP.computeIfAbsent(clazz, k -&gt; new ClassInfo(clazz));</span>')) {
    failures << 'the ClassMonitorCache fix is not shown as a diff'
}
// the audit, by artifact
if (!html.contains('<h2 id="audit">Dependencies (lockjaw:audit)</h2>')) failures << 'no audit section'
if (!(html =~ /<h3>commons-pool:commons-pool:1\.3 \(\d+\)<\/h3>/)) failures << 'commons-pool 1.3 is not listed in the audit'
if (!(html =~ /<h3>commons-dbcp:commons-dbcp:1\.2\.2 \(\d+\)<\/h3>/)) failures << 'commons-dbcp 1.2.2 is not listed in the audit'
if (!html.contains('GenericObjectPool.borrowObject()')) failures << 'the audit does not name GenericObjectPool.borrowObject()'
if (failures) throw new AssertionError('site-report: ' + failures.join('\n  '))
return true
