// lockjaw:fix on real library code: XStream 1.3.1's PropertyDictionary.java and
// SerializationMethodInvoker.java from its sources jar. Each fills a synchronizedMap cache with more
// than one computeIfAbsent can take, so the fix changes only the map's declaration to a
// ConcurrentHashMap and keeps every other line; the files compile against the rest of XStream, and
// the fixed caches pass their test.
import java.util.zip.ZipFile

def log = new File(basedir, 'build.log').getText('UTF-8')
def jar = new File(localRepositoryPath, 'com/thoughtworks/xstream/xstream/1.3.1/xstream-1.3.1-sources.jar')
def failures = []

def compare = { String path, String declaration, List expectedAdded, List expectedRemoved ->
    def fixed = new File(basedir, 'src/main/java/' + path).getText('ISO-8859-1').readLines()
    def original
    new ZipFile(jar).withCloseable { zip ->
        original = zip.getInputStream(zip.getEntry(path)).getText('ISO-8859-1').readLines()
    }
    def added = fixed - original
    def removed = original - fixed
    // the smallest diff: the declaration, the new import, and imports the change left unused
    if (added.sort() != ([declaration] + expectedAdded).sort()) {
        failures << "${path}: lines added ${added}, expected the declaration and ${expectedAdded}"
    }
    if (removed.size() != 1 + expectedRemoved.size() || !removed.containsAll(expectedRemoved)) {
        failures << "${path}: lines removed ${removed}"
    }
    def imports = { lines -> lines.findAll { it.startsWith('import ') } }
    if (imports(fixed).findAll { !expectedAdded.contains(it) } != imports(original).findAll { !expectedRemoved.contains(it) }) {
        failures << "${path}: an existing import line moved"
    }
}
compare('com/thoughtworks/xstream/converters/javabean/PropertyDictionary.java',
        '    private final Map keyedByPropertyNameCache = new ConcurrentHashMap();',
        ['import java.util.concurrent.ConcurrentHashMap;'], [])
compare('com/thoughtworks/xstream/converters/reflection/SerializationMethodInvoker.java',
        '    private Map cache = new ConcurrentHashMap();',
        ['import java.util.concurrent.ConcurrentHashMap;'],
        ['import java.util.Collections;', 'import java.util.HashMap;'])

if (!log.contains('lockjaw: fixed 2 file(s) in fix-real-swap; the module still compiles.')) {
    failures << 'fix did not report its work: 2 files fixed'
}
if (!(log =~ /Tests run: 3, Failures: 0, Errors: 0, Skipped: 0/)) failures << 'the fixed caches did not pass their test'
def checkOutput = log.substring(log.indexOf('lockjaw-maven-plugin:0.1.0-SNAPSHOT:check'))
if (checkOutput.contains('SynchronizedMapCache')) failures << 'check still reports a SynchronizedMapCache finding after the fix'
println "fix-real-swap: XStream 1.3.1's 2 SynchronizedMapCache findings fixed by the declaration alone"

if (failures) throw new AssertionError('fix-real-swap: ' + failures.join('\n  '))
return true
