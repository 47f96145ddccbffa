def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains("lockjaw has no check named 'ClassMonitorCahce'")
assert log.contains('The checks are: ClassMonitorCache, PerRequestHeavyweightObject, PerRequestHttpClient, ReadMostlyStateUnderLock, ResourceLookupUnderLock, SharedMonitorDao, StatisticsUnderSharedLock, SynchronizedMapCache, ThreadAliveBusyWait, VirtualThreadPinning.')
assert !log.contains('Exception in thread')
return true
