// lockjaw:fix applied each fix in place, printed it, and the fixed module passes check.
def log = new File(basedir, 'build.log').getText('UTF-8')
def source = { name -> new File(basedir, "src/main/java/shop/${name}.java").getText('UTF-8') }
def failures = []
if (!source('EntityInfo').contains('return INFOS.computeIfAbsent(type, EntityInfo::new);')) failures << 'EntityInfo not fixed (or not with a constructor reference)'
if (!(source('EntityInfo') =~ /return LABELS\.computeIfAbsent\(code, \w+ -> new StringBuilder\("code-" \+ code\)\);/)) {
    failures << 'the second fix in EntityInfo was not applied in a second pass'
}
if (source('EntityInfo').contains('synchronized') || source('EntityInfo').contains('import java.util.HashMap;')) {
    failures << 'EntityInfo still locks, or keeps an unused import'
}
if (!source('Exporter').contains('export.join();') || source('Exporter').contains('isAlive')) failures << 'Exporter not fixed'
if (!source('StockClient').contains('private static final HttpClient HTTP_CLIENT')) failures << 'StockClient not fixed'
if (!log.contains('lockjaw: fixed 3 file(s) in plugin-fix; the module still compiles.')) failures << 'fix goal did not report its work'
if (!log.contains('fixed src/main/java/shop/Exporter.java') && !log.contains('Exporter.java:8 [ThreadAliveBusyWait]')) {
    failures << 'fix goal did not name what it changed'
}
if (!log.contains('lockjaw: no findings in plugin-fix')) failures << 'check did not pass after the fix'
if (new File(basedir, 'src/main/java/shop').listFiles().any { it.name.contains('lockjaw-tmp') }) failures << 'temporary files left behind'
if (failures) throw new AssertionError('plugin-fix: ' + failures.join('\n  '))
return true
