// excludes, @SuppressWarnings and a check switched OFF silence their findings; a check raised
// to ERROR reports at ERROR; only Orders fails the build.
import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').getText('UTF-8')
assert !log.contains('OldRegistry.java:'), 'a finding in an excluded file was reported'
assert !log.contains('[SynchronizedMapCache]'), '@SuppressWarnings was not honoured'
assert !log.contains('[ThreadAliveBusyWait]'), 'ThreadAliveBusyWait:OFF was not honoured'
assert log =~ /Orders\.java:\d+:\d+: \[SharedMonitorDao\]/
assert log.contains('lockjaw found 2 new finding(s) at or above WARNING in plugin-excludes: SharedMonitorDao (2)')
def results = new JsonSlurper().parse(new File(basedir, 'target/lockjaw/lockjaw.sarif')).runs[0].results
assert results*.level.unique() == ['error']
return true
