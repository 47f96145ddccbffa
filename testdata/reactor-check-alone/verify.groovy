// Issue 17, item 16: mvn lockjaw:check alone in a reactor.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('lockjaw cannot analyse catalog yet: it depends on model of this build, which is not compiled.'
        + ' Run the goal after the compile, as with spotbugs:check and pmd:check: mvn compile lockjaw:check')) {
    failures << 'without compiled modules, check did not say to add compile'
}
if (log.contains('Could not resolve dependencies')) failures << "Maven's resolution failed before lockjaw could help"
if (!log.contains('lockjaw: no findings in model')) failures << 'model was not analysed, or not found clean'
if (!log.contains('lockjaw found 1 new finding(s) at or above WARNING in catalog: SynchronizedMapCache (1)')) {
    failures << 'catalog was not analysed against the compiled model'
}
if (failures) throw new AssertionError('reactor-check-alone: ' + failures.join('\n  '))
return true
