def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('BUILD SUCCESS')
assert log.contains('lockjaw: no Java sources in no-sources; nothing to analyse.')
return true
