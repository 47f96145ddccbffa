// Issue 17, items 5 and 12: an unreadable jar is named by check and audit; a named baseline must exist.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('lockjaw cannot analyse corrupt-jar: this jar cannot be read (not a valid jar or zip file):')) {
    failures << 'check did not say the jar cannot be read'
}
if (!log.contains('lockjaw cannot audit the dependencies of corrupt-jar: this jar cannot be read')) {
    failures << 'audit did not say the jar cannot be read'
}
if (!log.contains('com/example/broken/1.0/broken-1.0.jar (')) failures << 'the jar was not named'
if (log.contains('please report this') || log.contains('NullPointerException')) failures << 'a crash reached the user'
if (log.contains('no findings in corrupt-jar')) failures << 'a jar that could not be read was reported clean'
if (!log.contains('baselines/missing.json, which does not exist')) failures << 'a missing named baseline was ignored'
if (failures) throw new AssertionError('corrupt-jar: ' + failures.join('\n  '))
return true
