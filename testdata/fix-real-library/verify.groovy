// lockjaw:fix on real library code: OGNL 2.6.9's OgnlRuntime.java from its sources jar. The two
// parameter-types caches are rewritten with the smallest diff (one import added, no other import
// moved), the file compiles against the rest of OGNL, the fixed caches pass their test, and every
// finding left names its blocker.
import java.util.zip.ZipFile

def log = new File(basedir, 'build.log').getText('UTF-8')
def fixedFile = new File(basedir, 'src/main/java/ognl/OgnlRuntime.java')
def fixed = fixedFile.getText('ISO-8859-1').readLines()
def jar = new File(localRepositoryPath, 'ognl/ognl/2.6.9/ognl-2.6.9-sources.jar')
def original
new ZipFile(jar).withCloseable { zip ->
    original = zip.getInputStream(zip.getEntry('java/ognl/OgnlRuntime.java')).getText('ISO-8859-1').readLines()
}
def failures = []

def text = fixed.join('\n')
if (!text.contains('return (Class[]) methodParameterTypesCache.computeIfAbsent(m, ')) failures << 'the method cache was not rewritten'
if (!text.contains('return (Class[]) ctorParameterTypesCache.computeIfAbsent(c, ')) failures << 'the constructor cache was not rewritten'
if (text.contains('synchronized(methodParameterTypesCache)') || text.contains('synchronized(ctorParameterTypesCache)')) {
    failures << 'a rewritten cache still takes its lock'
}
if (!text.contains('private static Map                      methodParameterTypesCache = new ConcurrentHashMap(101);')) {
    failures << 'the map declaration was not kept in the file\'s own layout'
}

// imports: exactly one new line, in the file's sorted order; no other import line moved
def imports = { lines -> lines.findAll { it.startsWith('import ') } }
def added = imports(fixed) - imports(original)
def removed = imports(original) - imports(fixed)
if (added != ['import java.util.concurrent.ConcurrentHashMap;'] || removed) {
    failures << "imports changed beyond the one the fix needs: added ${added}, removed ${removed}"
}
if (imports(fixed).findAll { it != added[0] } != imports(original)) failures << 'an existing import line moved'
def newImport = imports(fixed).indexOf('import java.util.concurrent.ConcurrentHashMap;')
if (newImport != imports(fixed).indexOf('import java.util.Set;') + 1) failures << 'the new import is not in its sorted place'

// the smallest diff: only the two fills and the two declarations change, plus the import
def changedOriginal = original - fixed
if (changedOriginal.size() > 18) failures << "${changedOriginal.size()} original lines changed; the fix should touch at most 18"

if (!log.contains('lockjaw: fixed 1 file(s) in fix-real-library; the module still compiles. 5 finding(s) have no automatic fix')) {
    failures << 'fix did not report its work: 2 fixes in one file, 5 findings left'
}
if (!(log =~ /Tests run: 3, Failures: 0, Errors: 0, Skipped: 0/)) failures << 'the fixed caches did not pass their test'

// what is left: the check lists 5 findings, and each names what blocks its fix
def checkOutput = log.substring(log.indexOf('lockjaw-maven-plugin:0.1.0-SNAPSHOT:check'))
if (!checkOutput.contains('lockjaw: SynchronizedMapCache: 5 findings')) failures << 'check did not list the 5 findings left'
def blockers = (checkOutput =~ /\(No automatic fix:/).count
if (blockers != 5) failures << "${blockers} of the 5 findings left name their blocker"
println "fix-real-library: 2 of OgnlRuntime's 7 SynchronizedMapCache findings fixed; 5 left, each with its blocker"

if (failures) throw new AssertionError('fix-real-library: ' + failures.join('\n  '))
return true
