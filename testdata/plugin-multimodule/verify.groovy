// Each module is analysed on its own: model passes, catalog fails on its one finding.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('lockjaw: no findings in model')) failures << 'model was not analysed, or not found clean'
if (!(log =~ /(?m)^\[WARNING\] \S*catalog\/src\/main\/java\/shop\/catalog\/Catalog\.java:12:\d+: \[SynchronizedMapCache\]/)) {
    failures << 'catalog finding missing'
}
if (!log.contains('lockjaw found 1 new finding(s) at or above WARNING in catalog: SynchronizedMapCache (1)')) {
    failures << 'catalog did not fail with its finding'
}
if (!new File(basedir, 'model/target/lockjaw/lockjaw.sarif').isFile()) failures << 'model has no SARIF report'
if (!new File(basedir, 'catalog/target/lockjaw/lockjaw.sarif').isFile()) failures << 'catalog has no SARIF report'
if (failures) throw new AssertionError('plugin-multimodule: ' + failures.join('\n  '))
return true
