def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains("lockjaw's baseline")
assert log.contains('is not a valid baseline file')
assert log.contains("Regenerate it with 'mvn lockjaw:baseline'")
return true
