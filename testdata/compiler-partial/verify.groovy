// Issue 17, item 19: check analyses the checks the compile does not run, and fails on their findings.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains("lockjaw: the compile of compiler-partial runs ClassMonitorCache, SynchronizedMapCache of lockjaw's checks;"
        + " lockjaw:check analyses the others: PerRequestHeavyweightObject, PerRequestHttpClient, ReadMostlyStateUnderLock, ResourceLookupUnderLock, SharedMonitorDao, StatisticsUnderSharedLock, ThreadAliveBusyWait, VirtualThreadPinning.")) {
    failures << 'check did not say which checks it analyses itself'
}
if (log.contains('its warnings are in the compile output above')) failures << 'check claimed the compile reported everything'
if (!log.contains('[SharedMonitorDao]')) failures << 'the SharedMonitorDao findings were reported nowhere'
if (!log.contains('lockjaw found 3 new finding(s) at or above WARNING in compiler-partial: SharedMonitorDao (3)')) {
    failures << 'check did not fail on the three SharedMonitorDao findings'
}
if (failures) throw new AssertionError('compiler-partial: ' + failures.join('\n  '))
return true
