def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('lockjaw cannot analyse not-compiling: its sources do not compile')
assert log =~ /Broken\.java:5: cannot find symbol/
assert log.contains('lockjaw analyses only code that compiles')
return true
